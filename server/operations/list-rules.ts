// What a list's parameters and its answer say, read from the document
// (docs/server.md, "The list's parameters", each rule with its switch,
// PLANTSTORE_INFER): which query parameter bounds the page, skips, numbers
// the pages, continues after a cursor, filters, sorts; the answer's shape
// (an array, or a page object whose one array property holds the items,
// with its cursor member, at the top or one object down); and the headers
// it declares (Link, a total count). The names are lib/list-parameters.ts's,
// the one table the harness reads lists by too.
import { isListParameterNamed, isNextMemberNamed, type ListParameterRole } from '../../lib/list-parameters.js';
import { resolveReference, type OpenApiDocument, type ResponseObject } from '../../spec/openapi.js';
import { isSchemaObject } from '../../spec/schema-keywords.js';
import type { JsonValue } from '../json/json.js';
import { DEFAULT_PLANTS_PAGE, MAX_PLANTS_PAGE } from '../limits.js';
import type { PlantShape } from '../http/validation.js';
import type { ParameterRule } from './parameters.js';
import { madeValue } from './schema-example.js';
import { sortRule, type SortRule } from './list-sort.js';

/** Which rules of the list's parameters and headers apply (PLANTSTORE_INFER); each on by default. */
export interface ListInference {
  limit: boolean;
  offset: boolean;
  page: boolean;
  cursor: boolean;
  filter: boolean;
  sort: boolean;
  total: boolean;
}

/** Response headers that carry the number of items a list holds. */
const TOTAL_HEADERS = new Set(['x-total-count', 'total-count', 'x-total']);

/** The cursor member: its path in the page object (one or two names), whether it is null on the last page, its type. */
export interface NextMember {
  path: string[];
  nullable: boolean;
  integer: boolean;
}

export type ListShape =
  | { kind: 'array' }
  | {
      kind: 'page';
      /** The array property that holds the items. */
      items: string;
      /** The object member the items' array is in: HAL's `_embedded` (draft-kelly-json-hal §4.1.2); else the top. */
      within?: string;
      /** The page object declares HAL's `_links` (§4.1.1): it carries `self`, and `next` while a page follows. */
      hal?: boolean;
      next?: NextMember;
      /** Other required members, made from their schemas (of the page object, and of the object holding the cursor). */
      extras: Record<string, JsonValue>;
      nestedExtras: Record<string, JsonValue>;
    };

export interface ListRules {
  limit?: string;
  /** Items a page holds when no limit is given: the limit's `default`, else DEFAULT_PLANTS_PAGE. */
  defaultLimit: number;
  offset?: string;
  /** A page number, and the number of the first page. */
  page?: { name: string; first: number };
  cursor?: string;
  /** Query parameters that keep the items whose member equals the value (one of the values, for an array). */
  filters: string[];
  sort?: SortRule;
  /** Query parameters that are checked but do nothing. */
  unused: string[];
  shape: ListShape;
  /** The answer's headers the server sends: `Link` (RFC 8288) with rel="next", and the total count's name. */
  link: boolean;
  /** The relations besides `next` the Link's declaration names (its description, its schema): `first`, `prev`, `last`. */
  relations: ReadonlySet<LinkRelation>;
  total?: string;
  /** Headers the answer declares that the server does not send. */
  unsentHeaders: string[];
  /** Why the HAL page's next link is not sent, where the page declares `_links` and cannot continue. */
  unsentHalNext?: string;
}

/** HAL's reserved members (draft-kelly-json-hal §4.1.1, §4.1.2). */
const HAL_LINKS = '_links';
const HAL_EMBEDDED = '_embedded';

/** The rules of the list, from its parameters and its success answer; why not, when the answer holds no list of items. */
export function listRules(
  doc: OpenApiDocument,
  success: { schema: unknown; response: ResponseObject | undefined },
  parameters: readonly ParameterRule[],
  item: PlantShape,
  inference: ListInference,
): ListRules | { unanswerable: string } {
  const shape = listShape(doc, success.schema);
  if ('unanswerable' in shape) return shape;
  const rules: ListRules = {
    defaultLimit: DEFAULT_PLANTS_PAGE,
    filters: [],
    unused: [],
    shape,
    link: false,
    relations: new Set(),
    unsentHeaders: [],
  };
  if (inference.sort)
    for (const parameter of parameters)
      rules.sort ??= parameter.in === 'query' ? sortRule(parameter, parameters) : undefined;
  const inQuery = parameters
    .filter((parameter) => parameter.in === 'query')
    .flatMap((parameter): QueryPart[] =>
      parameter.deepObject ? deepObjectMembers(parameter) : [{ ...parameter, key: parameter.name }],
    );
  for (const parameter of inQuery) {
    const name = parameter.name.toLowerCase();
    const integer = parameter.types.has('integer');
    const named = (role: ListParameterRole) =>
      isListParameterNamed(role, name) ||
      (parameter.within !== undefined && isListParameterNamed(role, `${parameter.within}_${name}`));
    if (rules.sort !== undefined && (rules.sort.name === parameter.name || rules.sort.direction === parameter.name)) {
      // The sort, and its direction: read together (list-sort.ts).
    } else if (inference.limit && rules.limit === undefined && integer && named('limit')) {
      rules.limit = parameter.key;
      const fallback = parameter.schema.default;
      if (typeof fallback === 'number' && Number.isInteger(fallback) && fallback > 0)
        rules.defaultLimit = Math.min(fallback, MAX_PLANTS_PAGE);
    } else if (inference.offset && rules.offset === undefined && integer && named('offset')) {
      rules.offset = parameter.key;
    } else if (inference.page && rules.page === undefined && integer && named('page')) {
      rules.page = { name: parameter.key, first: firstPage(parameter.schema) };
    } else if (
      inference.cursor &&
      rules.cursor === undefined &&
      (integer || parameter.types.has('string')) &&
      named('cursor')
    ) {
      rules.cursor = parameter.key;
    } else if (
      inference.filter &&
      parameter.within === undefined &&
      item.keeps(parameter.name) &&
      filterable(parameter)
    ) {
      rules.filters.push(parameter.name);
    } else {
      rules.unused.push(parameter.key);
    }
  }
  if (shape.kind === 'page' && shape.hal && rules.cursor === undefined && rules.page === undefined && !rules.offset)
    rules.unsentHalNext =
      'the document declares no cursor, page number or offset parameter to write its next page with: every page has only its self link';
  for (const [header, declared] of Object.entries(success.response?.headers ?? {})) {
    const lower = header.toLowerCase();
    if (lower === 'link' && (rules.cursor !== undefined || rules.page !== undefined || rules.offset !== undefined)) {
      rules.link = true;
      rules.relations = relationsOf(resolveReference(doc, declared, '#').value);
    } else if (inference.total && TOTAL_HEADERS.has(lower) && rules.total === undefined) rules.total = header;
    else if (
      lower !== 'etag' &&
      lower !== 'location' &&
      isSchemaObject(resolveReference(doc, declared, '#').value) &&
      (resolveReference(doc, declared, '#').value as { required?: unknown }).required === true
    )
      rules.unsentHeaders.push(header);
  }
  return rules;
}

/** A query parameter as the list reads it: a parameter, or a member of a deepObject one (`page[size]`). */
interface QueryPart {
  /** The name its value has in the query values: the parameter's, or `parameter[member]`. */
  key: string;
  /** Its own name: the parameter's, or the member's. */
  name: string;
  /** The deepObject parameter it is a member of: `page[size]` is named as `page_size` too. */
  within?: string;
  types: ReadonlySet<string>;
  items?: ReadonlySet<string>;
  schema: Record<string, unknown>;
}

function deepObjectMembers(parameter: ParameterRule): QueryPart[] {
  const properties = isSchemaObject(parameter.schema.properties) ? parameter.schema.properties : {};
  return Object.entries(properties).map(([member, schema]) => {
    const type = isSchemaObject(schema) ? schema.type : undefined;
    const types = new Set(typeof type === 'string' ? [type] : Array.isArray(type) ? (type as string[]) : []);
    return {
      key: `${parameter.name}[${member}]`,
      name: member,
      within: parameter.name,
      types,
      schema: isSchemaObject(schema) ? schema : {},
    };
  });
}

/** A list query's value by its key: a parameter's, or a deepObject member's (`page[size]`). */
export function queryValue(query: Readonly<Record<string, JsonValue>>, key: string): JsonValue | undefined {
  if (Object.hasOwn(query, key)) return query[key];
  const member = /^(.+)\[([^\][]*)\]$/.exec(key);
  if (member === null) return undefined;
  const object = query[member[1]!];
  return isSchemaObject(object) && Object.hasOwn(object, member[2]!) ? object[member[2]!] : undefined;
}

export type LinkRelation = 'first' | 'prev' | 'last';

/**
 * The relations besides `next` (RFC 8288 §3.3, the IANA registry's names) that the Link header's declaration
 * names, in its description or its schema (a pattern, an example): `prev` also as `previous`. An inference by
 * names (the word `page` of PLANTSTORE_INFER switches the Link's page with the page number).
 */
function relationsOf(header: unknown): ReadonlySet<LinkRelation> {
  const words = new Set(
    JSON.stringify(header ?? {})
      .toLowerCase()
      .split(/[^a-z]+/),
  );
  const relations = new Set<LinkRelation>();
  if (words.has('first')) relations.add('first');
  if (words.has('prev') || words.has('previous')) relations.add('prev');
  if (words.has('last')) relations.add('last');
  return relations;
}

/** A filter's value is a scalar, or an array of scalars (one of them matches). */
function filterable(parameter: Pick<ParameterRule, 'types' | 'items'>): boolean {
  if (parameter.types.has('object')) return false;
  if (!parameter.types.has('array')) return true;
  const items = parameter.items ?? new Set<string>();
  return !items.has('object') && !items.has('array');
}

/**
 * The number of the first page: the schema's minimum where it is 0 or 1,
 * else its default where that is 0 or 1, else 1 (pages counted from 1, as
 * most APIs and RFC 5988's examples count them).
 */
function firstPage(schema: Record<string, unknown>): number {
  for (const value of [schema.minimum, schema.default]) if (value === 0 || value === 1) return value;
  return 1;
}

function listShape(doc: OpenApiDocument, schema: unknown): ListShape | { unanswerable: string } {
  const resolved = resolved$ref(doc, schema);
  if (!isSchemaObject(resolved)) return { unanswerable: 'its success answer declares no JSON schema' };
  if (isArraySchema(resolved)) return { kind: 'array' };
  const properties = isSchemaObject(resolved.properties) ? resolved.properties : {};
  const arraysOf = (members: Record<string, unknown>) =>
    Object.keys(members).filter((name) => isArraySchema(resolved$ref(doc, members[name])));
  let arrays = arraysOf(properties);
  let within: string | undefined;
  // HAL (draft-kelly-json-hal §4.1.2): the items may be an array of embedded resources in `_embedded`.
  const embedded = resolved$ref(doc, properties[HAL_EMBEDDED]);
  if (arrays.length === 0 && isSchemaObject(embedded) && isSchemaObject(embedded.properties)) {
    arrays = arraysOf(embedded.properties);
    within = HAL_EMBEDDED;
    const others = requiredExtras(doc, embedded, arrays.slice(0, 1));
    if ('unanswerable' in others || Object.keys(others.extras).length > 0)
      return { unanswerable: `its ${HAL_EMBEDDED} requires other members than the items` };
  }
  if (arrays.length !== 1)
    return {
      unanswerable: `its success answer is neither an array nor an object with one array property (it has ${arrays.length})`,
    };
  const items = arrays[0]!;
  const hal = properties[HAL_LINKS] !== undefined;
  const halMembers = { ...(within !== undefined ? { within } : {}), ...(hal ? { hal } : {}) };
  const next = nextMember(doc, properties, items);
  const top = requiredExtras(doc, resolved, [items, next?.path[0], within, hal ? HAL_LINKS : undefined]);
  if ('unanswerable' in top) return top;
  if (next === undefined) return { kind: 'page', items, ...halMembers, extras: top.extras, nestedExtras: {} };
  const holder = next.path.length === 2 ? resolved$ref(doc, properties[next.path[0]!]) : undefined;
  const nested = isSchemaObject(holder) ? requiredExtras(doc, holder, [next.path[1]]) : { extras: {} };
  if ('unanswerable' in nested) return nested;
  return { kind: 'page', items, ...halMembers, extras: top.extras, nestedExtras: nested.extras, next };
}

/** The cursor member: a member named like a cursor (lib/list-parameters.ts) of the page object, else of one of its object members (`page.next_cursor`). */
function nextMember(doc: OpenApiDocument, properties: Record<string, unknown>, items: string): NextMember | undefined {
  const top = Object.keys(properties).find((name) => name !== items && isNextMemberNamed(name));
  if (top !== undefined) return memberOf(doc, [top], properties[top]);
  for (const [name, raw] of Object.entries(properties)) {
    // HAL's links are Link Objects (their next is a URI, written by the server), its _embedded the items.
    if (name === items || name === HAL_LINKS || name === HAL_EMBEDDED) continue;
    const holder = resolved$ref(doc, raw);
    if (!isSchemaObject(holder) || !isSchemaObject(holder.properties)) continue;
    const inner = Object.keys(holder.properties).find((member) => isNextMemberNamed(member));
    if (inner !== undefined) return memberOf(doc, [name, inner], holder.properties[inner]);
  }
  return undefined;
}

function memberOf(doc: OpenApiDocument, path: string[], schema: unknown): NextMember {
  const next = resolved$ref(doc, schema);
  const types = isSchemaObject(next)
    ? Array.isArray(next.type)
      ? (next.type as string[])
      : typeof next.type === 'string'
        ? [next.type]
        : []
    : [];
  return {
    path,
    nullable: types.length === 0 || types.includes('null'),
    integer: types.includes('integer') && !types.includes('string'),
  };
}

/** The required members of `schema` besides `skip`, each made from its schema. */
function requiredExtras(
  doc: OpenApiDocument,
  schema: Record<string, unknown>,
  skip: Array<string | undefined>,
): { extras: Record<string, JsonValue> } | { unanswerable: string } {
  const properties = isSchemaObject(schema.properties) ? schema.properties : {};
  const extras: Record<string, JsonValue> = {};
  for (const name of Array.isArray(schema.required) ? (schema.required as string[]) : []) {
    if (skip.includes(name)) continue;
    const made = madeValue(doc, properties[name], { members: 'required' });
    if (made === undefined || 'spent' in made)
      return {
        unanswerable: `no value could be made for its required property ${name}${made === undefined ? '' : ` (it ${made.spent})`}`,
      };
    extras[name] = made.value;
  }
  return { extras };
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
