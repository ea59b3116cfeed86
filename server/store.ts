// The plant store: an interface, the accounting of its caps, and the
// in-memory implementation.
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_PLANTS, PLANT_OVERHEAD_BYTES } from './limits.js';

/** A stored plant: what the client sent, without the id (the Plant schema). */
export interface StoredPlant {
  name: string;
  tag?: string;
}

export interface PlantEntry {
  /** An exact int64 as a decimal string. */
  id: string;
  plant: StoredPlant;
}

/** 'full': storing would pass the store's count cap or its byte budget. */
export type CreateResult = 'created' | 'exists' | 'full';

/**
 * A store keeps at most `maxPlants` plants and at most `maxBytes` bytes of
 * plants, each plant counted by plantBytes(); a create that would pass
 * either cap is refused with 'full' and changes nothing. Every store
 * implementation counts the same way, so the caps mean the same whatever
 * holds the plants.
 */
export interface PlantStore {
  /** Stores the plant under `id` unless the id is taken or the store is full. */
  create(id: string, plant: StoredPlant): CreateResult;
  /**
   * Stores every entry, or none: 'exists' when an id is taken (or repeated
   * in the list), 'full' when they would not all fit.
   */
  createAll(entries: readonly PlantEntry[]): CreateResult;
  get(id: string): StoredPlant | undefined;
  /** Every stored plant with its id, in insertion order. */
  list(): PlantEntry[];
  clear(): void;
  readonly size: number;
  /** The plants' bytes as plantBytes() counts them. */
  readonly bytes: number;
}

export interface StoreLimits {
  /** Most plants (PLANTSTORE_MAX_PLANTS). */
  maxPlants: number;
  /** Most bytes of plants (PLANTSTORE_MAX_BYTES). */
  maxBytes: number;
}

/**
 * What one plant counts against the byte budget: 2 bytes per UTF-16 code
 * unit of its id (in decimal), name and tag, plus PLANT_OVERHEAD_BYTES. An
 * upper bound of what the in-memory store holds per plant (V8 keeps a string
 * in 1 or 2 bytes per code unit; the overhead covers the map slot, the
 * object and the string headers), checked by test/robustness/memory.test.ts.
 */
export function plantBytes(id: string, plant: StoredPlant): number {
  return PLANT_OVERHEAD_BYTES + 2 * id.length + fieldBytes(plant.name) + fieldBytes(plant.tag);
}

/**
 * A field's bytes: 2 per UTF-16 code unit of a string. A field of another
 * type (an evolved document may make tag nullable, say) counts 2 bytes per
 * character of its JSON text.
 */
function fieldBytes(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'string') return 2 * value.length;
  return 2 * JSON.stringify(value, (_name, member: unknown) => (typeof member === 'bigint' ? member.toString() : member)).length;
}

export function createMemoryStore(maxPlants: number = DEFAULT_MAX_PLANTS, maxBytes: number = DEFAULT_MAX_BYTES): PlantStore {
  // Keyed by the id as a number when it is a safe integer (most ids), else by
  // its decimal string: a number key takes no memory of its own for ids below
  // 2^31 and a small one above, where a string key costs a heap string per
  // plant (about 40 MB for a million plants). keyOf maps each id to exactly
  // one key, so number and string keys never stand for the same id.
  const plants = new Map<number | string, StoredPlant>();
  let bytes = 0;
  const fits = (count: number, more: number) => plants.size + count <= maxPlants && bytes + more <= maxBytes;
  return {
    create(id, plant) {
      const key = keyOf(id);
      // Check and insert happen in one synchronous step, so concurrent
      // creates of one id cannot both succeed.
      if (plants.has(key)) return 'exists';
      const size = plantBytes(id, plant);
      if (!fits(1, size)) return 'full';
      plants.set(key, plant);
      bytes += size;
      return 'created';
    },
    createAll(entries) {
      const keys = new Set<number | string>();
      let more = 0;
      for (const { id, plant } of entries) {
        const key = keyOf(id);
        if (plants.has(key) || keys.has(key)) return 'exists';
        keys.add(key);
        more += plantBytes(id, plant);
      }
      if (!fits(entries.length, more)) return 'full';
      for (const { id, plant } of entries) plants.set(keyOf(id), plant);
      bytes += more;
      return 'created';
    },
    get: (id) => plants.get(keyOf(id)),
    list: () => Array.from(plants, ([key, plant]) => ({ id: String(key), plant })),
    clear: () => {
      plants.clear();
      bytes = 0;
    },
    get size() {
      return plants.size;
    },
    get bytes() {
      return bytes;
    },
  };
}

/** The map key of an id: a number for a canonical safe-integer decimal ("-0" is not canonical), else the string itself. */
function keyOf(id: string): number | string {
  if (id.length > 16) return id; // 17 characters or more: near or beyond 2^53, keep the digits as the key
  const value = Number(id);
  return Number.isSafeInteger(value) && String(value) === id ? value : id;
}
