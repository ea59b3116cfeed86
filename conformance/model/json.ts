// Request bodies are written as JSON text by the harness itself, because
// JSON.stringify cannot write an int64 beyond 2^53 exactly, nor an integral
// numeral like `5.0` (RFC 8259 §6 leaves number precision to implementations;
// the harness must send the digits it means).
import { compare, rationalOf } from '../../spec/exact-number.js';

/** A number written exactly as given, e.g. `5.0`, `1e400`, `-9223372036854775809`. */
export class Numeral {
  constructor(readonly text: string) {}
}

export type JsonValue =
  null | boolean | number | bigint | string | Numeral | JsonValue[] | { [key: string]: JsonValue };

/** JSON text for a value; bigints and Numerals are written digit for digit. */
export function toJson(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Numeral) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A value as a note shows it: a string as itself, anything else as its JSON text (nothing for no value). */
export function noteText(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : toJson(value);
}

/** Parses a response body, or undefined when it is not JSON. */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** A string or a number of JSON text: strings are passed over whole, so that digits inside them stay as they are. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * Parses JSON text (RFC 8259) keeping every number as written (a Numeral),
 * so that an answer's digits can be compared exactly with what was sent:
 * JSON.parse alone would round an int64 or a long decimal to a double. Each
 * number is first written as a marked string, then JSON.parse reads the
 * text (and says whether it is JSON), and its reviver turns the marked
 * strings back into Numerals.
 */
export function parseExact(text: string): { ok: true; value: JsonValue } | { ok: false } {
  const known = parsedTexts.get(text);
  if (known !== undefined) return known;
  const parsed = parseExactOnce(text);
  // Frozen whether kept or not: a reader sees the same kind of value for every text.
  if (parsed.ok) deepFreeze(parsed.value);
  Object.freeze(parsed);
  if (text.length <= MAX_KEPT_TEXT) {
    keptChars += text.length;
    parsedTexts.set(text, parsed);
    for (const [oldest] of parsedTexts) {
      if (keptChars <= MAX_KEPT_CHARS && parsedTexts.size <= MAX_KEPT_TEXTS) break;
      parsedTexts.delete(oldest);
      keptChars -= oldest.length;
    }
  }
  return parsed;
}

// Every check that grades an answer's body parses it, and the same answer is
// graded by a dozen checks and read again by the traces and the root causes:
// a run parsed each body about forty times (a profile of a run of the catalog
// had this one function at a quarter of the harness's CPU). The last texts
// parsed are kept with their values, frozen so that no reader can change what
// the next one sees. Bounded by count and by characters, oldest out first: a
// request body of 1 MiB (the robustness cases) is kept too, since the traces
// read it again for each check that shows its case.
const MAX_KEPT_TEXTS = 512;
const MAX_KEPT_CHARS = 8 * 1024 * 1024;
const MAX_KEPT_TEXT = 2 * 1024 * 1024;
const parsedTexts = new Map<string, { ok: true; value: JsonValue } | { ok: false }>();
let keptChars = 0;

function deepFreeze(value: JsonValue): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  const members: JsonValue[] = Array.isArray(value) ? value : Object.values(value as Record<string, JsonValue>);
  for (const member of members) deepFreeze(member);
}

function parseExactOnce(text: string): { ok: true; value: JsonValue } | { ok: false } {
  const mark = `\u{F0000}${Math.random().toString(36).slice(2)}:`;
  const marked = text.replace(TOKENS, (token) => (token.startsWith('"') ? token : JSON.stringify(`${mark}${token}`)));
  try {
    const value = JSON.parse(marked, (_key, v: unknown) =>
      typeof v === 'string' && v.startsWith(mark) ? new Numeral(v.slice(mark.length)) : v,
    ) as JsonValue;
    return { ok: true, value };
  } catch {
    return { ok: false };
  }
}

/** The exact value of a JSON number in any of the harness's forms. */
function numberOf(v: JsonValue): ReturnType<typeof rationalOf> {
  return v instanceof Numeral
    ? rationalOf(v.text)
    : typeof v === 'number' || typeof v === 'bigint'
      ? rationalOf(v)
      : undefined;
}

/**
 * Whether two JSON values are the same value (RFC 8259: members in any
 * order; numbers equal as exact decimals, so 5.0 is 5 and an int64 keeps
 * every digit).
 */
export function sameValue(a: JsonValue, b: JsonValue): boolean {
  const na = numberOf(a);
  const nb = numberOf(b);
  if (na || nb) return na !== undefined && nb !== undefined && compare(na, nb) === 0;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]!));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.prototype.hasOwnProperty.call(b, k) &&
        sameValue((a as Record<string, JsonValue>)[k]!, (b as Record<string, JsonValue>)[k]!),
    )
  );
}
