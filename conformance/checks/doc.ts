// PS-DOC-*: every operation the document declares, whether or not the catalog knows
// what it means: the checks that need no knowledge of its meaning. Its
// security requirement (no credentials, no success), and an answer with a
// declared status, content type and schema, never a 5xx. A document that
// grows an operation (GET /plants/{id}, say) is checked on it at once.
import type { Exchange, RequestSpec } from './exchange.js';
import type { OperationModel } from '../model/spec-model.js';
import { operationCall } from './op-requests.js';
import { declaredAnswerProblem, RFC_STATUSES } from './declared.js';
import { describe, each, noAnswer } from './grades.js';
import { challengeRule, gradeUnauthorized, ruleText } from './auth-grades.js';
import { rfc, spec } from './sources.js';
import type { Case, Check, CheckContext, ExchangeCheck, Verdict } from './types.js';

/**
 * A request to an operation as the document describes it: its path with
 * each path parameter filled in, its required query, header and cookie
 * parameters, and a body of its first declared media type (the create
 * operation's: a valid NewPlant with a fresh id); op-requests.ts.
 */
export function operationRequest(ctx: CheckContext, op: OperationModel, auth: null | undefined): RequestSpec {
  return operationCall(ctx, op, {
    auth,
    note: `${op.method} ${op.path}${auth === null ? ' without credentials' : ''}`,
  });
}

/**
 * Without credentials: a success or a 5xx fails (the operation's security
 * requirement; RFC 9110 §15.6), a 401 must carry a challenge (RFC 9110
 * §15.5.2): Bearer for a bearer token (RFC 6750 §3), Basic for HTTP Basic
 * (RFC 7617 §2); another refusal (404, 405: the order of checks is a
 * server's own decision) is non-strict.
 */
function gradeWithoutCredentials(ex: Exchange, op: OperationModel): Verdict {
  const status = ex.response?.status;
  const rule = challengeRule(op.security);
  if (status !== undefined && status >= 300 && status < 500 && status !== 401) {
    return {
      outcome: 'non-strict',
      expected: `401 with WWW-Authenticate: ${ruleText(rule)} (the operation requires credentials)`,
      actual: describe(ex),
    };
  }
  return gradeUnauthorized(ex, { rule });
}

/** Whether an operation needs credentials the harness could leave out: it is not open. */
const secured = (op: OperationModel) => !op.open;

const AUTH_RULES =
  'Every operation requires HTTP bearer authentication: the client sends the header Authorization with the scheme Bearer followed by a token, written <ACCESS_TOKEN>. (A document of its own says which scheme each operation needs: OpenAPI 3.1 §4.8.30.)';

const securityRequirement: ExchangeCheck<OperationModel> = {
  kind: 'exchange',
  id: 'PS-DOC-001',
  // The plain request of each operation.
  plain: true,
  title:
    'Every operation of the document that requires credentials refuses a request without any: 401 with a challenge (Bearer for a bearer token, Basic for HTTP Basic)',
  level: 'MUST',
  source: spec('Authentication, rules 1 and 2; the security requirement of each operation'),
  requirement: `${AUTH_RULES} RFC 9110 §15.5.2: The server generating a 401 response MUST send a WWW-Authenticate header field containing at least one challenge applicable to the target resource. RFC 6750 §3: If the protected resource request does not include authentication credentials ..., the resource server MUST include the HTTP "WWW-Authenticate" response header field. (A success without credentials fails; another refusal than 401 is non-strict.)`,
  grading:
    "MUST: a success or a 5xx without credentials of any scheme fails (the operation's security requirement), and a 401 must carry a challenge (RFC 9110 §15.5.2): Bearer with an auth-param where every alternative needs a bearer token (RFC 6750 §3), Basic with a realm where every one needs HTTP Basic (RFC 7617 §2), any for an API key. Another refusal (404, 405: the order of checks is a server's own decision) is non-strict.",
  evidence:
    'Each operation that requires credentials answered 401 with the challenge its schemes call for, to a request the document describes without credentials of any scheme.',
  precondition: (ctx) =>
    ctx.model.operations.some(secured) ? undefined : 'the document declares no operation that requires credentials',
  cases: (ctx): Array<Case<OperationModel>> =>
    ctx.model.operations.filter(secured).map((op) => ({ request: operationRequest(ctx, op, null), sent: op })),
  verify: (cases) => each(cases, (c) => gradeWithoutCredentials(c.exchange, c.sent)),
};

/** RFC 9110 §15.6: a 5xx says the server failed; to a request the document describes, that is a failure. */
function gradeDeclaredAnswer(op: OperationModel, ex: Exchange): Verdict {
  const missing = noAnswer(ex);
  if (missing) return missing;
  const status = ex.response!.status;
  const expected = `one of ${[...op.responses.keys()].join(', ')} as ${op.method} ${op.path} declares them (content type and schema), never 5xx`;
  if (status >= 500) return { outcome: 'fail', expected, actual: describe(ex) };
  const declared = op.responses.get(String(status));
  if (declared) {
    const problem = declaredAnswerProblem(declared, ex);
    return problem ? { outcome: 'fail', expected, actual: `${problem}: ${describe(ex)}` } : { outcome: 'pass' };
  }
  // 404 is the RFC status for an unknown id (RFC 9110 §15.5.5), not for a path the document declares with
  // no parameter; 405 says the method is not supported (§15.5.6), which the document contradicts. Whether
  // such an operation is implemented at all is PS-OP-001's to judge (every valid request, after a create).
  if ((status === 404 && !op.path.includes('{')) || status === 405) {
    return {
      outcome: 'non-strict',
      expected,
      actual: `${status} to an operation the document declares (PS-OP-001 judges whether it is implemented): ${describe(ex)}`,
    };
  }
  return RFC_STATUSES.includes(status)
    ? { outcome: 'pass' }
    : { outcome: 'non-strict', expected, actual: `undeclared ${describe(ex)}` };
}

const declaredAnswers: ExchangeCheck<OperationModel> = {
  kind: 'exchange',
  id: 'PS-DOC-002',
  plain: true,
  title:
    'Every operation of the document answers a request it describes with a declared status, content type and schema, never 5xx',
  level: 'MUST',
  source: rfc(9110, '§15.6 Server Error 5xx', 'section-15.6'),
  requirement:
    'The 5xx (Server Error) class of status code indicates that the server is aware that it has erred or is incapable of performing the requested method. (Plant Store specification, Endpoints and Errors: each declared response has its content type and body shape; an undeclared status other than the RFC ones is non-strict.)',
  grading:
    'MUST: a declared status carries its declared content type and schema (the document), and a 5xx to a request the document describes fails (RFC 9110 §15.6); an undeclared status other than the RFC ones (401, 404, 405, 413, 415) is non-strict, and so are a 404 to a path without parameters and a 405, which the document contradicts (PS-OP-001 fails an operation that answers nothing else).',
  evidence:
    'Each operation answered a request the document describes, with credentials, by a declared status whose content type and body match the declaration.',
  cases: (ctx) => ctx.model.operations.map((op) => ({ request: operationRequest(ctx, op, undefined), sent: op })),
  verify: (cases) => each(cases, (c) => gradeDeclaredAnswer(c.sent, c.exchange)),
};

export const docChecks: Check[] = [securityRequirement, declaredAnswers];
