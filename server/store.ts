// The plant store: an interface, the accounting of its caps, and the
// in-memory implementation.
import { StartError } from '../lib/start-error.js';
import { NonIntegralNumber, parseJson, type JsonValue } from './json.js';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_PLANTS, PLANT_OVERHEAD_BYTES } from './limits.js';
import { PlantIds, type PlantKey } from './plant-ids.js';
import { keptBytes, PlantTexts } from './plant-texts.js';

/** A stored plant read back from its JSON text (get()): the members of the Plant record as sent, as plain objects. */
export interface StoredPlant {
  [property: string]: unknown;
}

/** A plant as a store keeps it: its id, and the JSON text of the answer, which is the plant. */
export interface PlantEntry {
  /** An exact int64 as a decimal string. */
  id: string;
  /** The plant's JSON text, as the API answers it. */
  json: string;
}

/** A page of the stored plants (PlantStore.list). */
export interface PlantPage {
  /** In the order stored. */
  plants: PlantEntry[];
  /** The `after` of the following page (the seq of this page's last plant); null when this page holds the newest plant. */
  next: number | null;
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
export class StoreStartError extends StartError {
  override readonly name = 'StoreStartError';
  constructor(message: string, options?: ErrorOptions) {
    super('PLANTSTORE_STORE_START', message, options);
  }
}

/**
 * A store that cannot answer now (its database is unreachable): the
 * request is answered 503 with Retry-After (STORE_RETRY_AFTER_SECONDS), and
 * nothing is taken as stored.
 */
export class StoreUnavailableError extends Error {}

/**
 * A store keeps at most `maxPlants` plants and at most `maxBytes` bytes of
 * plants, each plant counted by plantBytes() (its id and its JSON text as the
 * in-memory store keeps it, whatever holds it); a create that would pass
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
  /** Stores the plant `json` (its JSON text) under `id` unless the id is taken or the store is full. */
  create(id: string, json: string): MaybePromise<CreateResult>;
  /**
   * Stores every entry, or none. The ids of the list are distinct (the
   * caller checks): { taken } lists those already stored; 'full' when they
   * would not all fit.
   */
  createAll(entries: readonly PlantEntry[]): MaybePromise<CreateAllResult>;
  get(id: string): MaybePromise<StoredPlant | undefined>;
  /**
   * A page of the stored plants with their ids and JSON texts, in the order
   * they were stored: those whose seq is above `after`, at most `limit` of
   * them and at most `maxBytes` as plantBytes() counts them (one plant at
   * least, whatever its size). A plant's seq is its running number in the
   * order of storing, from 1; it is never reused, and clear() does not
   * reset it, so an `after` from before a clear finds what was stored since.
   */
  list(after: number, limit: number, maxBytes: number): MaybePromise<PlantPage>;
  /** Removes every plant; answers how many there were. */
  clear(): MaybePromise<number>;
  usage(): MaybePromise<StoreUsage>;
  health(): MaybePromise<StoreHealth>;
  /** Lets go of what the store holds open (a database's connections). */
  close(): MaybePromise<void>;
}

/** The in-memory store answers at once. */
export interface MemoryStore extends PlantStore {
  create(id: string, json: string): CreateResult;
  createAll(entries: readonly PlantEntry[]): CreateAllResult;
  get(id: string): StoredPlant | undefined;
  list(after: number, limit: number, maxBytes: number): PlantPage;
  clear(): number;
  usage(): StoreUsage;
}

export interface StoreLimits {
  /** Most plants (PLANTSTORE_MAX_PLANTS). */
  maxPlants: number;
  /** Most bytes of plants (PLANTSTORE_MAX_BYTES). */
  maxBytes: number;
}

/**
 * What one plant counts against the byte budget: what the in-memory store
 * keeps of it. Its JSON text as kept (plant-texts.ts, keptBytes: a byte a
 * character in latin1, two a UTF-16 code unit once a character passes
 * U+00FF; an escape counts as the characters it is written with, `\u0001`
 * six), a byte a digit of its id (a string for an id beyond 2^53), and
 * PLANT_OVERHEAD_BYTES. Counting characters instead once let a store of
 * control-character names grow 6 times past its budget. Checked against the
 * process's RSS by test/robustness/memory.test.ts.
 */
export function plantBytes(id: string, json: string): number {
  return countedBytes(id, keptBytes(json));
}

/** plantBytes, for a text whose keptBytes are known. */
function countedBytes(id: string, kept: number): number {
  return PLANT_OVERHEAD_BYTES + id.length + kept;
}

/**
 * A plant given as a value (not as sent text) as the JSON text the API
 * answers with: JSON.stringify's text, except that an integer beyond 2^53 (a
 * bigint) is written with all its digits, where JSON.stringify throws, and a
 * numeral the parser kept apart (NonIntegralNumber) as written.
 */
export function plantJson(plant: StoredPlant): string {
  return exactJson(plant);
}

/** JSON.stringify's text, with a bigint written as its digits. */
function exactJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof NonIntegralNumber) return value.numeral;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(exactJson).join(',')}]`;
  const members = Object.entries(value).filter(([, member]) => member !== undefined);
  return `{${members.map(([name, member]) => `${JSON.stringify(name)}:${exactJson(member)}`).join(',')}}`;
}

/**
 * A stored plant back from its JSON text, as plain objects. Read exactly
 * (int64 digits kept) when the text holds 16 digits in a row, which every
 * integer beyond 2^53 has; JSON.parse otherwise.
 */
export function plantFromJson(json: string): StoredPlant {
  return (/\d{16}/.test(json) ? plainValue(parseJson(json)) : JSON.parse(json)) as StoredPlant;
}

/** The exact parser's value with ordinary objects in place of its prototype-less ones (as JSON.parse gives). */
function plainValue(value: JsonValue): unknown {
  if (Array.isArray(value)) return value.map(plainValue);
  if (value === null || typeof value !== 'object' || value instanceof NonIntegralNumber) return value;
  const plain = {};
  // defineProperty: a member named __proto__ stays a member, as with JSON.parse.
  for (const [name, member] of Object.entries(value)) Object.defineProperty(plain, name, { value: plainValue(member), enumerable: true, writable: true, configurable: true });
  return plain;
}

export function createMemoryStore(maxPlants: number = DEFAULT_MAX_PLANTS, maxBytes: number = DEFAULT_MAX_BYTES): MemoryStore {
  // Keyed by the id as a number when it is a safe integer (most ids), else by
  // its decimal string; keyOf maps each id to exactly one key, so number and
  // string keys never stand for the same id. Ids and the plants' JSON texts
  // (the text the answer is made of) are kept outside the V8 heap
  // (plant-ids.ts, plant-texts.ts): the heap holds nothing per plant.
  const ids = new PlantIds();
  const texts = new PlantTexts();
  let bytes = 0;
  // The seq of the plant at index i is before + i + 1: `before` counts the plants cleared since start.
  let before = 0;
  const fits = (count: number, more: number) => ids.size + count <= maxPlants && bytes + more <= maxBytes;
  const store = (key: PlantKey, text: string, kept?: number) => {
    // An id and its text get the same index: both count up from 0 together.
    ids.add(key);
    texts.add(text, kept);
  };
  return {
    create(id, json) {
      const key = keyOf(id);
      // Check and insert happen in one synchronous step, so concurrent
      // creates of one id cannot both succeed.
      if (ids.find(key) !== undefined) return 'exists';
      const kept = keptBytes(json);
      const size = countedBytes(id, kept);
      if (!fits(1, size)) return 'full';
      store(key, json, kept);
      bytes += size;
      return 'created';
    },
    createAll(entries) {
      const taken = entries.filter(({ id }) => ids.find(keyOf(id)) !== undefined).map(({ id }) => id);
      if (taken.length > 0) return { taken };
      let more = 0;
      for (const { id, json } of entries) more += plantBytes(id, json);
      if (!fits(entries.length, more)) return 'full';
      for (const { id, json } of entries) store(keyOf(id), json);
      bytes += more;
      return 'created';
    },
    get: (id) => {
      const index = ids.find(keyOf(id));
      return index === undefined ? undefined : plantFromJson(texts.text(index));
    },
    list(after, limit, maxBytes) {
      const plants: PlantEntry[] = [];
      let counted = 0;
      let index = Math.max(0, Math.min(after - before, ids.size));
      for (; index < ids.size && plants.length < limit; index++) {
        const id = String(ids.keyAt(index));
        const size = countedBytes(id, texts.bytesAt(index));
        if (plants.length > 0 && counted + size > maxBytes) break;
        counted += size;
        plants.push({ id, json: texts.text(index) });
      }
      return { plants, next: index < ids.size ? before + index : null };
    },
    clear: () => {
      const count = ids.size;
      before += count;
      ids.clear();
      texts.clear();
      bytes = 0;
      return count;
    },
    usage: () => ({ plants: ids.size, bytes }),
    health: () => ({ store: 'memory', ok: true }),
    close: () => {},
  };
}

/** The map key of an id: a number for a canonical safe-integer decimal ("-0" is not canonical), else the string itself. */
function keyOf(id: string): PlantKey {
  if (id.length > 16) return id; // 17 characters or more: near or beyond 2^53, keep the digits as the key
  const value = Number(id);
  return Number.isSafeInteger(value) && String(value) === id ? value : id;
}
