// The plant resource, found in the document alone: which declared
// operation lists, reads, replaces, merges or deletes the plants the create
// operation stores. The rules (docs/server.md, "Every operation"):
//
// - the collection path is the create operation's path (`/plants`); a GET
//   on it lists the plants;
// - an item path is the collection path and one more segment that is a
//   single path parameter of integer type (`/plants/{id}`, `/plants/{plantId}`),
//   which carries the id the create's body gave (`id`); GET on it reads,
//   PUT replaces, PATCH merges, DELETE removes;
// - where the create's answer declares OpenAPI links that name an operation
//   and map one of its parameters from `$request.body#/id` (or
//   `$response.body#/id`), the links decide: that operation is on the item,
//   and that parameter carries the id, wherever its path is;
// - every other operation is not on the resource (operations/examples.ts).
import {
  resolveReference,
  type OpenApiDocument,
  type OperationLocation,
  type ParameterObject,
} from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';

/** The property of the create's body that identifies a plant (the create rule keys the store by it). */
export const ID_PROPERTY = 'id';

export type PlantRole = 'list' | 'read' | 'replace' | 'merge' | 'delete';

/** An operation's place on the plant resource; `idParameter` names the path parameter of an item operation. */
export interface ResourceRole {
  role: PlantRole;
  idParameter?: string;
  /** Why it has this role: the path's shape, or the create's links. */
  by: 'shape' | 'links';
}

const ITEM_ROLES: Readonly<Record<string, PlantRole>> = {
  GET: 'read',
  PUT: 'replace',
  PATCH: 'merge',
  DELETE: 'delete',
};
const LINKED_ID = new RegExp(`^\\$(request|response)\\.body#/${ID_PROPERTY}$`);

/** The role of each operation on the resource, by its pointer; operations not on it are absent. */
export function plantRoles(
  doc: OpenApiDocument,
  create: OperationLocation,
  operations: readonly OperationLocation[],
): Map<string, ResourceRole> {
  const roles = new Map<string, ResourceRole>();
  const linked = linkedIdParameters(doc, create, operations);
  for (const operation of operations) {
    if (operation.pointer === create.pointer) continue;
    const link = linked.get(operation.pointer);
    const itemRole = ITEM_ROLES[operation.method];
    if (link !== undefined && itemRole !== undefined && integerPathParameter(doc, operation, link)) {
      roles.set(operation.pointer, { role: itemRole, idParameter: link, by: 'links' });
    } else if (operation.path === create.path && operation.method === 'GET') {
      roles.set(operation.pointer, { role: 'list', by: 'shape' });
    } else if (itemRole !== undefined) {
      const parameter = itemParameter(create.path, operation.path);
      if (parameter !== undefined && integerPathParameter(doc, operation, parameter))
        roles.set(operation.pointer, { role: itemRole, idParameter: parameter, by: 'shape' });
    }
  }
  return roles;
}

/** The name of the single path parameter that makes `path` an item of `collection` (`/plants/{id}`), or undefined. */
function itemParameter(collection: string, path: string): string | undefined {
  const prefix = collection.endsWith('/') ? collection : `${collection}/`;
  if (!path.startsWith(prefix)) return undefined;
  return /^\{([^{}/]+)\}$/.exec(path.slice(prefix.length))?.[1];
}

/** Whether the operation declares `name` as a path parameter whose schema is of integer type. */
function integerPathParameter(doc: OpenApiDocument, operation: OperationLocation, name: string): boolean {
  const found = operation.parameters.find(({ parameter }) => parameter.in === 'path' && parameter.name === name);
  if (found === undefined || !operation.path.includes(`{${name}}`)) return false;
  return allowsInteger(doc, found.parameter, found.pointer);
}

function allowsInteger(doc: OpenApiDocument, parameter: ParameterObject, pointer: string): boolean {
  if (parameter.schema === undefined) return false;
  const { value: schema } = resolveReference(doc, parameter.schema, childPointer(pointer, 'schema'));
  const type = (schema as { type?: unknown }).type;
  return type === 'integer' || (Array.isArray(type) && type.includes('integer'));
}

/** The operations the create's answers link to with a parameter carrying the created id: pointer → parameter name. */
function linkedIdParameters(
  doc: OpenApiDocument,
  create: OperationLocation,
  operations: readonly OperationLocation[],
): Map<string, string> {
  const byId = new Map(
    operations
      .filter(({ operation }) => typeof operation.operationId === 'string')
      .map((op) => [op.operation.operationId as string, op]),
  );
  const byPointer = new Map(operations.map((op) => [op.pointer, op]));
  const linked = new Map<string, string>();
  for (const [status, raw] of Object.entries(create.operation.responses ?? {})) {
    if (!status.startsWith('2')) continue;
    const { value: response, pointer } = resolveReference(doc, raw, childPointer(create.pointer, 'responses', status));
    const links = (response as { links?: unknown }).links;
    if (!isSchemaObject(links)) continue;
    for (const [name, rawLink] of Object.entries(links)) {
      const { value: link } = resolveReference(
        doc,
        rawLink as Record<string, unknown>,
        childPointer(pointer, 'links', name),
      );
      const target =
        typeof link.operationId === 'string'
          ? byId.get(link.operationId)
          : typeof link.operationRef === 'string'
            ? byPointer.get(decodeURIComponent(link.operationRef))
            : undefined;
      if (target === undefined || !isSchemaObject(link.parameters)) continue;
      for (const [parameter, expression] of Object.entries(link.parameters)) {
        // A parameter may be qualified by its location (`path.plantId`, OpenAPI 3.1 §4.8.20.1).
        const bare = parameter.startsWith('path.') ? parameter.slice('path.'.length) : parameter;
        if (typeof expression === 'string' && LINKED_ID.test(expression)) linked.set(target.pointer, bare);
      }
    }
  }
  return linked;
}
