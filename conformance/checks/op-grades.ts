// How the answers of PS-OP-* are graded, and how a check's verdict says per
// operation what passed: a valid request (a declared success, the declared
// content type, a body that validates), a request invalid in one place (a
// declared 4xx, or the RFC's 400 or 404), each against the responses the
// document declares for the operation and status.
import type { Exchange } from './exchange.js';
import { declaredAnswerProblem } from './declared.js';
import { describe, noAnswer, noAnswerCause, worst } from './grades.js';
import { parseExact } from '../model/json.js';
import { operationName, type OperationModel, type ResponseModel } from '../model/operation-model.js';
import type { BoundaryValue, Indexed } from './op-cases.js';
import type { CheckContext, OperationOutcome, Verdict } from './types.js';

/** The response the document declares for a status: the status itself, its range (`4XX`), or `default` (OpenAPI 3.1 §4.8.16.2). */
export function responseFor(op: OperationModel, status: number): ResponseModel | undefined {
  const s = String(status);
  return (
    op.responses.get(s) ?? op.responses.get(`${s[0]}XX`) ?? op.responses.get(`${s[0]}xx`) ?? op.responses.get('default')
  );
}

/** The declared statuses of an operation, e.g. "200 or 400". */
export const declaredStatuses = (op: OperationModel) => [...op.responses.keys()].join(', ');

/** A valid request to `op`: a declared 2xx with its content type and a body that validates. */
export function gradeValid(op: OperationModel, ex: Exchange): Verdict {
  const missing = noAnswer(ex);
  if (missing) return missing;
  const name = operationName(op);
  const status = ex.response!.status;
  const success = [...op.responses.keys()].filter((s) => s.startsWith('2') || s === 'default');
  const expected = `a declared success of ${name} (${success.join(' or ') || 'none declared'}) with its declared content type and a body that validates`;
  const verdict = (outcome: Verdict['outcome'], cause: string, why?: string): Verdict => ({
    outcome,
    expected,
    actual: `${name}: ${why ? `${why}: ` : ''}${describe(ex)}`,
    cause,
    facts: { status },
  });
  if (status >= 500) return verdict('fail', `a valid request to ${name} is answered ${status}`);
  const declared =
    op.responses.get(String(status)) ?? (status >= 200 && status < 300 ? responseFor(op, status) : undefined);
  if (declared) {
    const problem = declaredAnswerProblem(declared, ex);
    if (problem) return verdict('fail', `the answer of ${name} is not the ${status} its document declares`, problem);
  }
  // Worded as the create checks word it (grades.ts gradeAccepted), so that one departure is one cause in the reports.
  const notDeclared = `a valid ${name} is answered ${status}, not ${success.join(' or ') || 'a declared success'}`;
  if (status >= 200 && status < 300) return declared ? { outcome: 'pass' } : verdict('fail', notDeclared);
  // A 404 to an item right after its create is graded by PS-STATE-* (and an operation that answers only 404 by PS-OP-001).
  if (status === 404) return verdict('non-strict', `a valid request to ${name} is answered 404`);
  // Authorization per operation, or a conflict with the stored state, may refuse a valid request: sources allow both.
  if (status === 403 || status === 409)
    return verdict('non-strict', `a valid request to ${name} is answered ${status}`);
  return verdict('fail', notDeclared);
}

/**
 * A valid request that sets one parameter at a boundary of its range: graded
 * as any valid request, except that a 4xx is non-strict where no keyword of
 * the schema writes that bound (only its format implies it: the document
 * says nothing of what, say, "at most −2147483648 plants" means); a 5xx or a
 * dropped connection fails (the server broke on a value its document allows).
 */
export function gradeBoundary(op: OperationModel, ex: Exchange, boundary: BoundaryValue): Verdict {
  const name = operationName(op);
  const at = `${boundary.parameter} at ${boundary.declared ? 'a bound its schema writes' : 'a bound of its format'} (${boundary.text})`;
  if (!ex.response && (ex.failure === 'closed' || ex.failure === 'not-http'))
    return {
      outcome: 'fail',
      expected: `an HTTP answer to a valid request to ${name}`,
      actual: `${name} with ${boundary.parameter}=${boundary.text}: ${describe(ex)}`,
      cause: `a valid request to ${name} with ${at} drops the connection`,
    };
  const graded = gradeValid(op, ex);
  const status = ex.response?.status;
  if (graded.outcome !== 'fail' || status === undefined || graded.cause?.startsWith('the answer of')) return graded;
  if (status >= 500) return { ...graded, cause: `a valid request to ${name} with ${at} is answered ${status}` };
  if (status >= 400 && status < 500 && !boundary.declared)
    return {
      ...graded,
      outcome: 'non-strict',
      cause: `a valid request to ${name} with ${at} is refused with ${status}: the document says nothing of that bound`,
    };
  return { ...graded, cause: `a valid request to ${name} with ${at} is answered ${status}` };
}

/** A request to `op` invalid in one place: a declared 4xx, or the RFC's 400 or 404 where none is declared; never a success, never a 5xx. */
export function gradeRefused(
  ctx: CheckContext,
  op: OperationModel,
  ex: Exchange,
  what: string,
  outOfFormat?: string,
): Verdict {
  const name = operationName(op);
  // A value outside its format is named in the cause: a server that wraps 2147483648 accepts that value only.
  const naming = outOfFormat !== undefined ? ` (${outOfFormat}, outside its format)` : '';
  const refusals = [...op.responses.keys()].filter((s) => /^4/.test(s) || s === 'default');
  const expected = refusals.length
    ? `a 4xx the document declares for ${name} (${refusals.join(', ')}), or RFC 9110's 400 or 404`
    : `RFC 9110's 400 or 404 (the document declares no 4xx for ${name})`;
  if (!ex.response) {
    const dropped = ex.failure === 'closed' || ex.failure === 'not-http';
    return {
      outcome: dropped ? 'fail' : 'error',
      expected,
      actual: `${name}, ${what}: ${describe(ex)}`,
      cause: dropped ? `a request to ${name} invalid in one place${naming} drops the connection` : noAnswerCause(ex),
    };
  }
  const status = ex.response.status;
  const verdict = (outcome: Verdict['outcome'], cause: string, why?: string): Verdict => ({
    outcome,
    expected,
    actual: `${name}, ${what}: ${why ? `${why}: ` : ''}${describe(ex)}`,
    cause,
    facts: { status },
  });
  if (status >= 500) return verdict('fail', `a request to ${name} invalid in one place${naming} is answered ${status}`);
  if (status < 400)
    return verdict('fail', `a request to ${name} invalid in one place${naming} is accepted (${status})`);
  const declared = op.responses.get(String(status)) ?? responseFor(op, status);
  if (declared) {
    const problem = declaredAnswerProblem(declared, ex);
    return problem
      ? verdict('fail', `the refusal of ${name} is not the ${status} its document declares`, problem)
      : { outcome: 'pass' };
  }
  if (status === 400 || status === 404) {
    // Undeclared: the RFC's status, held to the document's error record where it has one (our decision: non-strict).
    const error = ctx.model.error?.validate;
    const parsed = parseExact(ex.response.bodyText);
    if (error && (!parsed.ok || error(parsed.value).length > 0))
      return verdict('non-strict', `a refusal of ${name} does not carry the document's error record`);
    return { outcome: 'pass' };
  }
  return verdict(
    'non-strict',
    `a request to ${name} invalid in one place is refused with ${status}, a status its document does not declare`,
  );
}

/** The verdict of a check over several operations: the worst case, with each operation's own worst. */
export function perOperation(
  graded: Array<{ operation: string; index?: number; verdict: Verdict }>,
  all: string[],
  why?: (operation: string) => string | undefined,
): Verdict {
  const byOp = new Map<string, Verdict>();
  for (const g of graded) {
    const v = {
      ...g.verdict,
      ...(g.index !== undefined && g.verdict.exchange === undefined ? { exchange: g.index } : {}),
    };
    byOp.set(g.operation, worst([byOp.get(g.operation) ?? { outcome: 'pass' }, v]));
  }
  const operations: OperationOutcome[] = all.map((operation) => {
    const v = byOp.get(operation);
    if (!v) return { operation, outcome: 'skip', detail: why?.(operation) ?? 'no case reached it' };
    return { operation, outcome: v.outcome, ...(v.outcome !== 'pass' && v.actual ? { detail: v.actual } : {}) };
  });
  const reached = graded.map((g) => ({
    ...g.verdict,
    ...(g.index !== undefined && g.verdict.exchange === undefined ? { exchange: g.index } : {}),
  }));
  if (reached.length === 0) return { outcome: 'skip', actual: 'no operation could be reached', operations };
  const w = worst(reached);
  // Every case passed, or was skipped: a pass needs at least one pass.
  if (w.outcome === 'skip' && !reached.some((v) => v.outcome === 'pass')) return { ...w, operations };
  return { ...(w.outcome === 'skip' ? { outcome: 'pass' as const } : w), operations };
}

export type { Indexed };
