// Where a request's items are (store.ts, Place): the resource's key, and for
// a nested resource the key its path's parameters make (`/1` for
// /gardens/1/plants); whether the parent the path names is stored (the
// declared 404 when it is not); and the items a removed item leaves behind
// under it, removed with it.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import { NonIntegralNumber, type JsonValue } from '../json/json.js';
import type { ItemStore, MaybePromise, Place, PlantStore } from '../store/store.js';
import type { Resource } from './resources.js';

/** What an operation on a resource's items needs of the store and the request's path. */
export interface ResourcePlaces {
  resource: Resource;
  /** The items' place for the request: the resource's key and the parent's key its path names. */
  placeOf(request: FastifyRequest): Place;
  itemsAt(place: Place): ItemStore;
  /** Throws (or rejects with) the 404 when the parent item the request's path names is not stored; nothing to check at the top level. */
  checkParent(place: Place): MaybePromise<void>;
  /** Removes what lives under the item `id` of `place` (the items of the resources nested in it), once it is removed. */
  removeBelow(place: Place, id: string): MaybePromise<void>;
}

/** The places of `resource`'s items in `store`; `below` lists every resource nested in it, at any depth. */
export function resourcePlaces(resource: Resource, store: PlantStore, below: readonly Resource[]): ResourcePlaces {
  const top: Place = { resource: resource.key, parent: '' };
  const placeOf =
    resource.scope.length === 0
      ? () => top
      : (request: FastifyRequest): Place => ({
          resource: resource.key,
          parent: parentKey(resource.scope.map((name) => request.parameterValues!.path[name])),
        });
  const parent = resource.parent;
  const checkParent =
    parent === undefined
      ? () => undefined
      : ({ parent: key }: Place): MaybePromise<void> => {
          // The parent's own key is ours without its last segment, its id that segment.
          const cut = key.lastIndexOf('/');
          const id = decodeURIComponent(key.slice(cut + 1));
          const read = store.items({ resource: parent.key, parent: key.slice(0, cut) }).read(id);
          const judge = (json: string | undefined) => {
            if (json === undefined) throw new ApiError('PLANT_NOT_FOUND', `No ${parent.noun} has the id ${id}.`);
          };
          return read instanceof Promise ? read.then(judge) : judge(read);
        };
  const removeBelow =
    below.length === 0
      ? () => undefined
      : async ({ parent: key }: Place, id: string): Promise<void> => {
          const itemKey = `${key}/${encodeURIComponent(id)}`;
          for (const nested of below) await store.removeUnder(nested.key, itemKey);
        };
  // A top-level resource has one place: its items looked up once.
  const topItems = resource.scope.length === 0 ? store.items(top) : undefined;
  return {
    resource,
    placeOf,
    itemsAt: topItems === undefined ? (place) => store.items(place) : () => topItems,
    checkParent,
    removeBelow,
  };
}

/** The key of the parent the values of a collection path's parameters name: each value's text, percent-encoded, after a '/'. */
export function parentKey(values: ReadonlyArray<JsonValue | undefined>): string {
  return values.map((value) => `/${encodeURIComponent(valueText(value))}`).join('');
}

/** A path parameter's value as the id it is: an integer's exact digits, a string as it is. */
export function valueText(value: JsonValue | undefined): string {
  // A safe integer's decimal digits are String's (-0 aside, which is the id 0).
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value === 0 ? '0' : String(value);
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value)))
    return BigInt(value).toString();
  if (value instanceof NonIntegralNumber) return value.numeral;
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

/** The resources nested in `resource`, at any depth. */
export function nestedIn(resource: Resource, resources: readonly Resource[]): Resource[] {
  const below: Resource[] = [];
  const visit = (at: Resource) => {
    for (const other of resources)
      if (other.parent === at && !below.includes(other)) {
        below.push(other);
        visit(other);
      }
  };
  visit(resource);
  return below;
}
