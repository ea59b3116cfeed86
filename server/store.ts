// The plant store: an interface, and the accounting of its caps. Two
// implementations: in memory (memory-store.ts) and PostgreSQL
// (postgres-store.ts).
import { StartError } from '../lib/start-error.js';
import { NonIntegralNumber, parseJson, type JsonValue } from './json.js';
import { PLANT_OVERHEAD_BYTES } from './limits.js';
import { keptBytes } from './plant-texts.js';

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
  /**
   * The `after` of the following page (the seq of the last plant this page
   * holds, or examined); null when no plant follows. With `match`, the
   * following page may hold none (no more match).
   */
  next: number | null;
}

/** What a page of list() holds besides its place (after) and its bounds (limit, bytes). */
export interface ListOptions {
  /** Leaves out this many of the plants the page would otherwise start with (an offset). */
  skip?: number;
  /** Only the plants whose JSON text this accepts; a text read to be judged counts toward `maxExamined`. */
  match?: (json: string) => boolean;
  /** With `match`: the most plants one page reads to judge (the page ends there, short or empty, with its next). */
  maxExamined?: number;
  /** With `match`: the most bytes of plants one page reads to judge, as plantBytes() counts them (one plant at least; the page ends there as at maxExamined). */
  maxExaminedBytes?: number;
}

/** update's outcome: the plant's new JSON text, or why nothing changed. */
export type UpdateResult = { updated: string } | 'missing' | 'full';

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
 * in-memory store keeps it, whatever holds it); a create, or an update that
 * grows a plant, that would pass either cap is refused with 'full' and
 * changes nothing; a remove gives its plant's bytes back. Every store
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
  /** The plant's JSON text, as stored; undefined when no plant has the id. */
  read(id: string): MaybePromise<string | undefined>;
  /**
   * Replaces the plant's JSON text with what `change` makes of it, at once
   * for the reader: no other change of the plant comes between. `change`
   * may throw (the new plant is refused): then nothing changes, and the
   * store throws what it threw. 'missing' when no plant has the id; 'full'
   * when the new text would pass the byte budget (a text no longer than the
   * old one always fits). The plant keeps its place in the order.
   */
  update(id: string, change: (json: string) => string): MaybePromise<UpdateResult>;
  /** Removes the plant; answers its JSON text, or undefined when no plant has the id. */
  remove(id: string): MaybePromise<string | undefined>;
  /**
   * A page of the stored plants with their ids and JSON texts, in the order
   * they were stored: those whose seq is above `after` (and that `match`
   * accepts, past the `skip` first), at most `limit` of them and at most
   * `maxBytes` as plantBytes() counts them (one plant at least, whatever its
   * size). A plant's seq is its running number in the order of storing,
   * from 1; it is never reused (an update keeps it), and clear() does not
   * reset it, so an `after` from before a clear finds what was stored
   * since. The work of a page is bounded by its limit and by `maxExamined`
   * and `maxExaminedBytes`, whatever the store holds (the skipped plants'
   * texts are not read).
   */
  list(after: number, limit: number, maxBytes: number, options?: ListOptions): MaybePromise<PlantPage>;
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
  read(id: string): string | undefined;
  update(id: string, change: (json: string) => string): UpdateResult;
  remove(id: string): string | undefined;
  list(after: number, limit: number, maxBytes: number, options?: ListOptions): PlantPage;
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
export function countedBytes(id: string, kept: number): number {
  return PLANT_OVERHEAD_BYTES + id.length + kept;
}

/**
 * A plant given as a value (not as sent text) as the JSON text the API
 * answers with: JSON.stringify's text, except that an integer beyond 2^53 (a
 * bigint) is written with all its digits, where JSON.stringify throws, and a
 * numeral the parser kept apart (NonIntegralNumber) as written.
 */
export function plantJson(plant: StoredPlant): string {
  return jsonText(plant);
}

/** JSON.stringify's text, with a bigint written as its digits (and a NonIntegralNumber as written). */
export function jsonText(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof NonIntegralNumber) return value.numeral;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  const members = Object.entries(value).filter(([, member]) => member !== undefined);
  return `{${members.map(([name, member]) => `${JSON.stringify(name)}:${jsonText(member)}`).join(',')}}`;
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
  for (const [name, member] of Object.entries(value))
    Object.defineProperty(plain, name, {
      value: plainValue(member),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return plain;
}
