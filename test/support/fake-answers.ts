// The fake server's answers (JSON with its content type, the error body of
// the errorBodyWrongShape mutant) and its credential check, with the
// switches that break them (test/support/fake-mutations.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isB64Token } from '../../lib/http-syntax.js';
import type { FakeOptions, Mutations } from './fake-mutations.js';

/** JSON text sent as it is written (numbers kept as the server holds them). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** The document's Error record, or the shape a mutant gives errors instead. */
function errorPayload(status: number, o: Mutations, body: Record<string, unknown>): unknown {
  if (o.errorBodyWrongShape && status === 400) return { code: body.error, msg: body.message };
  if (o.problemJsonUndeclared && status !== 400) return { type: 'about:blank', title: String(body.message), status };
  if (o.errorCodeBeyondInt32) return { ...body, error: Number(body.error) * 100_000 };
  return body;
}

/** The content type of an answer: the declared one, or a mutant's. */
function contentTypeOf(status: number, o: Mutations): string {
  if (o.wrongContentType) return 'text/plain';
  if (status >= 400 && (o.problemJsonErrors || (o.problemJsonUndeclared && status !== 400)))
    return 'application/problem+json';
  return 'application/json; charset=utf-8';
}

export function send(
  res: ServerResponse,
  status: number,
  o: Mutations,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload =
    status >= 400 && body !== null && typeof body === 'object' && 'error' in body
      ? errorPayload(status, o, body)
      : body;
  const text = payload instanceof RawJson ? payload.text : JSON.stringify(payload);
  res.writeHead(status, { 'content-type': contentTypeOf(status, o), ...headers });
  res.end(text);
}

/** The challenge of a refusal of credentials, as the mutants write it. */
function challengeOf(o: Mutations, code: string | undefined, scheme: string | undefined): string {
  if (o.challengeForScheme && scheme !== undefined && scheme.toLowerCase() !== 'bearer')
    return `${scheme} realm="plantstore"`;
  if (o.bareBearerChallenge) return 'Bearer';
  if (o.malformedChallenge) return 'Bearer realm=Plant Store';
  return `Bearer realm="plantstore"${code ? `, error="${code}"` : ''}`;
}

function unauthorized(
  res: ServerResponse,
  o: Mutations,
  error: number,
  message: string,
  code?: string,
  scheme?: string,
): void {
  send(
    res,
    o.credentials403 ? 403 : 401,
    o,
    { error, message },
    o.noWwwAuthenticate ? {} : { 'www-authenticate': challengeOf(o, code, scheme) },
  );
}

/** A malformed or empty token: 401 invalid_token, or a mutant's 400 invalid_request (RFC 6750 §3.1 allows it), with or without its challenge. */
function malformedToken(res: ServerResponse, o: Mutations): void {
  if (o.malformedToken400 || o.malformedToken400Bare) {
    return send(
      res,
      400,
      o,
      { error: 40007, message: 'Malformed bearer token.' },
      o.malformedToken400Bare ? {} : { 'www-authenticate': 'Bearer realm="plantstore", error="invalid_request"' },
    );
  }
  unauthorized(res, o, 40103, 'Malformed bearer token.', 'invalid_token');
}

/** undefined when the credentials are good, else it has answered. */
/** A field looked up by the exact names given, as a server that forgets RFC 9110 §5.1 would. */
function rawField(req: IncomingMessage, names: string[]): string | undefined {
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    if (names.includes(req.rawHeaders[i]!)) return req.rawHeaders[i + 1];
  return undefined;
}

function knownToken(o: FakeOptions, token: string): boolean {
  return o.tokens!.some(
    (t) =>
      t === token ||
      (o.tokenPrefixMatch && token.startsWith(t)) ||
      (o.tokenIsPrefixOfKnown && token !== '' && t.startsWith(token)) ||
      (o.tokenIgnoreCase && t.toLowerCase() === token.toLowerCase()),
  );
}

export function checkAuth(o: FakeOptions, req: IncomingMessage, res: ServerResponse): boolean {
  const h = o.exactFieldNames ? rawField(req, ['authorization', 'Authorization']) : req.headers.authorization;
  if (h === undefined) {
    if (o.noAuth) return true;
    unauthorized(res, o, 40101, 'Missing credentials.');
    return false;
  }
  // The spaces after the scheme: any number; one (oneSpaceAfterBearer) or up to two (upToTwoSpaces), the rest kept in the token.
  const spaces = o.oneSpaceAfterBearer ? / / : o.upToTwoSpaces ? / {1,2}/ : / +/;
  const m = new RegExp(`^(\\S+)(?:${spaces.source}(.*))?$`).exec(h.trim());
  const scheme = m?.[1] ?? '';
  const token = o.oneSpaceAfterBearer || o.upToTwoSpaces ? (m?.[2] ?? '') : (m?.[2] ?? '').trim();
  const isBearer = o.lowercaseBearerRejected
    ? scheme === 'Bearer'
    : o.schemeCaseList
      ? ['Bearer', 'bearer', 'BEARER'].includes(scheme)
      : scheme.toLowerCase() === 'bearer';
  if (!isBearer) {
    if (o.acceptAnyScheme && scheme.toLowerCase() === 'basic') return true;
    if (o.acceptTokenAnyScheme && m?.[2] !== undefined && knownToken(o, m[2].trim())) return true;
    if (o.acceptBareToken && m?.[2] === undefined && knownToken(o, scheme)) return true;
    unauthorized(res, o, 40102, 'Unsupported authentication scheme.', undefined, scheme);
    return false;
  }
  if ((token === '' && !o.acceptEmptyToken) || (token !== '' && !isB64Token(token) && !o.acceptMalformedToken)) {
    malformedToken(res, o);
    return false;
  }
  if (
    o.tokens &&
    !o.acceptAnyToken &&
    !knownToken(o, token) &&
    !(o.acceptEmptyToken && token === '') &&
    !(o.acceptMalformedToken && !isB64Token(token))
  ) {
    unauthorized(res, o, 40104, 'Unknown token.', 'invalid_token');
    return false;
  }
  return true;
}
