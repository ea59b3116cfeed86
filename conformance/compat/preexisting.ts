// A departure present before the change, on both sides: the old document's
// checks against the reference serving the old document (the baseline)
// depart alike. It is the reference's own choice (its non-strict 400 for
// `GET /plants/abc`, say), made whichever document it serves, so it is no
// proof of any change between them: listed apart, it decides nothing.
import type { CheckResult } from '../run/result.js';

type Case = NonNullable<CheckResult['cases']>[number];
const departs = (c: Case) => c.outcome === 'fail' || c.outcome === 'non-strict';
const caseKey = (check: CheckResult, c: Case) =>
  `${check.id}|${c.check}|${c.case ?? ''}|${c.outcome}|${c.cause}|${c.family ?? ''}`;

/**
 * The keys of a check's departures: per departing case, the check that sent
 * its request, which of its requests (its note), its outcome and its cause;
 * for a check without cases, its own outcome and cause. The same request
 * departing the same way: a 400 to `GET /plants/abc` is not a 400 to a
 * request without a newly required parameter, though both read "400 where
 * … is expected".
 */
export function departureKeys(check: CheckResult): string[] {
  const cases = (check.cases ?? []).filter(departs);
  if (cases.length === 0)
    return [`${check.id}|${check.outcome}|${check.cause ?? ''}|${/^\[[^\]]*\]/.exec(check.actual ?? '')?.[0] ?? ''}`];
  return cases.map((c) => caseKey(check, c));
}

/** Whether every departure of `check` was there in the baseline already. */
export function presentBefore(check: CheckResult, baseline: ReadonlySet<string> | undefined): boolean {
  return baseline !== undefined && departureKeys(check).every((k) => baseline.has(k));
}

/**
 * A check that departs anew, without its cases present before the change: a
 * proof shows only what the change brought (its Expected, Actual and curl
 * line are then those of its first new case).
 */
export function withoutPresentBefore(check: CheckResult, baseline: ReadonlySet<string> | undefined): CheckResult {
  if (baseline === undefined || !check.cases) return check;
  const kept = check.cases.filter((c) => !departs(c) || !baseline.has(caseKey(check, c)));
  if (kept.length === check.cases.length) return check;
  const first = kept.find(departs);
  return {
    ...check,
    cases: kept,
    ...(first
      ? { expected: first.expected, actual: first.actual, reproduce: first.reproduce, cause: first.cause }
      : {}),
  };
}
