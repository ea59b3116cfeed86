// The store: an interface, and the accounting of its caps. It keeps the
// items of every resource the document declares (operations/resources.ts):
// each item at a place, its resource's key ('' for the plant resource) and,
// for a nested resource, its parent's key; the caps count every item of
// every resource. Two implementations: in memory (memory-store.ts) and
// PostgreSQL (postgres-store.ts).
import { StartError } from '../../lib/start-error.js';
import { NonIntegralNumber, parseJson, type JsonValue } from '../json/json.js';
import { PLANT_OVERHEAD_BYTES } from '../limits.js';
import { keptBytes } from './plant-texts.js';

/** A stored plant read back from its JSON text (get()): the members of the Plant record as sent, as plain objects. */
export interface StoredPlant {
  [property: string]: unknown;
}

/** A plant (an item) as a store keeps it: its id, and the JSON text of the answer, which is the item. */
export interface PlantEntry {
  /** The item's id: an integer id's exact decimal digits (int64), or a string id exactly as sent. */
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

/** What a store holds, as the caps count it: every item of every resource. */
export interface StoreUsage {
  plants: number;
  /** The items' bytes as plantBytes() counts them. */
  bytes: number;
}

/**
 * Where items are kept: the key of their resource ('' for the plant
 * resource, the collection's path template for any other:
 * operations/resources.ts) and, for a nested resource, the key of their
 * parent ('' at the top level, and only there): the path parameters' values
 * of the collection path, each percent-encoded and after a '/' (`/1` for
 * /gardens/1/plants), so that the items under a parent and under its own
 * children share a prefix.
 */
export interface Place {
  resource: string;
  parent: string;
}

/** The plant resource's items, at the top level: the store's own methods (PlantStore). */
export const PLANTS: Place = { resource: '', parent: '' };

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
 * The items of one place (a collection): created, read, updated, removed
 * and listed in the order stored. See PlantStore for the caps and the
 * answers.
 */
export interface ItemStore {
  /** Stores the item `json` (its JSON text) under `id` unless the id is taken here or the store is full. */
  create(id: string, json: string): MaybePromise<CreateResult>;
  /**
   * Stores every entry, or none. The ids of the list are distinct (the
   * caller checks): { taken } lists those already stored; 'full' when they
   * would not all fit.
   */
  createAll(entries: readonly PlantEntry[]): MaybePromise<CreateAllResult>;
  /** The item's JSON text, as stored; undefined when no item of this place has the id. */
  read(id: string): MaybePromise<string | undefined>;
  /**
   * Replaces the item's JSON text with what `change` makes of it, at once
   * for the reader: no other change of the item comes between. `change`
   * may throw (the new item is refused): then nothing changes, and the
   * store throws what it threw. 'missing' when no item has the id; 'full'
   * when the new text would pass the byte budget (a text no longer than the
   * old one always fits). The item keeps its place in the order.
   */
  update(id: string, change: (json: string) => string): MaybePromise<UpdateResult>;
  /**
   * Removes the item; answers its JSON text, or undefined when no item has
   * the id. `check` judges the item first (a precondition), at once for the
   * reader: where it throws, nothing is removed and the store throws what it
   * threw.
   */
  remove(id: string, check?: (json: string) => void): MaybePromise<string | undefined>;
  /**
   * A page of the items with their ids and JSON texts, in the order they
   * were stored: those whose seq is above `after` (and that `match`
   * accepts, past the `skip` first), at most `limit` of them and at most
   * `maxBytes` as plantBytes() counts them (one item at least, whatever its
   * size). An item's seq is its running number in the order of storing,
   * from 1, shared by every place of the store; it is never reused (an
   * update keeps it), and clear() does not reset it, so an `after` from
   * before a clear finds what was stored since. The work of a page is
   * bounded by its limit and by `maxExamined` and `maxExaminedBytes`,
   * whatever the store holds (the skipped items' texts are not read).
   */
  list(after: number, limit: number, maxBytes: number, options?: ListOptions): MaybePromise<PlantPage>;
  /** How many items the place holds. */
  count(): MaybePromise<number>;
}

/**
 * A store keeps at most `maxPlants` items and at most `maxBytes` bytes of
 * items, of every resource together, each item counted by plantBytes() (its
 * id, its parent's key and its JSON text as the in-memory store keeps
 * them, whatever holds them); a create, or an update that grows an item,
 * that would pass either cap is refused with 'full' and changes nothing; a
 * remove gives its item's bytes back. Every store implementation counts the
 * same way, so the caps mean the same whatever holds the items. A taken id
 * wins over a full store: a duplicate is a duplicate whatever room is left.
 *
 * Its own item methods are those of the plant resource's top-level items
 * (PLANTS), the path the shipped document takes; items(place) answers any
 * other place's.
 *
 * Methods answer at once (the in-memory store) or with a promise (a
 * database); a store that cannot answer throws or rejects with
 * StoreUnavailableError. An answer 'created' means the item is stored for
 * good: a database store answers it only once the insert is committed.
 */
export interface PlantStore extends ItemStore {
  /** The items of `place`: the store's own methods for PLANTS. */
  items(place: Place): ItemStore;
  /** The plant (of PLANTS) read back as a value. */
  get(id: string): MaybePromise<StoredPlant | undefined>;
  /**
   * Removes the items of `resource` whose parent is `parent` or lies below
   * it (`/1` and `/1/…`): what a removed parent leaves behind. Answers how many.
   */
  removeUnder(resource: string, parent: string): MaybePromise<number>;
  /**
   * The first of `count` numbers of `resource`'s own sequence, which counts
   * 1, 2, 3… and never gives a number twice (across restarts and replicas
   * where the store is a database): what server-assigned ids are made from.
   */
  nextNumbers(resource: string, count: number): MaybePromise<number>;
  /** Removes every item of every resource; answers how many there were. */
  clear(): MaybePromise<number>;
  usage(): MaybePromise<StoreUsage>;
  health(): MaybePromise<StoreHealth>;
  /** Lets go of what the store holds open (a database's connections). */
  close(): MaybePromise<void>;
}

/** An in-memory place answers at once. */
export interface MemoryItems extends ItemStore {
  create(id: string, json: string): CreateResult;
  createAll(entries: readonly PlantEntry[]): CreateAllResult;
  read(id: string): string | undefined;
  update(id: string, change: (json: string) => string): UpdateResult;
  remove(id: string, check?: (json: string) => void): string | undefined;
  list(after: number, limit: number, maxBytes: number, options?: ListOptions): PlantPage;
  count(): number;
}

/** The in-memory store answers at once. */
export interface MemoryStore extends PlantStore {
  create(id: string, json: string): CreateResult;
  createAll(entries: readonly PlantEntry[]): CreateAllResult;
  read(id: string): string | undefined;
  update(id: string, change: (json: string) => string): UpdateResult;
  remove(id: string, check?: (json: string) => void): string | undefined;
  list(after: number, limit: number, maxBytes: number, options?: ListOptions): PlantPage;
  count(): number;
  items(place: Place): MemoryItems;
  get(id: string): StoredPlant | undefined;
  removeUnder(resource: string, parent: string): number;
  nextNumbers(resource: string, count: number): number;
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
 * What one item counts against the byte budget: what the in-memory store
 * keeps of it. Its JSON text as kept (plant-texts.ts, keptBytes: a byte a
 * character in latin1, two a UTF-16 code unit once a character passes
 * U+00FF; an escape counts as the characters it is written with, `\u0001`
 * six), its id and its parent's key counted the same way (an integer id a
 * byte a digit), and PLANT_OVERHEAD_BYTES. Counting characters instead once
 * let a store of control-character names grow 6 times past its budget.
 * Checked against the process's RSS by test/robustness/memory.test.ts.
 */
export function plantBytes(id: string, json: string, parent = ''): number {
  return countedBytes(id, keptBytes(json), parent);
}

/** plantBytes, for a text whose keptBytes are known (and its id's, idBytes, where the caller knows them without a test). */
export function countedBytes(id: string, kept: number, parent = '', idBytes = keptBytes(id)): number {
  return PLANT_OVERHEAD_BYTES + idBytes + (parent === '' ? 0 : keptBytes(parent)) + kept;
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

/** `next` of a store's answer: at once when it answered at once (no promise on the in-memory store's path), else when it settles. */
export function andThen<T, U>(value: MaybePromise<T>, next: (settled: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
