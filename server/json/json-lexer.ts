// The lexical layer of the exact JSON parser (json.ts): the text and the
// position in it, white space, strings with their escapes (RFC 8259 §7),
// and the syntax error that names where the text went wrong. The parser's
// values (objects, arrays, numbers, literals) are built on this class.

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
for (const [escape, unit] of [
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
] as const) {
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

export class JsonLexer {
  protected pos = 0;

  constructor(protected readonly text: string) {}

  protected fail(reason: string): never {
    throw new JsonSyntaxError(`Malformed JSON at position ${this.pos}: ${reason}.`, this.pos);
  }

  protected skipWhitespace(): void {
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

  /** The string whose opening quote is at the position; the position ends after its closing quote. */
  protected parseString(): string {
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
}
