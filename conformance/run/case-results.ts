// What a check's verdict becomes in the results: the check's result and
// each of its departing cases (what it sent, what came back, how to send it
// again), bounded, each with its cause worded where the check gives none and
// the family of input that shows it. Reports group failures by cause and
// family (result.ts failureGroups).
import type { Exchange } from '../checks/exchange.js';
import { departs } from '../checks/grades.js';
import { SEVERITY, type Check, type Verdict } from '../checks/types.js';
import { toCurl } from './curl.js';
import { CASES_SHOWN, type CaseResult, type CheckResult } from './target-result.js';
import { causeOf } from './verdicts.js';
import type { CaseTrace } from './target-result.js';

/** What a check sent, for its result. */
export interface Sent {
  /** The exchanges of the check's cases, by case index. */
  exchanges: Exchange[];
  /** How many identical requests were sent at once with the case at this index (PS-STATE-003), when more than one. */
  together?: (index: number) => number | undefined;
  /** Requests the check sent. */
  requests: number;
  /** Why the document rules the check out, for a skip of that kind. */
  ruledOut?: string;
}

/** The family of input a case of `check` belongs to: its own, else the check's; none for a plain check (a plain request, or every answer graded). */
export function familyOf(check: Check, v: Verdict): string | undefined {
  if (v.family !== undefined) return v.family;
  // A check not run says nothing of the input it would have sent.
  if (v.cause?.startsWith('not run: ') === true || v.actual?.startsWith('not run: ') === true) return undefined;
  return check.plain === true || check.kind === 'aggregate' ? undefined : (check.family ?? check.title);
}

/** What a departing case's exchange shows of the target's state (traces.ts), for the grouping by root cause. */
export type Tracer = (v: Verdict, ex: Exchange | undefined) => CaseTrace | undefined;

/** A check's result from its verdict; with a tracer, each departing case carries what its exchange shows of the target's state. */
export function checkResult(check: Check, verdict: Verdict, sent: Sent, token: string, tracer?: Tracer): CheckResult {
  const about = (v: Verdict): Exchange | undefined =>
    v.reproduce ?? (v.exchange !== undefined ? sent.exchanges[v.exchange] : undefined);
  const reproduce = (v: Verdict, ex: Exchange | undefined): string | null => {
    if (!ex) return null;
    const n = v.reproduce === undefined && v.exchange !== undefined ? sent.together?.(v.exchange) : undefined;
    return toCurl(ex, token, n !== undefined && n > 1 ? { sentAtOnceWith: n } : undefined);
  };
  // The request's note says which of a check's requests this is (e.g. "id as a string of digits").
  const noted = (v: Verdict, ex: Exchange | undefined) =>
    v.actual ? (ex?.request.note ? `[${ex.request.note}] ${v.actual}` : v.actual) : null;
  const ex = about(verdict);
  const reportable = verdict.outcome !== 'pass';
  const result: CheckResult = {
    id: check.id,
    title: check.title,
    level: check.level,
    outcome: verdict.outcome,
    requirement: check.requirement,
    source: check.source,
    expected: reportable ? (verdict.expected ?? null) : null,
    actual: reportable ? noted(verdict, ex) : null,
    reproduce: reportable ? reproduce(verdict, ex) : null,
    cause: reportable && verdict.outcome !== 'skip' ? causeOf(verdict, ex) : null,
    requests: sent.requests,
    ...(sent.ruledOut !== undefined ? { ruledOut: sent.ruledOut } : {}),
    ...(reportable && ex?.request.note !== undefined ? { case: ex.request.note } : {}),
    ...(reportable && verdict.facts !== undefined ? { facts: verdict.facts } : {}),
    ...(verdict.operations !== undefined ? { operations: verdict.operations } : {}),
  };
  if (!departs(verdict.outcome)) return result;
  const all = (verdict.cases ?? [verdict])
    .filter((v) => departs(v.outcome))
    .map((v): CaseResult => {
      const cex = about(v);
      const family = familyOf(check, v);
      const trace = tracer?.(v, cex);
      return {
        outcome: v.outcome,
        check: cex?.sentBy ?? check.id,
        cause: causeOf(v, cex),
        ...(family !== undefined ? { family } : {}),
        expected: v.expected ?? null,
        actual: noted(v, cex),
        reproduce: reproduce(v, cex),
        ...(cex?.request.note !== undefined ? { case: cex.request.note } : {}),
        ...(v.facts !== undefined ? { facts: v.facts } : {}),
        ...(trace !== undefined ? { trace } : {}),
      };
    });
  const shown = listed(all);
  const more = all.length - shown.length + (verdict.casesOmitted ?? 0);
  return { ...result, cases: shown, ...(more > 0 ? { moreCases: more } : {}) };
}

/**
 * The cases a report lists: the worst first (the first of the worst outcome,
 * the one the check's verdict is about), then the first of each other cause
 * and family, then the rest in the order sent, at most CASES_SHOWN.
 */
function listed(all: CaseResult[]): CaseResult[] {
  if (all.length === 0) return all;
  const head = all.reduce((w, c) => (SEVERITY[c.outcome] > SEVERITY[w.outcome] ? c : w), all[0]!);
  const key = (c: CaseResult) => `${c.cause}\u0000${c.family ?? ''}`;
  const seen = new Set([key(head)]);
  const firsts = all.filter((c) => c !== head && !seen.has(key(c)) && seen.add(key(c)));
  const rest = all.filter((c) => c !== head && !firsts.includes(c));
  return [head, ...firsts, ...rest].slice(0, CASES_SHOWN);
}
