// One resource's items in the in-memory store (memory-store.ts): their ids
// and JSON texts outside the V8 heap (plant-ids.ts, plant-texts.ts), each
// item at an index in the order stored, with its seq beside it. An update
// keeps the item's index (and so its place in the order); a remove leaves
// its index behind, marked. The indexes and bytes left behind are given back
// by compacting, which copies the live items into new tables once the dead
// ones pass a quarter of the live (and a floor): memory stays within a
// quarter of what the caps count, and a page's walk over removed items stays
// as bounded.
//
// An item at the top level is keyed by its id alone (a number for a safe
// integer, else its text: the plant resource's ids, as before resources
// were many). An item under a parent (of a nested resource) is keyed by its
// parent's key and its id (`/1` NUL `7`), and each parent keeps the indexes
// of its items in the order stored: a page of one parent's items walks that
// parent's list only.
import { PlantIds, type PlantKey } from './plant-ids.js';
import { keptBytes, PlantTexts } from './plant-texts.js';
import { countedBytes, plantBytes, type CreateAllResult, type CreateResult, type PlantEntry } from './store.js';
import type { ListOptions, PlantPage, UpdateResult } from './store.js';

/** Removed indexes and dead text bytes left behind before compacting, at least. */
const MIN_DEAD_INDEXES = 1024;
const MIN_DEAD_BYTES = 1024 * 1024;
/** Between a nested item's parent key and its id in its key: no parent key holds it (they are percent-encoded). */
const NESTED = '\u0000';

/** What every resource of one store shares: the caps, what they count, and the running seq. */
export interface SharedCount {
  items: number;
  bytes: number;
  nextSeq: number;
  readonly maxItems: number;
  readonly maxBytes: number;
}

/** One parent's items of a nested resource: their indexes in the order stored (removed ones among them until compacting), and how many live. */
interface ParentList {
  indexes: number[];
  live: number;
}

export class ResourceItems {
  private ids = new PlantIds();
  private texts = new PlantTexts();
  /** The seq of the item at each index: rising with the index, as items are only appended. */
  private seqs: Float64Array = new Float64Array(1024);
  /** Each parent's items (of a nested resource). */
  private readonly parents = new Map<string, ParentList>();
  /** Items under a parent, of those held. */
  private nested = 0;

  constructor(private readonly shared: SharedCount) {}

  /** Items held. */
  get size(): number {
    return this.ids.size;
  }

  keyOf(parent: string, id: string): PlantKey {
    return parent === '' ? keyOf(id) : `${parent}${NESTED}${id}`;
  }

  create(parent: string, id: string, json: string): CreateResult {
    const key = this.keyOf(parent, id);
    // Check and insert happen in one synchronous step, so concurrent creates of one id cannot both succeed.
    if (this.ids.find(key) !== undefined) return 'exists';
    const kept = keptBytes(json);
    const size = countedBytes(id, kept, parent);
    if (!this.fits(1, size)) return 'full';
    this.store(parent, key, json, kept);
    this.shared.bytes += size;
    return 'created';
  }

  createAll(parent: string, entries: readonly PlantEntry[]): CreateAllResult {
    const taken = entries.filter(({ id }) => this.ids.find(this.keyOf(parent, id)) !== undefined).map(({ id }) => id);
    if (taken.length > 0) return { taken };
    let more = 0;
    for (const { id, json } of entries) more += plantBytes(id, json, parent);
    if (!this.fits(entries.length, more)) return 'full';
    for (const { id, json } of entries) this.store(parent, this.keyOf(parent, id), json);
    this.shared.bytes += more;
    return 'created';
  }

  read(parent: string, id: string): string | undefined {
    const index = this.ids.find(this.keyOf(parent, id));
    return index === undefined ? undefined : this.texts.text(index);
  }

  update(parent: string, id: string, change: (json: string) => string): UpdateResult {
    const index = this.ids.find(this.keyOf(parent, id));
    if (index === undefined) return 'missing';
    // Synchronous from the read to the write: no other change comes between.
    const json = change(this.texts.text(index));
    const kept = keptBytes(json);
    const grows = countedBytes(id, kept, parent) - countedBytes(id, this.texts.bytesAt(index), parent);
    if (grows > 0 && this.shared.bytes + grows > this.shared.maxBytes) return 'full';
    this.texts.replace(index, json, kept);
    this.shared.bytes += grows;
    this.compactWhenWorthIt();
    return { updated: json };
  }

  remove(parent: string, id: string, check?: (json: string) => void): string | undefined {
    const key = this.keyOf(parent, id);
    const index = this.ids.find(key);
    if (index === undefined) return undefined;
    const json = this.texts.text(index);
    check?.(json);
    this.drop(parent, id, key, index);
    this.compactWhenWorthIt();
    return json;
  }

  /** Removes the items whose parent is `parent` or lies below it; how many. */
  removeUnder(parent: string): number {
    let removed = 0;
    for (const [key, list] of [...this.parents]) {
      if (key !== parent && !key.startsWith(`${parent}/`)) continue;
      for (const index of list.indexes) {
        const composite = this.ids.keyAt(index);
        if (composite === undefined) continue;
        this.drop(key, idOfNested(composite as string), composite, index);
        removed++;
      }
    }
    this.compactWhenWorthIt();
    return removed;
  }

  count(parent: string): number {
    return parent === '' ? this.ids.size - this.nested : (this.parents.get(parent)?.live ?? 0);
  }

  list(
    parent: string,
    after: number,
    limit: number,
    maxBytes: number,
    {
      skip = 0,
      match,
      maxExamined = Number.POSITIVE_INFINITY,
      maxExaminedBytes = Number.POSITIVE_INFINITY,
    }: ListOptions = {},
  ): PlantPage {
    const plants: PlantEntry[] = [];
    let counted = 0;
    let skipped = 0;
    let examined = 0;
    let examinedBytes = 0;
    /** The seq of the last item the page took, skipped or judged: the next page starts after it. */
    let last = after;
    const order = parent === '' ? undefined : (this.parents.get(parent)?.indexes ?? []);
    const end = order === undefined ? this.ids.length : order.length;
    for (let at = this.firstAfter(after, order); at < end; at++) {
      const index = order === undefined ? at : order[at]!;
      const key = this.ids.keyAt(index);
      if (key === undefined) continue;
      const id = order === undefined ? String(key) : idOfNested(key as string);
      let json: string | undefined;
      if (match !== undefined) {
        if (examined >= maxExamined) return { plants, next: last };
        // Counted before the text is read: a page never reads past its budget but for its first item.
        const size = countedBytes(id, this.texts.bytesAt(index), parent);
        if (examined > 0 && examinedBytes + size > maxExaminedBytes) return { plants, next: last };
        examined++;
        examinedBytes += size;
        json = this.texts.text(index);
        if (!match(json)) {
          last = this.seqs[index]!;
          continue;
        }
      }
      if (skipped < skip) {
        skipped++;
        last = this.seqs[index]!;
        continue;
      }
      if (plants.length >= limit) return { plants, next: last };
      // An id kept as a number is its decimal digits, a byte each: no need to test each page's ids for latin1.
      const size = countedBytes(id, this.texts.bytesAt(index), parent, typeof key === 'number' ? id.length : undefined);
      if (plants.length > 0 && counted + size > maxBytes) return { plants, next: last };
      counted += size;
      plants.push({ id, json: json ?? this.texts.text(index) });
      last = this.seqs[index]!;
    }
    return { plants, next: null };
  }

  private fits(count: number, more: number): boolean {
    return this.shared.items + count <= this.shared.maxItems && this.shared.bytes + more <= this.shared.maxBytes;
  }

  private store(parent: string, key: PlantKey, text: string, kept?: number): void {
    // An id, its text and its seq get the same index: all count up from 0 together.
    const index = this.ids.add(key);
    this.texts.add(text, kept);
    if (index === this.seqs.length) this.seqs = grown(this.seqs);
    this.seqs[index] = this.shared.nextSeq++;
    this.shared.items++;
    if (parent !== '') {
      let list = this.parents.get(parent);
      if (list === undefined) this.parents.set(parent, (list = { indexes: [], live: 0 }));
      list.indexes.push(index);
      list.live++;
      this.nested++;
    }
  }

  private drop(parent: string, id: string, key: PlantKey, index: number): void {
    this.shared.bytes -= countedBytes(id, this.texts.bytesAt(index), parent);
    this.shared.items--;
    this.ids.remove(key, index);
    this.texts.remove(index);
    if (parent === '') return;
    this.nested--;
    const list = this.parents.get(parent);
    // A parent with no items left takes no room: its list goes (compacting drops its removed indexes).
    if (list !== undefined && --list.live === 0) this.parents.delete(parent);
  }

  /** The first position (an index, or a place in a parent's list) whose seq is above `after`: binary search, as seqs rise. */
  private firstAfter(after: number, order: number[] | undefined): number {
    let low = 0;
    let high = order === undefined ? this.ids.length : order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.seqs[order === undefined ? middle : order[middle]!]! > after) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  private compactWhenWorthIt(): void {
    const deadIndexes = this.ids.length - this.ids.size;
    if (
      deadIndexes <= Math.max(MIN_DEAD_INDEXES, this.ids.size / 4) &&
      this.texts.deadBytes <= Math.max(MIN_DEAD_BYTES, this.shared.bytes / 4)
    )
      return;
    const old = { ids: this.ids, seqs: this.seqs };
    this.texts = this.texts.compacted((index) => old.ids.holds(index));
    this.ids = new PlantIds();
    this.seqs = new Float64Array(Math.max(1024, old.ids.size));
    const moved = this.parents.size === 0 ? undefined : new Int32Array(old.ids.length);
    for (let index = 0; index < old.ids.length; index++) {
      const key = old.ids.keyAt(index);
      if (key === undefined) continue;
      const now = this.ids.add(key);
      this.seqs[now] = old.seqs[index]!;
      if (moved !== undefined) moved[index] = now;
    }
    for (const list of this.parents.values())
      list.indexes = list.indexes.filter((index) => old.ids.holds(index)).map((index) => moved![index]!);
  }
}

function grown(array: Float64Array): Float64Array {
  const larger = new Float64Array(2 * array.length);
  larger.set(array);
  return larger;
}

/** The id of a nested item's key (after its parent's key and NUL). */
function idOfNested(key: string): string {
  return key.slice(key.indexOf(NESTED) + 1);
}

/** The map key of a top-level id: a number for a canonical safe-integer decimal ("-0" is not canonical), else the string itself. */
function keyOf(id: string): PlantKey {
  if (id.length > 16) return id; // 17 characters or more: near or beyond 2^53, keep the digits as the key
  const value = Number(id);
  return Number.isSafeInteger(value) && String(value) === id ? value : id;
}
