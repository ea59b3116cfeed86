// The fake server's answers (JSON with its content type, the error body of
// the errorBodyWrongShape mutant) and its credential check, with the
// switches that break them (test/support/fake-server.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isB64Token } from '../../lib/http-syntax.js';
import type { FakeOptions, Mutations } from './fake-server.js';

export function send(res: ServerResponse, status: number, o: Mutations, body: unknown, headers: Record<string, string> = {}): void {
  let payload = body as Record<string, unknown>;
  if (o.errorBodyWrongShape && status === 400) payload = { code: payload.error, msg: payload.message };
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': o.wrongContentType ? 'text/plain' : 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

function unauthorized(res: ServerResponse, o: Mutations, error: number, message: string, code?: string): void {
  const challenge = o.bareBearerChallenge ? 'Bearer' : `Bearer realm="plantstore"${code ? `, error="${code}"` : ''}`;
  send(res, 401, o, { error, message }, o.noWwwAuthenticate ? {} : { 'www-authenticate': challenge });
}

/** undefined when the credentials are good, else it has answered. */
/** A field looked up by the exact names given, as a server that forgets RFC 9110 §5.1 would. */
function rawField(req: IncomingMessage, names: string[]): string | undefined {
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) if (names.includes(req.rawHeaders[i]!)) return req.rawHeaders[i + 1];
  return undefined;
}

function knownToken(o: FakeOptions, token: string): boolean {
  return o.tokens!.some((t) => t === token || (o.tokenPrefixMatch && token.startsWith(t)) || (o.tokenIgnoreCase && t.toLowerCase() === token.toLowerCase()));
}

export function checkAuth(o: FakeOptions, req: IncomingMessage, res: ServerResponse): boolean {
  const h = o.exactFieldNames ? rawField(req, ['authorization', 'Authorization']) : req.headers.authorization;
  if (h === undefined) {
    if (o.noAuth) return true;
    unauthorized(res, o, 40101, 'Missing credentials.');
    return false;
  }
  const m = (o.oneSpaceAfterBearer ? /^(\S+)(?: (.*))?$/ : /^(\S+)(?: +(.*))?$/).exec(h.trim());
  const scheme = m?.[1] ?? '';
  const token = o.oneSpaceAfterBearer ? (m?.[2] ?? '') : (m?.[2] ?? '').trim();
  const isBearer = o.lowercaseBearerRejected ? scheme === 'Bearer' : scheme.toLowerCase() === 'bearer';
  if (!isBearer) {
    if (o.acceptAnyScheme && scheme.toLowerCase() === 'basic') return true;
    unauthorized(res, o, 40102, 'Unsupported authentication scheme.');
    return false;
  }
  if (token === '' && !o.acceptEmptyToken) {
    unauthorized(res, o, 40103, 'Malformed bearer token.', 'invalid_token');
    return false;
  }
  if (token !== '' && !isB64Token(token) && !o.acceptMalformedToken) {
    unauthorized(res, o, 40103, 'Malformed bearer token.', 'invalid_token');
    return false;
  }
  if (o.tokens && !o.acceptAnyToken && !knownToken(o, token) && !(o.acceptEmptyToken && token === '') && !(o.acceptMalformedToken && !isB64Token(token))) {
    unauthorized(res, o, 40104, 'Unknown token.', 'invalid_token');
    return false;
  }
  return true;
}

