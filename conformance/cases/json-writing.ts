// The freedoms RFC 8259 gives a writer of JSON text, as ways of writing one
// value. A parser "MUST accept all texts that conform to the JSON grammar"
// (RFC 8259 §9), so a value written any of these ways means the same.
import { Numeral, type JsonValue } from '../model/json.js';

export interface Writing {
  /**
   * RFC 8259 §2: "Insignificant whitespace is allowed before or after any of
   * the six structural characters", and JSON-text = ws value ws. Called for
   * each place whitespace may go, with the nesting depth there.
   */
  space(depth: number): string;
  /** RFC 8259 §7: how a string (a member name or a value) is written; `JSON.stringify` when absent. */
  string?: (text: string) => string;
  /** RFC 8259 §4: "An object is an unordered collection": the order the members are written in. */
  order?: (names: string[]) => string[];
}

/** JSON text for `value`, written as `w` says; numbers are written as `toJson` writes them. */
export function writeJson(value: JsonValue, w: Writing): string {
  return `${w.space(0)}${write(value, w, 0)}${w.space(0)}`;
}

function write(value: JsonValue, w: Writing, depth: number): string {
  const str = w.string ?? ((t: string) => JSON.stringify(t));
  if (value === null) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Numeral) return value.text;
  if (typeof value === 'string') return str(value);
  if (typeof value !== 'object') return JSON.stringify(value);
  const inner = w.space(depth + 1);
  const outer = w.space(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return `[${inner}]`;
    return `[${inner}${value.map((v) => write(v, w, depth + 1)).join(`${inner},${inner}`)}${outer}]`;
  }
  const names = (w.order ?? ((n: string[]) => n))(Object.keys(value));
  if (names.length === 0) return `{${inner}}`;
  const members = names.map((n) => `${str(n)}${inner}:${inner}${write(value[n]!, w, depth + 1)}`);
  return `{${inner}${members.join(`${inner},${inner}`)}${outer}}`;
}

/** RFC 8259 §7: any character may be escaped as \uXXXX (hex digits in either case); a character outside the BMP as its UTF-16 surrogate pair. */
export function escapeEvery(text: string, upperHex = false): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const hex = text.charCodeAt(i).toString(16).padStart(4, '0');
    out += `\\u${upperHex ? hex.toUpperCase() : hex}`;
  }
  return `${out}"`;
}

/** RFC 8259 §7: the two-character escapes, the solidus included (\/), for the characters that have one; others as they are. */
export function escapeShort(text: string): string {
  const short: Record<string, string> = {
    '"': '\\"',
    '\\': '\\\\',
    '/': '\\/',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
  };
  let out = '"';
  for (const c of text) {
    const code = c.charCodeAt(0);
    out += short[c] ?? (code < 0x20 ? `\\u${code.toString(16).padStart(4, '0')}` : c);
  }
  return `${out}"`;
}
