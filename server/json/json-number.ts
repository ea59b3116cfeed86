// The numbers of the exact JSON parser (json.ts): integers kept exact as
// numbers or bigints, and numerals that are not integers although their
// nearest double is one.

/**
 * A numeral that is not an integer but whose nearest double is one
 * (1e-400 is 0 as a double, 1.0000000000000000001 is 1). Kept apart so that
 * no validator mistakes it for the integer it rounds to.
 */
export class NonIntegralNumber {
  constructor(readonly numeral: string) {}
  toJSON(): number {
    return Number(this.numeral);
  }
}

/** Integers with more digits than this are far outside int64; keep their sign and magnitude class only. */
const MAX_EXACT_DIGITS = 40;
const HUGE = 10n ** BigInt(MAX_EXACT_DIGITS);

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * The value of a numeral the parser has scanned (RFC 8259 §6: its sign, the
 * digits before and after the decimal point, and the exponent): an exact
 * integer when it is one, else a double, or a NonIntegralNumber when that
 * double would be an integer.
 */
export function numberValue(
  negative: boolean,
  intDigits: string,
  fracDigits: string,
  exponent: number,
  numeral: string,
): number | bigint | NonIntegralNumber {
  const integer = exactInteger(negative, intDigits + fracDigits, exponent - fracDigits.length);
  if (integer !== undefined) return integer;
  const double = Number(numeral);
  return Number.isInteger(double) ? new NonIntegralNumber(numeral) : double;
}

/**
 * The value of ±digits × 10^exponent when it is an integer (JSON Schema
 * 2020-12 counts 5.0 and 5e2 as integers), else undefined. Safe integers come
 * back as numbers, others as bigints; magnitudes beyond 10^40 are clamped to
 * ±10^40, which is as far outside int64 as the real value.
 */
function exactInteger(negative: boolean, digits: string, exponent: number): number | bigint | undefined {
  let first = 0;
  while (first < digits.length && digits.charCodeAt(first) === 0x30) first++;
  let last = digits.length;
  while (last > first && digits.charCodeAt(last - 1) === 0x30) {
    last--;
    exponent++;
  }
  if (first === last) return 0; // zero with any exponent, and -0, is the integer 0
  if (exponent < 0) return undefined; // a fraction remains
  const significant = digits.slice(first, last);
  if (significant.length + exponent > MAX_EXACT_DIGITS) return negative ? -HUGE : HUGE;
  const magnitude = BigInt(significant) * 10n ** BigInt(exponent);
  const value = negative ? -magnitude : magnitude;
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}
