// Request bodies are written as JSON text by the harness itself, because
// JSON.stringify cannot write an int64 beyond 2^53 exactly, nor an integral
// numeral like `5.0` (RFC 8259 §6 leaves number precision to implementations;
// the harness must send the digits it means).

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
