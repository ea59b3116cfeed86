// The in-memory store's ids, kept outside the V8 heap like its texts
// (plant-texts.ts): each id maps to the index of its plant's text, and each
// index back to its id (for listing in the order stored); a removed id
// leaves its index behind, marked, until the store compacts (memory-store.ts
// makes new tables of the live ids then). An id that is a
// safe integer (nearly every id) lives in an open-addressing table of typed
// arrays; any other id (beyond 2^53) in a Map. A Map of a million ids was a
// 32 MB array on the heap, which every full collection walks and which
// raises the size the heap grows to before the next one.

/** Slots of the table when the store starts, and the most it fills before doubling. */
const FIRST_CAPACITY = 1024;
const MOST_LOAD = 0.7;
/** The index table of ids other than safe integers marks its rows with NaN in idOfIndex. */
const OTHER = Number.NaN;
/** idOfIndex of an index whose id was removed: not an integer, so no id's. */
const REMOVED = 0.5;

export type PlantKey = number | string;

export class PlantIds {
  /** The table: a key per slot, and the index of its text plus one (0: an empty slot). */
  private keys = new Float64Array(FIRST_CAPACITY);
  private slots = new Int32Array(FIRST_CAPACITY);
  private filled = 0;
  /** Ids that are not safe integers, by their decimal text. */
  private others = new Map<string, number>();
  /** Index to id: the number, or OTHER with the text in otherOfIndex. */
  private idOfIndex = new Float64Array(FIRST_CAPACITY);
  private otherOfIndex = new Map<number, string>();
  /** Indexes handed out, removed ones included. */
  private count = 0;
  private removed = 0;

  /** The ids held. */
  get size(): number {
    return this.count - this.removed;
  }

  /** The indexes handed out (0 to length - 1), those of removed ids included. */
  get length(): number {
    return this.count;
  }

  /** The index stored under `key`, or undefined. */
  find(key: PlantKey): number | undefined {
    if (typeof key === 'string') return this.others.get(key);
    const mask = this.slots.length - 1;
    for (let slot = hash(key) & mask; ; slot = (slot + 1) & mask) {
      const value = this.slots[slot]!;
      if (value === 0) return undefined;
      if (this.keys[slot] === key) return value - 1;
    }
  }

  /** Stores `key` for the next index (0, 1, 2, …); the caller has found it absent. */
  add(key: PlantKey): number {
    const index = this.count++;
    if (index === this.idOfIndex.length) {
      const larger = new Float64Array(2 * this.idOfIndex.length);
      larger.set(this.idOfIndex);
      this.idOfIndex = larger;
    }
    if (typeof key === 'string') {
      this.others.set(key, index);
      this.idOfIndex[index] = OTHER;
      this.otherOfIndex.set(index, key);
      return index;
    }
    if (this.filled + 1 > MOST_LOAD * this.slots.length) this.rehash(2 * this.slots.length);
    this.place(key, index);
    this.idOfIndex[index] = key;
    return index;
  }

  /** The key stored with `index`; undefined when it was removed. */
  keyAt(index: number): PlantKey | undefined {
    const id = this.idOfIndex[index]!;
    if (id === REMOVED) return undefined;
    return Number.isNaN(id) ? this.otherOfIndex.get(index)! : id;
  }

  /** Whether `index` holds an id (was not removed). */
  holds(index: number): boolean {
    return this.idOfIndex[index] !== REMOVED;
  }

  /** Removes `key`, which the caller found at `index`; the index stays handed out, marked removed. */
  remove(key: PlantKey, index: number): void {
    this.idOfIndex[index] = REMOVED;
    this.removed++;
    if (typeof key === 'string') {
      this.others.delete(key);
      this.otherOfIndex.delete(index);
      return;
    }
    const mask = this.slots.length - 1;
    let slot = hash(key) & mask;
    while (this.keys[slot] !== key || this.slots[slot] === 0) slot = (slot + 1) & mask;
    // Linear probing's deletion: the keys after the gap that would no longer
    // be found across it move back into it (no tombstones to fill the table).
    let gap = slot;
    for (let next = (gap + 1) & mask; this.slots[next] !== 0; next = (next + 1) & mask) {
      const home = hash(this.keys[next]!) & mask;
      // Moves back unless its home lies cyclically in (gap, next].
      const stays = gap <= next ? home > gap && home <= next : home > gap || home <= next;
      if (stays) continue;
      this.keys[gap] = this.keys[next]!;
      this.slots[gap] = this.slots[next]!;
      gap = next;
    }
    this.slots[gap] = 0;
    this.filled--;
  }

  clear(): void {
    this.keys = new Float64Array(FIRST_CAPACITY);
    this.slots = new Int32Array(FIRST_CAPACITY);
    this.filled = 0;
    this.others = new Map();
    this.idOfIndex = new Float64Array(FIRST_CAPACITY);
    this.otherOfIndex = new Map();
    this.count = 0;
    this.removed = 0;
  }

  private place(key: number, index: number): void {
    const mask = this.slots.length - 1;
    let slot = hash(key) & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.keys[slot] = key;
    this.slots[slot] = index + 1;
    this.filled++;
  }

  private rehash(capacity: number): void {
    const { keys, slots } = this;
    this.keys = new Float64Array(capacity);
    this.slots = new Int32Array(capacity);
    this.filled = 0;
    for (let slot = 0; slot < slots.length; slot++) if (slots[slot] !== 0) this.place(keys[slot]!, slots[slot]! - 1);
  }
}

/**
 * A 32-bit hash of a safe integer, from its low and high 32 bits (a
 * murmur3-style mix): ids that count up, or share their low bits, spread
 * over the table.
 */
function hash(id: number): number {
  const low = id >>> 0;
  const high = Math.floor(id / 4294967296) | 0;
  let h = Math.imul(low ^ Math.imul(high, 0x27d4eb2d), 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}
