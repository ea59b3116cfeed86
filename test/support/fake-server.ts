// A small, configurable Plant Store server for the harness's own tests. It
// does not import server/: its baseline follows the behaviour table of
// docs/server.md, and each switch breaks exactly one rule, so that a test
// can show that the check for that rule grades `fail` (or `non-strict`).
// The small rules it shares (b64token, media types, the int64 range) come
// from lib/ and spec/; a switch that breaks one does so in the open.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isB64Token, mediaTypeEssence } from '../../lib/http-syntax.js';
import { INT64_MAX, INT64_MIN } from '../../spec/formats.js';
import { exactInteger, Num, parseJson, type Json } from './exact-json.js';

export interface Mutations {
  coerceStrings?: boolean; // "7" read as 7, 42 read as "42"
  noWwwAuthenticate?: boolean; // 401 without WWW-Authenticate
  roundIds?: boolean; // ids parsed into doubles
  int53Ids?: boolean; // ids beyond ±(2^53-1) refused
  noInt64Bound?: boolean; // any integer accepted as an id
  truncateFractions?: boolean; // 1.5 read as 1
  rejectIntegralNumerals?: boolean; // 5.0 refused
  positiveIdsOnly?: boolean; // ids <= 0 refused
  acceptMissingName?: boolean;
  acceptNull?: boolean; // null read as absent
  unwrapArray?: boolean; // [plant] read as plant
  emptyBodyOk?: boolean; // no body answered 200
  acceptMalformed?: boolean; // a body that is not JSON answered 200
  acceptTrailingGarbage?: boolean; // text after the JSON value ignored
  ignoreContentType?: boolean;
  lowercaseBearerRejected?: boolean; // scheme compared case-sensitively
  noAuth?: boolean; // missing credentials accepted
  acceptAnyScheme?: boolean; // Basic accepted
  acceptEmptyToken?: boolean;
  acceptMalformedToken?: boolean;
  acceptAnyToken?: boolean; // token list ignored
  bodyBeforeAuth?: boolean; // body parsed before credentials are checked
  no405?: boolean; // other methods answered 404
  no405Allow?: boolean; // 405 without Allow
  unknownPath200?: boolean;
  duplicatesAccepted?: boolean;
  status422?: boolean; // invalid bodies answered 422 (with an Error body)
  errorBodyWrongShape?: boolean; // 400 bodies as { code, msg }
  wrongContentType?: boolean; // JSON answers labelled text/plain
  dropTag?: boolean; // the tag is not echoed
  latin1Body?: boolean; // body decoded as latin1
  rejectEmptyName?: boolean;
  nameMaxLength?: boolean; // names over 100 characters refused
  rejectUnknownProps?: boolean;
  requireTag?: boolean;
  hangOtherMethods?: boolean; // other methods never answered (the harness must time out, not hang)
  truncateLongStrings?: boolean; // names and tags over 100 characters stored cut to 100
}

export interface FakeOptions extends Mutations {
  tokens?: string[];
  /** A path prefix the API lives under, e.g. `/api/v1` (a deployed server behind a gateway). */
  prefix?: string;
}

export type Mutation = keyof Mutations;

export interface FakeServer {
  url: string;
  close(): Promise<void>;
}

export async function startFake(opts: FakeOptions = {}): Promise<FakeServer> {
  const store = new Set<string>();
  const server: Server = createServer((req, res) => {
    handle(opts, store, req, res).catch(() => send(res, 500, opts, { error: 50001, message: 'Internal server error.' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, o: Mutations, body: unknown, headers: Record<string, string> = {}): void {
  let payload = body as Record<string, unknown>;
  if (o.errorBodyWrongShape && status === 400) payload = { code: payload.error, msg: payload.message };
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': o.wrongContentType ? 'text/plain' : 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

function unauthorized(res: ServerResponse, o: Mutations, error: number, message: string, code?: string): void {
  const challenge = `Bearer realm="plantstore"${code ? `, error="${code}"` : ''}`;
  send(res, 401, o, { error, message }, o.noWwwAuthenticate ? {} : { 'www-authenticate': challenge });
}

/** undefined when the credentials are good, else it has answered. */
function checkAuth(o: FakeOptions, req: IncomingMessage, res: ServerResponse): boolean {
  const h = req.headers.authorization;
  if (h === undefined) {
    if (o.noAuth) return true;
    unauthorized(res, o, 40101, 'Missing credentials.');
    return false;
  }
  const m = /^(\S+)(?: +(.*))?$/.exec(h.trim());
  const scheme = m?.[1] ?? '';
  const token = (m?.[2] ?? '').trim();
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
  if (o.tokens && !o.acceptAnyToken && !o.tokens.includes(token) && !(o.acceptEmptyToken && token === '') && !(o.acceptMalformedToken && !isB64Token(token))) {
    unauthorized(res, o, 40104, 'Unknown token.', 'invalid_token');
    return false;
  }
  return true;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > 1024 * 1024) throw new Error('too large');
    chunks.push(c);
  }
  return Buffer.concat(chunks);
}

async function handle(o: FakeOptions, store: Set<string>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let path = (req.url ?? '/').split('?')[0]!;
  if (o.prefix) path = path.startsWith(`${o.prefix}/`) ? path.slice(o.prefix.length) : '/__outside_prefix__';
  if (path !== '/plants') {
    if (o.unknownPath200) return send(res, 200, o, { name: 'anything' });
    return send(res, 404, o, { error: 40401, message: 'Not found.' });
  }
  if (req.method !== 'POST') {
    if (o.hangOtherMethods) return; // closed by close() through closeAllConnections
    if (o.no405) return send(res, 404, o, { error: 40401, message: 'Not found.' });
    return send(res, 405, o, { error: 40501, message: 'Method not allowed.' }, o.no405Allow ? {} : { allow: 'POST' });
  }
  const invalidStatus = o.status422 ? 422 : 400;
  const invalid = (error: number, message: string) => send(res, invalidStatus, o, { error, message });
  if (o.bodyBeforeAuth) {
    const raw = await readBody(req);
    try {
      parseJson(raw.toString('utf8'), false);
    } catch {
      return invalid(40001, 'Request body is not JSON.');
    }
    if (!checkAuth(o, req, res)) return;
    return createPlant(o, store, res, raw, invalid);
  }
  if (!checkAuth(o, req, res)) return;
  const media = mediaTypeEssence(req.headers['content-type']);
  const raw = await readBody(req);
  if (!o.ignoreContentType && raw.length > 0 && media !== 'application/json') {
    return send(res, 415, o, { error: 41501, message: 'Content-Type must be application/json.' });
  }
  return createPlant(o, store, res, raw, invalid);
}

/** The create rule on a body that passed the credential and content-type checks. */
function createPlant(o: FakeOptions, store: Set<string>, res: ServerResponse, raw: Buffer, invalid: (error: number, message: string) => void): void {
  if (raw.length === 0) {
    if (o.emptyBodyOk) return send(res, 200, o, { name: '' });
    return invalid(40002, 'Request body is required.');
  }
  const text = o.latin1Body ? raw.toString('latin1') : raw.toString('utf8');
  let body: Json;
  try {
    body = parseJson(text, !!o.acceptTrailingGarbage);
  } catch {
    if (o.acceptMalformed) return send(res, 200, o, { name: '' });
    return invalid(40001, 'Request body is not JSON.');
  }
  if (o.unwrapArray && Array.isArray(body) && body.length === 1) body = body[0]!;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || body instanceof Num) {
    return invalid(40003, 'Request body is not a valid NewPlant: / must be object.');
  }
  const fields = body as { [k: string]: Json };
  if (o.acceptNull) for (const k of Object.keys(fields)) if (fields[k] === null) delete fields[k];
  const problems: string[] = [];
  // id
  let id: string | undefined;
  let idv = fields.id;
  if (o.coerceStrings && typeof idv === 'string' && /^-?\d+$/.test(idv)) idv = new Num(idv);
  if (idv === undefined) problems.push("/ must have required property 'id'");
  else if (!(idv instanceof Num)) problems.push('/id must be an integer (int64)');
  else if (o.roundIds) {
    const d = Number(idv.text);
    if (!Number.isInteger(d) || d < -(2 ** 63) || d > 2 ** 63) problems.push('/id must be an integer (int64)');
    else id = String(d);
  } else {
    let n = exactInteger(idv.text);
    if (n === undefined && o.truncateFractions) n = BigInt(Math.trunc(Number(idv.text)));
    if (n === undefined || (o.rejectIntegralNumerals && /[.eE]/.test(idv.text))) problems.push('/id must be an integer (int64)');
    else if (!o.noInt64Bound && (n < INT64_MIN || n > INT64_MAX)) problems.push('/id must be an integer (int64)');
    else if (o.int53Ids && (n > 2n ** 53n - 1n || n < -(2n ** 53n - 1n))) problems.push('/id must be a safe integer');
    else if (o.positiveIdsOnly && n <= 0n) problems.push('/id must be positive');
    else id = n.toString();
  }
  // strings
  const str = (k: string, required: boolean): string | undefined => {
    let v = fields[k];
    if (o.coerceStrings && v instanceof Num) v = v.text;
    if (v === undefined) {
      if (required && !o.acceptMissingName) problems.push(`/ must have required property '${k}'`);
      return undefined;
    }
    if (typeof v !== 'string') {
      problems.push(`/${k} must be a string`);
      return undefined;
    }
    return v;
  };
  const name = str('name', true);
  const tag = str('tag', false);
  if (o.requireTag && tag === undefined) problems.push("/ must have required property 'tag'");
  if (o.rejectEmptyName && name === '') problems.push('/name must not be empty');
  if (o.nameMaxLength && name !== undefined && name.length > 100) problems.push('/name is too long');
  if (o.rejectUnknownProps) for (const k of Object.keys(fields)) if (!['id', 'name', 'tag'].includes(k)) problems.push(`/${k} is not allowed`);
  if (problems.length > 0) return invalid(40003, `Request body is not a valid NewPlant: ${problems.join(', ')}.`);
  if (store.has(id!) && !o.duplicatesAccepted) {
    return send(res, 400, o, { error: 40004, message: `A plant with id ${id} already exists.` });
  }
  store.add(id!);
  const kept = (s: string) => (o.truncateLongStrings ? s.slice(0, 100) : s);
  const plant: Record<string, string> = { name: kept(name ?? '') };
  if (tag !== undefined && !o.dropTag) plant.tag = kept(tag);
  return send(res, 200, o, plant);
}
