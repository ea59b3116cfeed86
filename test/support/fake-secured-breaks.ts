// The fake of fake-secured.ts: the credentials it accepts, and the breaks,
// each departing from one rule of a security scheme or of an error media
// type (or, where marked allowed, making another choice a source allows),
// with the check that must fail it and what its cause must say.
import type { Outcome } from '../../conformance/checks/types.js';
import type { GivenCredential } from '../../conformance/model/target.js';

/** The documents of test/fixtures/documents/ this fake serves (their opening comments say what a correct server does). */
export const SECURED_FIXTURES = [
  'api-key',
  'auth-alternatives',
  'problem-json',
  'oauth2-scopes',
  'cookie-public-reads',
  'problem-default',
  'vnd-error-basic',
] as const;
export type SecuredFixture = (typeof SECURED_FIXTURES)[number];

/** The bearer token the fake accepts for every bearer scheme (http bearer, oauth2, openIdConnect). */
export const FAKE_TOKEN = 'fake-secured-token-0123456789';

/** The credential it accepts for each other scheme, by the scheme's name. */
export const FAKE_CREDENTIALS: Readonly<Record<string, string>> = {
  plantKey: 'plant-key-0123456789abcdef',
  basicAuth: 'gardener:green-thumb-0123',
  queryKey: 'query-key-0123456789abcdef',
  adminSession: 'admin-session-0123456789',
  session: 'plant-session-0123456789',
};

/** The credentials a target of these fakes is given, as --credential gives them. */
export const GIVEN_CREDENTIALS: GivenCredential[] = Object.entries(FAKE_CREDENTIALS).map(([scheme, value]) => ({
  scheme,
  value,
  from: `--credential ${scheme}`,
}));

/** Each break departs from one rule (or, where marked allowed, makes a choice a source allows). */
export type SecuredBreak =
  | 'keyAsBearer' // a request with the API key as `Authorization: Bearer <key>` is served without the key in its place
  | 'deleteIgnoresCredentials' // DELETE serves a request without credentials
  | 'anyKeyValue' // an API key is checked for presence only: any value is served
  | 'noChallenge' // every 401 without WWW-Authenticate
  | 'combinationFirstOnly' // a combination is served when its first scheme is right (the others not looked at)
  | 'laterAlternativesRefused' // only the first alternative of a requirement is accepted
  | 'publicNeedsCredentials' // an operation with `security: []` refuses a request without credentials
  | 'basicWithoutRealm' // the Basic challenge has no realm
  | 'basicUserOnly' // HTTP Basic checks the user only: any password is served
  | 'bearerChallengeForBasic' // a refusal of Basic credentials carries a Bearer challenge
  | 'schemeCaseSensitive' // `bearer` or `BEARER` refused: the auth-scheme compared case-sensitively
  | 'createWithoutCredentials' // the create serves a request without credentials
  | 'notFoundPlainJson' // 404 answered application/json with an Error record, not the declared media type
  | 'problemStatus400' // every problem details body says status 400, whatever the response's status
  | 'refusalsPlainJson' // every refusal application/json {error, message}, not the declared media type
  // Allowed choices, which no check may fail:
  | 'malformed400' // a malformed credential (Bearer without a token, Basic not base64, an empty key) answered 400 with the challenge
  | 'refuse403' // a credential of the right scheme but a wrong value answered 403 with the challenge
  | 'problemInstance' // each problem details body carries an `instance` of its own (RFC 9457 §3.1.5)
  | 'laterAlternatives403' // the alternatives after the first are answered 403: those credentials may not do it (authorization)
  | 'undeclaredAsProblem'; // a refusal with a status the operation does not declare is problem details, its status a string

/**
 * A fake that breaks one rule, in a way a naive check is fooled by: the
 * check that must fail it, what its cause must say, and the other checks
 * that fail it too (the same departure seen by their requests; a prefix
 * stands for a family), which are all that may.
 */
export interface SecuredBreakRow {
  fixture: SecuredFixture;
  broken: SecuredBreak;
  check: string;
  cause: RegExp;
  /** How the server breaks the rule, and what a naive check would take for evidence. */
  why: string;
  also: string[];
}

export const SECURED_BREAKS: SecuredBreakRow[] = [
  {
    fixture: 'api-key',
    broken: 'keyAsBearer',
    check: 'PS-OP-004',
    cause: /credentials the target must refuse are answered 2\d\d/,
    why: 'a naive check that only leaves the key out passes it: the server refuses that, and serves the key sent as a bearer token instead',
    also: [],
  },
  {
    fixture: 'api-key',
    broken: 'deleteIgnoresCredentials',
    check: 'PS-OP-004',
    cause: /credentials the target must refuse are answered 204/,
    why: 'every operation but DELETE checks the key: a check of the create alone passes it',
    also: ['PS-OP-007'],
  },
  {
    fixture: 'api-key',
    broken: 'anyKeyValue',
    check: 'PS-OP-007',
    cause: /credentials the target must refuse are answered 2\d\d/,
    why: 'the key is checked for presence only: a check that leaves it out or sends it elsewhere passes it; a random value shows it',
    also: [],
  },
  {
    fixture: 'api-key',
    broken: 'noChallenge',
    check: 'PS-AUTH-001',
    cause: /has no WWW-Authenticate/,
    why: "401 without WWW-Authenticate: a check that asks for a Bearer challenge only where bearer is required passes an API key's refusal",
    also: ['PS-AUTH-007', 'PS-OP-004', 'PS-OP-007', 'PS-DOC-001'],
  },
  {
    fixture: 'auth-alternatives',
    broken: 'combinationFirstOnly',
    check: 'PS-OP-005',
    cause: /credentials the target must refuse are answered 204/,
    why: 'the combination Basic + admin cookie is served with Basic alone: a check that leaves out the first scheme only passes it',
    also: ['PS-OP-004', 'PS-OP-007'],
  },
  {
    fixture: 'auth-alternatives',
    broken: 'laterAlternativesRefused',
    check: 'PS-OP-006',
    cause: /refuses an alternative of its security requirement/,
    why: 'only the first alternative (Basic) is accepted: a check that sends the default alternative alone passes it',
    also: [],
  },
  {
    fixture: 'auth-alternatives',
    broken: 'publicNeedsCredentials',
    check: 'PS-OP-004',
    cause: /an operation that declares no security refuses a request without credentials/,
    why: 'the list, `security: []`, needs credentials: a check that sends the default credentials everywhere passes it',
    also: ['PS-OP-002'],
  },
  {
    fixture: 'auth-alternatives',
    broken: 'basicUserOnly',
    check: 'PS-OP-007',
    cause: /credentials the target must refuse are answered 2\d\d/,
    why: 'Basic checks the user only: a random user and password is refused, the right user with a wrong password is served',
    also: [],
  },
  {
    fixture: 'auth-alternatives',
    broken: 'basicWithoutRealm',
    check: 'PS-OP-004',
    cause: /the Basic challenge has no realm/,
    why: 'a Basic challenge without its realm: a check that looks for a challenge of the scheme alone passes it',
    also: ['PS-OP-005', 'PS-OP-007', 'PS-DOC-001'],
  },
  {
    fixture: 'problem-json',
    broken: 'notFoundPlainJson',
    check: 'PS-RESP-002',
    cause: /404/,
    why: 'every refusal but 404 is problem details: a check of the 400s and 401s alone passes it',
    also: ['PS-DOC-002', 'PS-RESP-003'],
  },
  {
    fixture: 'problem-json',
    broken: 'problemStatus400',
    check: 'PS-RESP-005',
    cause: /status member of a problem details answer is not the response's status/,
    why: 'every problem says status 400: a check of the 400 refusals alone passes it',
    also: [],
  },
  {
    fixture: 'oauth2-scopes',
    broken: 'schemeCaseSensitive',
    check: 'PS-AUTH-005',
    cause: /is answered 401/,
    why: 'the token is compared exactly and so is its scheme: `Bearer` passes, `bearer` is refused',
    also: [],
  },
  {
    fixture: 'oauth2-scopes',
    broken: 'noChallenge',
    check: 'PS-DOC-001',
    cause: /has no WWW-Authenticate/,
    why: '401 without WWW-Authenticate where the document declares oauth2, not http bearer: a check that knows only http bearer skips it',
    also: ['PS-AUTH-', 'PS-OP-004', 'PS-OP-007'],
  },
  {
    fixture: 'oauth2-scopes',
    broken: 'deleteIgnoresCredentials',
    check: 'PS-OP-004',
    cause: /credentials the target must refuse are answered 204/,
    why: 'DELETE serves any request: a check of the create alone passes it',
    also: ['PS-OP-007'],
  },
  {
    fixture: 'cookie-public-reads',
    broken: 'publicNeedsCredentials',
    check: 'PS-OP-004',
    cause: /an operation that declares no security refuses a request without credentials/,
    why: 'the public list and read (`security: []`) need the cookie: a check that sends the cookie everywhere passes it',
    also: ['PS-OP-002', 'PS-STATE-004'],
  },
  {
    fixture: 'cookie-public-reads',
    broken: 'createWithoutCredentials',
    check: 'PS-AUTH-001',
    cause: /credentials the target must refuse are answered 200/,
    why: 'the create serves a request without the cookie; the delete needs it: a check of the delete alone passes it',
    also: ['PS-OP-004', 'PS-OP-007', 'PS-DOC-001'],
  },
  {
    fixture: 'cookie-public-reads',
    broken: 'keyAsBearer',
    check: 'PS-OP-004',
    cause: /credentials the target must refuse are answered 2\d\d/,
    why: 'the session value sent as a bearer token is served: a check that only leaves the cookie out passes it',
    also: [],
  },
  {
    fixture: 'problem-default',
    broken: 'refusalsPlainJson',
    check: 'PS-RESP-002',
    cause: /content type|application\/json/,
    why: 'refusals in application/json: a check that reads only explicitly declared statuses (400, 401) finds none to hold them to, as the document declares them under `default`',
    also: ['PS-REJECT-', 'PS-STATE-001', 'PS-OP-003', 'PS-GEN-002', 'PS-RESP-003'],
  },
  {
    fixture: 'problem-default',
    broken: 'problemStatus400',
    check: 'PS-RESP-005',
    cause: /status member of a problem details answer is not the response's status/,
    why: 'every problem says status 400 where the document declares refusals under `default` alone',
    also: [],
  },
  {
    fixture: 'vnd-error-basic',
    broken: 'bearerChallengeForBasic',
    check: 'PS-AUTH-001',
    cause: /has no Basic challenge/,
    why: 'a refusal of Basic credentials carries a Bearer challenge: a check that asks for any challenge passes it',
    also: ['PS-AUTH-007', 'PS-OP-004', 'PS-OP-007', 'PS-DOC-001'],
  },
  {
    fixture: 'vnd-error-basic',
    broken: 'basicWithoutRealm',
    check: 'PS-AUTH-001',
    cause: /the Basic challenge has no realm/,
    why: 'a Basic challenge without its realm',
    also: ['PS-AUTH-007', 'PS-OP-004', 'PS-OP-007', 'PS-DOC-001'],
  },
  {
    fixture: 'vnd-error-basic',
    broken: 'basicUserOnly',
    check: 'PS-OP-007',
    cause: /credentials the target must refuse are answered 2\d\d/,
    why: 'Basic checks the user only: the right user with a wrong password is served',
    also: [],
  },
  {
    fixture: 'vnd-error-basic',
    broken: 'refusalsPlainJson',
    check: 'PS-RESP-002',
    cause: /content type|application\/json/,
    why: 'refusals in application/json, not the declared application/vnd.error+json (a +json type): a check that takes any JSON for the error record passes it',
    also: ['PS-REJECT-', 'PS-STATE-001', 'PS-OP-003', 'PS-GEN-002', 'PS-RESP-003'],
  },
];

/** An allowed choice: the check that grades it, and how (never fail). */
export interface SecuredAllowedRow {
  fixture: SecuredFixture;
  choice: SecuredBreak;
  check: string;
  expected: Extract<Outcome, 'pass' | 'non-strict'>;
  /** The source that allows the choice. */
  source: string;
}

export const SECURED_ALLOWED: SecuredAllowedRow[] = [
  {
    fixture: 'api-key',
    choice: 'malformed400',
    check: 'PS-OP-004',
    expected: 'non-strict',
    source:
      'RFC 6750 §3.1 (invalid_request: 400) and our own choice for Basic and an API key: 400 or 401 for a malformed credential',
  },
  {
    fixture: 'vnd-error-basic',
    choice: 'malformed400',
    check: 'PS-OP-004',
    expected: 'non-strict',
    source:
      'RFC 6750 §3.1 (invalid_request: 400) and our own choice for Basic and an API key: 400 or 401 for a malformed credential',
  },
  {
    fixture: 'api-key',
    choice: 'refuse403',
    check: 'PS-OP-007',
    expected: 'non-strict',
    source: 'RFC 6750 §3.1: a bad token SHOULD be 401, so another 4xx is allowed',
  },
  {
    fixture: 'auth-alternatives',
    choice: 'refuse403',
    check: 'PS-OP-007',
    expected: 'non-strict',
    source: 'RFC 6750 §3.1: a bad token SHOULD be 401, so another 4xx is allowed',
  },
  {
    fixture: 'problem-json',
    choice: 'problemInstance',
    check: 'PS-STATE-001',
    expected: 'pass',
    source: 'RFC 9457 §3.1.5: instance identifies the specific occurrence of the problem',
  },
  {
    fixture: 'problem-default',
    choice: 'problemInstance',
    check: 'PS-RESP-005',
    expected: 'pass',
    source: 'RFC 9457 §3.1.5: instance identifies the specific occurrence of the problem',
  },
  {
    fixture: 'auth-alternatives',
    choice: 'refuse403',
    check: 'PS-OP-005',
    expected: 'non-strict',
    source: 'RFC 6750 §3.1: a bad token SHOULD be 401, so another 4xx is allowed',
  },
  {
    fixture: 'auth-alternatives',
    choice: 'laterAlternatives403',
    check: 'PS-OP-006',
    expected: 'non-strict',
    source:
      'RFC 9110 §15.5.4: 403 refuses a request the server understood, for credentials that may not do it (authorization per operation)',
  },
  {
    fixture: 'api-key',
    choice: 'undeclaredAsProblem',
    check: 'PS-RESP-005',
    expected: 'non-strict',
    source:
      'the document declares nothing for the status, so its body binds nothing; RFC 9457 §3.1.2 defines status as a number without a MUST of its own',
  },
];

/** The checks that must pass on each correct fake: evidence that the run exercised the document's feature. */
export const SECURED_EVIDENCE: Readonly<Record<SecuredFixture, readonly string[]>> = {
  'api-key': ['PS-AUTH-001', 'PS-AUTH-007', 'PS-OP-004', 'PS-OP-007', 'PS-DOC-001'],
  'auth-alternatives': ['PS-AUTH-001', 'PS-OP-004', 'PS-OP-005', 'PS-OP-006', 'PS-OP-007', 'PS-DOC-001'],
  'problem-json': ['PS-RESP-002', 'PS-RESP-003', 'PS-RESP-005', 'PS-STATE-001', 'PS-REJECT-001', 'PS-OP-003'],
  'oauth2-scopes': ['PS-AUTH-001', 'PS-AUTH-005', 'PS-AUTH-006', 'PS-OP-004', 'PS-OP-006', 'PS-OP-007'],
  'cookie-public-reads': ['PS-AUTH-001', 'PS-OP-004', 'PS-OP-007', 'PS-DOC-001', 'PS-STATE-004'],
  'problem-default': ['PS-RESP-002', 'PS-RESP-003', 'PS-RESP-005', 'PS-STATE-001', 'PS-REJECT-001', 'PS-OP-003'],
  'vnd-error-basic': ['PS-AUTH-001', 'PS-OP-004', 'PS-OP-007', 'PS-RESP-003', 'PS-STATE-001', 'PS-REJECT-001'],
};
