// The bodies of the requests that change an item (PUT, PATCH): the JSON
// media type to send, the string member a change sets (not the id, not
// readOnly), and a body with as few members as its schema allows. The state
// checks (state-update.ts) and the conditional requests (cond.ts) change
// items with them.
import type { JsonValue } from '../model/json.js';
import type { OperationModel, RequestBodyModel } from '../model/operation-model.js';
import type { ResourceModel } from '../model/resource.js';
import { flattenObject } from '../model/schema-shape.js';
import { isJsonMedia, writable } from './op-requests.js';
import type { CheckContext } from './types.js';

/** The members an item's id may be in: the request's id member and the answer's. */
export const idMembers = (r: ResourceModel) =>
  [r.identity.request, r.identity.answer?.member].filter((m): m is string => m !== undefined);

/** A string property of the body's schema other than the id, which a change can set (not readOnly). */
export function changeable(ctx: CheckContext, r: ResourceModel, media: RequestBodyModel): string | undefined {
  if (!media.schema) return undefined;
  return flattenObject(ctx.model.doc, media.schema.schema, media.schema.pointer).fields.find(
    (f) => !idMembers(r).includes(f.name) && !f.readOnly && f.types.includes('string'),
  )?.name;
}

/** The JSON media type of an operation's body (merge-patch+json first for a PATCH). */
export function jsonMedia(op: OperationModel): RequestBodyModel | undefined {
  const medias = op.requestBodies.filter((b) => writable(b) && isJsonMedia(b.contentType));
  return medias.find((b) => b.contentType.includes('merge-patch')) ?? medias[0];
}

/** The body without each member it can do without (its schema still accepting it), `keep` aside. */
export function leanest(media: RequestBodyModel, body: JsonValue, keep: string[]): JsonValue {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  let out = body as Record<string, JsonValue>;
  for (const name of Object.keys(out).filter((k) => !keep.includes(k))) {
    const without = Object.fromEntries(Object.entries(out).filter(([k]) => k !== name));
    if ((media.validate?.(without) ?? []).length === 0) out = without;
  }
  return out;
}
