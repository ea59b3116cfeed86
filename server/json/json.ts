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
import { JsonLexer, JsonSyntaxError } from './json-lexer.js';
import { JSON_MAX_DEPTH } from '../limits.js';
import { isDigit, NonIntegralNumber, numberValue } from './json-number.js';

export { JsonSyntaxError, NonIntegralNumber };

export type JsonValue = null | boolean | number | bigint | string | NonIntegralNumber | JsonValue[] | JsonObject;

export interface JsonObject {
  [key: string]: JsonValue;
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
  name.length <= QUOTED_NAME_LIMIT
    ? JSON.stringify(name)
    : `${JSON.stringify(name.slice(0, QUOTED_NAME_LIMIT))}… (${name.length} characters)`;

export function parseJson(text: string, options: ParseOptions = {}): JsonValue {
  return new Parser(text, options.maxDepth ?? JSON_MAX_DEPTH, options.topLevelNames).parseDocument();
}

class Parser extends JsonLexer {
  private depth = 0;

  constructor(
    text: string,
    private readonly maxDepth: number,
    private readonly topLevelNames: string[] | undefined,
  ) {
    super(text);
  }

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
    const object = Object.create(null) as JsonObject;
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
    if (fracDigits === '' && exponent === 0 && intDigits.length <= 15)
      return negative ? -Number(intDigits) || 0 : Number(intDigits);
    return numberValue(negative, intDigits, fracDigits, exponent, text.slice(start, pos));
  }
}
