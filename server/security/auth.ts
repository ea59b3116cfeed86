// A bearer token (RFC 6750) checked against one list of accepted tokens: the
// stub's controls and its Prefer guard (the admin token). The operations of
// the document check the credentials of every scheme they declare in
// security/check.ts.
import { ApiError } from '../http/errors.js';
import { acceptedValues } from './accepted.js';
import { authorizationOf, bearerToken } from './presented.js';

/** The realm of every challenge (RFC 9110 §11.5): one protection space, the API and its stub. */
export const REALM = 'plantstore';

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
      // RFC 6750 §2.1: credentials = "Bearer" 1*SP b64token; RFC 9110 §11.1: the scheme is case-insensitive.
      const { scheme, credentials } = authorizationOf(authorization);
      if (scheme !== 'bearer') {
        // RFC 6750 §3.1: a request that "attempted using an unsupported
        // authentication method" gets a challenge without an error code.
        throw challenge('UNSUPPORTED_SCHEME');
      }
      const token = bearerToken(credentials);
      if (token === undefined) throw challenge('MALFORMED_TOKEN', 'invalid_token');
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
