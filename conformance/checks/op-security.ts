// PS-OP-004 to 007: each operation's own security requirement, for every
// scheme the document declares (HTTP bearer and Basic, an API key in a
// header, the query or a cookie, oauth2 and openIdConnect tokens), with its
// alternatives and combinations (OpenAPI 3.1 §4.8.30) and `security: []`.
// Each case is a valid request of the operation (after a create where it
// acts on a stored item) with other credentials: none of any scheme, a
// credential of another scheme or malformed (PS-OP-004), one scheme of a
// combination left out (PS-OP-005), each alternative alone (PS-OP-006), a
// wrong value of each scheme (PS-OP-007); what each case sends is planned
// in op-security-cases.ts.
import { describe } from './grades.js';
import { gradeUnauthorized } from './auth-grades.js';
import { gradeValid, perOperation } from './op-grades.js';
import { followCalls, type Call, type Chain, type OpSent } from './op-cases.js';
import { allNames, byName, callsOf, validCalls, validCases, whyNoRequest } from './op-calls.js';
import { withCredentials, withoutCredentials } from './credentials.js';
import {
  alternativeCases,
  combinationCases,
  requirementCases,
  wrongValueCases,
  type Planner,
  type SecurityCase,
} from './op-security-cases.js';
import { rfc } from './sources.js';
import type { CaseExchange, CheckContext, ExchangeCheck, Verdict } from './types.js';
import { operationName, type OperationModel } from '../model/operation-model.js';
import { RuledOut } from '../model/ruled-out.js';
import { declaredSchemes, describeScheme } from '../model/security.js';

/** A valid call of the operation with the case's credentials instead of its own. */
function callWith(ctx: CheckContext, call: Call, c: SecurityCase): Call {
  let request = withCredentials(withoutCredentials(call.request, declaredSchemes(ctx.model.doc)), c.credentials ?? []);
  if (c.authorization !== undefined)
    request = { ...request, headers: { ...request.headers, authorization: c.authorization } };
  return { operation: call.operation, label: c.label, request: { ...request, note: `${call.operation}: ${c.label}` } };
}

/** The calls of a planner: a valid request of the operation (the item just created where it acts on one), once per case. */
function callsFor(planner: Planner) {
  return (ctx: CheckContext, op: OperationModel, chain: Chain | undefined): Call[] => {
    // A call of its own per case: a create's body has a fresh id each time, so no case is another's duplicate.
    return planner(ctx, op).flatMap((c) => {
      const [first] = validCalls(ctx, op, chain);
      return first ? [callWith(ctx, first, c)] : [];
    });
  };
}

const status2xx = (ex: CaseExchange<OpSent>['exchange']) => {
  const status = ex.response?.status;
  return status !== undefined && status >= 200 && status < 300;
};

/** A case of a security check, graded: a refusal, a request that needs no credentials, an alternative. */
function gradeCase(
  ctx: CheckContext,
  op: OperationModel,
  c: SecurityCase,
  ex: CaseExchange<OpSent>['exchange'],
): Verdict {
  const name = operationName(op);
  const about = (v: Verdict): Verdict =>
    v.outcome === 'pass' ? v : { ...v, actual: `${name}, ${c.label}: ${v.actual ?? ''}` };
  if (c.expect === 'refused' && c.anonymous && status2xx(ex))
    // OpenAPI 3.1 §4.8.30: any one requirement object satisfies, the empty one included; RFC 6750 §3.1: a resource
    // server SHOULD answer invalid_token with 401. Serving the request anonymously and refusing it are both correct.
    return {
      outcome: 'non-strict',
      expected: `401 with a challenge, or the request served anonymously (${name} allows anonymous access: {})`,
      actual: `${name}, ${c.label}: served anonymously: ${describe(ex)}`,
    };
  if (c.expect === 'refused') return about(gradeUnauthorized(ex, { rule: c.rule }));
  const status = ex.response?.status;
  if (status === undefined) return { outcome: 'error', expected: 'an HTTP answer', actual: describe(ex) };
  if (c.expect === 'served')
    return status === 401 || status === 403 || status >= 500
      ? {
          outcome: 'fail',
          expected: `${name} declares no security: a request without credentials is served`,
          actual: `${name}: ${describe(ex)}`,
          cause: `an operation that declares no security refuses a request without credentials (${status})`,
          facts: { status },
        }
      : { outcome: 'pass' };
  if ((status === 401 || status === 403) && !c.given)
    return {
      outcome: 'skip',
      actual: `${name}, ${c.label}: refused (${status}), but no credential was given for it (--credential, --token): a placeholder was sent`,
    };
  if (status === 401)
    return {
      outcome: 'fail',
      expected: `${name} serves each alternative of its security requirement alone (OpenAPI 3.1 §4.8.30)`,
      actual: `${name}, ${c.label}: ${describe(ex)}`,
      cause: `${name} refuses an alternative of its security requirement that the request satisfies`,
      facts: { status },
    };
  return about(gradeValid(op, ex));
}

/** The cases of each operation a check sent, graded by `grade`, then per operation; RuledOut where no operation has any. */
function securityCheck(
  planner: Planner,
  options: Omit<ExchangeCheck<OpSent>, 'kind' | 'cases' | 'follow' | 'verify'> & { none: string },
  grade: (
    ctx: CheckContext,
    op: OperationModel,
    graded: Array<{ c: SecurityCase; ex: CaseExchange<OpSent>['exchange']; index: number }>,
  ) => Verdict[],
): ExchangeCheck<OpSent> {
  const { none, ...check } = options;
  return {
    ...check,
    kind: 'exchange',
    cases: (ctx) => {
      if (!ctx.model.operations.some((op) => planner(ctx, op).length > 0)) throw new RuledOut(none);
      return validCases(ctx, {}, callsFor(planner));
    },
    follow: (sent, ctx) => followCalls(sent, ctx),
    verify: (cases, ctx) => {
      const ops = byName(ctx);
      const byOp = new Map<string, Array<{ c: SecurityCase; ex: CaseExchange<OpSent>['exchange']; index: number }>>();
      for (const call of callsOf(cases)) {
        const op = ops.get(call.sent.operation)!;
        const c = planner(ctx, op).find((x) => x.label === call.sent.label);
        if (!c) continue;
        byOp.set(call.sent.operation, [
          ...(byOp.get(call.sent.operation) ?? []),
          { c, ex: call.exchange, index: call.index },
        ]);
      }
      const graded: Array<{ operation: string; index?: number; verdict: Verdict }> = [];
      for (const [operation, list] of byOp) {
        const verdicts = grade(ctx, ops.get(operation)!, list);
        verdicts.forEach((verdict, i) => graded.push({ operation, index: list[i]!.index, verdict }));
      }
      return perOperation(graded, allNames(ctx), (name) => whyNoRequest(ctx, name));
    },
  };
}

const eachCase = (
  ctx: CheckContext,
  op: OperationModel,
  list: Array<{ c: SecurityCase; ex: CaseExchange<OpSent>['exchange'] }>,
) => list.map(({ c, ex }) => gradeCase(ctx, op, c, ex));

const OPENAPI_SECURITY = {
  document: 'OpenAPI 3.1',
  section: '§4.8.30 Security Requirement Object',
  url: 'https://spec.openapis.org/oas/v3.1.0#security-requirement-object',
};
const REQUIREMENT_OBJECT =
  'Lists the required security schemes to execute this operation. ... A Security Requirement Object MAY refer to multiple security schemes in which case all schemes MUST be satisfied for a request to be authorized. (§4.8.10 security: "Only one of the security requirement objects need to be satisfied to authorize a request. ... To remove a top-level security declaration, an empty array can be used.")';

const perOperationSecurity = securityCheck(
  requirementCases,
  {
    id: 'PS-OP-004',
    title:
      "Each operation's own security requirement: without credentials of any scheme, with another scheme or a malformed credential, 401 with the challenge its schemes call for (Bearer for a bearer token, Basic for HTTP Basic); an operation that needs none serves a request without credentials",
    level: 'MUST',
    source: rfc(9110, '§15.5.2 401 Unauthorized', 'section-15.5.2'),
    requirement: `The server generating a 401 response MUST send a WWW-Authenticate header field (Section 11.6.1) containing at least one challenge applicable to the target resource. RFC 6750 §3: If the protected resource request does not include authentication credentials or does not contain an access token that enables access to the protected resource, the resource server MUST include the HTTP "WWW-Authenticate" response header field. RFC 7617 §2: the Basic challenge's realm parameter is REQUIRED. (OpenAPI 3.1 §4.8.10: an operation's \`security\` "overrides any declared top-level security"; an empty one, or an empty alternative, needs no credentials.)`,
    grading:
      "MUST: a secured operation that serves a request without credentials of any scheme (the target's -H headers that carry one dropped), with a credential of another scheme (Basic for a bearer token, a bearer token for Basic, the API key as a bearer token instead of in its header, query or cookie) or a malformed one (a 2xx, or a 5xx), fails; so does a 401 without the challenge: Bearer with an auth-param where every alternative needs a bearer token (RFC 6750 §3, whatever the status), Basic with a realm where every one needs Basic (RFC 7617 §2), any challenge for an API key (none is registered). Another 4xx than 401 is non-strict (RFC 6750 §3.1: SHOULD; 400 or 401 for a malformed credential is our choice). An operation that declares no security and answers a request without credentials 401 or 403 fails.",
    evidence:
      'For each operation, its valid request (after a create of the item it acts on) without credentials of any scheme, and, where it needs some, with each credential of its default alternative under another scheme or malformed: 401 with the challenge, or, where it needs none, anything but 401/403 and 5xx, for a pass.',
    none: 'the document declares no operation the harness can send a request to',
  },
  eachCase,
);

const combinations = securityCheck(
  combinationCases,
  {
    id: 'PS-OP-005',
    title:
      'A security requirement that combines schemes needs each of them: a request with all but one is refused (401 with a challenge)',
    level: 'MUST',
    source: OPENAPI_SECURITY,
    requirement: REQUIREMENT_OBJECT,
    grading:
      'MUST: a requirement naming several schemes is satisfied only by all of them (OpenAPI 3.1 §4.8.30), so a request with each of them left out in turn (the others right), which no other alternative accepts, must not be served: a 2xx or a 5xx fails, a 401 without the challenge fails (RFC 9110 §15.5.2; Bearer or Basic where every alternative needs that scheme); another 4xx is non-strict.',
    evidence:
      'For each operation whose requirement combines schemes, its valid request with each scheme of the combination left out: refused with 401 and a challenge for a pass.',
    none: 'no security requirement of the document combines schemes the harness can send (several schemes in one requirement)',
  },
  eachCase,
);

const alternatives = securityCheck(
  alternativeCases,
  {
    id: 'PS-OP-006',
    title: 'Each alternative of a security requirement is accepted alone',
    level: 'MUST',
    source: OPENAPI_SECURITY,
    requirement: REQUIREMENT_OBJECT,
    grading:
      "MUST: one alternative suffices (OpenAPI 3.1 §4.8.10), so a valid request with the credentials of any one alternative is held to the operation's declared answers as PS-OP-002 holds it: a 401 fails. An alternative whose credentials were not given (a placeholder was sent) and is refused is skip: the refusal may be the placeholder's. A 403 (authorization per credential: these may not do this) or a 404 is non-strict, as PS-OP-002 grades them.",
    evidence:
      'For each operation with several alternatives, its valid request with the credentials of each alternative alone: a declared success, content type and body for a pass.',
    none: 'no operation of the document has several alternatives in its security requirement that the harness can send',
  },
  eachCase,
);

/**
 * PS-OP-007's grading: per operation and scheme, a random value accepted
 * shows that the target does not check that scheme's value: its cases skip
 * (fail with --invalid-token, which says it should).
 */
function gradeWrongValues(
  ctx: CheckContext,
  op: OperationModel,
  list: Array<{ c: SecurityCase; ex: CaseExchange<OpSent>['exchange'] }>,
): Verdict[] {
  const unchecked = new Set<string>();
  for (const { c, ex } of list) {
    const status = ex.response?.status;
    // Where anonymous access is allowed, a random value served shows nothing of whether the scheme is checked.
    if (c.probe && !c.anonymous && status !== undefined && status >= 200 && status < 300 && !ctx.target.restrictsTokens)
      unchecked.add(c.scheme!.name);
  }
  return list.map(({ c, ex }) =>
    unchecked.has(c.scheme!.name)
      ? {
          outcome: 'skip',
          actual: `${operationName(op)}: the target accepts a random value for ${describeScheme(c.scheme!)}, so it does not check it; give --invalid-token if it should`,
        }
      : gradeCase(ctx, op, c, ex),
  );
}

const wrongValues = securityCheck(
  wrongValueCases,
  {
    id: 'PS-OP-007',
    title:
      'A wrong credential of each scheme (a random one, the real one with a character added) is refused: 401 with a challenge',
    level: 'MUST',
    source: rfc(9110, '§15.5.2 401 Unauthorized', 'section-15.5.2'),
    requirement: `The 401 (Unauthorized) status code indicates that the request has not been applied because it lacks valid authentication credentials for the target resource. ... If the request included authentication credentials, then the 401 response indicates that authorization has been refused for those credentials. (RFC 6750 §3.1 invalid_token: the resource SHOULD respond with 401. ${REQUIREMENT_OBJECT})`,
    grading:
      "MUST where the target checks the scheme's value: a random value of it refused first shows that it does (else its cases are skip, fail with --invalid-token); then a wrong value of each scheme of each alternative, the others right, served (2xx) or a 5xx fails, as does a 401 without the challenge; another 4xx is non-strict (RFC 6750 §3.1: SHOULD). Where the operation also allows anonymous access (an empty requirement `{}` beside the schemes), a wrong value served (2xx) is non-strict: the request may be served anonymously (OpenAPI 3.1 §4.8.30: any one requirement satisfies), as it may be refused (RFC 6750 §3.1).",
    evidence:
      'For each secured operation, each scheme of each alternative: a random value refused, then the real value with a character added (for HTTP Basic: the right user, the password with a character added) refused with 401 and a challenge.',
    none: 'the document declares no operation that needs credentials the harness can send',
  },
  gradeWrongValues,
);

export const opSecurityChecks = [perOperationSecurity, combinations, alternatives, wrongValues];
