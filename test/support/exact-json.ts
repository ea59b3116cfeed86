// A JSON parser for the fake server that keeps numbers as written (Num), so
// that ids are exact at any size, and refuses repeated member names as the
// reference server does (docs/server.md, behaviour).
/** A number as written, so that ids stay exact. */
export class Num {
  constructor(readonly text: string) {}
}
export type Json = null | boolean | string | Num | Json[] | { [k: string]: Json };

/** Ways to break the parser on purpose (the fake server's mutants). */
export interface Breakage {
  /** The characters skipped as whitespace (RFC 8259 §2: space, tab, LF, CR). */
  whitespace?: string;
  /** Strings kept as written between their quotes, escapes undecoded. */
  rawStrings?: boolean;
  /** Member names kept as written, escapes undecoded (values decoded). */
  rawNames?: boolean;
  /** A repeated member name keeps its last value instead of being refused. */
  lastWins?: boolean;
}

/** Parses JSON text (RFC 8259); with `lenientTail`, text after the value is ignored. */
export function parseJson(text: string, lenientTail: boolean, breakage: Breakage = {}): Json {
  let i = 0;
  const whitespace = breakage.whitespace ?? ' \t\n\r';
  const ws = () => {
    while (i < text.length && whitespace.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`bad JSON at ${i}`);
  };
  const value = (): Json => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: { [k: string]: Json } = Object.create(null);
      ws();
      if (text[i] === '}') return (i++, out);
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const k = str(breakage.rawNames);
        ws();
        if (text[i++] !== ':') fail();
        if (k in out && !breakage.lastWins) fail(); // repeated member names are refused (docs/server.md)
        out[k] = value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return (i++, out);
        else fail();
      }
    }
    if (c === '[') {
      i++;
      const out: Json[] = [];
      ws();
      if (text[i] === ']') return (i++, out);
      for (;;) {
        out.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return (i++, out);
        else fail();
      }
    }
    if (c === '"') return str();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) return ((i += word.length), v);
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail();
    i += m![0].length;
    return new Num(m![0]);
  };
  const str = (raw = breakage.rawStrings): string => {
    const m = /^"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/.exec(text.slice(i));
    if (!m) fail();
    i += m![0].length;
    return raw ? m![0].slice(1, -1) : (JSON.parse(m![0]) as string);
  };
  const v = value();
  ws();
  if (i !== text.length && !lenientTail) fail();
  return v;
}

/** The exact integer a numeral denotes, or undefined when it has a fraction. */
export function exactInteger(text: string): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
  const digits = m[2]! + (m[3] ?? '');
  let exp = Number(m[4] ?? 0) - (m[3]?.length ?? 0);
  if (Math.abs(exp) > 400) return exp > 0 && /^0+$/.test(digits) ? 0n : exp > 0 ? 10n ** 400n : undefined;
  let n = BigInt(digits);
  while (exp < 0) {
    if (n % 10n !== 0n) return undefined;
    n /= 10n;
    exp++;
  }
  n *= 10n ** BigInt(exp);
  return m[1] ? -n : n;
}
