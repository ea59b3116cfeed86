// Exact arithmetic for the numeric keywords of the document. A JSON number is
// a decimal numeral (RFC 8259 §6) and an int64 does not fit a double, so
// `minimum`, `maximum`, their exclusive forms, `multipleOf`, `enum` and
// `const` are compared here on exact rationals, for doubles, bigints and
// numerals written out as text alike. A double stands for its shortest
// decimal form (String(0.1) is "0.1"), which is what the document's author
// wrote and what a client sent.

/** n / d with d > 0. */
export interface Rational {
  n: bigint;
  d: bigint;
}

const NUMERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Exponents beyond this are clamped: such a number is as far outside any bound the document can state as the real one. */
const MAX_EXPONENT = 1000;

/** The exact value of a JSON numeral, a double or a bigint; undefined for anything else (NaN and infinities too). */
export function rationalOf(value: unknown): Rational | undefined {
  if (typeof value === 'bigint') return { n: value, d: 1n };
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return { n: BigInt(value), d: 1n };
    return Number.isFinite(value) ? fromNumeral(String(value)) : undefined;
  }
  if (typeof value === 'string') return fromNumeral(value);
  return undefined;
}

function fromNumeral(text: string): Rational | undefined {
  const m = NUMERAL.exec(text.replace('e+', 'e'));
  if (!m) return undefined;
  const [, sign, whole, fraction = '', exp = '0'] = m;
  const exponent = Math.max(-MAX_EXPONENT, Math.min(MAX_EXPONENT, Number(exp) - fraction.length));
  let n = BigInt(whole! + fraction);
  if (sign === '-') n = -n;
  return exponent >= 0 ? { n: n * 10n ** BigInt(exponent), d: 1n } : reduce({ n, d: 10n ** BigInt(-exponent) });
}

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function reduce(r: Rational): Rational {
  const g = gcd(r.n, r.d);
  return g > 1n ? { n: r.n / g, d: r.d / g } : r;
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compare(a: Rational, b: Rational): -1 | 0 | 1 {
  const l = a.n * b.d;
  const r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
}

export function isIntegral(r: Rational): boolean {
  return r.n % r.d === 0n;
}

/** JSON Schema 2020-12 §6.2.1: "valid if division by this keyword's value results in an integer". */
export function isMultipleOf(value: Rational, divisor: Rational): boolean {
  // (a/b) / (c/d) = a·d / (b·c)
  return (value.n * divisor.d) % (value.d * divisor.n) === 0n;
}

/** The value as a bigint when it is an integer. */
export function integerOf(r: Rational): bigint | undefined {
  return isIntegral(r) ? r.n / r.d : undefined;
}

/** Decimal text of a rational whose denominator divides a power of ten, else a fraction "n/d" (for messages). */
export function formatRational(r: Rational): string {
  if (r.d === 1n) return r.n.toString();
  let d = r.d;
  let twos = 0;
  let fives = 0;
  while (d % 2n === 0n) {
    d /= 2n;
    twos++;
  }
  while (d % 5n === 0n) {
    d /= 5n;
    fives++;
  }
  if (d !== 1n) return `${r.n}/${r.d}`;
  const places = Math.max(twos, fives);
  const scaled = (r.n * 10n ** BigInt(places)) / r.d;
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(places + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}
