// A collection's list, found in the document alone (docs/checks.md, "What
// the harness infers"): what its answer is, how its pages are reached, and
// what its query parameters do.
// - Its answer: an array, or an envelope: an object with one array member
//   that holds the items (`data`, `items`, …), and where it declares one, a
//   member at most two levels down named like a cursor (`next`,
//   `next_cursor`, `page.next_cursor`, …) that names the next page.
// The names are lib/list-parameters.ts's, the table the reference server
// serves by too.
// - Its pages (inference `pages`): a cursor parameter (`cursor`, `after`,
//   `starting_after`, `page_token`, …) given the envelope's cursor; an
//   offset (`offset`, `skip`, `start`); a page number (`page`,
//   `page_number`, …) counted from its minimum; and, whatever the document
//   declares, a `Link` header's rel="next" (RFC 8288 §3.3; the relation
//   type's meaning is the IANA registry's "the next resource in an ordered
//   series").
// - A limit (inference `limit`): `limit` and its synonyms, or an integer
//   whose description says it is a maximum.
// - Filters (inference `filter`): a query parameter named after a property
//   of the listed items, a scalar (the items whose property equals it) or an
//   array of them (the items whose property is any of them, `?tag=a&tag=b`).
// - Sort orders (inference `sort`): a query parameter whose enum values are
//   property names of the items, a leading `-` meaning descending and `+` or
//   none ascending; values that say more (`name_desc`) are named and left out.
import { isListParameterNamed, isNextMemberNamed, type ListParameterRole } from '../../lib/list-parameters.js';
import type { OpenApiDocument } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import type { OperationModel, ParameterModel } from './operation-model.js';
import { flattenObject, resolveSchema, type ObjectModel } from './schema-shape.js';

/**
 * An array, or an envelope whose member `items` holds the items (in its member `within`, HAL's `_embedded`, where
 * it is there), with the next page's cursor at the pointer `next`, or its URI at `/_links/next/href` where `hal`.
 */
export type ListShape =
  { kind: 'array' } | { kind: 'page'; items: string; within?: string; next?: string; hal?: boolean };

/** HAL's reserved members (draft-kelly-json-hal §4.1.1, §4.1.2): the links, and the embedded resources. */
export const HAL_LINKS = '_links';
export const HAL_EMBEDDED = '_embedded';
/** The media type of HAL's JSON form (draft-kelly-json-hal §3). */
const HAL_MEDIA_TYPE = 'application/hal+json';

export interface SortOrder {
  /** The value sent. */
  value: string;
  property: string;
  descending: boolean;
}

export interface ListFacts {
  /** Undefined when the success answer is neither an array nor an envelope (then `unreadable` says why). */
  shape?: ListShape;
  unreadable?: string;
  /** The listed items' object schema, flattened (the create's answer where the list's items declare none). */
  item?: ObjectModel;
  /** A parameter that bounds the list, and what says so: its name, or its description. */
  limit?: { parameter: ParameterModel; by: 'name' | 'description' };
  offset?: ParameterModel;
  cursor?: ParameterModel;
  /** A page number, and the number of the first page (the parameter's minimum, 0 or 1; else 1). */
  page?: { parameter: ParameterModel; first: number };
  /** Whether a success answer declares a Link header (RFC 8288): its rel="next" is followed either way. */
  linkHeader: boolean;
  /** Query parameters named after a property of the items; `many`: an array of values, any of which an item may have. */
  filters: Array<{ parameter: ParameterModel; property: string; many: boolean }>;
  sorts: Array<{ parameter: ParameterModel; orders: SortOrder[]; skipped: string[] }>;
}

/** A description that says a parameter bounds the result ("The maximum number of results to return"). */
const BOUNDS = /\b(maximum|at most|max\.?|up to)\b/i;

/** The types a schema allows (its `type`, one or a list). */
export function typesOf(doc: OpenApiDocument, schema: unknown, pointer: string): string[] {
  const { schema: s } = resolveSchema(doc, schema, pointer);
  if (!isSchemaObject(s)) return [];
  return Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
}

const paramTypes = (doc: OpenApiDocument, p: ParameterModel) =>
  p.schema ? typesOf(doc, p.schema.schema, p.schema.pointer) : [];
const isInteger = (doc: OpenApiDocument, p: ParameterModel) => paramTypes(doc, p).includes('integer');

/** A schema's keywords, resolved. */
function keywordsOf(doc: OpenApiDocument, schema: unknown, pointer: string): Record<string, unknown> {
  const { schema: s } = resolveSchema(doc, schema, pointer);
  return isSchemaObject(s) ? s : {};
}

/** The pointer of a cursor member of an envelope: a member named like one, at the top or one object down. */
function cursorMember(doc: OpenApiDocument, schema: unknown, pointer: string, depth = 0): string | undefined {
  const s = keywordsOf(doc, schema, pointer);
  const properties = isSchemaObject(s.properties) ? s.properties : {};
  for (const name of Object.keys(properties)) {
    const at = childPointer(pointer, 'properties', name);
    const types = typesOf(doc, properties[name], at);
    if (isNextMemberNamed(name) && !types.includes('object') && !types.includes('array')) return `/${name}`;
  }
  if (depth > 0) return undefined;
  for (const name of Object.keys(properties)) {
    const at = childPointer(pointer, 'properties', name);
    // HAL's links are Link Objects, not cursors (their next is followed by its href).
    if (name === HAL_LINKS || !typesOf(doc, properties[name], at).includes('object')) continue;
    const inner = cursorMember(doc, properties[name], at, depth + 1);
    if (inner !== undefined) return `/${name}${inner}`;
  }
  return undefined;
}

/** The list's answer: an array, or an envelope with one array member (and a cursor member where it declares one); and the items' schema. */
function listShape(
  doc: OpenApiDocument,
  op: OperationModel,
): { shape?: ListShape; unreadable?: string; itemSchema?: { schema: unknown; pointer: string } } {
  const success = [...op.responses.keys()].sort().find((s) => s.startsWith('2'));
  const declared = success !== undefined ? op.responses.get(success)?.schema : undefined;
  if (!declared) return { unreadable: 'its success answer declares no schema' };
  const { schema, pointer } = resolveSchema(doc, declared.schema, declared.pointer);
  if (typesOf(doc, schema, pointer).includes('array')) {
    const s = keywordsOf(doc, schema, pointer);
    return {
      shape: { kind: 'array' },
      ...(s.items !== undefined ? { itemSchema: { schema: s.items, pointer: childPointer(pointer, 'items') } } : {}),
    };
  }
  const properties = isSchemaObject(schema) && isSchemaObject(schema.properties) ? schema.properties : {};
  const arraysOf = (members: Record<string, unknown>, at: string) =>
    Object.keys(members).filter((name) =>
      typesOf(doc, members[name], childPointer(at, 'properties', name)).includes('array'),
    );
  let arrays = arraysOf(properties, pointer);
  let holder = { properties, pointer, within: undefined as string | undefined };
  // HAL (draft-kelly-json-hal §4.1.2): the items may be an array of embedded resources in `_embedded`.
  if (arrays.length === 0 && properties[HAL_EMBEDDED] !== undefined) {
    const at = childPointer(pointer, 'properties', HAL_EMBEDDED);
    const embedded = keywordsOf(doc, properties[HAL_EMBEDDED], at);
    const members = isSchemaObject(embedded.properties) ? embedded.properties : {};
    arrays = arraysOf(members, at);
    holder = { properties: members, pointer: at, within: HAL_EMBEDDED };
  }
  if (arrays.length !== 1)
    return {
      unreadable: `its success answer is neither an array nor an object with one array property (it has ${arrays.length})`,
    };
  const itemsAt = childPointer(holder.pointer, 'properties', arrays[0]!);
  const items = keywordsOf(doc, holder.properties[arrays[0]!], itemsAt);
  const next = cursorMember(doc, schema, pointer);
  // HAL's next link (draft-kelly-json-hal §4.1.1, §5.1): where the envelope declares `_links` or the answer is HAL.
  const hal =
    properties[HAL_LINKS] !== undefined ||
    (success !== undefined && (op.responses.get(success)?.contentTypes ?? []).includes(HAL_MEDIA_TYPE));
  return {
    shape: {
      kind: 'page',
      items: arrays[0]!,
      ...(holder.within !== undefined ? { within: holder.within } : {}),
      ...(next !== undefined ? { next } : {}),
      ...(hal ? { hal } : {}),
    },
    ...(items.items !== undefined
      ? { itemSchema: { schema: items.items, pointer: childPointer(itemsAt, 'items') } }
      : {}),
  };
}

/** The sort orders a parameter's enum names: values that are property names, with a leading - (descending) or + (ascending). */
function sortOrders(
  doc: OpenApiDocument,
  p: ParameterModel,
  properties: ReadonlySet<string>,
): { orders: SortOrder[]; skipped: string[] } | undefined {
  if (!p.schema) return undefined;
  let s = keywordsOf(doc, p.schema.schema, p.schema.pointer);
  let at = p.schema.pointer;
  if (typesOf(doc, p.schema.schema, p.schema.pointer).includes('array') && s.items !== undefined) {
    at = childPointer(at, 'items');
    s = keywordsOf(doc, s.items, at);
  }
  if (!Array.isArray(s.enum)) return undefined;
  const orders: SortOrder[] = [];
  const skipped: string[] = [];
  for (const v of s.enum) {
    if (typeof v !== 'string') continue;
    const m = /^([+-]?)(.+)$/.exec(v)!;
    if (properties.has(m[2]!)) orders.push({ value: v, property: m[2]!, descending: m[1] === '-' });
    else skipped.push(v);
  }
  return orders.length > 0 ? { orders, skipped } : undefined;
}

/** What the list operation's answer and query parameters are. */
export function listFacts(doc: OpenApiDocument, op: OperationModel, fallback: ObjectModel | undefined): ListFacts {
  const { itemSchema, ...shape } = listShape(doc, op);
  const item = itemSchema ? flattenObject(doc, itemSchema.schema, itemSchema.pointer) : fallback;
  const properties = new Set((item?.fields ?? []).map((f) => f.name));
  const linkHeader = [...op.responses.entries()].some(
    ([status, r]) => status.startsWith('2') && (r.headers ?? []).some((h) => h.name.toLowerCase() === 'link'),
  );
  const list: ListFacts = { ...shape, ...(item ? { item } : {}), linkHeader, filters: [], sorts: [] };
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    const named = (role: ListParameterRole) => isListParameterNamed(role, p.name);
    const types = paramTypes(doc, p);
    const sorts = sortOrders(doc, p, properties);
    if (!list.limit && isInteger(doc, p) && named('limit')) list.limit = { parameter: p, by: 'name' };
    else if (!list.offset && isInteger(doc, p) && named('offset')) list.offset = p;
    else if (!list.page && isInteger(doc, p) && named('page')) {
      const min = p.schema ? keywordsOf(doc, p.schema.schema, p.schema.pointer).minimum : undefined;
      list.page = { parameter: p, first: min === 0 ? 0 : 1 };
    } else if (!list.cursor && named('cursor') && !types.includes('array')) list.cursor = p;
    else if (sorts) list.sorts.push({ parameter: p, ...sorts });
    else if (properties.has(p.name) && !types.includes('object'))
      list.filters.push({ parameter: p, property: p.name, many: types.includes('array') });
    else if (!list.limit && isInteger(doc, p) && BOUNDS.test(p.description ?? ''))
      list.limit = { parameter: p, by: 'description' };
  }
  return list;
}
