// What a request presents for each kind of credential, read as the RFCs
// write it: the Authorization header's scheme and credentials (RFC 9110
// §11.4), a bearer token (RFC 6750 §2.1), Basic's user-id and password
// (RFC 7617 §2), and an API key in a header, a query parameter or a cookie
// (RFC 6265 §4.2.1, §5.4).
import type { FastifyRequest } from 'fastify';
import { isB64Token, TOKEN } from '../../lib/http-syntax.js';
import type { KeyLocation } from './schemes.js';

// RFC 9110 §11.4: credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
// RFC 9110 §11.1: auth-scheme = token, case-insensitive.
const SCHEME = new RegExp(TOKEN.source.replace(/\$$/, '')); // a token at the start of the header
const AFTER_SCHEME = /^ +(.*)$/s;

/** The Authorization header split into its scheme (lower case) and what follows it (undefined: nothing, or not after 1*SP). */
export interface Authorization {
  scheme: string | undefined;
  credentials: string | undefined;
}

export function authorizationOf(header: string): Authorization {
  const scheme = SCHEME.exec(header)?.[0];
  if (scheme === undefined) return { scheme: undefined, credentials: undefined };
  return { scheme: scheme.toLowerCase(), credentials: AFTER_SCHEME.exec(header.slice(scheme.length))?.[1] };
}

/** RFC 6750 §2.1: the token of `Bearer <token>` is a b64token; else undefined. */
export function bearerToken(credentials: string | undefined): string | undefined {
  return credentials !== undefined && isB64Token(credentials) ? credentials : undefined;
}

// RFC 7617 §2: the credentials are the base64 (RFC 4648 §4) of user-id ":" password.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// RFC 7617 §2: the user-id and the password MUST NOT contain control characters (RFC 5234 CTL).
const CONTROL = /[\u0000-\u001f\u007f]/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The `user-id:password` of `Basic <credentials>`, decoded as UTF-8 (the
 * charset the challenge announces, RFC 7617 §2.1); undefined when it is not
 * the base64 of a user-id, a colon and a password without control characters.
 */
export function basicPair(credentials: string | undefined): string | undefined {
  if (credentials === undefined || credentials === '' || !BASE64.test(credentials)) return undefined;
  let pair: string;
  try {
    pair = UTF8.decode(Buffer.from(credentials, 'base64'));
  } catch {
    return undefined; // not UTF-8
  }
  return pair.includes(':') && !CONTROL.test(pair) ? pair : undefined;
}

/** Whether `pair` can be configured as Basic credentials: a user-id, a colon, a password, no control characters. */
export function isBasicPair(pair: string): boolean {
  return pair.includes(':') && !CONTROL.test(pair);
}

/** An API key as the request presents it: absent, given more than once, or its text. */
export type PresentedKey = { absent: true } | { repeated: number } | { key: string };

const ABSENT: PresentedKey = { absent: true };

/** The API key in `location` under `name` (a header's name in lower case). */
export function presentedKey(request: FastifyRequest, location: KeyLocation, name: string): PresentedKey {
  // Own properties only, and strings: a key the document names `__proto__` finds nothing inherited.
  if (location === 'header') {
    const value = Object.hasOwn(request.headers, name) ? request.headers[name] : undefined;
    if (Array.isArray(value)) return value.length === 1 ? { key: value[0]!.trim() } : { repeated: value.length };
    return typeof value === 'string' ? { key: value.trim() } : ABSENT;
  }
  if (location === 'query') {
    // Fastify's query parser has percent-decoded the value (and read `+` as a space).
    const query = (request.query ?? {}) as Record<string, unknown>;
    const value = Object.hasOwn(query, name) ? query[name] : undefined;
    if (Array.isArray(value)) return { repeated: value.length };
    return typeof value === 'string' ? { key: value } : ABSENT;
  }
  return cookieValue(request.headers.cookie, name);
}

/**
 * RFC 6265 §5.4: the Cookie header is cookie-pairs separated by "; ";
 * §4.1.1: cookie-value = *cookie-octet / ( DQUOTE *cookie-octet DQUOTE ),
 * the quotes not part of the value as the key is configured. A name given
 * twice (two cookies of one name from different paths or domains) is
 * repeated: which one is meant cannot be told.
 */
export function cookieValue(header: string | undefined, name: string): PresentedKey {
  if (header === undefined) return ABSENT;
  const found: string[] = [];
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1 || pair.slice(0, equals).trim() !== name) continue;
    const value = pair.slice(equals + 1).trim();
    found.push(value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value);
  }
  if (found.length === 0) return ABSENT;
  return found.length === 1 ? { key: found[0]! } : { repeated: found.length };
}

/** RFC 6265 §4.1.1: cookie-octet = %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E. */
export const COOKIE_OCTETS = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]+$/;

/** RFC 9110 §5.5: a field value is visible characters, spaces and tabs, without white space at either end. */
export const FIELD_VALUE = /^[\x21-\x7E\x80-\xFF](?:[\x20-\x7E\x80-\xFF\t]*[\x21-\x7E\x80-\xFF])?$/;
