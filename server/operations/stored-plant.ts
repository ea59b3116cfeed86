// What a create stores of a NewPlant, and answers with: the properties the
// document's Plant schema declares (validation.ts, PlantShape), each value
// exactly as sent (numbers with every digit, objects and arrays as sent,
// strings unchanged), in the order sent, as one JSON text. The seed: the
// service "returns the stored plant record". Properties Plant does not
// declare are accepted (the schema allows them) and dropped.
//
// Two ways to the same text:
// - the fast path, every plant of the shipped document: when every kept
//   value is a string (or true, false, null), JSON.stringify of the kept
//   members in the order sent;
// - otherwise the text as sent (SentJson), read again: the kept members'
//   values copied token by token without the white space between tokens, a
//   string with escapes written as JSON.stringify writes it. The parsed value
//   cannot serve: a number is a double there (0.1000000000000000000001 is
//   0.1), and an object lists names like "42" first.
// Both write a string the same way, so a plant's text does not depend on
// the path it took.
import type { JsonObject, JsonValue } from '../json/json.js';
import { SentReader } from '../json/json-text.js';
import { plantJson } from '../store/store.js';
import type { PlantShape } from '../http/validation.js';

/** The JSON text a value was parsed from, and the member names of its top-level object in the order written (parseJson's topLevelNames). */
export interface SentJson {
  text: string;
  topLevelNames?: readonly string[];
}

/** Where a NewPlant's text is: a SentJson, and the position of the object in it (0: the whole text). */
export interface SentPlant {
  sent: SentJson;
  at: number;
}

/**
 * The stored plant's JSON text for a valid NewPlant: the members Plant
 * declares, as sent. `sent` is where the object was parsed from; without it
 * (plants given as values, not text) the values are written as
 * JSON.stringify writes them, integers beyond 2^53 with all their digits.
 */
export function storedPlantText(shape: PlantShape, newPlant: JsonObject, sent: SentPlant | undefined): string {
  const names = (sent?.at === 0 ? sent.sent.topLevelNames : undefined) ?? Object.keys(newPlant);
  let kept: Record<string, JsonValue> | undefined;
  for (const name of names) {
    if (!shape.keeps(name)) continue;
    const value = newPlant[name]!;
    // A plain object sets its prototype for "__proto__", and lists array-index names first.
    if (
      (typeof value !== 'string' && typeof value !== 'boolean' && value !== null) ||
      name === '__proto__' ||
      (shape.mayKeepIndexNames && ARRAY_INDEX.test(name))
    ) {
      return sent === undefined ? plantJson(keptMembers(shape, newPlant)) : keptAsSent(shape, sent);
    }
    (kept ??= {})[name] = value;
  }
  return kept === undefined ? '{}' : JSON.stringify(kept);
}

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/** The kept members of a NewPlant given as a value, as own members of an object of their own. */
function keptMembers(shape: PlantShape, newPlant: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(newPlant).filter(([name]) => shape.keeps(name)));
}

/** The kept members of the object at `at`, from its text. */
function keptAsSent(shape: PlantShape, { sent, at }: SentPlant): string {
  const reader = new SentReader(sent.text);
  const members: string[] = [];
  reader.memberValues(reader.valueStart(at), (name, written, start) => {
    if (!shape.keeps(name)) return reader.skipValue(start);
    const out = [written, ':'];
    const end = reader.copyValue(start, out);
    members.push(out.join(''));
    return end;
  });
  return `{${members.join(',')}}`;
}

/** The positions of the items of the array that is the whole of `text` (a list of NewPlants sent as text). */
export function itemPositions(text: string): number[] {
  const reader = new SentReader(text);
  const starts: number[] = [];
  reader.itemValues(reader.valueStart(0), (start) => {
    starts.push(start);
    return reader.skipValue(start);
  });
  return starts;
}

/** A stored plant's text (compact, as storedPlantText writes it) without its top-level member `name`. */
export function withoutMember(json: string, name: string): string {
  const reader = new SentReader(json);
  const members: string[] = [];
  reader.memberValues(0, (member, written, start) => {
    const end = reader.skipValue(start);
    if (member !== name) members.push(`${written}:${json.slice(start, end)}`);
    return end;
  });
  return `{${members.join(',')}}`;
}
