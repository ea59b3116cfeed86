// The shared ground of the graders: verdicts combined into a check's one
// verdict (the worst, with every departing case kept), one line saying what
// came back, and the verdicts for an exchange that got no answer or a
// failure. What a body's answer must be is in body-grades.ts, what a refusal
// of credentials must be in auth-grades.ts.
import type { Exchange } from './exchange.js';
import { NO_SECRETS, shorten } from '../redact/shorten.js';
import { SEVERITY, type Verdict } from './types.js';

/** Whether an outcome departs from the rule (a case the reports list): fail, error, non-strict. */
export function departs(outcome: Verdict['outcome']): boolean {
  return outcome === 'fail' || outcome === 'error' || outcome === 'non-strict';
}

/**
 * The worst of several verdicts (error > fail > non-strict > skip > pass), the first winning a tie, with
 * every departing verdict among them in `cases`: no departure hides behind a worse one of the same check.
 */
export function worst(verdicts: Verdict[]): Verdict {
  let out: Verdict = { outcome: 'pass' };
  const cases: Verdict[] = [];
  for (const v of verdicts) {
    if (SEVERITY[v.outcome] > SEVERITY[out.outcome]) out = v;
    if (v.cases) cases.push(...v.cases);
    else if (departs(v.outcome)) cases.push(v);
  }
  if (cases.length === 0 || (cases.length === 1 && cases[0] === out)) return out;
  const { cases: _own, ...head } = out;
  return { ...head, cases };
}

/** Grades each case with `grade` and keeps the worst, remembering which case it was. */
export function each<C extends { exchange: Exchange }>(cases: C[], grade: (c: C) => Verdict): Verdict {
  return worst(cases.map((c, i) => ({ exchange: i, ...grade(c) })));
}

/** How much of a body a verdict shows. */
export const BODY_SHOWN = 300;

/** One line describing what came back. */
export function describe(ex: Exchange): string {
  if (!ex.response) return `no answer (${ex.error ?? 'unknown error'})`;
  const r = ex.response;
  const ct = r.headers['content-type'];
  const extra = ['www-authenticate', 'allow']
    .filter((h) => r.headers[h] !== undefined)
    .map((h) => `, ${h}: ${r.headers[h]}`)
    .join('');
  // The HTTP layer follows no redirect (it never sends a request off the target): say so where a 3xx is graded.
  const redirect =
    r.status >= 300 && r.status < 400 && r.headers.location !== undefined
      ? `, redirect to ${r.headers.location} not followed (the harness stays on the target)`
      : '';
  return `${r.status}${ct ? `, content-type ${ct}` : ', no content-type'}${extra}${redirect}, body ${r.bodyText === '' ? '(empty)' : shorten(r.bodyText, BODY_SHOWN, ex.redact ?? NO_SECRETS, { count: true })}`;
}

/** Why an exchange has no answer, in a few words that are the same for every exchange it happened to: a failure's cause. */
const NO_ANSWER: Record<string, string> = {
  unreachable: 'the target is unreachable',
  timeout: 'no answer within the deadline (--timeout)',
  closed: 'the connection is closed without an answer',
  'not-http': 'the answer is not HTTP',
  'too-large': 'the answer is over the size limit',
  'rate-limited': 'rate limited (429 or 503 with Retry-After) past the retries',
  abandoned: 'not sent: the target was given up',
  request: 'the harness could not send the request',
};

/** The cause of a verdict about an exchange without an answer. */
export function noAnswerCause(ex: Exchange): string {
  return NO_ANSWER[ex.failure ?? ''] ?? 'no HTTP answer';
}

export function noAnswer(ex: Exchange): Verdict | undefined {
  return ex.response
    ? undefined
    : { outcome: 'error', expected: 'an HTTP answer', actual: describe(ex), cause: noAnswerCause(ex) };
}

/** A 5xx, or no answer because the target closed the connection or did not speak HTTP: the target failed on this input. */
export function serverFailure(ex: Exchange): Verdict | undefined {
  if (ex.response && ex.response.status >= 500)
    return { outcome: 'fail', expected: 'a 4xx (the client erred), never a 5xx', actual: describe(ex) };
  if (!ex.response && (ex.failure === 'closed' || ex.failure === 'not-http'))
    return { outcome: 'fail', expected: 'an HTTP answer (a 4xx), not a dropped connection', actual: describe(ex) };
  return undefined;
}

/** A hostile input must not hang the target: no answer within the exchange's deadline fails. */
export function hung(ex: Exchange): Verdict | undefined {
  return !ex.response && ex.failure === 'timeout'
    ? { outcome: 'fail', expected: 'an answer (a 4xx) within the deadline, not a hang', actual: describe(ex) }
    : undefined;
}
