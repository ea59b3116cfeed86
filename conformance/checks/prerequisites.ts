// What a request needs to exist first, and where it stands in the document's
// resources: an operation's place (the resource whose collection its path
// lies in, and whether it names one item of it), the values of the path
// parameters that name its parents, and the ids of the items its body names.
// The parents and the referenced items are stored by the runner before the
// checks (run/setup.ts), two of each parent (so that a child can be looked
// for under a parent it does not live under) and one of each other, in the
// order their own needs make (a parent's parent first); the requests to
// store them are built here, from the same model, and what came back is
// read here too. A collection the runner could not store an item of makes
// every request that needs one skip, saying why.
import { operationName } from '../model/operation-model.js';
import type { JsonValue } from '../model/json.js';
import { prerequisitesOf, resourceNamed, type ResourceModel } from '../model/resource.js';
import { RuledOut } from '../model/ruled-out.js';
import type { SpecModel } from '../model/spec-model.js';
import { primitiveText } from '../cases/parameter-style.js';
import type { CheckContext, StoredItem } from './types.js';
import type { Exchange, RequestSpec } from './exchange.js';
import { createdId } from './created.js';

/** Where an operation stands: the resource whose collection path its path lies in, and whether it names one item of it. */
export interface Place {
  resource: ResourceModel;
  /** The path goes past the collection into one item (`/plants/{id}`, `/plants/{id}/watering`). */
  onItem: boolean;
}

const segmentsOf = (path: string) => path.split('/').filter((s) => s !== '');
const isParameter = (segment: string) => /^\{[^{}/]+\}$/.test(segment);

/** Whether the template `prefix` is the template `path`, or its start (every parameter alike). */
function startsLike(path: string[], prefix: string[]): boolean {
  return (
    prefix.length <= path.length && prefix.every((s, i) => (isParameter(s) ? isParameter(path[i]!) : s === path[i]))
  );
}

/** The place of an operation: the resource with the longest collection path its path starts like. */
export function placeOf(model: SpecModel, op: { path: string }): Place | undefined {
  const path = segmentsOf(op.path);
  let best: ResourceModel | undefined;
  for (const r of model.resources) {
    if (r.collection === undefined || !startsLike(path, segmentsOf(r.collection))) continue;
    if (!best || segmentsOf(r.collection).length > segmentsOf(best.collection!).length) best = r;
  }
  if (!best) return undefined;
  const depth = segmentsOf(best.collection!).length;
  return { resource: best, onItem: path.length > depth && isParameter(path[depth]!) };
}

/** The names of an operation's path parameters, in the order its path gives them. */
export function pathParameterNames(path: string): string[] {
  return segmentsOf(path)
    .filter(isParameter)
    .map((s) => s.slice(1, -1));
}

/** The text an id is written as in a path. */
export const idText = (id: JsonValue) => primitiveText(id);

/** The items stored of a collection; throws RuledOut saying why there are none. */
export function storedOf(ctx: CheckContext, collection: string, need: string): readonly StoredItem[] {
  const stored = ctx.prerequisites?.stored.get(collection) ?? [];
  if (stored.length > 0) return stored;
  const why = ctx.prerequisites?.missing.get(collection) ?? 'nothing was stored before the checks';
  throw new RuledOut(`${need} needs an item of ${collection} first, and none could be stored: ${why}`);
}

/**
 * The texts of the path parameters that name an operation's parents (by
 * position: a resource's parents come first in its paths), from the
 * `which`-th stored item of the innermost parent. Empty where the resource
 * has no parent, or its parents are found by the path's shape and the
 * inference resource is switched off, or nothing was stored yet (the
 * diagnosis): the values are then drawn from the document.
 */
export function parentValues(
  ctx: CheckContext,
  op: { path: string; method: string },
  which = 0,
): Record<string, string> {
  const place = placeOf(ctx.model, op);
  const parents = place?.resource.parents ?? [];
  const inner = parents[parents.length - 1];
  if (!inner?.collection || !ctx.inferences.has('resource') || !ctx.prerequisites) return {};
  const stored = storedOf(ctx, inner.collection, operationName(op));
  const item = stored[Math.min(which, stored.length - 1)]!;
  const texts = [...item.ancestors, idText(item.id)];
  const names = pathParameterNames(op.path).slice(0, parents.length);
  if (texts.length !== names.length) return {};
  return Object.fromEntries(names.map((n, i) => [n, texts[i]!]));
}

/** The members of a create's body that name stored items of other collections, with their ids. */
export function referenceValues(ctx: CheckContext, r: ResourceModel): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  if (!ctx.prerequisites || !r.create) return out;
  for (const ref of r.references) {
    if (ref.by === 'name' && !ctx.inferences.has('reference')) continue;
    out[ref.member] = storedOf(ctx, ref.collection, `${operationName(r.create)} (its ${ref.member})`)[0]!.id;
  }
  return out;
}

/** How many items of each collection to store before the checks, in the order their own needs make. */
export function setupPlan(model: SpecModel): Array<{ collection: string; count: number }> {
  const wanted = new Map<string, number>();
  for (const r of model.resources) {
    for (const p of r.parents) if (p.collection !== undefined) wanted.set(p.collection, 2);
    for (const x of r.references) wanted.set(x.collection, Math.max(wanted.get(x.collection) ?? 0, 1));
  }
  const order: string[] = [];
  const visit = (collection: string, path: string[]) => {
    if (order.includes(collection) || path.includes(collection)) return;
    const r = resourceNamed(model.resources, collection);
    for (const need of r ? prerequisitesOf(r) : []) {
      if (!wanted.has(need)) wanted.set(need, 1);
      visit(need, [...path, collection]);
    }
    order.push(collection);
  };
  for (const c of [...wanted.keys()]) visit(c, []);
  return order.map((collection) => ({ collection, count: wanted.get(collection)! }));
}

/** The item a setup create stored, or why it stored none. */
export function setupStored(
  ctx: CheckContext,
  collection: string,
  sent: { request: RequestSpec; body: JsonValue },
  ex: Exchange,
  describe: (ex: Exchange) => string,
): StoredItem | string {
  const r = resourceNamed(ctx.model.resources, collection)!;
  if (!ex.response || ex.response.status < 200 || ex.response.status >= 300)
    return `${sent.request.method} ${sent.request.path} was answered ${describe(ex)}`;
  const { id } = createdId(ctx, r, sent.body, ex);
  if (id === undefined)
    return `the id of the item ${sent.request.method} ${sent.request.path} created is nowhere the harness looks (${r.identity.answer ? `the answer's ${r.identity.answer.member}` : 'no answer member'}, Location)`;
  return { collection, id, ancestors: Object.values(parentValues(ctx, { path: r.collection!, method: 'POST' })) };
}
