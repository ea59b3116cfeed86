// The pipeline's stage `credentials` of one operation: its security
// requirements (schemes.ts) checked against what the request presents
// (presented.ts) and the values each scheme accepts (credentials.ts).
// OpenAPI 3.1 §4.8.30: the requirements are alternatives, any one is
// enough; the schemes of one requirement are all needed. A request that
// meets none gets a 401 (RFC 9110 §15.5.2) with a challenge for each scheme
// the operation declares (RFC 9110 §11.6.1: one WWW-Authenticate may carry
// several), in the order the document declares them.
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { REALM } from './auth.js';
import { ApiError, ERRORS, type ErrorCode } from '../http/errors.js';
import type { AcceptedValues } from './accepted.js';
import { authorizationOf, basicPair, bearerToken, presentedKey } from './presented.js';
import { unsatisfiable, type OperationSecurity, type RequiredScheme, type Scheme } from './schemes.js';

/** An operation's stage `credentials`, and the challenge its 401s carry. */
export interface CredentialStage {
  run: onRequestHookHandler;
  /** WWW-Authenticate of a 401 of the operation (the stub's Prefer: code=401 sends it too). */
  challenge: string | undefined;
}

/** What one scheme of a requirement found in a request: met, nothing of it sent, or sent and refused. */
type Outcome = typeof MET | typeof ABSENT | Refusal;
const MET = 0;
const ABSENT = 1;
interface Refusal {
  code: ErrorCode;
  detail?: string;
  /** A bearer token's problem: the Bearer challenge says `error="invalid_token"` (RFC 6750 §3.1). */
  invalidToken?: true;
}

type Reader = (request: FastifyRequest) => Outcome;

const MALFORMED_TOKEN: Refusal = { code: 'MALFORMED_TOKEN', invalidToken: true };
const UNKNOWN_TOKEN: Refusal = { code: 'UNKNOWN_TOKEN', invalidToken: true };
const MALFORMED_BASIC: Refusal = { code: 'MALFORMED_BASIC' };
const UNKNOWN_BASIC: Refusal = { code: 'UNKNOWN_BASIC' };

/** The credential a request was let in with, where it is not its Authorization header (the stub's held answers are shared by credential). */
const letInWith = new WeakMap<FastifyRequest, string>();

/** The credential that let the request in: its Authorization header, or the keys it presented. */
export function credentialOf(request: FastifyRequest): string {
  return letInWith.get(request) ?? request.headers.authorization ?? '';
}

/** The stage of an operation with `security`; undefined when it requires no credentials. */
export function credentialStage(
  security: OperationSecurity,
  accepted: (scheme: Scheme) => AcceptedValues,
): CredentialStage | undefined {
  if (security.alternatives.length === 0) return undefined;
  const possible = security.alternatives.filter((alternative) => unsatisfiable(alternative) === undefined);
  const alternatives = possible.map((alternative) => alternative.map((required) => readerOf(required, accepted)));
  // Whether an alternative is met by a key rather than the Authorization header alone.
  const byKeys = possible.map((alternative) => alternative.some(({ scheme }) => scheme.kind === 'apiKey'));
  const challenges = challengesOf(security.alternatives);
  const plain = challenges.map(({ value }) => value).join(', ') || undefined;
  const invalidToken = challenges.map(({ value, invalid }) => invalid ?? value).join(', ') || undefined;
  const forms = possible.map((alternative) => alternative.map(({ scheme }) => formOf(scheme)));
  // Two requirements that ask for the same (an OAuth token, or an OpenID Connect one: both a bearer token) are said once.
  const listed = (part: 'send' | 'use') =>
    [...new Set(forms.map((form) => form.map((one) => one[part]).join(' with ')))].join(', or ');
  // Every requirement needs a scheme this server cannot check (the start said so): no request meets one.
  const never = `Authentication required, and no request can meet this operation's security requirements here: they need ${security.alternatives.map((alternative) => alternative.map(({ scheme }) => formOf(scheme).send).join(' with ')).join(', or ')}, which this server does not check.`;
  const missing = forms.length === 0 ? never : `Authentication required: send ${listed('send')}.`;
  const unsupported = forms.length === 0 ? never : `Unsupported authentication scheme: use ${listed('use')}.`;
  const refuse = (code: ErrorCode, detail: string | undefined, invalid: boolean | undefined) => {
    const challenge = invalid ? invalidToken : plain;
    return new ApiError(
      code,
      detail === ERRORS[code].message ? undefined : detail,
      challenge ? { 'www-authenticate': challenge } : {},
    );
  };

  const check = (request: FastifyRequest): ApiError | undefined => {
    let first: { refusal: Refusal | undefined } | undefined;
    for (let a = 0; a < alternatives.length; a++) {
      const readers = alternatives[a]!;
      let met = true;
      let presented = false;
      let refusal: Refusal | undefined;
      for (const read of readers) {
        const outcome = read(request);
        if (outcome === MET) presented = true;
        else {
          met = false;
          if (outcome !== ABSENT) {
            presented = true;
            refusal ??= outcome;
          }
        }
      }
      if (met) {
        if (byKeys[a]) letInWith.set(request, presentedKeys(request, possible[a]!));
        return undefined;
      }
      // The refusal is about the first requirement the request tried to meet.
      if (presented) first ??= { refusal };
    }
    if (first !== undefined) {
      const { refusal } = first;
      // Part of a requirement sent, the rest of it missing: say what it needs.
      if (refusal === undefined) return refuse('MISSING_CREDENTIALS', missing, false);
      return refuse(refusal.code, refusal.detail, refusal.invalidToken);
    }
    // RFC 6750 §3.1: a request that "attempted using an unsupported authentication method" gets no error code.
    const { authorization } = request.headers;
    if (authorization !== undefined && authorization !== '') return refuse('UNSUPPORTED_SCHEME', unsupported, false);
    return refuse('MISSING_CREDENTIALS', missing, false);
  };
  return {
    challenge: plain,
    run: (request, _reply, done) => {
      const refused = check(request);
      if (refused !== undefined) return done(refused);
      done();
    },
  };
}

/** How a request's credential for one scheme is read and judged. */
function readerOf({ scheme }: RequiredScheme, accepted: (scheme: Scheme) => AcceptedValues): Reader {
  const values = accepted(scheme);
  switch (scheme.kind) {
    case 'bearer':
      return (request) => {
        const header = request.headers.authorization;
        if (header === undefined || header === '') return ABSENT;
        const { scheme: used, credentials } = authorizationOf(header);
        if (used !== 'bearer') return ABSENT;
        const token = bearerToken(credentials);
        if (token === undefined) return MALFORMED_TOKEN;
        return values.accepts(token) ? MET : UNKNOWN_TOKEN;
      };
    case 'basic':
      return (request) => {
        const header = request.headers.authorization;
        if (header === undefined || header === '') return ABSENT;
        const { scheme: used, credentials } = authorizationOf(header);
        if (used !== 'basic') return ABSENT;
        const pair = basicPair(credentials);
        if (pair === undefined) return MALFORMED_BASIC;
        return values.accepts(pair) ? MET : UNKNOWN_BASIC;
      };
    case 'apiKey': {
      const where = keyPlace(scheme);
      const name = scheme.in === 'header' ? scheme.parameter.toLowerCase() : scheme.parameter;
      return (request) => {
        const presented = presentedKey(request, scheme.in, name);
        if ('absent' in presented) return ABSENT;
        if ('repeated' in presented)
          return {
            code: 'UNKNOWN_API_KEY',
            detail: `The API key in ${where} is given ${presented.repeated} times: send it once.`,
          };
        if (presented.key === '') return { code: 'UNKNOWN_API_KEY', detail: `The API key in ${where} is empty.` };
        return values.accepts(presented.key)
          ? MET
          : { code: 'UNKNOWN_API_KEY', detail: `The API key in ${where} is not accepted.` };
      };
    }
    case 'unserved':
      // Never met (unsatisfiable): the alternatives that need it are left out before readers are made.
      return () => ABSENT;
  }
}

/** The keys an alternative was met with, joined: whose credential a held answer counts against. */
function presentedKeys(request: FastifyRequest, alternative: readonly RequiredScheme[]): string {
  return alternative
    .map(({ scheme }) => {
      if (scheme.kind !== 'apiKey') return request.headers.authorization ?? '';
      const presented = presentedKey(
        request,
        scheme.in,
        scheme.in === 'header' ? scheme.parameter.toLowerCase() : scheme.parameter,
      );
      return 'key' in presented ? `${scheme.name}=${presented.key}` : '';
    })
    .join('\n');
}

/** Where a key goes, as a message says it. */
function keyPlace(scheme: Extract<Scheme, { kind: 'apiKey' }>): string {
  return scheme.in === 'header'
    ? `the header ${scheme.parameter}`
    : scheme.in === 'query'
      ? `the query parameter ${scheme.parameter}`
      : `the cookie ${scheme.parameter}`;
}

/** What a message tells the client to send for a scheme: after "send", and after "use". */
function formOf(scheme: Scheme): { send: string; use: string } {
  switch (scheme.kind) {
    case 'bearer':
      return { send: 'the header Authorization: Bearer <token>', use: 'Authorization: Bearer <token>' };
    case 'basic':
      return {
        send: 'the header Authorization: Basic <base64 of user-id:password>',
        use: 'Authorization: Basic <base64 of user-id:password>',
      };
    case 'apiKey':
      return scheme.in === 'header' && scheme.parameter.toLowerCase() === 'authorization'
        ? { send: 'the header Authorization: <API key>', use: 'Authorization: <API key>' }
        : { send: keyPlace(scheme), use: keyPlace(scheme) };
    case 'unserved':
      return { send: `${scheme.declared} credentials`, use: `${scheme.declared} credentials` };
  }
}

/**
 * A challenge per scheme the operation declares, in the order declared, one
 * per auth-scheme: RFC 6750 §3 `Bearer realm=…` (with `scope` where the
 * requirement lists scopes; `invalid` adds `error="invalid_token"`), RFC 7617
 * §2 `Basic realm=…, charset="UTF-8"` (§2.1: the only charset allowed), and
 * for an API key, which has no registered scheme, ours: `APIKey realm=…,
 * in=…, name=…` (docs/server.md says why). A scheme the server cannot check
 * gets its auth-scheme and the realm; mutual TLS, none (no HTTP credential
 * meets it).
 */
function challengesOf(alternatives: OperationSecurity['alternatives']): Array<{ value: string; invalid?: string }> {
  const out: Array<{ key: string; value: string; invalid?: string }> = [];
  const realm = `realm=${quoted(REALM)}`;
  for (const alternative of alternatives) {
    for (const { scheme, scopes } of alternative) {
      const key = scheme.kind === 'apiKey' ? `apiKey ${scheme.in} ${scheme.parameter}` : scheme.kind;
      if (out.some((challenge) => challenge.key === key)) continue;
      if (scheme.kind === 'bearer') {
        const scope = scopes.length === 0 ? '' : `, scope=${quoted(scopes.join(' '))}`;
        out.push({ key, value: `Bearer ${realm}${scope}`, invalid: `Bearer ${realm}, error="invalid_token"${scope}` });
      } else if (scheme.kind === 'basic') {
        out.push({ key, value: `Basic ${realm}, charset="UTF-8"` });
      } else if (scheme.kind === 'apiKey') {
        out.push({ key, value: `APIKey ${realm}, in=${quoted(scheme.in)}, name=${quoted(scheme.parameter)}` });
      } else if (scheme.authScheme !== undefined) {
        out.push({ key: `unserved ${scheme.authScheme.toLowerCase()}`, value: `${scheme.authScheme} ${realm}` });
      }
    }
  }
  return out;
}

/**
 * RFC 9110 §5.6.4: quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE;
 * `"` and `\` escaped. A character outside what a field value may hold
 * (a control, beyond Latin-1) is percent-encoded as UTF-8.
 */
function quoted(text: string): string {
  const safe = text.replace(/[^\t\x20-\x7E]/g, (c) => encodeURIComponent(c));
  return `"${safe.replace(/["\\]/g, '\\$&')}"`;
}
