// Authentication. Plant Store specification, Authentication rule 1: "Every
// operation requires HTTP bearer authentication". The answer to missing or
// bad credentials is not in the specification; RFC 9110 and RFC 6750 make it
// binding.
import type { JsonValue } from '../model/json.js';
import { each, noAnswer } from './grades.js';
import { ACCEPT_EVIDENCE, ACCEPT_GRADING, gradeAccepted } from './body-grades.js';
import { challengeRule, gradeUnauthorized } from './auth-grades.js';
import { credentialKind, describeAlternative } from '../model/security.js';
import { credentialFor, defaultAlternative } from './credentials.js';
import { caseOf, createRequest, validPlant, type Body } from './requests.js';
import { RULE1, sameAnswerCheck } from './same-answer.js';
import { rfc } from './sources.js';
import type { Check, CheckContext, ExchangeCheck, Level, Source } from './types.js';
import { createOf } from '../model/spec-model.js';

const RFC6750_3 =
  'If the protected resource request does not include authentication credentials or does not contain an access token that enables access to the protected resource, the resource server MUST include the HTTP "WWW-Authenticate" response header field; ... All challenges defined by this specification MUST use the auth-scheme value "Bearer". This scheme MUST be followed by one or more auth-param values.';
const AUTH_GRADING = `MUST: the request is not served (Authentication rule 1: every operation requires bearer authentication) and the refusal carries a Bearer challenge with an auth-param that RFC 9110 §11.6.1 can read (RFC 6750 §3, MUST): else fail. The status 401 is a SHOULD (RFC 6750 §3.1): another 4xx is non-strict.`;
const ANY_SCHEME_GRADING = `MUST: the request is not served (the create's security requirement, OpenAPI 3.1 §4.8.30), and a 401 carries a challenge (RFC 9110 §15.5.2): Bearer with an auth-param where every alternative needs a bearer token (RFC 6750 §3, whatever the status), Basic with a realm where every one needs HTTP Basic (RFC 7617 §2), any challenge for an API key (no scheme is registered for one): else fail. The status 401 is a SHOULD for a bearer token (RFC 6750 §3.1) and our decision otherwise: another 4xx is non-strict.`;
const AUTH_EVIDENCE = `A 4xx, its WWW-Authenticate parsed into challenges, one of them Bearer with at least one auth-param; 401 for a pass.`;
const ANY_SCHEME_EVIDENCE = `A 4xx, its WWW-Authenticate parsed into challenges: one of them Bearer with at least one auth-param where every alternative of the create's requirement needs a bearer token, Basic with a realm where every one needs HTTP Basic, any otherwise; 401 for a pass.`;
const RFC9110_11_6_1 =
  'A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge.';

interface AuthCheckOptions {
  id: string;
  title: string;
  /** The Authorization values to send (null: no header), each with its note. */
  credentials: (ctx: CheckContext) => Array<[authorization: string | null, note: string]>;
  /** The body sent with each; a valid NewPlant when not given. */
  body?: (ctx: CheckContext) => JsonValue | { raw: string };
  level?: Level;
  source?: Source;
  requirement?: string;
  /** Why the check cannot run on this document; by default it needs a create that requires a bearer token (bearerCreate). */
  precondition?: (ctx: CheckContext) => string | undefined;
  /** The check is about the order of the checks, not the refusal (PS-AUTH-007): see gradeUnauthorized. */
  bodyFirst?: boolean;
  grading?: string;
  /** What a pass needs, where it is not a Bearer challenge. */
  evidence?: string;
  /** The family of input it sends (CheckBase.family). */
  family: string;
}

/**
 * Why a check that sends bearer credentials to the create cannot run: the
 * create needs no credentials, or not a bearer token in every alternative
 * (an API key, Basic: PS-OP-004 to 007 send those); undefined when it can.
 */
export function bearerCreate(ctx: CheckContext): string | undefined {
  const create = ctx.model.create;
  if (!create) return undefined; // the checks' cases say why (createOf)
  if (create.open) return `the create operation needs no credentials (${create.method} ${create.path})`;
  if (create.bearerRequired) return undefined;
  return `the create operation needs ${create.security.map(describeAlternative).join(', or ')}, not a bearer token: this check sends bearer credentials (PS-OP-004 to PS-OP-007 check every scheme)`;
}

/** The bearer token the create is sent with: its scheme's --credential, else the token (credentials.ts credentialFor). */
function bearerToken(ctx: CheckContext): string {
  const scheme = defaultAlternative(ctx.target, createOf(ctx.model))?.find((s) => credentialKind(s) === 'bearer');
  return scheme ? credentialFor(ctx.target, scheme).value : ctx.target.token;
}

/** Why a check that sends the create without credentials cannot run: the create needs none. */
function securedCreate(ctx: CheckContext): string | undefined {
  const create = ctx.model.create;
  return create?.open ? `the create operation needs no credentials (${create.method} ${create.path})` : undefined;
}

/** A check that sends bad or missing credentials and expects 401 with a challenge (Bearer for a bearer token). */
function authCheck(options: AuthCheckOptions): ExchangeCheck {
  const { credentials, body = (ctx) => validPlant(ctx), bodyFirst = false } = options;
  return {
    kind: 'exchange',
    id: options.id,
    title: options.title,
    family: options.family,
    level: options.level ?? 'MUST',
    source: options.source ?? rfc(6750, '§3 The WWW-Authenticate Response Header Field', 'section-3'),
    requirement: options.requirement ?? `${RFC6750_3} RFC 9110 §11.6.1: ${RFC9110_11_6_1}`,
    grading:
      options.grading ??
      (bodyFirst
        ? 'SHOULD: RFC 9110 does not order the checks of credentials and body; answering 401 first is our decision (docs/server.md), so a refusal of the body first is non-strict. A 2xx or a 5xx fails, and a 401 must carry a challenge (RFC 9110 §15.5.2): Bearer with an auth-param for a bearer token (RFC 6750 §3), Basic with a realm for HTTP Basic (RFC 7617 §2).'
        : AUTH_GRADING),
    evidence: options.evidence ?? AUTH_EVIDENCE,
    precondition: options.precondition ?? bearerCreate,
    cases: (ctx) => credentials(ctx).map(([auth, note]) => caseOf(createRequest(ctx, body(ctx), { auth, note }))),
    verify: (cases, ctx) =>
      each(cases, (c) =>
        gradeUnauthorized(c.exchange, { bodyFirst, rule: challengeRule(createOf(ctx.model).security) }),
      ),
  };
}

/** The auth scheme as RFC 6750 §2.1 spells it (the checks that send it run where the create needs a bearer token: bearerCreate). */
function schemeWord(_ctx: CheckContext): string {
  return 'Bearer';
}

const anyLetterCase: ExchangeCheck<Body> = {
  kind: 'exchange',
  id: 'PS-AUTH-005',
  family: 'the scheme in another letter case',
  title: 'The auth scheme is accepted in any letter case (bearer, BEARER, bEaReR)',
  level: 'MUST',
  source: rfc(9110, '§11.1 Authentication Scheme', 'section-11.1'),
  requirement: 'It uses a case-insensitive token to identify the authentication scheme.',
  grading: `MUST: RFC 9110 §11.1 makes the scheme case-insensitive, so "bearer <token>" is the same valid credential and rule 1 binds the answer. ${ACCEPT_GRADING}`,
  evidence: ACCEPT_EVIDENCE,
  precondition: bearerCreate,
  cases: (ctx) =>
    ['bearer', 'BEARER', 'bEaReR'].map((scheme) => {
      const body = validPlant(ctx);
      return {
        request: createRequest(ctx, body, { auth: `${scheme} ${bearerToken(ctx)}`, note: `scheme ${scheme}` }),
        sent: body,
      };
    }),
  verify: (cases, ctx) => each(cases, (c) => gradeAccepted(ctx, c.exchange, c.sent)),
};

/** A token of the same shape as `token` with its letters' case swapped; undefined when it has no letter. */
function swapCase(token: string): string | undefined {
  const swapped = token.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
  return swapped === token ? undefined : swapped;
}

interface TokenCase {
  /** The first case: a random token, whose answer says whether the target restricts tokens. */
  probe: boolean;
}

/**
 * Whether a target restricts tokens is seen, not assumed: a random
 * well-formed token refused with 401 shows that it does. Then every token it
 * did not issue must be refused, near misses of the real one included (one
 * character added or removed, the letter case swapped: a b64token is
 * compared exactly). A target that accepts the random token accepts any
 * (a stub, the Prism mock): the check is skipped and says so, unless
 * --invalid-token said that the target restricts tokens.
 */
const unknownTokens: ExchangeCheck<TokenCase> = {
  kind: 'exchange',
  id: 'PS-AUTH-006',
  family: 'a token the target did not issue',
  title:
    'A token the target did not issue is refused, near misses of the real one included: 401 with WWW-Authenticate: Bearer',
  level: 'MUST',
  source: rfc(6750, '§3.1 Error Codes: invalid_token', 'section-3.1'),
  requirement: `invalid_token: The access token provided is expired, revoked, malformed, or invalid for other reasons. The resource SHOULD respond with the HTTP 401 (Unauthorized) status code. ${RFC6750_3} (Plant Store specification, Authentication rule 2: the service rejects a request without a valid token. A target shows that it restricts tokens by refusing a random one.)`,
  grading: `${AUTH_GRADING} Binding only where the target restricts tokens: the specification does not say that a token must be checked, so a target that accepts a random token is skip (fail with --invalid-token, which says it should not).`,
  evidence: `A random well-formed token refused first (the target restricts tokens); then each near miss of the real token refused as above. ${AUTH_EVIDENCE}`,
  precondition: bearerCreate,
  cases: (ctx) => {
    const token = bearerToken(ctx);
    // The curl line rebuilds a near miss from $PLANTSTORE_TOKEN only where the token is --token's.
    const fromToken = token === ctx.target.token;
    const plain = (auth: string, note: string, probe: boolean, shell?: string) => ({
      request: {
        ...createRequest(ctx, validPlant(ctx), { auth, note }),
        ...(fromToken && shell !== undefined ? { authorizationShell: shell } : {}),
      },
      sent: { probe },
    });
    const swapped = swapCase(token);
    return [
      plain(
        `Bearer unknown-${ctx.ids.bytes('unknown token', 12).toString('hex')}`,
        'a random well-formed token: does the target restrict tokens?',
        true,
      ),
      plain(`Bearer ${token}x`, 'the token with a character added', false, '"Bearer ${PLANTSTORE_TOKEN}x"'),
      ...(token.length > 1
        ? [
            plain(
              `Bearer ${token.slice(0, -1)}`,
              'the token without its last character',
              false,
              '"Bearer ${PLANTSTORE_TOKEN%?}"',
            ),
          ]
        : []),
      ...(swapped
        ? [
            plain(
              `Bearer ${swapped}`,
              'the token with the letter case swapped',
              false,
              '"Bearer $(printf %s "$PLANTSTORE_TOKEN" | tr a-zA-Z A-Za-z)"',
            ),
          ]
        : []),
    ];
  },
  verify: (cases, ctx) => {
    const probe = cases[0]!.exchange;
    const missing = noAnswer(probe);
    if (missing) return { ...missing, exchange: 0 };
    const status = probe.response!.status;
    if (status >= 200 && status < 300 && !ctx.target.restrictsTokens) {
      return {
        outcome: 'skip',
        exchange: 0,
        actual: `the target accepts a random token (${status}), so it does not restrict tokens; give --invalid-token if it should`,
      };
    }
    // RFC 6750 §3.1: invalid_token SHOULD be 401; another 4xx is allowed, not chosen.
    return each(cases, (c) => gradeUnauthorized(c.exchange));
  },
};

const spacesAfterScheme = sameAnswerCheck({
  id: 'PS-AUTH-008',
  family: 'several spaces after Bearer',
  title: 'Several spaces between Bearer and the token are accepted',
  source: rfc(6750, '§2.1 Authorization Request Header Field', 'section-2.1'),
  requirement: `credentials = "Bearer" 1*SP b64token (RFC 9110 §11.4: credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]). ${RULE1}`,
  precondition: bearerCreate,
  cases: (ctx) =>
    [2, 4].map((spaces) => {
      const sent = validPlant(ctx);
      return {
        request: createRequest(ctx, sent, {
          auth: `Bearer${' '.repeat(spaces)}${bearerToken(ctx)}`,
          note: `${spaces} spaces after Bearer`,
        }),
        sent,
      };
    }),
});

export const authChecks: Check[] = [
  spacesAfterScheme,
  authCheck({
    id: 'PS-AUTH-001',
    family: 'no credentials',
    title:
      'Missing credentials (none of any scheme): 401 with a challenge, WWW-Authenticate: Bearer for a bearer token, Basic for HTTP Basic',
    credentials: () => [[null, 'no credentials of any scheme']],
    precondition: securedCreate,
    evidence: ANY_SCHEME_EVIDENCE,
    source: rfc(9110, '§15.5.2 401 Unauthorized', 'section-15.5.2'),
    requirement: `The 401 (Unauthorized) status code indicates that the request has not been applied because it lacks valid authentication credentials for the target resource. The server generating a 401 response MUST send a WWW-Authenticate header field (Section 11.6.1) containing at least one challenge applicable to the target resource. RFC 6750 §3 (a bearer token): ${RFC6750_3} RFC 7617 §2 (Basic): the challenge is "Basic" with the REQUIRED realm parameter.`,
    grading: ANY_SCHEME_GRADING,
  }),
  authCheck({
    id: 'PS-AUTH-002',
    family: 'another scheme',
    title: 'Another scheme (Basic): 401 with WWW-Authenticate: Bearer',
    credentials: () => [['Basic dXNlcjpwYXNzd29yZA==', 'Basic credentials']],
  }),
  authCheck({
    id: 'PS-AUTH-003',
    family: 'an empty token',
    title: 'An empty bearer token: 401 with WWW-Authenticate: Bearer (400 allowed by RFC 6750 §3.1)',
    credentials: (ctx) => [
      [`${schemeWord(ctx)}`, 'scheme without token'],
      [`${schemeWord(ctx)} `, 'scheme and a space'],
    ],
  }),
  authCheck({
    id: 'PS-AUTH-004',
    family: 'a malformed token',
    title:
      'A malformed bearer token (outside b64token): 401 with WWW-Authenticate: Bearer (400 allowed by RFC 6750 §3.1)',
    credentials: (ctx) => [
      [`${schemeWord(ctx)} not a token`, 'token with spaces'],
      [`${schemeWord(ctx)} @@@`, 'token with characters outside b64token'],
      [`${schemeWord(ctx)} =abc`, 'padding before the token'],
    ],
    source: rfc(6750, '§2.1 Authorization Request Header Field', 'section-2.1'),
    requirement: `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="; credentials = "Bearer" 1*SP b64token. ${RFC6750_3}`,
  }),
  anyLetterCase,
  unknownTokens,
  authCheck({
    id: 'PS-AUTH-009',
    family: 'the real token without the Bearer scheme',
    title:
      'The real token with another scheme (Basic, Token), bare, or the Bearer scheme alone: 401 with WWW-Authenticate: Bearer',
    requirement: `The document requires bearer authentication: a request whose credentials are not a Bearer credential does not meet the security requirement. credentials = "Bearer" 1*SP b64token (RFC 6750 §2.1). ${RFC6750_3}`,
    grading:
      'MUST: the document requires bearer authentication (RFC 6750 §2.1): the token under another scheme, or alone, is no Bearer credential, so the request is unauthenticated: a 2xx fails, as every answer but 401 with the Bearer challenge does, for the reasons of PS-AUTH-002.',
    credentials: (ctx) => [
      [`Basic ${bearerToken(ctx)}`, 'the real token after Basic'],
      [`Token ${bearerToken(ctx)}`, 'the real token after Token'],
      [bearerToken(ctx), 'the real token with no scheme'],
    ],
  }),
  authCheck({
    id: 'PS-AUTH-007',
    family: 'no credentials and a malformed body',
    title: 'Credentials are checked before the body: no credentials and a malformed body give 401',
    credentials: () => [[null, 'no credentials and a malformed body']],
    precondition: securedCreate,
    evidence: ANY_SCHEME_EVIDENCE,
    body: () => ({ raw: '{"id": ' }),
    level: 'SHOULD',
    // RFC 9110 does not order the checks. We ask for 401 because a request
    // without credentials learns nothing about how the body is read; a 400
    // here is allowed, so it grades non-strict.
    bodyFirst: true,
    requirement: `${RFC6750_3} (The RFCs do not order credential and body checks; answering 401 first reveals nothing to an unauthenticated client: a reference server decision, docs/server.md.)`,
  }),
];
