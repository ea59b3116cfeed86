// The in-memory store: the plants' ids and JSON texts outside the V8 heap
// (plant-ids.ts, plant-texts.ts), each plant at an index in the order
// stored, with its seq beside it. An update keeps the plant's index (and so
// its place in the order); a remove leaves its index behind, marked. The
// indexes and bytes left behind are given back by compacting, which copies
// the live plants into new tables once the dead ones pass a quarter of the
// live (and a floor): memory stays within a quarter of what the caps count,
// and a page's walk over removed plants stays as bounded.
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_PLANTS } from './limits.js';
import { PlantIds, type PlantKey } from './plant-ids.js';
import { keptBytes, PlantTexts } from './plant-texts.js';
import { countedBytes, plantBytes, plantFromJson, type MemoryStore, type PlantEntry } from './store.js';

/** Removed indexes and dead text bytes the store leaves behind before it compacts, at least. */
const MIN_DEAD_INDEXES = 1024;
const MIN_DEAD_BYTES = 1024 * 1024;

export function createMemoryStore(
  maxPlants: number = DEFAULT_MAX_PLANTS,
  maxBytes: number = DEFAULT_MAX_BYTES,
): MemoryStore {
  // Keyed by the id as a number when it is a safe integer (most ids), else by
  // its decimal string; keyOf maps each id to exactly one key, so number and
  // string keys never stand for the same id. The heap holds nothing per plant.
  let ids = new PlantIds();
  let texts = new PlantTexts();
  /** The seq of the plant at each index: rising with the index, as plants are only appended. */
  let seqs: Float64Array = new Float64Array(1024);
  let nextSeq = 1;
  let bytes = 0;
  const fits = (count: number, more: number) => ids.size + count <= maxPlants && bytes + more <= maxBytes;
  const store = (key: PlantKey, text: string, kept?: number) => {
    // An id, its text and its seq get the same index: all count up from 0 together.
    const index = ids.add(key);
    texts.add(text, kept);
    if (index === seqs.length) seqs = grown(seqs);
    seqs[index] = nextSeq++;
  };
  /** The first index whose seq is above `after` (binary search: seqs rise with the index). */
  const firstAfter = (after: number): number => {
    let low = 0;
    let high = ids.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (seqs[middle]! > after) high = middle;
      else low = middle + 1;
    }
    return low;
  };
  const compactWhenWorthIt = (): void => {
    const deadIndexes = ids.length - ids.size;
    if (
      deadIndexes <= Math.max(MIN_DEAD_INDEXES, ids.size / 4) &&
      texts.deadBytes <= Math.max(MIN_DEAD_BYTES, bytes / 4)
    )
      return;
    const old = { ids, seqs };
    texts = texts.compacted((index) => old.ids.holds(index));
    ids = new PlantIds();
    seqs = new Float64Array(Math.max(1024, old.ids.size));
    for (let index = 0; index < old.ids.length; index++) {
      const key = old.ids.keyAt(index);
      if (key === undefined) continue;
      seqs[ids.add(key)] = old.seqs[index]!;
    }
  };
  const read = (id: string): string | undefined => {
    const index = ids.find(keyOf(id));
    return index === undefined ? undefined : texts.text(index);
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
      const json = read(id);
      return json === undefined ? undefined : plantFromJson(json);
    },
    read,
    update(id, change) {
      const index = ids.find(keyOf(id));
      if (index === undefined) return 'missing';
      // Synchronous from the read to the write: no other change comes between.
      const json = change(texts.text(index));
      const kept = keptBytes(json);
      const grows = countedBytes(id, kept) - countedBytes(id, texts.bytesAt(index));
      if (grows > 0 && bytes + grows > maxBytes) return 'full';
      texts.replace(index, json, kept);
      bytes += grows;
      compactWhenWorthIt();
      return { updated: json };
    },
    remove(id) {
      const key = keyOf(id);
      const index = ids.find(key);
      if (index === undefined) return undefined;
      const json = texts.text(index);
      bytes -= countedBytes(id, texts.bytesAt(index));
      ids.remove(key, index);
      texts.remove(index);
      compactWhenWorthIt();
      return json;
    },
    list(
      after,
      limit,
      maxBytes,
      { skip = 0, match, maxExamined = Number.POSITIVE_INFINITY, maxExaminedBytes = Number.POSITIVE_INFINITY } = {},
    ) {
      const plants: PlantEntry[] = [];
      let counted = 0;
      let skipped = 0;
      let examined = 0;
      let examinedBytes = 0;
      /** The seq of the last plant the page took, skipped or judged: the next page starts after it. */
      let last = after;
      for (let index = firstAfter(after); index < ids.length; index++) {
        const key = ids.keyAt(index);
        if (key === undefined) continue;
        let json: string | undefined;
        if (match !== undefined) {
          if (examined >= maxExamined) return { plants, next: last };
          // Counted before the text is read: a page never reads past its budget but for its first plant.
          const size = countedBytes(String(key), texts.bytesAt(index));
          if (examined > 0 && examinedBytes + size > maxExaminedBytes) return { plants, next: last };
          examined++;
          examinedBytes += size;
          json = texts.text(index);
          if (!match(json)) {
            last = seqs[index]!;
            continue;
          }
        }
        if (skipped < skip) {
          skipped++;
          last = seqs[index]!;
          continue;
        }
        if (plants.length >= limit) return { plants, next: last };
        const id = String(key);
        const size = countedBytes(id, texts.bytesAt(index));
        if (plants.length > 0 && counted + size > maxBytes) return { plants, next: last };
        counted += size;
        plants.push({ id, json: json ?? texts.text(index) });
        last = seqs[index]!;
      }
      return { plants, next: null };
    },
    clear: () => {
      const count = ids.size;
      // The seqs go on: an `after` from before the clear finds what is stored since.
      ids = new PlantIds();
      texts = new PlantTexts();
      seqs = new Float64Array(1024);
      bytes = 0;
      return count;
    },
    usage: () => ({ plants: ids.size, bytes }),
    health: () => ({ store: 'memory', ok: true }),
    close: () => {},
  };

  function grown(array: Float64Array): Float64Array {
    const larger = new Float64Array(2 * array.length);
    larger.set(array);
    return larger;
  }
}

/** The map key of an id: a number for a canonical safe-integer decimal ("-0" is not canonical), else the string itself. */
function keyOf(id: string): PlantKey {
  if (id.length > 16) return id; // 17 characters or more: near or beyond 2^53, keep the digits as the key
  const value = Number(id);
  return Number.isSafeInteger(value) && String(value) === id ? value : id;
}
