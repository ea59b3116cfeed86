// Bearer authentication (RFC 6750) for the API's operation.
import { isB64Token, TOKEN } from '../lib/http-syntax.js';
import { ApiError } from './errors.js';
import { acceptedValues } from './security/accepted.js';

export const REALM = 'plantstore';

// RFC 6750 §2.1: credentials = "Bearer" 1*SP b64token (isB64Token)
// RFC 9110 §11.1: auth-scheme = token, case-insensitive.
const SCHEME = new RegExp(TOKEN.source.replace(/\$$/, '')); // a token at the start of the header
const AFTER_SCHEME = /^ +(.*)$/s;

/** Decides whether a request's Authorization header is acceptable. */
export interface Authenticator {
  /** Throws an ApiError (401) when the credentials are missing, malformed or not accepted. */
  check(authorization: string | undefined): void;
  readonly restrictsTokens: boolean;
}

export function createAuthenticator(tokens: readonly string[] | undefined): Authenticator {
  // Compared in constant time (security/accepted.ts).
  const accepted = acceptedValues(tokens);
  const restrictsTokens = accepted.restricts;
  return {
    restrictsTokens,
    check(authorization) {
      if (authorization === undefined || authorization === '') {
        throw challenge('MISSING_CREDENTIALS');
      }
      const scheme = SCHEME.exec(authorization)?.[0];
      if (scheme === undefined || scheme.toLowerCase() !== 'bearer') {
        // RFC 6750 §3.1: a request that "attempted using an unsupported
        // authentication method" gets a challenge without an error code.
        throw challenge('UNSUPPORTED_SCHEME');
      }
      const token = AFTER_SCHEME.exec(authorization.slice(scheme.length))?.[1];
      if (token === undefined || !isB64Token(token)) throw challenge('MALFORMED_TOKEN', 'invalid_token');
      if (!accepted.accepts(token)) throw challenge('UNKNOWN_TOKEN', 'invalid_token');
    },
  };
}

function challenge(
  code: 'MISSING_CREDENTIALS' | 'UNSUPPORTED_SCHEME' | 'MALFORMED_TOKEN' | 'UNKNOWN_TOKEN',
  error?: string,
): ApiError {
  // RFC 6750 §3: a 401 carries WWW-Authenticate with the Bearer scheme.
  const value = error ? `Bearer realm="${REALM}", error="${error}"` : `Bearer realm="${REALM}"`;
  return new ApiError(code, undefined, { 'www-authenticate': value });
}
