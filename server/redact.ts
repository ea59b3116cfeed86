// Credentials out of what the server shows of a request: the stub's journal
// (its headers and request target) and the server's log (the request
// target). One set of rules for both, so neither shows what the other hides.
import type { FastifyRequest } from 'fastify';

export const REDACTED = '<redacted>';

/**
 * Names of headers and query parameters that carry credentials: anything
 * named like a token, key, secret, password, signature, session or cookie
 * (X-Api-Key, X-Auth-Token, access_token, client_secret, sig, ...).
 */
const CREDENTIAL_NAME = /token|key|secret|passw|pwd|auth|credential|session|cookie|signature|^sig$|jwt/i;

/**
 * Authentication schemes of the IANA registry (RFC 9110 §16.4), the only
 * first words an Authorization value keeps: anything else may be the secret
 * itself, sent without a scheme.
 */
const AUTH_SCHEMES = new Set([
  'basic',
  'bearer',
  'concealed',
  'digest',
  'dpop',
  'gnap',
  'hoba',
  'mutual',
  'negotiate',
  'ntlm',
  'oauth',
  'privatetoken',
  'scram-sha-1',
  'scram-sha-256',
  'vapid',
]);

/**
 * The names the document gives its API keys (security schemes of type
 * apiKey): a header (lower case), a query parameter or a cookie named so
 * carries a credential whatever its name looks like (`X-Plant`, `?k=`).
 */
export interface CredentialNames {
  header: readonly string[];
  query: readonly string[];
  cookie: readonly string[];
}

export const NO_NAMES: CredentialNames = { header: [], query: [], cookie: [] };

/** Credentials keep a registered scheme and lose the rest (`Bearer <redacted>`); other credential headers are replaced whole. */
export function redactHeaders(
  headers: FastifyRequest['headers'],
  names: CredentialNames = NO_NAMES,
): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || !(CREDENTIAL_NAME.test(name) || names.header.includes(name))) out[name] = value;
    else if (name === 'authorization' || name === 'proxy-authorization')
      out[name] = Array.isArray(value) ? value.map(keepScheme) : keepScheme(value);
    else out[name] = Array.isArray(value) ? value.map(() => REDACTED) : REDACTED;
  }
  return out;
}

function keepScheme(credentials: string): string {
  const scheme = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) /.exec(credentials)?.[1];
  return scheme !== undefined && AUTH_SCHEMES.has(scheme.toLowerCase()) ? `${scheme} ${REDACTED}` : REDACTED;
}

/**
 * The request target with the value of every credential-named query
 * parameter redacted (`?access_token=<redacted>`), and the user information
 * of an absolute-form target (`http://user:password@host/`).
 */
export function redactTarget(target: string, names: readonly string[] = []): string {
  // An origin-form target without a query (nearly every request, on the log's hot path) holds no credential.
  if (target.charCodeAt(0) === 0x2f && target.indexOf('?') === -1) return target;
  const url = target.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, `$1${REDACTED}@`);
  const query = url.indexOf('?');
  if (query === -1) return url;
  const parameters = url
    .slice(query + 1)
    .split('&')
    .map((parameter) => {
      const equals = parameter.indexOf('=');
      const name = equals === -1 ? parameter : parameter.slice(0, equals);
      const decoded = decodedName(name);
      return CREDENTIAL_NAME.test(decoded) || names.includes(decoded) ? `${name}=${REDACTED}` : parameter;
    });
  return `${url.slice(0, query)}?${parameters.join('&')}`;
}

/**
 * The credentials a URL carries, for redaction by value (valueRedactor):
 * the value of every query parameter redactTarget redacts by name, as
 * written and decoded, and the password and user name of its user
 * information. A webhook receiver's `?access_token=…` then never reaches the
 * log, whatever line would carry it.
 */
export function targetCredentials(target: string): string[] {
  const values: string[] = [];
  const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(target)?.[1];
  if (userinfo !== undefined) for (const part of userinfo.split(':')) values.push(part, decodedName(part));
  const query = target.indexOf('?');
  if (query === -1) return values.filter((value) => value !== '');
  for (const parameter of target
    .slice(query + 1)
    .split('#')[0]!
    .split('&')) {
    const equals = parameter.indexOf('=');
    if (equals === -1 || !CREDENTIAL_NAME.test(decodedName(parameter.slice(0, equals)))) continue;
    const value = parameter.slice(equals + 1);
    values.push(value, decodedName(value));
  }
  return values.filter((value) => value !== '');
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name; // malformed percent-encoding: judged as written
  }
}

/**
 * Secrets shorter than this are redacted where they are named only (headers,
 * query parameters): a shorter value cannot be told from ordinary text (a
 * token `t` would take every "t" of a journal with it).
 */
export const MIN_SECRET_LENGTH = 8;

/**
 * Replaces every occurrence of a secret's value with `<redacted>`, whatever
 * names it (a header `X-Bearer`, `Forwarded: by=…`, a query parameter
 * `?code=…`, a body): as sent, percent-encoded (either case of hex), and
 * with `/` JSON-escaped. Secrets shorter than MIN_SECRET_LENGTH are left to
 * the rules by name.
 */
export function valueRedactor(secrets: Iterable<string>): (text: string) => string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    const encoded = encodeURIComponent(secret);
    for (const form of [
      secret,
      encoded,
      encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
      secret.replace(/\//g, '\\/'),
    ])
      forms.add(form);
  }
  if (forms.size === 0) return (text) => text;
  // Longest first, so that a secret is not half replaced by a shorter one it contains.
  const alternatives = [...forms]
    .sort((a, b) => b.length - a.length)
    .map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(alternatives.join('|'), 'g');
  return (text) => (text.length < MIN_SECRET_LENGTH ? text : text.replace(pattern, REDACTED));
}

/**
 * The credentials a request presents itself (the token of its
 * Authorization, the value of each header named like a credential or as the
 * document names an API key, the document's API keys in its query and its
 * cookies): redacted by value wherever else they appear in what is shown of it.
 */
export function presentedCredentials(
  headers: FastifyRequest['headers'],
  names: CredentialNames = NO_NAMES,
  target = '',
): string[] {
  const values: string[] = [];
  if (names.query.length > 0 && target.includes('?')) {
    const query = new URLSearchParams(target.slice(target.indexOf('?') + 1));
    for (const name of names.query) values.push(...query.getAll(name));
  }
  const cookies = headers.cookie;
  if (names.cookie.length > 0 && typeof cookies === 'string') {
    for (const pair of cookies.split(';')) {
      const equals = pair.indexOf('=');
      if (equals !== -1 && names.cookie.includes(pair.slice(0, equals).trim()))
        values.push(pair.slice(equals + 1).trim());
    }
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || !(CREDENTIAL_NAME.test(name) || names.header.includes(name))) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      values.push(item);
      const afterScheme = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+ +(.+)$/.exec(item)?.[1];
      if (afterScheme !== undefined) values.push(afterScheme);
    }
  }
  return values;
}
