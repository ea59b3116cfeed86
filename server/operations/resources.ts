// The resources of the document, found in the document alone: each
// collection the document creates items in, its item path, its parent (a
// nested resource), how its items are identified (resource-ids.ts), what an
// item is (its schema), and which operation lists, creates, reads, replaces,
// merges or deletes its items. The rules (docs/server.md, "Every resource"):
//
// - a *collection* is a path where a POST takes a JSON body and creates: the
//   path also has a GET (the list), or an item path below it, or the POST's
//   success is 201 Created, or it is the create operation the specification
//   names (operationId createPlant, else the only operation with a body);
//   a collection whose item PUT declares 201 is one too (a PUT that creates);
// - its *item path* is the collection path and one more segment that is a
//   single path parameter of integer or string type (`/plants/{id}`), which
//   carries the id: GET reads, PUT replaces, PATCH merges, DELETE removes;
// - where the create's answer declares OpenAPI links that name an operation
//   and map one of its path parameters from `$request.body#/P` or
//   `$response.body#/P`, the links decide: that operation is on the item,
//   that parameter carries the id, and P is the id's member, wherever its
//   path is;
// - a collection path with path parameters is *nested*: its items live under
//   the values of those parameters (their parent), and where another
//   resource's item path is the collection path's beginning
//   (`/gardens/{gardenId}` of `/gardens/{gardenId}/plants`), that resource is
//   the parent, which must hold the item the path names;
// - every other operation is on no resource (examples.ts).
import { isJsonBased } from '../../lib/http-syntax.js';
import {
  CREATE_OPERATION_ID,
  resolveReference,
  type OpenApiDocument,
  type OperationLocation,
  type ResponseObject,
} from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import { idRule } from './resource-ids.js';
import { referencesOf, successLinks } from './resource-references.js';
import type { ItemRole, Located, Resource, ResourceModel, ResourceRole } from './resource-model.js';
import { singular, wordsOf } from './schema-properties.js';

export type { ItemRole, Located, Resource, ResourceModel, ResourceRole } from './resource-model.js';

const ITEM_ROLES: Readonly<Record<string, ItemRole>> = {
  GET: 'read',
  PUT: 'replace',
  PATCH: 'merge',
  DELETE: 'delete',
};
const LINKED_MEMBER = /^\$(request|response)\.body#\/([^/]+)$/;

/**
 * The resources of `doc`. With `inferResources` off, only the plant
 * resource's create is one (every other operation is answered from the
 * document); `inferReferences` turns on references found by their names.
 */
export function findResources(
  doc: OpenApiDocument,
  operations: readonly OperationLocation[],
  options: { inferResources: boolean; inferReferences: boolean },
): ResourceModel | undefined {
  const byPath = new Map<string, OperationLocation[]>();
  for (const operation of operations) byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  const withBody = operations.filter((op) => op.operation.requestBody !== undefined);
  const named = operations.find((op) => op.operation.operationId === CREATE_OPERATION_ID);
  // The create the specification names is one whatever its method (as spec/operations.ts finds it).
  const specified = named ?? (withBody.length === 1 ? withBody[0] : undefined);
  const creates = operations.filter(
    (op) =>
      jsonBodySchema(doc, op) !== undefined &&
      (op === specified ||
        (op.method === 'POST' &&
          ((byPath.get(op.path) ?? []).some(({ method }) => method === 'GET') ||
            itemPathOf(doc, op.path, byPath) !== undefined ||
            lowestSuccess(op) === '201'))),
  );
  const collections = new Map<string, OperationLocation | undefined>(creates.map((op) => [op.path, op]));
  // A collection whose item PUT declares 201 Created, where no POST creates.
  for (const [path, ops] of byPath) {
    const collection = path.replace(/\/\{[^{}/]+\}$/, '');
    if (collection === path || collections.has(collection)) continue;
    if (ops.some((op) => op.method === 'PUT' && '201' in (op.operation.responses ?? {})))
      collections.set(collection, undefined);
  }
  const primaryPath = plantCollection(named, [...collections.keys()]);
  if (primaryPath === undefined) return undefined;
  const paths = options.inferResources ? [...collections.keys()] : [primaryPath];
  const resources = paths.map((path) => resourceAt(doc, path, collections.get(path), path === primaryPath, byPath));
  if (!options.inferResources) {
    const only = resources[0]!;
    for (const [pointer, { role }] of only.roles) if (role !== 'create') only.roles.delete(pointer);
  }
  for (const resource of resources) resource.parent = parentOf(resource, resources);
  for (const resource of resources) resource.references = referencesOf(doc, resource, resources, options);
  return { resources, plants: resources.find(({ key }) => key === '')! };
}

/** The plant resource's collection: createPlant's, else the only one, else the one whose noun is plant, else the first. */
function plantCollection(named: OperationLocation | undefined, paths: string[]): string | undefined {
  if (named !== undefined && paths.includes(named.path)) return named.path;
  if (paths.length <= 1) return paths[0];
  return paths.find((path) => nounOf(path) === 'plant') ?? paths[0];
}

function resourceAt(
  doc: OpenApiDocument,
  collectionPath: string,
  create: OperationLocation | undefined,
  primary: boolean,
  byPath: Map<string, OperationLocation[]>,
): Resource {
  const roles = new Map<string, { role: ResourceRole; by: 'shape' | 'links' }>();
  if (create !== undefined) roles.set(create.pointer, { role: 'create', by: 'shape' });
  for (const op of byPath.get(collectionPath) ?? [])
    if (op.method === 'GET') roles.set(op.pointer, { role: 'list', by: 'shape' });
  const linked = create === undefined ? [] : linkedItemOperations(doc, create, [...byPath.values()].flat());
  let itemPath = itemPathOf(doc, collectionPath, byPath);
  let idParameter = itemPath === undefined ? undefined : lastParameter(itemPath);
  let idMember: string | undefined;
  if (linked.length > 0) {
    idParameter = linked[0]!.parameter;
    idMember = linked[0]!.member;
    itemPath = linked[0]!.operation.path;
    for (const { operation } of linked)
      roles.set(operation.pointer, { role: ITEM_ROLES[operation.method]!, by: 'links' });
  } else if (itemPath !== undefined) {
    for (const op of byPath.get(itemPath) ?? [])
      if (ITEM_ROLES[op.method] !== undefined) roles.set(op.pointer, { role: ITEM_ROLES[op.method]!, by: 'shape' });
  }
  const itemOps = [...roles].filter(([, { role }]) => role !== 'create' && role !== 'list').map(([pointer]) => pointer);
  const read = [...(byPath.get(itemPath ?? '') ?? [])].find(
    (op) => itemOps.includes(op.pointer) && op.method === 'GET',
  );
  const put = [...(byPath.get(itemPath ?? '') ?? [])].find((op) => itemOps.includes(op.pointer) && op.method === 'PUT');
  const createBody = create === undefined ? undefined : jsonBodySchema(doc, create);
  const item = (create && successSchema(doc, create)) ??
    (read && successSchema(doc, read)) ??
    createBody ??
    (put && jsonBodySchema(doc, put)) ?? { schema: {}, pointer: '#' };
  const idOperation = [...(byPath.get(itemPath ?? '') ?? [])].find((op) => itemOps.includes(op.pointer));
  return {
    key: primary ? '' : collectionPath.replace(/\{[^{}/]+\}/g, '{}'),
    noun: nounOf(collectionPath),
    collectionPath,
    itemPath,
    idParameter,
    scope: parametersOf(collectionPath),
    parent: undefined,
    id: idRule(doc, { item, createBody, idMember, idParameter, idOperation, putCreates: create === undefined }),
    item,
    createBody,
    roles,
    references: [],
  };
}

/** `collection/{x}` where the document declares it with a path parameter x of integer, number or string type; undefined otherwise. */
function itemPathOf(
  doc: OpenApiDocument,
  collection: string,
  byPath: Map<string, OperationLocation[]>,
): string | undefined {
  const prefix = collection.endsWith('/') ? collection : `${collection}/`;
  for (const [path, ops] of byPath) {
    if (!path.startsWith(prefix) || !/^\{[^{}/]+\}$/.test(path.slice(prefix.length))) continue;
    const name = lastParameter(path)!;
    if (ops.some((op) => idParameterType(doc, op, name) !== undefined)) return path;
  }
  return undefined;
}

/** The kind of the path parameter `name` of the operation, where it is integer (or number) or string; undefined otherwise. */
export function idParameterType(
  doc: OpenApiDocument,
  operation: OperationLocation,
  name: string,
): 'integer' | 'string' | undefined {
  const found = operation.parameters.find(({ parameter }) => parameter.in === 'path' && parameter.name === name);
  if (found === undefined || found.parameter.schema === undefined || !operation.path.includes(`{${name}}`))
    return undefined;
  const { value: schema } = resolveReference(doc, found.parameter.schema, childPointer(found.pointer, 'schema'));
  const type = (schema as { type?: unknown }).type;
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : [];
  if (types.includes('string')) return 'string';
  // A number id is kept as an integer (resource-ids.ts).
  if (types.includes('integer') || types.includes('number')) return 'integer';
  return undefined;
}

/** The operations the create's answers link to, each with the path parameter a body member fills, and that member. */
function linkedItemOperations(
  doc: OpenApiDocument,
  create: OperationLocation,
  operations: readonly OperationLocation[],
): Array<{ operation: OperationLocation; parameter: string; member: string }> {
  const byId = new Map(
    operations
      .filter(({ operation }) => typeof operation.operationId === 'string')
      .map((op) => [op.operation.operationId as string, op]),
  );
  const byPointer = new Map(operations.map((op) => [op.pointer, op]));
  const linked: Array<{ operation: OperationLocation; parameter: string; member: string }> = [];
  for (const link of successLinks(doc, create.operation.responses, create.pointer)) {
    const target =
      typeof link.operationId === 'string'
        ? byId.get(link.operationId)
        : typeof link.operationRef === 'string'
          ? byPointer.get(decodeURIComponent(link.operationRef))
          : undefined;
    if (target === undefined || ITEM_ROLES[target.method] === undefined || !isSchemaObject(link.parameters)) continue;
    for (const [parameter, expression] of Object.entries(link.parameters)) {
      // A parameter may be qualified by its location (`path.plantId`, OpenAPI 3.1 §4.8.20.1).
      const bare = parameter.startsWith('path.') ? parameter.slice('path.'.length) : parameter;
      const member = typeof expression === 'string' ? LINKED_MEMBER.exec(expression)?.[2] : undefined;
      if (member === undefined || idParameterType(doc, target, bare) === undefined) continue;
      if (!linked.some(({ operation }) => operation === target))
        linked.push({ operation: target, parameter: bare, member: decodeURIComponent(member) });
    }
  }
  return linked;
}

function parentOf(resource: Resource, resources: readonly Resource[]): Resource | undefined {
  const last = resource.collectionPath.lastIndexOf('}');
  if (last === -1) return undefined;
  const prefix = unnamed(resource.collectionPath.slice(0, last + 1));
  return resources.find(
    (other) => other !== resource && other.itemPath !== undefined && unnamed(other.itemPath) === prefix,
  );
}

const unnamed = (path: string) => path.replace(/\{[^{}/]+\}/g, '{}');

function parametersOf(path: string): string[] {
  return [...path.matchAll(/\{([^{}/]+)\}/g)].map(([, name]) => name!);
}

function lastParameter(path: string): string | undefined {
  return /\{([^{}/]+)\}$/.exec(path)?.[1];
}

/** The noun of a collection path: its last literal segment's last word, in the singular. */
export function nounOf(path: string): string {
  const segment = path
    .split('/')
    .filter((part) => part !== '' && !part.startsWith('{'))
    .at(-1);
  return singular(wordsOf(segment ?? 'item').at(-1) ?? 'item');
}

/** The lowest 2xx status the operation declares. */
export function lowestSuccess(operation: OperationLocation): string | undefined {
  return Object.keys(operation.operation.responses ?? {})
    .filter((status) => /^2\d\d$/.test(status))
    .sort()[0];
}

/** The schema of the operation's JSON request body, and where it is. */
export function jsonBodySchema(doc: OpenApiDocument, operation: OperationLocation): Located | undefined {
  if (operation.operation.requestBody === undefined) return undefined;
  const { value: body, pointer } = resolveReference(
    doc,
    operation.operation.requestBody,
    childPointer(operation.pointer, 'requestBody'),
  );
  const mediaType = Object.keys(body.content ?? {}).find(isJsonBased);
  const schema = mediaType === undefined ? undefined : body.content[mediaType]?.schema;
  return schema === undefined ? undefined : { schema, pointer: childPointer(pointer, 'content', mediaType!, 'schema') };
}

/** The schema of the operation's lowest 2xx answer that declares JSON content. */
export function successSchema(doc: OpenApiDocument, operation: OperationLocation): Located | undefined {
  const responses = operation.operation.responses ?? {};
  for (const status of Object.keys(responses)
    .filter((key) => /^2\d\d$/.test(key))
    .sort()) {
    const { value, pointer } = resolveReference(
      doc,
      responses[status] as ResponseObject,
      childPointer(operation.pointer, 'responses', status),
    );
    const mediaType = Object.keys(value.content ?? {}).find(isJsonBased);
    const schema = mediaType === undefined ? undefined : value.content![mediaType]!.schema;
    if (schema !== undefined) return { schema, pointer: childPointer(pointer, 'content', mediaType!, 'schema') };
  }
  return undefined;
}
