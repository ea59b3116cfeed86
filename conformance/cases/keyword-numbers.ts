// The cases of the numeric keywords (JSON Schema Validation 2020-12 §6.2):
// the bounds, exclusive or not, and multipleOf, in exact arithmetic so that
// a bound written 0.1 is met at 0.1 and not at a double beside it.
import type { Rational } from '../../spec/exact-number.js';
import { numberValue } from './number-values.js';
import { add, floorOf, integerOnly, rational, show, stepBeside } from './keyword-sites.js';
import type { Proposal, ProposalSite, Proposer } from './keyword-proposals.js';

/** minimum, maximum and their exclusive forms: the numbers just beside the bound, on each side. */
function proposeBound(at: ProposalSite, keyword: string, value: unknown): Proposal[] {
  const { inside, outside } = at;
  const { node } = at.site;
  const bound = rational(value);
  if (!bound) return [];
  const lower = keyword === 'minimum' || keyword === 'exclusiveMinimum';
  const exclusive = keyword.startsWith('exclusive');
  const beside = (r: Rational, sign: bigint, by: Rational): Rational => add(r, { n: sign * by.n, d: by.d });
  const step = rational(node.multipleOf);
  // Toward the inside of the range, and away from it.
  const inward = lower ? 1n : -1n;
  let ins: Rational[];
  let outs: Rational[];
  if (integerOnly(node)) {
    // The integers on either side of the boundary.
    const f = floorOf(bound);
    const integral = bound.n % bound.d === 0n;
    const first = lower ? (exclusive || !integral ? f + 1n : f) : exclusive && integral ? f - 1n : f;
    ins = [{ n: first, d: 1n }];
    outs = [{ n: first - inward, d: 1n }];
  } else {
    // Just beside the bound, or one multipleOf step beside it when the document also states one.
    const steps = [stepBeside(bound), ...(step ? [step] : []), { n: 1n, d: 1n }];
    ins = exclusive ? steps.map((by) => beside(bound, inward, by)) : [bound];
    outs = exclusive ? [bound] : steps.map((by) => beside(bound, -inward, by));
  }
  const label = `${keyword} ${show(numberValue(bound))}`;
  return [
    ...ins.map((r) => ({
      ...inside(numberValue(r), `${show(numberValue(r))} (${label})`),
      intent: `inside ${label}`,
    })),
    ...outs.map((r) => ({
      ...outside(numberValue(r), `${show(numberValue(r))} (${label})`),
      intent: `outside ${label}`,
    })),
  ];
}

/** multipleOf: the multiples beside the base value, inside; half a step and one past them, outside. */
function proposeMultiple(at: ProposalSite, _keyword: string, value: unknown): Proposal[] {
  const { current, inside, outside } = at;
  const step = rational(value);
  const base = rational(typeof current === 'number' || typeof current === 'bigint' ? current : 0) ?? {
    n: 0n,
    d: 1n,
  };
  if (!step || step.n <= 0n) return [];
  // q = floor(base / step); q·step and (q+1)·step are multiples beside the base value.
  const q = floorOf({ n: base.n * step.d, d: base.d * step.n });
  const multiple = (k: bigint): Rational => ({ n: k * step.n, d: step.d });
  const half: Rational = { n: step.n, d: step.d * 2n };
  return [
    inside(numberValue(multiple(q)), `${show(numberValue(multiple(q)))} (multipleOf ${show(numberValue(step))})`),
    inside(
      numberValue(multiple(q + 1n)),
      `${show(numberValue(multiple(q + 1n)))} (multipleOf ${show(numberValue(step))})`,
    ),
    outside(
      numberValue(add(multiple(q), half)),
      `${show(numberValue(add(multiple(q), half)))} (not a multiple of ${show(numberValue(step))})`,
    ),
    outside(
      numberValue(add(multiple(q), { n: 1n, d: 1n })),
      `${show(numberValue(add(multiple(q), { n: 1n, d: 1n })))} (not a multiple of ${show(numberValue(step))})`,
    ),
  ];
}

export const NUMBER_PROPOSERS: Record<string, Proposer> = {
  minimum: proposeBound,
  maximum: proposeBound,
  exclusiveMinimum: proposeBound,
  exclusiveMaximum: proposeBound,
  multipleOf: proposeMultiple,
};
