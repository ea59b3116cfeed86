// Body members that name an item of another resource (an order's plantId):
// a create, a replace or a merge whose member names an item the store does
// not hold is refused with the operation's declared 4xx (create.ts,
// item.ts). Found two ways (docs/server.md, "References"):
//
//   links   the resource's create or read answer declares an OpenAPI link
//           to another resource's read, filling its id parameter from
//           `$response.body#/P` or `$request.body#/P`: P names that item
//           (OpenAPI 3.1 §4.8.20); always on
//   names   a member named after another top-level resource's noun and
//           `id` (`plantId`, `plant_id`), of the type of that resource's
//           ids; an inference from names, the switch `reference` of
//           PLANTSTORE_INFER
//
// Only a top-level resource can be named so: an item of a nested one is
// known by its parent too, which a member alone does not give.
import { resolveReference, type OpenApiDocument } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import { ApiError, type ErrorCode } from '../http/errors.js';
import type { JsonObject } from '../json/json.js';
import { andThen, type MaybePromise, type PlantStore } from '../store/store.js';
import { idOfValue } from './resource-ids.js';
import type { Reference, Resource } from './resource-model.js';
import { declaredProperties, wordsOf } from './schema-properties.js';

export type { Reference } from './resource-model.js';

/** What a reference check reads of an item to store (a create's NewItem): its body. */
export interface ReferringItem {
  value?: JsonObject;
}

const LINKED_MEMBER = /^\$(request|response)\.body#\/([^/]+)$/;

/** The Link Objects (OpenAPI 3.1 §4.8.20) of an operation's 2xx responses, each resolved; `pointer` is the operation's. */
export function successLinks(
  doc: OpenApiDocument,
  responses: Record<string, unknown> | undefined,
  pointer: string,
): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = [];
  for (const [status, raw] of Object.entries(responses ?? {})) {
    if (!status.startsWith('2')) continue;
    const { value: response, pointer: at } = resolveReference(doc, raw, childPointer(pointer, 'responses', status));
    const links = (response as { links?: unknown }).links;
    if (!isSchemaObject(links)) continue;
    for (const [name, rawLink] of Object.entries(links))
      found.push(resolveReference(doc, rawLink as Record<string, unknown>, childPointer(at, 'links', name)).value);
  }
  return found;
}

export function referencesOf(
  doc: OpenApiDocument,
  resource: Resource,
  resources: readonly Resource[],
  options: { inferReferences: boolean },
): Reference[] {
  const references: Reference[] = [];
  const seen = new Set<string>();
  const add = (property: string, target: Resource, by: Reference['by']) => {
    if (seen.has(property) || target === resource || property === resource.id.property) return;
    seen.add(property);
    references.push({ property, target, by });
  };
  // Links: on the answers of the resource's create and read.
  for (const [pointer, { role }] of resource.roles) {
    if (role !== 'create' && role !== 'read') continue;
    const operation = resolveReference(doc, { $ref: pointer }, pointer).value as {
      responses?: Record<string, unknown>;
    };
    for (const link of successLinks(doc, operation.responses, pointer)) {
      const target = resources.find((other) =>
        [...other.roles].some(
          ([otherPointer, { role: otherRole }]) =>
            otherRole === 'read' &&
            (otherPointer === link.operationRef ||
              (resolveReference(doc, { $ref: otherPointer }, otherPointer).value as { operationId?: unknown })
                .operationId === link.operationId),
        ),
      );
      if (target === undefined || target.scope.length > 0 || !isSchemaObject(link.parameters)) continue;
      for (const expression of Object.values(link.parameters)) {
        const member = typeof expression === 'string' ? LINKED_MEMBER.exec(expression)?.[2] : undefined;
        if (member !== undefined) add(decodeURIComponent(member), target, 'links');
      }
    }
  }
  if (!options.inferReferences) return references;
  // Names: <noun>Id, <noun>_id, of the type of the target's ids.
  const body = resource.createBody ?? resource.item;
  for (const [name, property] of declaredProperties(doc, body.schema, body.pointer)) {
    const words = wordsOf(name);
    if (words.length !== 2 || words[1] !== 'id') continue;
    const target = resources.find((other) => other.scope.length === 0 && other.noun === words[0]);
    if (target === undefined) continue;
    const type = property.schema.type;
    const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : [];
    if (types.includes(target.id.kind)) add(name, target, 'names');
  }
  return references;
}

/**
 * The check of a create's, replace's or merge's body: each reference whose
 * member it carries must name a stored item of its target, else the
 * operation's declared 422, else its 409, else its 400 (Unprocessable
 * Content where it declares none of them, RFC 9110 §15.5.21).
 */
export function referenceCheck(
  references: readonly Reference[],
  store: PlantStore,
  responses: Record<string, unknown>,
): (item: ReferringItem) => MaybePromise<void> {
  const code: ErrorCode =
    '422' in responses
      ? 'UNKNOWN_REFERENCE_UNPROCESSABLE'
      : '409' in responses
        ? 'UNKNOWN_REFERENCE_CONFLICT'
        : '400' in responses
          ? 'UNKNOWN_REFERENCE'
          : 'UNKNOWN_REFERENCE_UNPROCESSABLE';
  const check = (item: ReferringItem, at: number): MaybePromise<void> => {
    for (let i = at; i < references.length; i++) {
      const { property, target } = references[i]!;
      const value = item.value === undefined || !Object.hasOwn(item.value, property) ? undefined : item.value[property];
      const id = idOfValue(value, target.id.kind);
      if (id === undefined) continue;
      return andThen(store.items({ resource: target.key, parent: '' }).read(id), (json) => {
        if (json === undefined)
          throw new ApiError(
            code,
            `The body's ${property} names no stored ${target.noun}: no ${target.noun} has the id ${id}.`,
          );
        return check(item, i + 1);
      });
    }
  };
  return (item) => check(item, 0);
}
