// The numbers a schema allows, exactly: the bounds, exclusive bounds,
// multipleOf and integer format of the schemas of one place taken together
// (a lattice of k·step between two bounds), for bounds beyond 2^53 and
// decimal steps alike (spec/exact-number.ts).
import { compare, formatRational, rationalOf, type Rational } from '../../spec/exact-number.js';
import { integerRange } from '../../spec/formats.js';
import type { JsonSchema } from '../../spec/schema-keywords.js';
import { Numeral, type JsonValue } from '../model/json.js';

/** A JSON number for an exact value: a number when it is a safe integer, a bigint beyond, a numeral written out otherwise. */
export function numberValue(r: Rational): JsonValue {
  if (r.d === 1n)
    return r.n >= BigInt(Number.MIN_SAFE_INTEGER) && r.n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(r.n) : r.n;
  const text = formatRational(r);
  return text.includes('/') ? Number(r.n) / Number(r.d) : new Numeral(text);
}

function num(value: unknown): Rational | undefined {
  return typeof value === 'number' || typeof value === 'bigint' ? rationalOf(value) : undefined;
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a % b === 0n ? a / b : a / b + (a > 0n === b > 0n ? 1n : 0n));
const floorDiv = (a: bigint, b: bigint): bigint => (a % b === 0n ? a / b : a / b - (a > 0n === b > 0n ? 0n : 1n));
const gcd = (a: bigint, b: bigint): bigint => {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
};

/** A bound of a range: its value, and whether it is excluded. */
interface Bound {
  r: Rational;
  open: boolean;
}

/**
 * The numbers the numeric keywords of `nodes` allow together (every node
 * binds the same value: the schemas of one place in a body): between the
 * tightest bounds, multiples of every multipleOf (their least common
 * multiple), integers where a node says so or has an integer format.
 * `step` is undefined for any real number in the range.
 */
export interface NumberLattice {
  lo?: Bound;
  hi?: Bound;
  step?: Rational;
  /** The least and greatest k for which k·step is allowed (with a step). */
  kMin?: bigint;
  kMax?: bigint;
}

export function numberLattice(nodes: readonly JsonSchema[], integer: boolean): NumberLattice | undefined {
  let lo: Bound | undefined;
  let hi: Bound | undefined;
  const tighter = (
    bound: Rational | undefined,
    open: boolean,
    current: Bound | undefined,
    lower: boolean,
  ): Bound | undefined => {
    if (!bound) return current;
    if (!current) return { r: bound, open };
    const c = compare(bound, current.r);
    if (c === 0) return { r: bound, open: open || current.open };
    return (lower ? c > 0 : c < 0) ? { r: bound, open } : current;
  };
  let step: Rational | undefined = integer ? { n: 1n, d: 1n } : undefined;
  for (const node of nodes) {
    const range = integerRange(typeof node.format === 'string' ? node.format : undefined);
    if (range) {
      lo = tighter({ n: range[0], d: 1n }, false, lo, true);
      hi = tighter({ n: range[1], d: 1n }, false, hi, false);
    }
    lo = tighter(num(node.minimum), false, lo, true);
    lo = tighter(num(node.exclusiveMinimum), true, lo, true);
    hi = tighter(num(node.maximum), false, hi, false);
    hi = tighter(num(node.exclusiveMaximum), true, hi, false);
    const m = num(node.multipleOf);
    // lcm(a/b, c/d) = lcm(a, c) / gcd(b, d); integer multiples of a/b are the multiples of a.
    if (m && m.n > 0n) step = step ? { n: (step.n * m.n) / gcd(step.n, m.n), d: gcd(step.d, m.d) } : m;
  }
  if (integer && step) step = { n: step.n, d: 1n };
  if (!step) return { lo, hi };
  // k·step within the bounds: r / step = (r.n·step.d) / (r.d·step.n).
  const kMin =
    lo &&
    (() => {
      const a = lo.r.n * step.d;
      const b = lo.r.d * step.n;
      const k = ceilDiv(a, b);
      return lo.open && a % b === 0n ? k + 1n : k;
    })();
  const kMax =
    hi &&
    (() => {
      const a = hi.r.n * step.d;
      const b = hi.r.d * step.n;
      const k = floorDiv(a, b);
      return hi.open && a % b === 0n ? k - 1n : k;
    })();
  if (kMin !== undefined && kMax !== undefined && kMin > kMax) return undefined;
  return { lo, hi, step, kMin, kMax };
}

/** The allowed multiple k·step nearest k = `k`. */
export function clampK(lattice: NumberLattice, k: bigint): bigint {
  if (lattice.kMin !== undefined && k < lattice.kMin) return lattice.kMin;
  if (lattice.kMax !== undefined && k > lattice.kMax) return lattice.kMax;
  return k;
}

/**
 * Numbers inside the keywords of `node` (bounds, exclusive bounds,
 * multipleOf, an integer format), the one nearest `near` first, then the
 * smallest and the largest: exact, for bounds beyond 2^53 and decimal
 * steps alike. None when the keywords leave no such number.
 */
export function numberSamples(node: JsonSchema, integer: boolean, near: bigint): JsonValue[] {
  const lattice = numberLattice([node], integer);
  if (!lattice) return [];
  const { lo, hi, step } = lattice;
  if (!step) {
    // Any real number: near, the middle of the range, or just inside a bound.
    const inside = (r: Rational) =>
      (!lo || compare(r, lo.r) > 0 || (!lo.open && compare(r, lo.r) === 0)) &&
      (!hi || compare(r, hi.r) < 0 || (!hi.open && compare(r, hi.r) === 0));
    const candidates: Rational[] = [{ n: near, d: 1n }];
    if (lo && hi) candidates.push({ n: lo.r.n * hi.r.d + hi.r.n * lo.r.d, d: 2n * lo.r.d * hi.r.d });
    if (lo) candidates.push(lo.open ? { n: lo.r.n * 10n + lo.r.d, d: lo.r.d * 10n } : lo.r);
    if (hi) candidates.push(hi.open ? { n: hi.r.n * 10n - hi.r.d, d: hi.r.d * 10n } : hi.r);
    return candidates.filter(inside).map(numberValue);
  }
  const ks = new Set([
    clampK(lattice, floorDiv(near * step.d, step.n)),
    ...(lattice.kMin !== undefined ? [lattice.kMin] : []),
    ...(lattice.kMax !== undefined ? [lattice.kMax] : []),
  ]);
  return [...ks].map((k) => numberValue({ n: k * step.n, d: step.d }));
}
