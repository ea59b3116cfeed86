// Credentials on a request, for any security scheme the document declares
// (model/security.ts): which value the harness sends for a scheme (a
// --credential, the token for a bearer scheme, a -H header named like an API
// key, else a placeholder), which alternative of an operation's requirement
// it satisfies, and where each credential goes (Authorization, a header, the
// query, a cookie). "No credentials" means none of any scheme: a request
// stripped of them carries no Authorization, no API key header, query
// parameter or cookie, and the runner adds no -H header that carries one
// (targetHeaders).
import type { RequestSpec } from './exchange.js';
import type { OperationModel } from '../model/operation-model.js';
import type { SpecModel } from '../model/spec-model.js';
import { operationOf } from './declared.js';
import { credentialKind, inAuthorization, type CredentialKind, type SecuritySchemeModel } from '../model/security.js';
import { PLACEHOLDER_TOKEN, type Target } from '../model/target.js';

/** A credential as a request carries it: the scheme, and the value (a token, a key, `user:password`). */
export interface SentCredential {
  scheme: SecuritySchemeModel;
  value: string;
}

/** HTTP Basic's placeholder, for targets that accept any credentials (a mock), as the token has one. */
export const PLACEHOLDER_BASIC = 'plantstore:conformance';

/** The value the harness sends for a scheme, and where it came from (undefined: nothing was given, a placeholder stands in). */
export interface ResolvedCredential {
  value: string;
  from?: string;
}

/** The cookies of a Cookie field value (RFC 6265 §4.2.1: cookie-pair *( ";" SP cookie-pair )), in order. */
export function cookiePairs(value: string): Array<[name: string, value: string]> {
  return value
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq === -1 ? [pair, ''] : [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
    });
}

/** A -H header of the target by name, its letter case aside (RFC 9110 §5.1). */
function targetHeader(target: Target, name: string): [string, string] | undefined {
  return Object.entries(target.headers ?? {}).find(([n]) => n.toLowerCase() === name.toLowerCase());
}

/**
 * The value sent for `scheme` to `target`: a --credential naming it; for a
 * bearer scheme the token (--token); for an API key in a header or cookie,
 * a -H header that carries it (the way to send a key before --credential);
 * else a well-formed placeholder, for targets that accept any.
 */
export function credentialFor(target: Target, scheme: SecuritySchemeModel): ResolvedCredential {
  const given = target.credentials?.find((c) => c.scheme === scheme.name);
  if (given) return { value: given.value, from: given.from };
  const kind = credentialKind(scheme);
  if (kind === 'bearer') return { value: target.token, ...(target.tokenFrom ? { from: target.tokenFrom } : {}) };
  if (kind === 'apiKey' && scheme.in === 'header') {
    const header = targetHeader(target, scheme.key!);
    if (header) return { value: header[1], from: `-H ${header[0]}` };
  }
  if (kind === 'apiKey' && scheme.in === 'cookie') {
    const cookie = targetHeader(target, 'cookie');
    const pair = cookie && cookiePairs(cookie[1]).find(([n]) => n === scheme.key);
    if (pair) return { value: pair[1], from: `-H ${cookie[0]}` };
  }
  return { value: kind === 'basic' ? PLACEHOLDER_BASIC : PLACEHOLDER_TOKEN };
}

/**
 * Whether the harness can send every scheme of an alternative: each of a
 * kind it knows, and at most one in the Authorization field (RFC 9110
 * §11.6.2: one set of credentials per field).
 */
export function sendable(alternative: readonly SecuritySchemeModel[]): boolean {
  return alternative.every((s) => credentialKind(s) !== undefined) && alternative.filter(inAuthorization).length <= 1;
}

/** Whether every credential of an alternative was given (none is a placeholder). */
function given(target: Target, alternative: readonly SecuritySchemeModel[]): boolean {
  return alternative.every((s) => credentialFor(target, s).from !== undefined);
}

/**
 * The alternative of `op`'s requirement the harness satisfies by default
 * (OpenAPI 3.1 §4.8.30: one alternative suffices). `security: []`: none
 * ([]). Where an empty alternative makes credentials optional, those of an
 * alternative whose credentials were all given, else none. Otherwise the
 * first alternative whose credentials were all given, else the first the
 * harness can send (with placeholders); undefined when it can send none.
 */
export function defaultAlternative(target: Target, op: OperationModel): SecuritySchemeModel[] | undefined {
  const alternatives = op.security.filter((a) => a.length > 0);
  if (alternatives.length === 0) return [];
  const usable = alternatives.filter(sendable);
  const complete = usable.find((a) => given(target, a));
  if (op.security.some((a) => a.length === 0)) return complete ?? [];
  return complete ?? usable[0];
}

/** The credentials of an alternative as the harness sends them to `target`. */
export function credentialsOf(target: Target, alternative: readonly SecuritySchemeModel[]): SentCredential[] {
  return alternative.map((scheme) => ({ scheme, value: credentialFor(target, scheme).value }));
}

/** The credentials `op` is sent with by default (defaultAlternative); none when the harness can send no alternative. */
export function defaultCredentials(target: Target, op: OperationModel): SentCredential[] {
  return credentialsOf(target, defaultAlternative(target, op) ?? []);
}

/** RFC 6265 §4.1.1: cookie-octet, the characters a cookie value may hold unquoted. */
const COOKIE_OCTETS = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

/** Where a credential goes: the Authorization value, or a header, query parameter or cookie by name. */
export function credentialField(c: SentCredential): { in: 'header' | 'query' | 'cookie'; name: string; value: string } {
  const kind: CredentialKind | undefined = credentialKind(c.scheme);
  if (kind === 'bearer') return { in: 'header', name: 'authorization', value: `Bearer ${c.value}` };
  if (kind === 'basic')
    return { in: 'header', name: 'authorization', value: `Basic ${Buffer.from(c.value, 'utf8').toString('base64')}` };
  if (kind === 'apiKey' && c.scheme.in === 'header') return { in: 'header', name: c.scheme.key!, value: c.value };
  if (kind === 'apiKey') return { in: c.scheme.in!, name: c.scheme.key!, value: c.value };
  throw new Error(`the harness cannot send credentials of ${c.scheme.type} (scheme ${c.scheme.name})`);
}

/** The path with a query parameter added. */
function withQuery(path: string, name: string, value: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}

/** The request with these credentials added where each goes (a cookie joins the Cookie field's pairs). */
export function withCredentials(req: RequestSpec, credentials: readonly SentCredential[]): RequestSpec {
  let path = req.path;
  const headers = { ...req.headers };
  for (const c of credentials) {
    const field = credentialField(c);
    if (field.in === 'query') path = withQuery(path, field.name, field.value);
    else if (field.in === 'header') headers[field.name.toLowerCase()] = field.value;
    else {
      const value = COOKIE_OCTETS.test(field.value) ? field.value : encodeURIComponent(field.value);
      const cookie = Object.keys(headers).find((h) => h.toLowerCase() === 'cookie');
      const pair = `${field.name}=${value}`;
      if (cookie) headers[cookie] = `${headers[cookie]}; ${pair}`;
      else headers.cookie = pair;
    }
  }
  return { ...req, path, headers };
}

/** The names a credential of these schemes travels under: header names (lower case), query parameters, cookies. */
function carriers(schemes: readonly SecuritySchemeModel[]): {
  headers: Set<string>;
  query: Set<string>;
  cookies: Set<string>;
} {
  const out = { headers: new Set<string>(), query: new Set<string>(), cookies: new Set<string>() };
  for (const s of schemes) {
    if (inAuthorization(s)) out.headers.add('authorization');
    else if (credentialKind(s) === 'apiKey') {
      if (s.in === 'header') out.headers.add(s.key!.toLowerCase());
      else if (s.in === 'query') out.query.add(s.key!);
      else out.cookies.add(s.key!);
    }
  }
  return out;
}

/**
 * The request without any credential of these schemes (every scheme the
 * document declares, for "no credentials"): no Authorization, no API key
 * header, query parameter or cookie.
 */
export function withoutCredentials(req: RequestSpec, schemes: readonly SecuritySchemeModel[]): RequestSpec {
  const c = carriers([...schemes, { name: '', type: 'http', scheme: 'bearer', scopes: [] }]);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    const lower = name.toLowerCase();
    if (c.headers.has(lower)) continue;
    if (lower === 'cookie') {
      const kept = cookiePairs(value).filter(([n]) => !c.cookies.has(n));
      if (kept.length > 0) headers[name] = kept.map(([n, v]) => `${n}=${v}`).join('; ');
      continue;
    }
    headers[name] = value;
  }
  const [path, query] = splitQuery(req.path);
  const keptQuery =
    query === undefined
      ? undefined
      : query
          .split('&')
          .filter((pair) => !c.query.has(decodeQueryName(pair)))
          .join('&');
  return { ...req, path: keptQuery ? `${path}?${keptQuery}` : path, headers };
}

function splitQuery(path: string): [string, string | undefined] {
  const q = path.indexOf('?');
  return q === -1 ? [path, undefined] : [path.slice(0, q), path.slice(q + 1)];
}

function decodeQueryName(pair: string): string {
  const name = pair.split('=')[0]!;
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * The target's own headers (-H) added to a request: every one but those
 * that carry a credential of a scheme the document declares (an API key
 * header, an API key cookie), which a request carries itself where it means
 * to (credentialFor reads them from -H where no --credential names the
 * scheme), so that a request without credentials has none. A -H Cookie
 * joins the request's own cookies.
 */
export function withTargetHeaders(
  req: RequestSpec,
  extra: Readonly<Record<string, string>>,
  schemes: readonly SecuritySchemeModel[],
): RequestSpec {
  const entries = Object.entries(extra);
  if (entries.length === 0) return req;
  const c = carriers(schemes);
  const headers = { ...req.headers };
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (c.headers.has(lower)) continue;
    if (lower === 'cookie') {
      const kept = cookiePairs(value).filter(([n]) => !c.cookies.has(n));
      if (kept.length === 0) continue;
      const own = Object.keys(headers).find((h) => h.toLowerCase() === 'cookie');
      const text = kept.map(([n, v]) => `${n}=${v}`).join('; ');
      if (own) headers[own] = `${headers[own]}; ${text}`;
      else headers[name] = text;
      continue;
    }
    // Another header of the same name in other letters: the -H one wins, as it always has.
    for (const h of Object.keys(headers)) if (h.toLowerCase() === lower && h !== name) delete headers[h];
    headers[name] = value;
  }
  return { ...req, headers };
}

/**
 * The credentials of a request to `op` by what a check asks: `credentials`
 * as given (null: none of any scheme); else `auth` null: none; `auth` a
 * string: it as the Authorization value, beside the default alternative's
 * credentials that go elsewhere (an API key); else the default credentials.
 */
export function requestCredentials(
  target: Target,
  op: OperationModel,
  req: RequestSpec,
  opts: { auth?: string | null; credentials?: readonly SentCredential[] | null },
): RequestSpec {
  if (opts.credentials !== undefined) {
    const out = withCredentials(req, opts.credentials ?? []);
    return typeof opts.auth === 'string' ? { ...out, headers: { ...out.headers, authorization: opts.auth } } : out;
  }
  if (opts.auth === null) return req;
  if (opts.auth === undefined) return withCredentials(req, defaultCredentials(target, op));
  const elsewhere = defaultCredentials(target, op).filter((c) => !inAuthorization(c.scheme));
  const out = withCredentials(req, elsewhere);
  return { ...out, headers: { ...out.headers, authorization: opts.auth } };
}

/**
 * The schemes whose credential the requests to `target` carry as a
 * placeholder (none was given), each with the operations that need it in
 * the alternative they are sent with: what to warn of where some
 * credential was given, so that a target that checks them does not refuse
 * those requests for a credential the user forgot.
 */
export function placeholderSchemes(
  target: Target,
  operations: readonly OperationModel[],
): Array<{ scheme: SecuritySchemeModel; operations: string[] }> {
  const out = new Map<string, { scheme: SecuritySchemeModel; operations: string[] }>();
  for (const op of operations)
    for (const s of defaultAlternative(target, op) ?? [])
      if (credentialFor(target, s).from === undefined) {
        const entry = out.get(s.name) ?? { scheme: s, operations: [] };
        entry.operations.push(`${op.method} ${op.path}`);
        out.set(s.name, entry);
      }
  return [...out.values()];
}

/**
 * A request built by hand (a read of an id, a page of a list) with the
 * credentials of the operation it goes to, as createRequest and
 * operationCall give theirs: an operation's credentials are not always an
 * Authorization value (an API key, a cookie), so a hand-built request does
 * not take `ctx.auth()`. Unchanged where it goes to no declared operation.
 */
export function withOperationCredentials(model: SpecModel, target: Target, req: RequestSpec): RequestSpec {
  const op = operationOf(model, req);
  return op ? withCredentials(req, defaultCredentials(target, op)) : req;
}
