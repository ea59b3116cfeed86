// The in-memory store: each resource's items in a ResourceItems of their own
// (memory-items.ts: ids and texts outside the V8 heap), the caps and the
// running seq shared by all of them. The plant resource's top-level items
// (PLANTS) are the store's own methods, without a place to look up: the
// shipped document's create is as fast as when they were the only items.
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_PLANTS } from '../limits.js';
import { ResourceItems, type SharedCount } from './memory-items.js';
import { plantFromJson, PLANTS, type MemoryItems, type MemoryStore, type Place } from './store.js';

export function createMemoryStore(
  maxPlants: number = DEFAULT_MAX_PLANTS,
  maxBytes: number = DEFAULT_MAX_BYTES,
): MemoryStore {
  const shared: SharedCount = { items: 0, bytes: 0, nextSeq: 1, maxItems: maxPlants, maxBytes };
  /** Each resource's items, by its key. */
  let resources = new Map<string, ResourceItems>();
  const counters = new Map<string, number>();
  const resourceOf = (place: Place): ResourceItems => {
    let items = resources.get(place.resource);
    if (items === undefined) resources.set(place.resource, (items = new ResourceItems(shared)));
    return items;
  };
  const placed = (place: Place): MemoryItems => {
    const { parent } = place;
    // Looked up on each call: clear() replaces every resource's items.
    const items = () => resourceOf(place);
    return {
      create: (id, json) => items().create(parent, id, json),
      createAll: (entries) => items().createAll(parent, entries),
      read: (id) => items().read(parent, id),
      update: (id, change) => items().update(parent, id, change),
      remove: (id, check) => items().remove(parent, id, check),
      list: (after, limit, pageBytes, options) => items().list(parent, after, limit, pageBytes, options),
      count: () => items().count(parent),
    };
  };
  let plants = resourceOf(PLANTS);
  const views = new Map<string, MemoryItems>();
  const store: MemoryStore = {
    // The plant resource's top-level items: no lookup on the hot path.
    create: (id, json) => plants.create('', id, json),
    createAll: (entries) => plants.createAll('', entries),
    read: (id) => plants.read('', id),
    get: (id) => {
      const json = plants.read('', id);
      return json === undefined ? undefined : plantFromJson(json);
    },
    update: (id, change) => plants.update('', id, change),
    remove: (id, check) => plants.remove('', id, check),
    list: (after, limit, pageBytes, options) => plants.list('', after, limit, pageBytes, options),
    count: () => plants.count(''),
    items(place) {
      // The plant resource's top level is the store's own methods.
      if (place.resource === '' && place.parent === '') return store;
      const key = `${place.resource}\u0000${place.parent}`;
      let view = views.get(key);
      // Views are kept while few; a view per parent of a large nested resource is made when asked for.
      if (view === undefined) {
        view = placed(place);
        if (views.size < 1024) views.set(key, view);
      }
      return view;
    },
    removeUnder: (resource, parent) => resources.get(resource)?.removeUnder(parent) ?? 0,
    nextNumbers(resource, count) {
      const first = counters.get(resource) ?? 1;
      counters.set(resource, first + count);
      return first;
    },
    clear: () => {
      const count = shared.items;
      // The seqs go on: an `after` from before the clear finds what is stored since. So do the sequences of ids.
      resources = new Map();
      plants = resourceOf(PLANTS);
      shared.items = 0;
      shared.bytes = 0;
      return count;
    },
    usage: () => ({ plants: shared.items, bytes: shared.bytes }),
    health: () => ({ store: 'memory', ok: true }),
    close: () => {},
  };
  return store;
}
