// Reading a JSON text that the exact parser (json.ts) has accepted already:
// where its values start and end, its members and items, and each value
// copied without the white space between tokens, every digit of a number
// kept and a string written as JSON.stringify writes it. The stored plant's
// text is made with it (stored-plant.ts), and merge patches are applied to
// stored texts with it (operations/merge-patch.ts).

/**
 * Reads a JSON text that parseJson has accepted already (so no syntax is
 * checked here): finds where values end, and copies them without the white
 * space between tokens. Linear in the text.
 */
export class SentReader {
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
      if (
        d === 0x2c ||
        d === 0x7d ||
        d === 0x5d ||
        d === 0x20 ||
        d === 0x0a ||
        d === 0x0d ||
        d === 0x09 ||
        Number.isNaN(d)
      )
        break;
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
