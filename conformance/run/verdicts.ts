// What the runner makes of the checks' verdicts: the cause of a verdict
// that gives none, the aggregate checks graded as each exchange arrives, and
// what stands of a check cut short.
import { departs, describe, noAnswerCause } from '../checks/grades.js';
import type { Exchange } from '../checks/exchange.js';
import {
  SEVERITY,
  type AggregateCheck,
  type CaseExchange,
  type Check,
  type CheckContext,
  type ExchangeCheck,
  type Verdict,
} from '../checks/types.js';
import { CASES_SHOWN, type CaseTrace } from './target-result.js';
import { traceOf } from './traces.js';

/**
 * A check cut short cannot pass on part of its cases, but a failure among
 * the answers it did get stands (a target that crashed on one of them, say).
 * Undefined when the partial cases show no failure, or cannot be graded.
 */
export function partialVerdict(
  check: ExchangeCheck<unknown>,
  sent: Array<CaseExchange<unknown>>,
  ctx: CheckContext,
): Verdict | undefined {
  try {
    const verdict = check.verify(sent, ctx);
    return verdict.outcome === 'fail' ? verdict : undefined;
  } catch {
    return undefined;
  }
}

/** Parenthetical remarks at the end of an Expected, which vary from check to check (`… (no maxLength stated; …)`). */
const TRAILING_REMARK = /\s*\([^()]*\)\s*$/;

/**
 * The cause of a verdict that gives none: what was expected and what came
 * back, in words that are the same for every check it happens to.
 */
export function causeOf(verdict: Verdict, ex: Exchange | undefined): string {
  if (verdict.cause) return verdict.cause;
  const expected = (verdict.expected ?? '').replace(TRAILING_REMARK, '');
  if (!ex)
    return verdict.actual?.startsWith('not run: ') ? verdict.actual : expected ? `not ${expected}` : verdict.outcome;
  if (!ex.response) return noAnswerCause(ex);
  const status = ex.response.status;
  // An Actual is what came back (describe), often after what is wrong with it ("no Allow header: 405, …").
  const shown = describe(ex);
  const actual = verdict.actual ?? '';
  if (actual === `undeclared ${shown}`) return `${status}, a status the document does not declare`;
  if (actual.endsWith(`: ${shown}`)) return `${status}: ${actual.slice(0, -(shown.length + 2))}`;
  return expected.startsWith(`${status} `)
    ? `${status}, but not ${expected}`
    : `${status} where ${expected || 'another answer'} is expected`;
}

/**
 * The aggregate checks (PS-RESP-*) grade every exchange of the run, each as
 * it arrives, and keep only what the reports need: the worst verdict so far,
 * and the departing cases, at most CASES_SHOWN (one of each cause first),
 * each with its cause worded while its answer is at hand and of its exchange
 * only the request (its curl line, note and check): what came back is in its
 * Actual already. The exchanges are not kept (a target that answers 1 MiB to
 * each of 220 requests made a run that kept them peak at 623 MB). An
 * exchange the check does not apply to (skip) does not make the check a skip.
 */
export class AggregateVerdicts {
  private readonly kept = new Map<string, { worst: Verdict; cases: Verdict[]; omitted: number }>();
  /** What each kept case's exchange showed of the target's state, read while its answer was at hand (traces.ts). */
  private readonly traces = new WeakMap<Verdict, CaseTrace>();
  /** The checks that applied to some exchange (graded it otherwise than skip). */
  private readonly applied = new Set<string>();
  /** Exchanges graded. */
  count = 0;

  constructor(
    private readonly checks: AggregateCheck[],
    private readonly ctx: CheckContext,
  ) {}

  grade(ex: Exchange): void {
    this.count++;
    for (const check of this.checks) {
      let verdict: Verdict;
      try {
        verdict = check.verifyEach(ex, this.ctx);
      } catch (err) {
        verdict = {
          outcome: 'error',
          expected: 'the check to run',
          actual: `harness error: ${(err as Error).message}`,
        };
      }
      if (verdict.outcome !== 'skip') this.applied.add(check.id);
      if (!departs(verdict.outcome)) continue;
      const kept = {
        ...verdict,
        cause: causeOf(verdict, ex),
        reproduce: { request: ex.request, url: ex.url, sentBy: ex.sentBy },
      };
      const trace = traceOf(this.ctx.model, ex);
      if (trace) this.traces.set(kept, trace);
      let entry = this.kept.get(check.id);
      if (!entry) this.kept.set(check.id, (entry = { worst: kept, cases: [], omitted: 0 }));
      // The first of the worst wins (as worst() picks).
      else if (SEVERITY[verdict.outcome] > SEVERITY[entry.worst.outcome]) entry.worst = kept;
      keepCase(entry, kept);
    }
  }

  /** What a kept case's exchange showed of the target's state. */
  traceOf(v: Verdict): CaseTrace | undefined {
    return this.traces.get(v);
  }

  verdict(check: Check): Verdict {
    const entry = this.kept.get(check.id);
    if (!entry && check.kind === 'aggregate' && check.noneApplied !== undefined && !this.applied.has(check.id))
      return { outcome: 'skip', actual: check.noneApplied };
    if (!entry) return { outcome: 'pass' };
    return { ...entry.worst, cases: entry.cases, ...(entry.omitted > 0 ? { casesOmitted: entry.omitted } : {}) };
  }
}

/** Keeps a case among at most CASES_SHOWN: a new cause takes the place of the last case of a cause kept twice or more; otherwise it is counted. */
function keepCase(entry: { cases: Verdict[]; omitted: number }, v: Verdict): void {
  if (entry.cases.length < CASES_SHOWN) return void entry.cases.push(v);
  entry.omitted++;
  if (entry.cases.some((c) => c.cause === v.cause)) return;
  for (let i = entry.cases.length - 1; i >= 0; i--) {
    const cause = entry.cases[i]!.cause;
    if (entry.cases.filter((c) => c.cause === cause).length > 1) {
      entry.cases.splice(i, 1);
      entry.cases.push(v);
      return;
    }
  }
}
