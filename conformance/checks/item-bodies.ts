// The body of a create of any resource: for the create the create checks
// exercise, a valid NewPlant as they make it (requests.ts validPlant); for
// any other collection's, a valid body of its media type (operation-bodies.ts)
// with a fresh id in the member the client chooses it in, of whatever kind
// the document gives it (fresh-ids.ts), and the ids of the stored items its
// members name (prerequisites.ts). What the check sets is set, and the rest
// repaired around it.
import { isSchemaObject, type JsonSchema } from '../../spec/schema-keywords.js';
import type { JsonValue } from '../model/json.js';
import type { ResourceModel } from '../model/resource.js';
import { RuledOut } from '../model/ruled-out.js';
import { resolveSchema } from '../model/schema-shape.js';
import type { RequestBodyModel } from '../model/operation-model.js';
import { freshIdOf } from '../cases/fresh-ids.js';
import { freshIdValue } from '../cases/bodies.js';
import { validBody, type BodyChange } from '../cases/operation-bodies.js';
import { referenceValues } from './prerequisites.js';
import { validPlant, type Body } from './requests.js';
import type { CheckContext } from './types.js';

/** The JSON media type a create's body is sent in (its first declared one). */
export function createMedia(r: ResourceModel): RequestBodyModel | undefined {
  return r.create?.requestBodies[0];
}

/** A fresh id for the member `member` of a create of `r`, of the kind its schema gives, that keeps `base` valid. */
function freshMemberId(
  ctx: CheckContext,
  r: ResourceModel,
  media: RequestBodyModel,
  base: JsonValue,
  member: string,
): JsonValue {
  const declared = r.create?.request.fields.find((f) => f.name === member);
  const nodes: JsonSchema[] = [];
  if (declared) {
    const { schema } = resolveSchema(ctx.model.doc, declared.schema.schema, declared.schema.pointer);
    if (isSchemaObject(schema)) nodes.push(schema);
  }
  const fits = (v: JsonValue) =>
    base !== null && typeof base === 'object' && !Array.isArray(base)
      ? (media.validate?.({ ...(base as Body), [member]: v }) ?? []).length === 0
      : true;
  return freshIdOf(nodes, declared?.type, ctx.ids, fits);
}

/**
 * A valid body of a create of `r` with `fields` set: a fresh id where the
 * client chooses it (unless `fields` sets it), the stored items its members
 * name, the rest drawn and repaired. Throws RuledOut where the document
 * allows no such body, or an item it names could not be stored.
 */
export function itemBody(
  ctx: CheckContext,
  r: ResourceModel,
  fields: Record<string, JsonValue | undefined> = {},
  base: 'required' | 'full' = 'full',
): Body {
  const references = referenceValues(ctx, r);
  const wanted = { ...references, ...fields };
  if (r === ctx.model.resource) return validPlant(ctx, wanted, base);
  const media = createMedia(r);
  if (!media || !r.create)
    throw new RuledOut(`${r.collection ?? 'the collection'} declares no create to store an item with`);
  const changes: BodyChange[] = Object.entries(wanted).map(([k, v]) => [[k], v]);
  const member = r.identity.request;
  if (member !== undefined && !(member in wanted)) {
    const drawn = validBody(ctx.model, media, changes);
    changes.push([[member], freshMemberId(ctx, r, media, drawn, member)]);
  }
  const body = validBody(ctx.model, media, changes);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new RuledOut(`a create of ${r.collection ?? 'the collection'} takes no object body`);
  return body as Body;
}

/** An id no item of `r` has: a fresh one of its kind (its item parameter's schema decides). */
export function unknownIdOf(ctx: CheckContext, r: ResourceModel): JsonValue {
  if (r === ctx.model.resource && r.identity.request !== undefined) return freshIdValue(ctx.model, ctx.ids);
  const p = r.identity.parameter;
  if (!p) throw new RuledOut(`${r.collection} has no item path`);
  const schema = p.schema?.schema;
  const nodes =
    schema !== null && typeof schema === 'object' && !Array.isArray(schema) ? [schema as Record<string, unknown>] : [];
  return freshIdOf(nodes, r.identity.kind.type, ctx.ids, (v) => (p.validate?.(v) ?? []).length === 0);
}
