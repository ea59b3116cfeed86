// A strict JSON (RFC 8259) parser that keeps integers exact.
//
// JSON.parse turns every number into a double, so 9007199254740993 becomes
// 9007199254740992 and 9223372036854775807 becomes 2^63: the int64 ids of the
// Plant Store could not be told apart or range-checked. This parser returns
// an integral numeral as a `number` when it is a safe integer and as a
// `bigint` otherwise, so every int64 arrives exactly. Non-integral numerals
// are `number`s, as with JSON.parse.
//
// Beyond RFC 8259 it refuses, as decisions of ours (docs/server.md):
// - repeated member names in one object (RFC 8259 §4: "names SHOULD be
//   unique"; I-JSON, RFC 7493 §2.3, forbids them), so no two parsers can
//   read one request differently;
// - nesting deeper than `maxDepth`, so hostile input cannot exhaust the stack.
// Objects are created without a prototype, so `__proto__` and `constructor`
// are ordinary member names and pollute nothing.
import { JSON_MAX_DEPTH } from './limits.js';
import { isDigit, NonIntegralNumber, numberValue } from './json-number.js';

export { NonIntegralNumber };

export type JsonValue = null | boolean | number | bigint | string | NonIntegralNumber | JsonValue[] | JsonObject;

export interface JsonObject {
  [key: string]: JsonValue;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

/** RFC 8259 §7: the two-character escapes, by the code of the character after the backslash: the code unit each stands for, -1 for none. */
const SHORT_ESCAPES = new Int32Array(128).fill(-1);
for (const [escape, unit] of [['"', '"'], ['\\', '\\'], ['/', '/'], ['b', '\b'], ['f', '\f'], ['n', '\n'], ['r', '\r'], ['t', '\t']] as const) {
  SHORT_ESCAPES[escape.charCodeAt(0)] = unit.charCodeAt(0);
}

/**
 * The code units of a string with escapes are gathered here, and made a
 * string a buffer at a time: a string piece per escape made a rope of as
 * many pieces (a 1 MiB body of 524,288 `\n` escapes cost 20 to 30 times
 * JSON.parse's CPU, bench/json-parse.ts). One buffer serves every parse (the
 * parser is synchronous); it stays this small whatever the string's length.
 */
const UNITS = new Uint16Array(8192);
const UNIT_BYTES = Buffer.from(UNITS.buffer);

/** The value of a hexadecimal digit's character code, -1 for any other (NaN past the end included). */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

export interface ParseOptions {
  /** Deepest nesting allowed; JSON_MAX_DEPTH unless given. */
  maxDepth?: number;
  /**
   * Filled with the member names of the text's top-level object, in the
   * order written: the parser's objects have no prototype, and enumerating
   * such an object cost the create rule more than the rest of its work
   * (create.ts keeps a plant's properties in the order sent).
   */
  topLevelNames?: string[];
}

/** Longest member name a message quotes whole: a client needs no echo of the 500 KB name it sent. */
export const QUOTED_NAME_LIMIT = 64;
const quoteShortened = (name: string): string =>
  name.length <= QUOTED_NAME_LIMIT ? JSON.stringify(name) : `${JSON.stringify(name.slice(0, QUOTED_NAME_LIMIT))}… (${name.length} characters)`;

export function parseJson(text: string, options: ParseOptions = {}): JsonValue {
  return new Parser(text, options.maxDepth ?? JSON_MAX_DEPTH, options.topLevelNames).parseDocument();
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly topLevelNames: string[] | undefined,
  ) {}

  parseDocument(): JsonValue {
    // RFC 8259 §8.1: parsers MAY ignore a byte order mark.
    if (this.text.charCodeAt(0) === 0xfeff) this.pos = 1;
    this.skipWhitespace();
    if (this.pos >= this.text.length) this.fail('the body is empty, a JSON value was expected');
    const value = this.parseValue();
    this.skipWhitespace();
    if (this.pos < this.text.length) this.fail('unexpected data after the JSON value');
    return value;
  }

  private fail(reason: string): never {
    throw new JsonSyntaxError(`Malformed JSON at position ${this.pos}: ${reason}.`, this.pos);
  }

  private skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    for (;;) {
      const c = text.charCodeAt(pos);
      // RFC 8259 §2: ws = space, horizontal tab, line feed, carriage return.
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else break;
    }
    this.pos = pos;
  }

  private parseValue(): JsonValue {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b: // {
        return this.parseObject();
      case 0x5b: // [
        return this.parseArray();
      case 0x22: // "
        return this.parseString();
      case 0x74: // t
        return this.parseLiteral('true', true);
      case 0x66: // f
        return this.parseLiteral('false', false);
      case 0x6e: // n
        return this.parseLiteral('null', null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
        if (Number.isNaN(c)) this.fail('unexpected end of input, a value was expected');
        this.fail(`unexpected character ${JSON.stringify(this.text[this.pos])}, a value was expected`);
    }
  }

  private parseLiteral<T extends JsonValue>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail(`invalid literal, expected ${word}`);
    this.pos += word.length;
    return value;
  }

  private enter(): void {
    if (++this.depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`);
  }

  private parseObject(): JsonObject {
    this.enter();
    this.pos++; // {
    // No prototype, and no member is ever undefined: `object[name] !== undefined`
    // is the repeat check, with no Set per object.
    const object: JsonObject = Object.create(null);
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      this.depth--;
      return object;
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('a member name in double quotes was expected');
      const namePos = this.pos;
      const name = this.parseString();
      if (object[name] !== undefined) {
        this.pos = namePos;
        this.fail(`the member name ${quoteShortened(name)} is repeated (RFC 7493 §2.3)`);
      }
      if (this.depth === 1) this.topLevelNames?.push(name);
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail('":" was expected after a member name');
      this.pos++;
      this.skipWhitespace();
      object[name] = this.parseValue();
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        this.skipWhitespace();
        continue;
      }
      if (c === 0x7d) {
        this.pos++;
        this.depth--;
        return object;
      }
      this.fail('"," or "}" was expected in an object');
    }
  }

  private parseArray(): JsonValue[] {
    this.enter();
    this.pos++; // [
    const array: JsonValue[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      this.depth--;
      return array;
    }
    for (;;) {
      this.skipWhitespace();
      array.push(this.parseValue());
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        continue;
      }
      if (c === 0x5d) {
        this.pos++;
        this.depth--;
        return array;
      }
      this.fail('"," or "]" was expected in an array');
    }
  }

  private parseString(): string {
    const text = this.text;
    const start = this.pos + 1; // after the opening quote
    let pos = start;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        this.pos = pos + 1;
        return text.slice(start, pos);
      }
      if (c === 0x5c) return this.parseEscapedString(text.slice(start, pos), pos);
      // RFC 8259 §7: control characters U+0000 to U+001F must be escaped (NaN: the text ended).
      if (!(c >= 0x20)) this.failInString(pos, c);
      pos++;
    }
  }

  /**
   * The rest of a string from its first escape at `pos`, after `out`, the
   * run before it. Linear: each escape is decoded in place to one code unit
   * of UNITS, as is each character between escapes; a full buffer is
   * appended to `out` at once.
   */
  private parseEscapedString(out: string, pos: number): string {
    const text = this.text;
    let count = 0;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x5c) {
        const escape = text.charCodeAt(pos + 1);
        if (escape === 0x75) {
          // \uXXXX: four hexadecimal digits, a code unit (a lone surrogate stays one).
          const d1 = hexDigit(text.charCodeAt(pos + 2));
          const d2 = hexDigit(text.charCodeAt(pos + 3));
          const d3 = hexDigit(text.charCodeAt(pos + 4));
          const d4 = hexDigit(text.charCodeAt(pos + 5));
          if ((d1 | d2 | d3 | d4) < 0) {
            this.pos = pos;
            this.fail('invalid \\u escape, four hexadecimal digits were expected');
          }
          UNITS[count++] = (d1 << 12) | (d2 << 8) | (d3 << 4) | d4;
          pos += 6;
        } else {
          const unit = escape < 128 ? SHORT_ESCAPES[escape]! : -1;
          if (unit < 0) {
            this.pos = pos;
            this.fail('invalid escape in a string');
          }
          UNITS[count++] = unit;
          pos += 2;
        }
      } else if (c === 0x22) {
        this.pos = pos + 1;
        return out + UNIT_BYTES.toString('utf16le', 0, 2 * count);
      } else {
        if (!(c >= 0x20)) this.failInString(pos, c);
        UNITS[count++] = c;
        pos++;
      }
      if (count === UNITS.length) {
        out += UNIT_BYTES.toString('utf16le');
        count = 0;
      }
    }
  }

  /** A string that ends without its closing quote (`c` is NaN), or holds a control character. */
  private failInString(pos: number, c: number): never {
    this.pos = pos;
    this.fail(Number.isNaN(c) ? 'unterminated string' : 'unescaped control character in a string');
  }

  private parseNumber(): number | bigint | NonIntegralNumber {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    let negative = false;
    if (text.charCodeAt(pos) === 0x2d) {
      negative = true;
      pos++;
    }
    // RFC 8259 §6: int = zero / ( digit1-9 *DIGIT ); no leading zeros.
    const intStart = pos;
    if (text.charCodeAt(pos) === 0x30) pos++;
    else if (isDigit(text.charCodeAt(pos))) while (isDigit(text.charCodeAt(pos))) pos++;
    else {
      this.pos = pos;
      this.fail('a digit was expected');
    }
    const intDigits = text.slice(intStart, pos);
    let fracDigits = '';
    if (text.charCodeAt(pos) === 0x2e) {
      pos++;
      const fracStart = pos;
      while (isDigit(text.charCodeAt(pos))) pos++;
      if (pos === fracStart) {
        this.pos = pos;
        this.fail('a digit was expected after the decimal point');
      }
      fracDigits = text.slice(fracStart, pos);
    }
    let exponent = 0;
    const e = text.charCodeAt(pos);
    if (e === 0x65 || e === 0x45) {
      pos++;
      let expNegative = false;
      const sign = text.charCodeAt(pos);
      if (sign === 0x2b || sign === 0x2d) {
        expNegative = sign === 0x2d;
        pos++;
      }
      const expStart = pos;
      while (isDigit(text.charCodeAt(pos))) pos++;
      if (pos === expStart) {
        this.pos = pos;
        this.fail('a digit was expected in the exponent');
      }
      // Exponents beyond 15 digits only ever mean "enormous" or "tiny".
      exponent = Number(text.slice(expStart, pos));
      if (expNegative) exponent = -exponent;
    }
    this.pos = pos;
    // The common case, decided here: a plain integer numeral that fits a double exactly.
    if (fracDigits === '' && exponent === 0 && intDigits.length <= 15) return negative ? -Number(intDigits) || 0 : Number(intDigits);
    return numberValue(negative, intDigits, fracDigits, exponent, text.slice(start, pos));
  }
}
