// Request bodies are written as JSON text by the harness itself, because
// JSON.stringify cannot write an int64 beyond 2^53 exactly, nor an integral
// numeral like `5.0` (RFC 8259 §6 leaves number precision to implementations;
// the harness must send the digits it means).
import { compare, rationalOf } from '../spec/exact-number.js';

/** A number written exactly as given, e.g. `5.0`, `1e400`, `-9223372036854775809`. */
export class Numeral {
  constructor(readonly text: string) {}
}

export type JsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Numeral
  | JsonValue[]
  | { [key: string]: JsonValue };

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

/** Parses a response body, or undefined when it is not JSON. */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Parses JSON text (RFC 8259) keeping every number as written (a Numeral),
 * so that an answer's digits can be compared exactly with what was sent:
 * JSON.parse would round an int64 or a long decimal to a double.
 */
export function parseExact(text: string): { ok: true; value: JsonValue } | { ok: false } {
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`not JSON at ${i}`);
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
  const value = (): JsonValue => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: Record<string, JsonValue> = {};
      ws();
      if (text[i] === '}') return i++, out;
      for (;;) {
        ws();
        STRING.lastIndex = i;
        const key = STRING.exec(text) ?? fail();
        i = STRING.lastIndex;
        ws();
        if (text[i++] !== ':') fail();
        Object.defineProperty(out, JSON.parse(key[0]) as string, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return i++, out;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      const out: JsonValue[] = [];
      ws();
      if (text[i] === ']') return i++, out;
      for (;;) {
        out.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return i++, out;
        else fail();
      }
    }
    if (c === '"') {
      STRING.lastIndex = i;
      const m = STRING.exec(text) ?? fail();
      i = STRING.lastIndex;
      return JSON.parse(m[0]) as string;
    }
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, i)) return (i += word.length), v;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text) ?? fail();
    i = NUMBER.lastIndex;
    return new Numeral(m[0]);
  };
  try {
    const v = value();
    ws();
    return i === text.length ? { ok: true, value: v } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/** The exact value of a JSON number in any of the harness's forms. */
function numberOf(v: JsonValue): ReturnType<typeof rationalOf> {
  return v instanceof Numeral ? rationalOf(v.text) : typeof v === 'number' || typeof v === 'bigint' ? rationalOf(v) : undefined;
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
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]!));
  const ka = Object.keys(a);
  const kb = Object.keys(b as Record<string, JsonValue>);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue((a as Record<string, JsonValue>)[k]!, (b as Record<string, JsonValue>)[k]!));
}
