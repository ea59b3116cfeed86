// A small, configurable Plant Store server for the harness's own tests. It
// does not import server/: its baseline follows the behaviour table of
// docs/server.md, and each switch breaks exactly one rule, so that a test
// can show that the check for that rule grades `fail` (or `non-strict`).
// The small rules it shares (b64token, media types, the int64 range) come
// from lib/ and spec/; a switch that breaks one does so in the open.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { checkAuth, send } from './fake-answers.js';
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
  hangGet?: boolean; // GET on the operation path never answered (the harness must time out, not hang)
  truncateLongStrings?: boolean; // names and tags over 100 characters stored cut to 100
  tabAndCrNotWhitespace?: boolean; // only space and LF skipped between tokens
  idFirstOnly?: boolean; // a body whose first member is not the id refused (a hand-rolled reader)
  undecodedEscapes?: boolean; // \uXXXX and \/ kept as written in names and values
  exactMediaType?: boolean; // Content-Type compared as the string "application/json"
  decodeEachChunk?: boolean; // each piece of the body decoded as UTF-8 on its own
  lengthRequired?: boolean; // a body without Content-Length answered 411
  exactFieldNames?: boolean; // the Authorization field looked up as written: "authorization" or "Authorization"
  oneSpaceAfterBearer?: boolean; // "Bearer" then exactly one space
  tokenPrefixMatch?: boolean; // a token that starts with a known one accepted
  tokenIgnoreCase?: boolean; // tokens compared in any letter case
  fatalOnBadUtf8?: boolean; // a body that is not UTF-8 answered 500
  dropDeepNesting?: boolean; // nesting beyond 1 000 closes the connection
  deepNesting500?: boolean; // nesting beyond 1 000 answered 500
  charsetCrash?: boolean; // a charset other than utf-8 answered 500 (an unknown decoder)
  hangOnDeepNesting?: boolean; // nesting beyond 1 000 never answered (the connection stays open)
  storeBeforeValidate?: boolean; // the id is stored before the rest of the body is checked
  raceDuplicates?: boolean; // the duplicate check and the insert are apart in time
  otherMethods500?: boolean; // other methods on /plants answered 500
  extraOperations?: boolean; // GET /plants lists, DELETE /plants/{id} deletes (a correct server with more operations)
  status201?: boolean; // a valid create answered 201 (with the Plant) instead of the declared 200
  bareBearerChallenge?: boolean; // WWW-Authenticate: Bearer, with no auth-param (RFC 6750 §3)
  strictAccept?: boolean; // 406 unless Accept is absent or exactly application/json
  refuseNul?: boolean; // a string holding U+0000 refused (a text column that cannot hold NUL)
}

export interface FakeOptions extends Mutations {
  tokens?: string[];
  /** A path prefix the API lives under, e.g. `/api/v1` (a deployed server behind a gateway). */
  prefix?: string;
  /** An API gateway before the server that lets through only requests with this header (else 403 {"message":"Forbidden"}, as AWS API Gateway answers). */
  gatewayHeader?: { name: string; value: string };
  /** The loopback port to listen on (default: one the system picks). */
  port?: number;
}

export type Mutation = keyof Mutations;

export interface FakeServer {
  url: string;
  /** Requests received so far. */
  requests(): number;
  close(): Promise<void>;
}

export async function startFake(opts: FakeOptions = {}): Promise<FakeServer> {
  const store = new Set<string>();
  let received = 0;
  const server: Server = createServer((req, res) => {
    received++;
    handle(opts, store, req, res).catch(() => send(res, 500, opts, { error: 50001, message: 'Internal server error.' }));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage, decodeEachChunk = false): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > 1024 * 1024) throw new Error('too large');
    chunks.push(c);
  }
  return decodeEachChunk ? Buffer.from(chunks.map((c) => c.toString('utf8')).join(''), 'utf8') : Buffer.concat(chunks);
}

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings not counted). */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}

async function handle(o: FakeOptions, store: Set<string>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (o.gatewayHeader && req.headers[o.gatewayHeader.name.toLowerCase()] !== o.gatewayHeader.value) {
    req.resume();
    res.writeHead(403, { 'content-type': 'application/json' });
    return void res.end('{"message":"Forbidden"}');
  }
  let path = (req.url ?? '/').split('?')[0]!;
  if (o.prefix) path = path.startsWith(`${o.prefix}/`) ? path.slice(o.prefix.length) : '/__outside_prefix__';
  if (o.extraOperations && /^\/plants\/[^/]+$/.test(path) && req.method === 'DELETE') {
    if (!checkAuth(o, req, res)) return;
    const id = path.slice('/plants/'.length);
    if (!store.delete(id)) return send(res, 404, o, { error: 40401, message: 'Not found.' });
    res.writeHead(204);
    return void res.end();
  }
  if (path !== '/plants') {
    if (o.unknownPath200) return send(res, 200, o, { name: 'anything' });
    return send(res, 404, o, { error: 40401, message: 'Not found.' });
  }
  if (req.method !== 'POST') {
    if (o.hangGet && req.method === 'GET') return; // closed by close() through closeAllConnections
    if (o.extraOperations && req.method === 'GET') {
      if (!checkAuth(o, req, res)) return;
      return send(res, 200, o, [...store].map((id) => ({ id })));
    }
    if (o.otherMethods500) return send(res, 500, o, { error: 50001, message: 'Internal server error.' });
    if (o.no405) return send(res, 404, o, { error: 40401, message: 'Not found.' });
    return send(res, 405, o, { error: 40501, message: 'Method not allowed.' }, o.no405Allow ? {} : { allow: o.extraOperations ? 'GET, POST' : 'POST' });
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
  if (o.strictAccept && req.headers.accept !== undefined && req.headers.accept !== 'application/json') {
    return send(res, 406, o, { error: 40601, message: 'Only application/json is produced.' });
  }
  const contentType = req.headers['content-type'];
  // The mutant hands the charset to a decoder that does not know it, and lets the error escape.
  const charset = /;\s*charset=([^;]*)/i.exec(contentType ?? '')?.[1];
  if (o.charsetCrash && charset !== undefined && charset.toLowerCase() !== 'utf-8') new TextDecoder(charset.replace(/"/g, '') === 'iso-8859-1' ? 'x-unknown' : charset);
  const media = o.exactMediaType ? (contentType === 'application/json' ? contentType : undefined) : mediaTypeEssence(contentType);
  if (o.lengthRequired && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined) {
    return send(res, 411, o, { error: 41101, message: 'Content-Length required.' });
  }
  const raw = await readBody(req, o.decodeEachChunk);
  if (!o.ignoreContentType && raw.length > 0 && media !== 'application/json') {
    return send(res, 415, o, { error: 41501, message: 'Content-Type must be application/json.' });
  }
  return createPlant(o, store, res, raw, invalid);
}

/** The create rule on a body that passed the credential and content-type checks. */
/**
 * The raceDuplicates mutant's window between its duplicate check and its
 * insert: a create waits there until another create of the same id has
 * passed the check too (then both insert: the race is lost, whatever the
 * scheduler does), or RACE_HOLD_MS passes for a create that has no twin in
 * flight (a create sent alone).
 */
const RACE_HOLD_MS = 5000;
const raceWaiting = new Map<string, () => void>();

function raceWindow(id: string): Promise<void> {
  const twin = raceWaiting.get(id);
  if (twin) {
    raceWaiting.delete(id);
    twin();
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const release = () => {
      clearTimeout(timer);
      if (raceWaiting.get(id) === release) raceWaiting.delete(id);
      resolve();
    };
    const timer = setTimeout(release, RACE_HOLD_MS);
    raceWaiting.set(id, release);
  });
}

async function createPlant(o: FakeOptions, store: Set<string>, res: ServerResponse, raw: Buffer, invalid: (error: number, message: string) => void): Promise<void> {
  if (raw.length === 0) {
    if (o.emptyBodyOk) return send(res, 200, o, { name: '' });
    return invalid(40002, 'Request body is required.');
  }
  if (!o.latin1Body) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch (error) {
      // The mutant lets the decoder's error escape: handle() answers 500.
      if (o.fatalOnBadUtf8) throw error;
      return invalid(40001, 'Request body is not UTF-8.');
    }
  }
  const text = o.latin1Body ? raw.toString('latin1') : raw.toString('utf8');
  if ((o.dropDeepNesting || o.deepNesting500 || o.hangOnDeepNesting) && nestingDepth(text) > 1000) {
    if (o.dropDeepNesting) return void res.socket?.destroy();
    if (o.hangOnDeepNesting) return; // closed by close() through closeAllConnections
    return send(res, 500, o, { error: 50001, message: 'Internal server error.' });
  }
  let body: Json;
  try {
    body = parseJson(text, !!o.acceptTrailingGarbage, { whitespace: o.tabAndCrNotWhitespace ? ' \n' : undefined, rawStrings: o.undecodedEscapes });
  } catch {
    if (o.acceptMalformed) return send(res, 200, o, { name: '' });
    return invalid(40001, 'Request body is not JSON.');
  }
  if (o.unwrapArray && Array.isArray(body) && body.length === 1) body = body[0]!;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || body instanceof Num) {
    return invalid(40003, 'Request body is not a valid NewPlant: / must be object.');
  }
  const fields = body as { [k: string]: Json };
  if (o.idFirstOnly && Object.keys(fields)[0] !== 'id') return invalid(40003, 'Request body is not a valid NewPlant: id must come first.');
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
  if (o.refuseNul && [name, tag].some((v) => v?.includes('\u0000'))) problems.push('/name must not contain U+0000');
  if (o.requireTag && tag === undefined) problems.push("/ must have required property 'tag'");
  if (o.rejectEmptyName && name === '') problems.push('/name must not be empty');
  if (o.nameMaxLength && name !== undefined && name.length > 100) problems.push('/name is too long');
  if (o.rejectUnknownProps) for (const k of Object.keys(fields)) if (!['id', 'name', 'tag'].includes(k)) problems.push(`/${k} is not allowed`);
  const duplicate = () => send(res, 400, o, { error: 40004, message: `A plant with id ${id} already exists.` });
  if (o.storeBeforeValidate && id !== undefined) {
    if (store.has(id)) return duplicate();
    store.add(id);
  }
  if (problems.length > 0) return invalid(40003, `Request body is not a valid NewPlant: ${problems.join(', ')}.`);
  if (!o.storeBeforeValidate) {
    if (store.has(id!) && !o.duplicatesAccepted) return duplicate();
    if (o.raceDuplicates) await raceWindow(id!);
    store.add(id!);
  }
  const kept = (s: string) => (o.truncateLongStrings ? s.slice(0, 100) : s);
  const plant: Record<string, string> = { name: kept(name ?? '') };
  if (tag !== undefined && !o.dropTag) plant.tag = kept(tag);
  return send(res, o.status201 ? 201 : 200, o, plant);
}
