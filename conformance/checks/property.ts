// Runs a property check: fast-check draws values from the run's seed, each
// becomes a case that the runner's `send` sends, and the check grades it. A
// failing case is shrunk to its smallest form and reported with the seed.
import fc from 'fast-check';
import type { Exchange, RequestSpec } from './exchange.js';
import { describe, noAnswerCause } from './grades.js';
import { RuledOut } from '../cases/draw.js';
import type { Case, CheckContext, PropertyCheck, Verdict } from './types.js';

/** No answer at all: the harness could not run the case, which ends the property as `error`, not `fail`. */
class HarnessError extends Error {}

export async function runProperty(
  check: PropertyCheck<unknown, unknown>,
  ctx: CheckContext,
  send: (req: RequestSpec) => Promise<Exchange>,
): Promise<Verdict> {
  let lastFailure: { ex: Exchange; verdict: Verdict } | undefined;
  let nonStrict: Verdict | undefined;
  let ruledOut: string | undefined;
  let values: fc.Arbitrary<unknown>;
  try {
    values = check.values(ctx);
  } catch (err) {
    if (err instanceof RuledOut) return { outcome: 'skip', actual: err.message, ruledOut: true };
    throw err;
  }
  const details = await fc.check(
    fc.asyncProperty(values, async (value) => {
      let c: Case<unknown>;
      try {
        c = check.toCase(value, ctx);
      } catch (err) {
        // A drawn value the document rules out (no fresh id left, say) is passed over.
        if (!(err instanceof RuledOut)) throw err;
        ruledOut = err.message;
        fc.pre(false);
        return;
      }
      const exchange = await send(c.request);
      if (!exchange.response) throw new HarnessError(describe(exchange), { cause: noAnswerCause(exchange) });
      const v = check.grade({ ...c, exchange }, ctx);
      if (v.outcome === 'fail') {
        lastFailure = { ex: exchange, verdict: v };
        throw new Error(v.actual ?? 'failed');
      }
      if (v.outcome === 'non-strict') nonStrict ??= { ...v, reproduce: exchange };
    }),
    { seed: ctx.seed, numRuns: ctx.cases },
  );
  if (!details.failed) {
    if (details.numRuns === 0 && ruledOut !== undefined) return { outcome: 'skip', actual: ruledOut, ruledOut: true };
    return nonStrict ?? { outcome: 'pass' };
  }
  const err = details.errorInstance;
  if (err instanceof HarnessError)
    return {
      outcome: 'error',
      expected: 'an HTTP answer',
      actual: err.message,
      cause: err.cause as string | undefined,
    };
  // Every drawn value passed over: the document left nothing to send.
  if (!lastFailure && ruledOut !== undefined) return { outcome: 'skip', actual: ruledOut, ruledOut: true };
  const smallest = lastFailure!;
  return {
    outcome: 'fail',
    expected: smallest.verdict.expected,
    actual: `${smallest.verdict.actual}. Smallest failing body (after ${details.numShrinks} shrinks, case ${details.numRuns} of ${ctx.cases}): ${bodyText(smallest.ex)}; reproduce with --seed ${details.seed}`,
    reproduce: smallest.ex,
    cause: smallest.verdict.cause,
  };
}

function bodyText(ex: Exchange): string {
  const b = ex.request.body;
  return b === undefined ? '(none)' : typeof b === 'string' ? b : b.toString('utf8');
}
