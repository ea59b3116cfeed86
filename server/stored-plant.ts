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
import type { JsonObject, JsonValue } from './json.js';
import { plantJson } from './store.js';
import type { PlantShape } from './validation.js';

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
    if ((typeof value !== 'string' && typeof value !== 'boolean' && value !== null) || name === '__proto__' || (shape.mayKeepIndexNames && ARRAY_INDEX.test(name))) {
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

/**
 * Reads a JSON text that parseJson has accepted already (so no syntax is
 * checked here): finds where values end, and copies them without the white
 * space between tokens. Linear in the text.
 */
class SentReader {
  constructor(private readonly text: string) {}

  /** The first position at or after `pos` that is not white space (nor the byte order mark parseJson skips). */
  valueStart(pos: number): number {
    const text = this.text;
    if (pos === 0 && text.charCodeAt(0) === 0xfeff) pos = 1;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else return pos;
    }
  }

  /** For the object at `pos`: calls `member` with each name (decoded), its text as JSON.stringify writes it, and where its value starts; `member` answers where the value ends. Answers the end of the object. */
  memberValues(pos: number, member: (name: string, written: string, valueStart: number) => number): number {
    const text = this.text;
    pos = this.valueStart(pos + 1); // after {
    if (text.charCodeAt(pos) === 0x7d) return pos + 1;
    for (;;) {
      const end = this.stringEnd(pos);
      const written = this.stringAsWritten(pos, end);
      const name = written === text.slice(pos, end) ? text.slice(pos + 1, end - 1) : (JSON.parse(written) as string);
      pos = this.valueStart(member(name, written, this.valueStart(this.valueStart(end) + 1)));
      if (text.charCodeAt(pos) === 0x7d) return pos + 1;
      pos = this.valueStart(pos + 1); // after ,
    }
  }

  /** For the array at `pos`: calls `item` with where each item starts; `item` answers where it ends. Answers the end of the array. */
  itemValues(pos: number, item: (start: number) => number): number {
    const text = this.text;
    pos = this.valueStart(pos + 1); // after [
    if (text.charCodeAt(pos) === 0x5d) return pos + 1;
    for (;;) {
      pos = this.valueStart(item(pos));
      if (text.charCodeAt(pos) === 0x5d) return pos + 1;
      pos = this.valueStart(pos + 1); // after ,
    }
  }

  /** Where the value at `pos` ends. */
  skipValue(pos: number): number {
    return this.copyValue(pos, undefined);
  }

  /** Copies the value at `pos` into `out` without white space between tokens (when `out` is given); answers where it ends. */
  copyValue(pos: number, out: string[] | undefined): number {
    const c = this.text.charCodeAt(pos);
    if (c === 0x22) {
      const end = this.stringEnd(pos);
      out?.push(this.stringAsWritten(pos, end));
      return end;
    }
    if (c === 0x7b) {
      out?.push('{');
      let first = true;
      const end = this.memberValues(pos, (_name, written, start) => {
        out?.push(first ? '' : ',', written, ':');
        first = false;
        return this.copyValue(start, out);
      });
      out?.push('}');
      return end;
    }
    if (c === 0x5b) {
      out?.push('[');
      let first = true;
      const end = this.itemValues(pos, (start) => {
        if (!first) out?.push(',');
        first = false;
        return this.copyValue(start, out);
      });
      out?.push(']');
      return end;
    }
    // A number or a literal: as written, every digit of a number kept.
    let end = pos + 1;
    for (;;) {
      const d = this.text.charCodeAt(end);
      if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09 || Number.isNaN(d)) break;
      end++;
    }
    out?.push(this.text.slice(pos, end));
    return end;
  }

  /** The position after the closing quote of the string at `pos`. */
  private stringEnd(pos: number): number {
    const text = this.text;
    for (pos++; ; pos++) {
      const c = text.charCodeAt(pos);
      if (c === 0x5c) pos++;
      else if (c === 0x22) return pos + 1;
    }
  }

  /**
   * The string token from `start` to `end` as JSON.stringify writes its
   * value: the token itself when it has no escape (a sent string holds no
   * control character, quote or backslash unescaped, and no lone surrogate
   * in UTF-8), else the value decoded and written again.
   */
  private stringAsWritten(start: number, end: number): string {
    const token = this.text.slice(start, end);
    return token.includes('\\') ? JSON.stringify(JSON.parse(token) as string) : token;
  }
}
