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

/** createAll's outcome: stored, refused for the caps, or refused because these ids of the list are stored already. */
export type CreateAllResult = 'created' | 'full' | { taken: string[] };

/** A store's answer now (the in-memory store) or later (a database). */
export type MaybePromise<T> = T | Promise<T>;

/** What a store holds, as the caps count it. */
export interface StoreUsage {
  plants: number;
  /** The plants' bytes as plantBytes() counts them. */
  bytes: number;
}

/** What GET /__health reports of the store. */
export interface StoreHealth {
  /** 'memory' or 'postgresql'. */
  store: string;
  /** Whether the store answers now. */
  ok: boolean;
  /** Why not, when it does not (no credentials in it). */
  reason?: string;
}

/** A store that cannot be used at start (its database unreachable): the server exits 2 with this message, which names no password. */
export class StoreStartError extends Error {}

/**
 * A store that cannot answer now (its database is unreachable): the
 * request is answered 503 with Retry-After, and nothing is taken as stored.
 */
export class StoreUnavailableError extends Error {
  constructor(
    message: string,
    /** Seconds a client should wait before trying again. */
    readonly retryAfterSeconds = 1,
  ) {
    super(message);
  }
}

/**
 * A store keeps at most `maxPlants` plants and at most `maxBytes` bytes of
 * plants, each plant counted by plantBytes(); a create that would pass
 * either cap is refused with 'full' and changes nothing. Every store
 * implementation counts the same way, so the caps mean the same whatever
 * holds the plants. A taken id wins over a full store: a duplicate is a
 * duplicate whatever room is left.
 *
 * Methods answer at once (the in-memory store) or with a promise (a
 * database); a store that cannot answer throws or rejects with
 * StoreUnavailableError. An answer 'created' means the plant is stored for
 * good: a database store answers it only once the insert is committed.
 */
export interface PlantStore {
  /** Stores the plant under `id` unless the id is taken or the store is full. */
  create(id: string, plant: StoredPlant): MaybePromise<CreateResult>;
  /**
   * Stores every entry, or none. The ids of the list are distinct (the
   * caller checks): { taken } lists those already stored; 'full' when they
   * would not all fit.
   */
  createAll(entries: readonly PlantEntry[]): MaybePromise<CreateAllResult>;
  get(id: string): MaybePromise<StoredPlant | undefined>;
  /** Every stored plant with its id, in the order they were stored. */
  list(): MaybePromise<PlantEntry[]>;
  /** Removes every plant; answers how many there were. */
  clear(): MaybePromise<number>;
  usage(): MaybePromise<StoreUsage>;
  health(): MaybePromise<StoreHealth>;
  /** Lets go of what the store holds open (a database's connections). */
  close(): MaybePromise<void>;
}

/** The in-memory store answers at once. */
export interface MemoryStore extends PlantStore {
  create(id: string, plant: StoredPlant): CreateResult;
  createAll(entries: readonly PlantEntry[]): CreateAllResult;
  get(id: string): StoredPlant | undefined;
  list(): PlantEntry[];
  clear(): number;
  usage(): StoreUsage;
  readonly size: number;
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

export function createMemoryStore(maxPlants: number = DEFAULT_MAX_PLANTS, maxBytes: number = DEFAULT_MAX_BYTES): MemoryStore {
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
      const taken = entries.filter(({ id }) => plants.has(keyOf(id))).map(({ id }) => id);
      if (taken.length > 0) return { taken };
      let more = 0;
      for (const { id, plant } of entries) more += plantBytes(id, plant);
      if (!fits(entries.length, more)) return 'full';
      for (const { id, plant } of entries) plants.set(keyOf(id), plant);
      bytes += more;
      return 'created';
    },
    get: (id) => plants.get(keyOf(id)),
    list: () => Array.from(plants, ([key, plant]) => ({ id: String(key), plant })),
    clear: () => {
      const count = plants.size;
      plants.clear();
      bytes = 0;
      return count;
    },
    usage: () => ({ plants: plants.size, bytes }),
    health: () => ({ store: 'memory', ok: true }),
    close: () => {},
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
