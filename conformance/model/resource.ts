// Every resource of the document, found in the document alone (the project's
// shared decisions, docs/checks.md "What the harness infers"): each
// collection, the operations that list, create, read, replace, merge or
// delete its items, how an item is named (identity.ts), the parents a
// nested collection lives under, and the members of its create's body that
// name an item of another resource.
//
// - A collection is a path ending in a literal segment that a POST creates
//   items in (create-model.ts createsItems), or that has an item path.
// - Its item path is the collection path and one more segment that is a
//   single path parameter (`/plants/{plantId}`), which names one item: GET
//   reads, PUT replaces, PATCH merges, DELETE deletes (RFC 9110 §9.3); GET on
//   the collection path lists (list-model.ts).
// - Where OpenAPI links on the create's success name an operation and map
//   one of its path parameters from the request's id member or a member of
//   the answer (`$response.body#/…`), the links decide, wherever that
//   operation's path is (OpenAPI 3.1 §4.8.20): not an inference.
// - A path parameter of a collection path names a parent
//   (`/gardens/{gardenId}/plants`): the parent is the collection whose item
//   path is that prefix of the path (`/gardens/{id}` matches it as well).
// - A member of a create's request names an item of another collection
//   (inference `reference`): where links say so (a link from that
//   collection's create to this create, whose requestBody maps the member
//   from `$response.body#/…`), else by its name, `<item>Id` or `<item>_id`
//   (`plantId` for /plants), where its schema is of that collection's id kind.
// The server derives the same from the same document on its own
// (server/operations/resource.ts); neither imports the other.
import type { OpenApiDocument } from '../../spec/openapi.js';
import { isSchemaObject } from '../../spec/schema-keywords.js';
import { createModelOf, createsItems, type CreateModel } from './create-model.js';
import { fieldKind, findIdentity, kindsMeet, type Identity } from './identity.js';
import { listFacts, type ListFacts } from './list-model.js';
import type { OperationModel } from './operation-model.js';

export type { ListShape, SortOrder } from './list-model.js';
export { HAL_LINKS } from './list-model.js';

export type ResourceRole = 'list' | 'read' | 'replace' | 'merge' | 'delete';
/** The roles' former name, from when the harness knew one resource. */
export type PlantRole = ResourceRole;

/** The path parameter of an item operation that names the item, and, where links say so, where its value comes from. */
export interface IdSource {
  parameter: string;
  /** A link's runtime expression (OpenAPI 3.1 §4.8.20.4): the create's request body, or its answer, at a JSON pointer. */
  link?: { from: 'request' | 'response'; pointer: string };
}

export interface ResourceOperation {
  op: OperationModel;
  role: ResourceRole;
  /** Item operations: the path parameter that names the item. */
  id?: IdSource;
  /** How the harness knows: the path's shape (an inference), or the create's links (the document says so). */
  by: 'shape' | 'links';
}

export interface ListModel extends ResourceOperation, ListFacts {
  role: 'list';
}

/** A parent a nested collection lives under: the path parameter that names it, and its collection (undefined: the document declares none). */
export interface ParentLink {
  parameter: string;
  collection?: string;
}

/** A member of the create's request that names an item of another collection. */
export interface Reference {
  member: string;
  collection: string;
  by: 'links' | 'name';
}

export interface ResourceModel {
  /** The collection path; undefined for the empty model of a document without one. */
  collection?: string;
  /** The item path, where the document declares one. */
  item?: string;
  /** The collection's create, where it has one the create checks can read (else `createMissing` says why, if it has a POST). */
  create?: CreateModel;
  createMissing?: string;
  identity: Identity;
  /** The member of the create's body in which the client chooses the id (identity.request). */
  idProperty?: string;
  /** The parents, outermost first. */
  parents: ParentLink[];
  references: Reference[];
  /** Every operation on the resource, the create aside. */
  operations: ResourceOperation[];
  list?: ListModel;
  read?: ResourceOperation;
  replace?: ResourceOperation;
  merge?: ResourceOperation;
  delete?: ResourceOperation;
}

const ITEM_ROLES: Readonly<Record<string, ResourceRole>> = {
  GET: 'read',
  PUT: 'replace',
  PATCH: 'merge',
  DELETE: 'delete',
};

const SINGLE_PARAMETER = /^\{([^{}/]+)\}$/;

/** The name of the single path parameter that makes `path` an item of `collection` (`/plants/{id}`), or undefined. */
export function itemParameter(collection: string, path: string): string | undefined {
  const prefix = collection.endsWith('/') ? collection : `${collection}/`;
  return path.startsWith(prefix) ? SINGLE_PARAMETER.exec(path.slice(prefix.length))?.[1] : undefined;
}

/** A path template with every parameter written alike: `/gardens/{}/plants`. */
const shapeOf = (path: string) => path.replace(/\{[^{}/]+\}/g, '{}');

/** The collection paths of the document, in the order its operations come. */
function collectionsOf(doc: OpenApiDocument, operations: readonly OperationModel[]): string[] {
  const out: string[] = [];
  const add = (path: string) => !out.includes(path) && out.push(path);
  for (const op of operations) {
    if (createsItems(doc, op, operations)) add(op.path);
    const m = /^(.*[^/])\/\{[^{}/]+\}$/.exec(op.path);
    if (m && ITEM_ROLES[op.method] && !/\}$/.test(m[1]!)) add(m[1]!);
  }
  return out;
}

/** The operations the create's success answers link to, each with the parameter that names the created item. */
function linked(
  create: CreateModel,
  operations: readonly OperationModel[],
  idMember: string | undefined,
): Map<string, IdSource> {
  const out = new Map<string, IdSource>();
  for (const [status, response] of create.responses) {
    if (!status.startsWith('2') || !response.links) continue;
    for (const raw of Object.values(response.links.links)) {
      if (!isSchemaObject(raw) || !isSchemaObject(raw.parameters)) continue;
      const target = linkTarget(raw, operations);
      if (!target) continue;
      for (const [name, expression] of Object.entries(raw.parameters)) {
        // A runtime expression (OpenAPI 3.1 §4.8.20.4): $request.body#/id is the id sent; $response.body#/… a member of the answer.
        const m =
          typeof expression === 'string' ? /^\{?\$(request|response)\.body#(\/[^}]*)\}?$/.exec(expression) : null;
        if (!m || (m[1] === 'request' && m[2] !== `/${idMember}`)) continue;
        // A parameter may be qualified by where it is (`path.plantId`).
        const parameter = name.startsWith('path.') ? name.slice('path.'.length) : name;
        if (target.parameters.some((p) => p.in === 'path' && p.name === parameter))
          out.set(target.pointer, { parameter, link: { from: m[1] as 'request' | 'response', pointer: m[2]! } });
      }
    }
  }
  return out;
}

/** The operation a link names (operationId, or operationRef within the document). */
function linkTarget(raw: Record<string, unknown>, operations: readonly OperationModel[]): OperationModel | undefined {
  if (typeof raw.operationId === 'string') return operations.find((op) => op.operationId === raw.operationId);
  if (typeof raw.operationRef === 'string')
    return operations.find((op) => op.pointer === decodeURIComponent(raw.operationRef as string));
  return undefined;
}

/** The parents of a collection: each path parameter of its path, with the collection whose item path is that prefix. */
function parentsOf(collection: string, collections: readonly string[]): ParentLink[] {
  const segments = collection.split('/');
  const out: ParentLink[] = [];
  segments.forEach((segment, i) => {
    const m = SINGLE_PARAMETER.exec(segment);
    if (!m) return;
    const prefix = shapeOf(segments.slice(0, i + 1).join('/'));
    const parent = collections.find((c) => shapeOf(`${c}/{}`) === prefix);
    out.push({ parameter: m[1]!, ...(parent !== undefined ? { collection: parent } : {}) });
  });
  return out;
}

/** A collection's item in the singular, from its last literal segment (`plants` → `plant`, `categories` → `category`). */
export function itemNoun(collection: string): string {
  const last =
    collection
      .split('/')
      .filter((s) => s !== '' && !s.startsWith('{'))
      .pop() ?? '';
  const word = last.toLowerCase();
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses') || word.endsWith('xes') || word.endsWith('ches') || word.endsWith('shes'))
    return word.slice(0, -2);
  return word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** One collection's resource. */
function resourceAt(
  doc: OpenApiDocument,
  collection: string,
  collections: readonly string[],
  operations: readonly OperationModel[],
): ResourceModel {
  const post = operations.find((op) => op.path === collection && createsItems(doc, op, operations));
  const built = post ? createModelOf(doc, post) : undefined;
  const create = built && 'create' in built ? built.create : undefined;
  const itemOps = operations.filter((op) => itemParameter(collection, op.path) !== undefined && ITEM_ROLES[op.method]);
  const item = itemOps[0]?.path;
  const parameterName = item !== undefined ? itemParameter(collection, item) : undefined;
  const parameter = itemOps.flatMap((op) => op.parameters).find((p) => p.in === 'path' && p.name === parameterName);
  const location = [...(post?.responses.entries() ?? [])].some(
    ([status, r]) => status.startsWith('2') && r.headers.some((h) => h.name.toLowerCase() === 'location'),
  );
  const identity = findIdentity(doc, parameter, create?.request, create?.answer, location);
  const links = create ? linked(create, operations, identity.request) : new Map<string, IdSource>();
  const found: ResourceOperation[] = [];
  for (const op of operations) {
    if (op.pointer === post?.pointer) continue;
    const link = links.get(op.pointer);
    const itemRole = ITEM_ROLES[op.method];
    if (link && itemRole) found.push({ op, role: itemRole, id: link, by: 'links' });
    else if (op.path === collection && op.method === 'GET')
      found.push({ op, role: 'list', by: 'shape', ...listFacts(doc, op, create?.answer) });
    else if (itemRole && op.path === item && parameterName !== undefined)
      found.push({ op, role: itemRole, id: { parameter: parameterName }, by: 'shape' });
  }
  // Links win over the shape where both give a role.
  const byRole = (role: ResourceRole) =>
    found.find((r) => r.role === role && r.by === 'links') ?? found.find((r) => r.role === role);
  return {
    collection,
    ...(item !== undefined ? { item } : {}),
    ...(create ? { create } : {}),
    ...(built && 'missing' in built ? { createMissing: built.missing } : {}),
    identity,
    ...(identity.request !== undefined ? { idProperty: identity.request } : {}),
    parents: parentsOf(collection, collections),
    references: [],
    operations: found,
    list: byRole('list') as ListModel | undefined,
    read: byRole('read'),
    replace: byRole('replace'),
    merge: byRole('merge'),
    delete: byRole('delete'),
  };
}

/** The members of each create's request that name an item of another collection: links first, then names. */
function addReferences(resources: ResourceModel[]): void {
  for (const r of resources) {
    if (!r.create) continue;
    for (const other of resources) {
      if (other === r || !other.create) continue;
      for (const [status, response] of other.create.responses) {
        if (!status.startsWith('2') || !response.links) continue;
        for (const raw of Object.values(response.links.links)) {
          if (!isSchemaObject(raw) || !isSchemaObject(raw.requestBody)) continue;
          if (linkTarget(raw, [r.create])?.pointer !== r.create.pointer) continue;
          for (const [member, expression] of Object.entries(raw.requestBody))
            if (typeof expression === 'string' && /^\{?\$response\.body#\//.test(expression))
              r.references.push({ member, collection: other.collection!, by: 'links' });
        }
      }
    }
    for (const f of r.create.request.fields) {
      if (f.name === r.identity.request || r.references.some((x) => x.member === f.name)) continue;
      const named = resources.find(
        (other) =>
          other !== r &&
          other.create !== undefined &&
          [`${itemNoun(other.collection!)}id`, `${itemNoun(other.collection!)}_id`].includes(f.name.toLowerCase()) &&
          kindsMeet(other.identity.kind, fieldKind(f)),
      );
      if (named) r.references.push({ member: f.name, collection: named.collection!, by: 'name' });
    }
  }
}

/** Every resource of the document, in the order its operations come. */
export function findResources(doc: OpenApiDocument, operations: readonly OperationModel[]): ResourceModel[] {
  const collections = collectionsOf(doc, operations);
  const resources = collections.map((c) => resourceAt(doc, c, collections, operations));
  addReferences(resources);
  return resources;
}

/** The resource of a document without a collection: nothing to act on. */
export const NO_RESOURCE: ResourceModel = {
  identity: { kind: {}, location: false },
  parents: [],
  references: [],
  operations: [],
};

/** The resource a collection path names. */
export function resourceNamed(resources: readonly ResourceModel[], collection: string): ResourceModel | undefined {
  return resources.find((r) => r.collection === collection);
}

/** What must exist before an item of `r` can be created: its parents and the items its body names. */
export function prerequisitesOf(r: ResourceModel): string[] {
  return [
    ...r.parents.flatMap((p) => (p.collection !== undefined ? [p.collection] : [])),
    ...r.references.map((x) => x.collection),
  ];
}
