// The plant resource, found in the document alone (the project's shared
// decisions, docs/checks.md "What the harness infers"): which declared
// operations list, read, replace, merge or delete the plants the create
// operation stores, and what the list's parameters and answer are.
//
// - The collection path is the create's path; GET on it lists the plants.
// - An item path is the collection path and one more segment that is a
//   single path parameter of integer type (`/plants/{id}`, `/plants/{plantId}`),
//   which carries the created plant's id: GET reads, PUT replaces, PATCH
//   merges, DELETE deletes (RFC 9110 §9.3).
// - Where OpenAPI links on the create's success name an operation and map
//   one of its parameters from `$request.body#/id` (or `$response.body#/…`),
//   the links decide, wherever that operation's path is (OpenAPI 3.1 §4.8.20).
// - The list's query parameters by their names: a limit (`limit` and its
//   usual synonyms, an integer, or an integer whose description says it is
//   a maximum), an offset, a cursor, and a filter per Plant property.
// - Its answer: an array, or a page object whose one array property holds
//   the plants (with a `next`-like cursor property where it declares one).
// The server derives the same from the same document on its own
// (server/operations/resource.ts); neither imports the other.
import type { OpenApiDocument } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import { ID_PROPERTY, type CreateModel } from './create-model.js';
import type { OperationModel, ParameterModel } from './operation-model.js';
import { resolveSchema } from './schema-shape.js';

export type PlantRole = 'list' | 'read' | 'replace' | 'merge' | 'delete';

/** Where an item operation's id parameter takes its value: the create's request body (the id sent) or its answer, at a JSON pointer. */
export interface IdSource {
  parameter: string;
  from: 'request' | 'response';
  pointer: string;
}

export interface ResourceOperation {
  op: OperationModel;
  role: PlantRole;
  /** Item operations: the path parameter that carries the plant's id, and where its value comes from. */
  id?: IdSource;
  /** How the harness knows: the path's shape (an inference), or the create's links (the document says so). */
  by: 'shape' | 'links';
}

export type ListShape = { kind: 'array' } | { kind: 'page'; items: string; next?: string };

export interface ListModel extends ResourceOperation {
  role: 'list';
  /** Undefined when the success answer is neither an array nor an object with one array property (then `unreadable` says why). */
  shape?: ListShape;
  unreadable?: string;
  /** A parameter that bounds the list, and what says so: its name, or its description. */
  limit?: { parameter: ParameterModel; by: 'name' | 'description' };
  offset?: ParameterModel;
  cursor?: ParameterModel;
  /** Query parameters named after a property of the Plant: only the plants whose property equals the value. */
  filters: Array<{ parameter: ParameterModel; property: string }>;
}

export interface ResourceModel {
  /** The collection path (the create's); undefined without a create operation. */
  collection?: string;
  /** The property of the create's body that identifies a plant (the path id's value). */
  idProperty?: string;
  /** Every operation on the resource, the create aside. */
  operations: ResourceOperation[];
  list?: ListModel;
  read?: ResourceOperation;
  replace?: ResourceOperation;
  merge?: ResourceOperation;
  delete?: ResourceOperation;
}

const ITEM_ROLES: Readonly<Record<string, PlantRole>> = {
  GET: 'read',
  PUT: 'replace',
  PATCH: 'merge',
  DELETE: 'delete',
};
export const LIMIT_NAMES = ['limit', 'max', 'size', 'pagesize', 'page_size', 'per_page', 'count', 'top', 'first'];
export const OFFSET_NAMES = ['offset', 'skip', 'start'];
export const CURSOR_NAMES = ['cursor', 'after', 'page_token', 'pagetoken', 'next'];
/** A page object's property that carries the following page's cursor. */
export const NEXT_NAMES = [
  'next',
  'nextcursor',
  'next_cursor',
  'nextpagetoken',
  'next_page_token',
  'nexttoken',
  'next_token',
  'cursor',
];
/** A description that says a parameter bounds the result ("The maximum number of results to return"). */
const BOUNDS = /\b(maximum|at most|max\.?|up to)\b/i;

/** The types a schema allows (its `type`, one or a list). */
function typesOf(doc: OpenApiDocument, schema: unknown, pointer: string): string[] {
  const { schema: s } = resolveSchema(doc, schema, pointer);
  if (!isSchemaObject(s)) return [];
  return Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
}

const paramTypes = (doc: OpenApiDocument, p: ParameterModel) =>
  p.schema ? typesOf(doc, p.schema.schema, p.schema.pointer) : [];
const isInteger = (doc: OpenApiDocument, p: ParameterModel) => paramTypes(doc, p).includes('integer');

/** The name of the single path parameter that makes `path` an item of `collection` (`/plants/{id}`), or undefined. */
function itemParameter(collection: string, path: string): string | undefined {
  const prefix = collection.endsWith('/') ? collection : `${collection}/`;
  return path.startsWith(prefix) ? /^\{([^{}/]+)\}$/.exec(path.slice(prefix.length))?.[1] : undefined;
}

/** The operations the create's success answers link to, each with the parameter that carries the created plant's id. */
function linked(create: CreateModel, operations: readonly OperationModel[], idProperty: string): Map<string, IdSource> {
  const out = new Map<string, IdSource>();
  for (const [status, response] of create.responses) {
    if (!status.startsWith('2') || !response.links) continue;
    for (const raw of Object.values(response.links.links)) {
      if (!isSchemaObject(raw) || !isSchemaObject(raw.parameters)) continue;
      const target =
        typeof raw.operationId === 'string'
          ? operations.find((op) => op.operationId === raw.operationId)
          : typeof raw.operationRef === 'string'
            ? operations.find((op) => op.pointer === decodeURIComponent(raw.operationRef as string))
            : undefined;
      if (!target) continue;
      for (const [name, expression] of Object.entries(raw.parameters)) {
        // A runtime expression (OpenAPI 3.1 §4.8.20.4): $request.body#/id is the id sent; $response.body#/… a member of the answer.
        const m = typeof expression === 'string' ? /^\$(request|response)\.body#(\/.*)$/.exec(expression) : null;
        if (!m || (m[1] === 'request' && m[2] !== `/${idProperty}`)) continue;
        // A parameter may be qualified by where it is (`path.plantId`).
        const parameter = name.startsWith('path.') ? name.slice('path.'.length) : name;
        if (target.parameters.some((p) => p.in === 'path' && p.name === parameter))
          out.set(target.pointer, { parameter, from: m[1] as 'request' | 'response', pointer: m[2]! });
      }
    }
  }
  return out;
}

/** The list's answer: an array, or a page object with one array property (and a cursor property where it declares one). */
function listShape(doc: OpenApiDocument, op: OperationModel): { shape?: ListShape; unreadable?: string } {
  const success = [...op.responses.keys()].sort().find((s) => s.startsWith('2'));
  const declared = success !== undefined ? op.responses.get(success)?.schema : undefined;
  if (!declared) return { unreadable: 'its success answer declares no schema' };
  const { schema, pointer } = resolveSchema(doc, declared.schema, declared.pointer);
  if (typesOf(doc, schema, pointer).includes('array')) return { shape: { kind: 'array' } };
  const properties = isSchemaObject(schema) && isSchemaObject(schema.properties) ? schema.properties : {};
  const arrays = Object.keys(properties).filter((name) =>
    typesOf(doc, properties[name], childPointer(pointer, 'properties', name)).includes('array'),
  );
  if (arrays.length !== 1)
    return {
      unreadable: `its success answer is neither an array nor an object with one array property (it has ${arrays.length})`,
    };
  const next = Object.keys(properties).find((name) => name !== arrays[0] && NEXT_NAMES.includes(name.toLowerCase()));
  return { shape: { kind: 'page', items: arrays[0]!, ...(next !== undefined ? { next } : {}) } };
}

function listModel(doc: OpenApiDocument, create: CreateModel, op: OperationModel): ListModel {
  const plantProperties = new Set(create.answer.fields.map((f) => f.name));
  const list: ListModel = { op, role: 'list', by: 'shape', ...listShape(doc, op), filters: [] };
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    const name = p.name.toLowerCase();
    const types = paramTypes(doc, p);
    if (!list.limit && isInteger(doc, p) && LIMIT_NAMES.includes(name)) list.limit = { parameter: p, by: 'name' };
    else if (!list.offset && isInteger(doc, p) && OFFSET_NAMES.includes(name)) list.offset = p;
    else if (!list.cursor && CURSOR_NAMES.includes(name)) list.cursor = p;
    else if (plantProperties.has(p.name) && !types.includes('array') && !types.includes('object'))
      list.filters.push({ parameter: p, property: p.name });
    else if (!list.limit && isInteger(doc, p) && BOUNDS.test(p.description ?? ''))
      list.limit = { parameter: p, by: 'description' };
  }
  return list;
}

/** The plant resource of the document: every operation on it, by role. */
export function findResource(
  doc: OpenApiDocument,
  create: CreateModel | undefined,
  operations: readonly OperationModel[],
): ResourceModel {
  if (!create) return { operations: [] };
  const integers = create.request.fields.filter((f) => f.required && f.types.includes('integer'));
  const idProperty = (integers.find((f) => f.name === ID_PROPERTY) ?? integers[0])?.name;
  if (idProperty === undefined) return { collection: create.path, operations: [] };
  const links = linked(create, operations, idProperty);
  const found: ResourceOperation[] = [];
  for (const op of operations) {
    if (op.pointer === create.pointer) continue;
    const link = links.get(op.pointer);
    const itemRole = ITEM_ROLES[op.method];
    if (link && itemRole) found.push({ op, role: itemRole, id: link, by: 'links' });
    else if (op.path === create.path && op.method === 'GET') found.push(listModel(doc, create, op));
    else if (itemRole) {
      const parameter = itemParameter(create.path, op.path);
      const p = op.parameters.find((x) => x.in === 'path' && x.name === parameter);
      if (p && isInteger(doc, p))
        found.push({
          op,
          role: itemRole,
          id: { parameter: p.name, from: 'request', pointer: `/${idProperty}` },
          by: 'shape',
        });
    }
  }
  // Links win over the shape where both give a role.
  const byRole = (role: PlantRole) =>
    found.find((r) => r.role === role && r.by === 'links') ?? found.find((r) => r.role === role);
  return {
    collection: create.path,
    idProperty,
    operations: found,
    list: byRole('list') as ListModel | undefined,
    read: byRole('read'),
    replace: byRole('replace'),
    merge: byRole('merge'),
    delete: byRole('delete'),
  };
}
