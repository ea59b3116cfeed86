// Authentication. Seed, Authentication rule 1: "Every operation requires HTTP
// bearer authentication". The answer to missing or bad credentials is not in
// the seed; RFC 9110 and RFC 6750 make it binding.
import { randomBytes } from 'node:crypto';
import type { Exchange } from '../http.js';
import { create, describe, each, gradeAccepted, noAnswer, rfc, validPlant } from './grades.js';
import type { CheckContext, ExchangeCheck, Verdict } from './types.js';
import type { JsonValue } from '../json.js';

const RFC6750_3 =
  'If the protected resource request does not include authentication credentials or does not contain an access token that enables access to the protected resource, the resource server MUST include the HTTP "WWW-Authenticate" response header field; ... All challenges defined by this specification MUST use the auth-scheme value "Bearer".';
const RFC9110_11_6_1 = 'A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge.';

/** Expects 401 with a Bearer challenge; statuses in `nonStrict` are allowed by the RFCs but not what we chose. */
export function gradeUnauthorized(ex: Exchange, nonStrict: number[] = []): Verdict {
  const missing = noAnswer(ex);
  if (missing) return missing;
  const status = ex.response!.status;
  const expected = '401 with WWW-Authenticate: Bearer';
  const h = ex.response!.headers['www-authenticate'];
  const bearer = h !== undefined && /(^|,)\s*bearer(\s|,|$)/i.test(h);
  if (status === 401) return bearer ? { outcome: 'pass' } : { outcome: 'fail', expected, actual: `${h === undefined ? 'no WWW-Authenticate' : 'no Bearer challenge'}: ${describe(ex)}` };
  if (nonStrict.includes(status)) return { outcome: 'non-strict', expected, actual: describe(ex) };
  return { outcome: 'fail', expected, actual: describe(ex) };
}

function authCheck(
  id: string,
  title: string,
  auths: (ctx: CheckContext) => Array<[string | null, string]>,
  extra: Partial<ExchangeCheck> & { nonStrict?: number[] } = {},
): ExchangeCheck {
  const { nonStrict = [], ...rest } = extra;
  return {
    kind: 'exchange',
    id,
    title,
    level: 'MUST',
    source: rfc(6750, '§3 The WWW-Authenticate Response Header Field', 'section-3'),
    requirement: `${RFC6750_3} RFC 9110 §11.6.1: ${RFC9110_11_6_1}`,
    requests: (ctx) => auths(ctx).map(([auth, note]) => create(ctx, validPlant(ctx), { auth, note })),
    verify: (exchanges) => each(exchanges, (ex) => gradeUnauthorized(ex, nonStrict)),
    ...rest,
  };
}

/** The real token, in another letter case of the scheme (the scheme token of the document's security scheme). */
function schemeWord(ctx: CheckContext): string {
  const s = ctx.model.create.securitySchemes.find((x) => x.type === 'http' && x.scheme?.toLowerCase() === 'bearer');
  if (!s) throw new Error('the operation declares no HTTP bearer security scheme');
  // RFC 6750 §2.1 spells the scheme "Bearer"; the document's `scheme` is case-insensitive.
  return 'Bearer';
}

const caseBodies = new WeakMap<CheckContext, Array<Record<string, JsonValue>>>();

export const authChecks: ExchangeCheck[] = [
  authCheck('PS-AUTH-001', 'Missing credentials: 401 with WWW-Authenticate: Bearer', () => [[null, 'no Authorization header']]),
  authCheck('PS-AUTH-002', 'Another scheme (Basic): 401 with WWW-Authenticate: Bearer', () => [
    ['Basic dXNlcjpwYXNzd29yZA==', 'Basic credentials'],
  ]),
  authCheck(
    'PS-AUTH-003',
    'An empty bearer token: 401 with WWW-Authenticate: Bearer (400 allowed by RFC 6750 §3.1)',
    (ctx) => [[`${schemeWord(ctx)}`, 'scheme without token'], [`${schemeWord(ctx)} `, 'scheme and a space']],
    { nonStrict: [400] },
  ),
  authCheck(
    'PS-AUTH-004',
    'A malformed bearer token (outside b64token): 401 with WWW-Authenticate: Bearer (400 allowed by RFC 6750 §3.1)',
    (ctx) => [
      [`${schemeWord(ctx)} not a token`, 'token with spaces'],
      [`${schemeWord(ctx)} @@@`, 'token with characters outside b64token'],
      [`${schemeWord(ctx)} =abc`, 'padding before the token'],
    ],
    {
      nonStrict: [400],
      source: rfc(6750, '§2.1 Authorization Request Header Field', 'section-2.1'),
      requirement: `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="; credentials = "Bearer" 1*SP b64token. ${RFC6750_3}`,
    },
  ),
  {
    kind: 'exchange',
    id: 'PS-AUTH-005',
    title: 'The auth scheme is accepted in any letter case (bearer, BEARER, bEaReR)',
    level: 'MUST',
    source: rfc(9110, '§11.1 Authentication Scheme', 'section-11.1'),
    requirement: 'It uses a case-insensitive token to identify the authentication scheme.',
    requests: (ctx) => {
      const bodies = ['bearer', 'BEARER', 'bEaReR'].map((scheme) => [scheme, validPlant(ctx)] as const);
      caseBodies.set(ctx, bodies.map(([, b]) => b));
      return bodies.map(([scheme, body]) => create(ctx, body, { auth: `${scheme} ${ctx.target.token}`, note: `scheme ${scheme}` }));
    },
    verify: (exchanges, ctx) => each(exchanges, (ex, i) => gradeAccepted(ctx, ex, caseBodies.get(ctx)![i]!)),
  },
  authCheck(
    'PS-AUTH-006',
    'An unknown token is rejected: 401 with WWW-Authenticate: Bearer',
    (ctx) => [[`${schemeWord(ctx)} unknown-${randomBytes(12).toString('hex')}`, 'a well-formed token the target does not know']],
    {
      precondition: (ctx) => (ctx.target.restrictsTokens ? undefined : 'the target is not known to restrict tokens (give --invalid-token, or use --reference)'),
      requirement: `${RFC6750_3} RFC 6750 §3.1 invalid_token: The access token provided is expired, revoked, malformed, or invalid for other reasons. The resource SHOULD respond with the HTTP 401 (Unauthorized) status code.`,
    },
  ),
  authCheck(
    'PS-AUTH-007',
    'Credentials are checked before the body: no credentials and a malformed body give 401',
    (ctx) => [[null, 'no Authorization header and a malformed body']],
    {
      level: 'SHOULD',
      nonStrict: [400, 415, 422],
      // RFC 9110 does not order the checks. We ask for 401 because a
      // request without credentials learns nothing about how the body is
      // read; a 400 here is allowed, so it grades non-strict.
      requirement: `${RFC6750_3} (The RFCs do not order credential and body checks; answering 401 first reveals nothing to an unauthenticated client: README decision.)`,
      requests: (ctx) => [create(ctx, { raw: '{"id": ' }, { auth: null, note: 'no Authorization header and a malformed body' })],
    },
  ),
];
