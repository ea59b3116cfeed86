// The list of the plants (GET on the collection): the stored plants in the
// order created, each as the create answered it, as the declared success
// schema shapes them: an array of Plant, or a page object whose one array
// property holds them (with its `next`-like cursor where it declares one).
// Its query parameters do what their names say (docs/server.md, "Every
// operation", each rule with its switch, PLANTSTORE_INFER):
//
//   limit, max, size, pageSize, page_size, per_page, count, top, first
//                                        integer: at most that many plants
//   offset, skip, start                  integer: leave out that many first
//   cursor, after, page_token, pageToken, next
//                                        continue after the page that gave it
//   a Plant property's name (tag)        only the plants whose property equals it
//
// Every page is bounded as GET /__admin/plants's is (MAX_PLANTS_PAGE plants,
// PLANTS_PAGE_BYTES), and a filtered page judges at most LIST_MAX_EXAMINED
// plants and LIST_MAX_EXAMINED_BYTES of them: its work is bounded whatever
// the store holds, however large its plants.
import type { OpenApiDocument } from '../../spec/openapi.js';
import { isSchemaObject } from '../../spec/schema-keywords.js';
import { NonIntegralNumber, parseJson, type JsonObject, type JsonValue } from '../json.js';
import {
  DEFAULT_PLANTS_PAGE,
  LIST_MAX_EXAMINED,
  LIST_MAX_EXAMINED_BYTES,
  MAX_PLANTS_PAGE,
  PLANTS_PAGE_BYTES,
} from '../limits.js';
import type { OperationHandler } from '../pipeline.js';
import { jsonText, type PlantPage, type PlantStore } from '../store.js';
import type { PlantShape } from '../validation.js';
import type { SuccessAnswer } from './item.js';
import type { ParameterRule } from './parameters.js';
import { madeValue } from './schema-example.js';

/** Which rules of the list's parameters apply (PLANTSTORE_INFER); each on by default. */
export interface ListInference {
  limit: boolean;
  offset: boolean;
  cursor: boolean;
  filter: boolean;
}

const LIMIT_NAMES = new Set(['limit', 'max', 'size', 'pagesize', 'page_size', 'per_page', 'count', 'top', 'first']);
const OFFSET_NAMES = new Set(['offset', 'skip', 'start']);
const CURSOR_NAMES = new Set(['cursor', 'after', 'page_token', 'pagetoken', 'next']);
/** The page object's property that carries the following page's cursor. */
const NEXT_NAMES = new Set([
  'next',
  'nextcursor',
  'next_cursor',
  'nextpagetoken',
  'next_page_token',
  'nexttoken',
  'next_token',
  'cursor',
]);

type ListShape =
  | { kind: 'array' }
  | {
      kind: 'page';
      /** The array property that holds the plants. */
      items: string;
      /** The cursor property: null on the last page where its schema allows null, else left out there. */
      next?: { name: string; nullable: boolean; integer: boolean };
      /** Other required properties, made from their schemas. */
      extras: Record<string, JsonValue>;
    };

export interface ListRules {
  limit?: string;
  /** Plants a page holds when no limit is given: the limit's `default`, else DEFAULT_PLANTS_PAGE. */
  defaultLimit: number;
  offset?: string;
  cursor?: string;
  filters: string[];
  /** Query parameters that are checked but do nothing. */
  unused: string[];
  shape: ListShape;
}

/** The rules of the list, from its parameters and its success schema; why not, when the schema holds no list of plants. */
export function listRules(
  doc: OpenApiDocument,
  successSchema: unknown,
  parameters: readonly ParameterRule[],
  plant: PlantShape,
  inference: ListInference,
): ListRules | { unanswerable: string } {
  const shape = listShape(doc, successSchema);
  if ('unanswerable' in shape) return shape;
  const rules: ListRules = { defaultLimit: DEFAULT_PLANTS_PAGE, filters: [], unused: [], shape };
  for (const parameter of parameters) {
    if (parameter.in !== 'query') continue;
    const name = parameter.name.toLowerCase();
    const integer = parameter.types.has('integer');
    if (inference.limit && rules.limit === undefined && integer && LIMIT_NAMES.has(name)) {
      rules.limit = parameter.name;
      const fallback = parameter.schema.default;
      if (typeof fallback === 'number' && Number.isInteger(fallback) && fallback > 0)
        rules.defaultLimit = Math.min(fallback, MAX_PLANTS_PAGE);
    } else if (inference.offset && rules.offset === undefined && integer && OFFSET_NAMES.has(name)) {
      rules.offset = parameter.name;
    } else if (
      inference.cursor &&
      rules.cursor === undefined &&
      (integer || parameter.types.has('string')) &&
      CURSOR_NAMES.has(name)
    ) {
      rules.cursor = parameter.name;
    } else if (
      inference.filter &&
      plant.keeps(parameter.name) &&
      !parameter.types.has('array') &&
      !parameter.types.has('object')
    ) {
      rules.filters.push(parameter.name);
    } else {
      rules.unused.push(parameter.name);
    }
  }
  return rules;
}

function listShape(doc: OpenApiDocument, schema: unknown): ListShape | { unanswerable: string } {
  const resolved = resolved$ref(doc, schema);
  if (!isSchemaObject(resolved)) return { unanswerable: 'its success answer declares no JSON schema' };
  if (isArraySchema(resolved)) return { kind: 'array' };
  const properties = isSchemaObject(resolved.properties) ? resolved.properties : {};
  const arrays = Object.keys(properties).filter((name) => isArraySchema(resolved$ref(doc, properties[name])));
  if (arrays.length !== 1)
    return {
      unanswerable: `its success answer is neither an array nor an object with one array property (it has ${arrays.length})`,
    };
  const items = arrays[0]!;
  const required = new Set(Array.isArray(resolved.required) ? (resolved.required as string[]) : []);
  const nextName = Object.keys(properties).find((name) => name !== items && NEXT_NAMES.has(name.toLowerCase()));
  const extras: Record<string, JsonValue> = {};
  for (const name of required) {
    if (name === items || name === nextName) continue;
    const made = madeValue(doc, properties[name], { members: 'required' });
    if (made === undefined || 'spent' in made)
      return {
        unanswerable: `no value could be made for its required property ${name}${made === undefined ? '' : ` (it ${made.spent})`}`,
      };
    extras[name] = made.value;
  }
  if (nextName === undefined) return { kind: 'page', items, extras };
  const next = resolved$ref(doc, properties[nextName]);
  const types = isSchemaObject(next)
    ? Array.isArray(next.type)
      ? (next.type as string[])
      : typeof next.type === 'string'
        ? [next.type]
        : []
    : [];
  return {
    kind: 'page',
    items,
    extras,
    next: {
      name: nextName,
      nullable: types.length === 0 || types.includes('null'),
      integer: types.includes('integer') && !types.includes('string'),
    },
  };
}

function isArraySchema(schema: unknown): boolean {
  return (
    isSchemaObject(schema) &&
    (schema.type === 'array' ||
      (Array.isArray(schema.type) && schema.type.includes('array')) ||
      (schema.type === undefined && 'items' in schema))
  );
}

function resolved$ref(doc: OpenApiDocument, schema: unknown): unknown {
  for (let depth = 0; isSchemaObject(schema) && typeof schema.$ref === 'string' && depth < 16; depth++) {
    const ref = schema.$ref;
    schema = ref.startsWith('#/components/schemas/')
      ? doc.components.schemas[
          decodeURIComponent(ref.slice('#/components/schemas/'.length)).replace(/~1/g, '/').replace(/~0/g, '~')
        ]
      : undefined;
  }
  return schema;
}

interface ListQuery {
  after: number;
  limit: number;
  skip: number;
  match: ((json: string) => boolean) | undefined;
  /** Nothing to list: a limit of 0 or below, or a cursor this server did not give. */
  empty: boolean;
}

/** The list's handler steps: the query read from the checked parameters, a page of the store, the answer's JSON text made of the stored texts. */
export function listHandler(
  rules: ListRules,
  store: PlantStore,
  success: SuccessAnswer,
): OperationHandler<ListQuery, PlantPage> {
  return {
    schema(request) {
      const query = request.parameterValues?.query ?? {};
      const given = (name: string | undefined) => (name === undefined ? undefined : query[name]);
      const limit = wholeNumber(given(rules.limit)) ?? rules.defaultLimit;
      const cursor = given(rules.cursor);
      const after = cursor === undefined ? 0 : cursorSeq(cursor);
      const filters = rules.filters
        .filter((name) => query[name] !== undefined)
        .map((name) => [name, query[name]!] as const);
      return {
        after: after ?? 0,
        limit: Math.min(limit, MAX_PLANTS_PAGE),
        skip: Math.max(0, wholeNumber(given(rules.offset)) ?? 0),
        match: filters.length === 0 ? undefined : matching(filters),
        empty: limit <= 0 || after === undefined,
      };
    },
    store: ({ after, limit, skip, match, empty }) =>
      empty
        ? { plants: [], next: null }
        : store.list(after, limit, PLANTS_PAGE_BYTES, {
            skip,
            match,
            maxExamined: match === undefined ? undefined : LIST_MAX_EXAMINED,
            maxExaminedBytes: match === undefined ? undefined : LIST_MAX_EXAMINED_BYTES,
          }),
    answer(_query, page, reply) {
      const plants = `[${page.plants.map(({ json }) => json).join(',')}]`;
      reply.code(success.status).type(success.contentType ?? 'application/json; charset=utf-8');
      return reply.send(
        rules.shape.kind === 'array'
          ? plants
          : pageText(rules.shape, plants, rules.cursor === undefined ? null : page.next),
      );
    },
  };
}

function pageText(shape: Extract<ListShape, { kind: 'page' }>, plants: string, next: number | null): string {
  const members = [`${JSON.stringify(shape.items)}:${plants}`];
  if (shape.next !== undefined && (next !== null || shape.next.nullable)) {
    members.push(
      `${JSON.stringify(shape.next.name)}:${next === null ? 'null' : shape.next.integer ? String(next) : JSON.stringify(String(next))}`,
    );
  }
  for (const [name, value] of Object.entries(shape.extras)) members.push(`${JSON.stringify(name)}:${jsonText(value)}`);
  return `{${members.join(',')}}`;
}

/** A cursor this server gave (a page's seq, as text or number); undefined for any other value. */
function cursorSeq(value: JsonValue): number | undefined {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  return text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

/** An integer parameter's value as a number, clamped to the safe integers; undefined when absent. */
function wholeNumber(value: JsonValue | undefined): number | undefined {
  if (typeof value === 'bigint') return value > 0n ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
  return typeof value === 'number' ? value : undefined;
}

/** A plant's text matches when each filter's property equals its value (numbers by value: 5 and 5.0 are one). */
function matching(filters: ReadonlyArray<readonly [string, JsonValue]>): (json: string) => boolean {
  // A string value is written in the stored text as JSON.stringify writes it: a text without it cannot match.
  const needles = filters.filter(([, value]) => typeof value === 'string').map(([, value]) => JSON.stringify(value));
  return (json) => {
    if (!needles.every((needle) => json.includes(needle))) return false;
    const plant = parseJson(json) as JsonObject;
    return filters.every(([name, value]) => Object.hasOwn(plant, name) && sameValue(plant[name]!, value));
  };
}

function sameValue(stored: JsonValue, wanted: JsonValue): boolean {
  const numeric = (v: JsonValue) => typeof v === 'number' || typeof v === 'bigint' || v instanceof NonIntegralNumber;
  if (numeric(stored) && numeric(wanted)) {
    const integral = (v: JsonValue) => typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
    if (integral(stored) && integral(wanted))
      return BigInt(stored as number | bigint) === BigInt(wanted as number | bigint);
    return (
      Number(stored instanceof NonIntegralNumber ? stored.numeral : stored) ===
      Number(wanted instanceof NonIntegralNumber ? wanted.numeral : wanted)
    );
  }
  return stored === wanted;
}
