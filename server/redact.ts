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
const AUTH_SCHEMES = new Set(
  ['basic', 'bearer', 'concealed', 'digest', 'dpop', 'gnap', 'hoba', 'mutual', 'negotiate', 'ntlm', 'oauth', 'privatetoken', 'scram-sha-1', 'scram-sha-256', 'vapid'],
);

/** Credentials keep a registered scheme and lose the rest (`Bearer <redacted>`); other credential headers are replaced whole. */
export function redactHeaders(headers: FastifyRequest['headers']): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || !CREDENTIAL_NAME.test(name)) out[name] = value;
    else if (name === 'authorization' || name === 'proxy-authorization') out[name] = Array.isArray(value) ? value.map(keepScheme) : keepScheme(value);
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
export function redactTarget(target: string): string {
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
      return CREDENTIAL_NAME.test(decodedName(name)) ? `${name}=${REDACTED}` : parameter;
    });
  return `${url.slice(0, query)}?${parameters.join('&')}`;
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name; // malformed percent-encoding: judged as written
  }
}
