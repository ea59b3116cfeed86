// The plant store: an interface, and the in-memory implementation.

/** A stored plant: what the client sent, without the id (the Plant schema). */
export interface StoredPlant {
  name: string;
  tag?: string;
}

export type CreateResult = 'created' | 'exists' | 'full';

export interface PlantStore {
  /** Stores the plant under `id` (an exact int64 as a decimal string) unless the id is taken or the store is full. */
  create(id: string, plant: StoredPlant): CreateResult;
  get(id: string): StoredPlant | undefined;
  /** Every stored plant with its id, in insertion order. */
  list(): Array<{ id: string; plant: StoredPlant }>;
  clear(): void;
  readonly size: number;
}

export function createMemoryStore(maxPlants: number = 1_000_000): PlantStore {
  // Keyed by the id as a number when it is a safe integer (most ids), else by
  // its decimal string: a number key takes no memory of its own for ids below
  // 2^31 and a small one above, where a string key costs a heap string per
  // plant (about 40 MB for a million plants). keyOf maps each id to exactly
  // one key, so number and string keys never stand for the same id.
  const plants = new Map<number | string, StoredPlant>();
  return {
    create(id, plant) {
      const key = keyOf(id);
      // Check and insert happen in one synchronous step, so concurrent
      // creates of one id cannot both succeed.
      if (plants.has(key)) return 'exists';
      if (plants.size >= maxPlants) return 'full';
      plants.set(key, plant);
      return 'created';
    },
    get: (id) => plants.get(keyOf(id)),
    list: () => Array.from(plants, ([key, plant]) => ({ id: String(key), plant })),
    clear: () => plants.clear(),
    get size() {
      return plants.size;
    },
  };
}

/** The map key of an id: a number for a canonical safe-integer decimal ("-0" is not canonical), else the string itself. */
function keyOf(id: string): number | string {
  if (id.length > 16) return id; // 17 characters or more: near or beyond 2^53, keep the digits as the key
  const value = Number(id);
  return Number.isSafeInteger(value) && String(value) === id ? value : id;
}
