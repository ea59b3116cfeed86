// A small, configurable Plant Store server for the harness's own tests. It
// does not import server/: its baseline follows the behaviour table of
// docs/server.md, and each switch breaks exactly one rule, so that a test
// can show that the check for that rule grades `fail` (or `non-strict`).
// The small rules it shares (b64token, media types, the int64 range) come
// from lib/ and spec/; a switch that breaks one does so in the open.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { checkAuth, RawJson, send } from './fake-answers.js';
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
  // The wrong-reason mutants (test/support/mutants.ts WRONG_REASON_MUTANTS): each breaks a rule in a
  // way a naive check is fooled by, and the allowed choices (ALLOWED_CHOICES) a correct server makes.
  doubleIds?: boolean; // ids read as JavaScript doubles (Number), any integral double accepted, stored and named as the double prints
  signDropped?: boolean; // the id's digits read without its sign
  idByParseInt?: boolean; // an id numeral read as its integer prefix (parseInt: 50e-1 is 50)
  zeroIdMissing?: boolean; // the id 0 read as no id (a truthiness test)
  zeroValueIds?: boolean; // a missing or null id read as 0 (Go's zero value, Jackson's primitive long)
  booleanIds?: boolean; // a boolean id read as 0 or 1
  staticExample?: boolean; // a valid create answered 200 with the document's example, not the plant sent (a mock)
  nullForUnsentTag?: boolean; // an unsent tag echoed as null (a nullable column)
  dropEmptyStrings?: boolean; // a string field holding "" not echoed (a truthiness test)
  dropLongTag?: boolean; // a tag over 255 characters silently not stored nor echoed
  normalizeNfc?: boolean; // strings stored in Unicode normalization form C
  refuseProtoNames?: boolean; // a body with a member named __proto__ or constructor refused
  stripWhitespaceEverywhere?: boolean; // every space, tab, CR and LF removed before parsing, inside strings too
  stringsByPosition?: boolean; // name and tag read as the first and second string member, whatever their names
  undecodedEscapedNames?: boolean; // escapes decoded in values, not in member names
  malformedChallenge?: boolean; // WWW-Authenticate: Bearer realm=Plant Store (RFC 9110 §11.6.1 cannot parse it)
  challengeForScheme?: boolean; // another scheme refused with a challenge of that scheme (Basic realm=…), no Bearer
  malformedToken400Bare?: boolean; // an empty or malformed token answered 400 without WWW-Authenticate
  schemeCaseList?: boolean; // the scheme accepted as Bearer, bearer or BEARER only
  tokenIsPrefixOfKnown?: boolean; // a token that a known one starts with accepted
  parseError401?: boolean; // with bodyBeforeAuth: a body that is not JSON answered 401 without a challenge
  upToTwoSpaces?: boolean; // one or two spaces after Bearer; more are kept in the token
  allowOnGetOnly?: boolean; // 405 with Allow for GET; for the other methods without it
  subpath500?: boolean; // a path below the operation's answered 500 (a route parameter the server cannot read)
  charsetCaseSensitive?: boolean; // a charset parameter other than exactly utf-8 refused (415)
  contentLengthOnly?: boolean; // the body read by Content-Length only: a chunked body is read as empty
  exactContentTypeName?: boolean; // the Content-Type field looked up as written, "content-type"
  noTypeWildcardAccept?: boolean; // Accept: application/* answered 406
  duplicatesByName?: boolean; // a repeated name refused as a duplicate; ids never compared
  lastIdOnly?: boolean; // a repeated id refused only when it is the previous create's (a one-entry memory)
  duplicatePlain400?: boolean; // a duplicate id answered 400 text/plain, not an Error
  uniqueViolation500?: boolean; // creates of one id in flight together: the insert's unique violation answered 500
  errorCodeBeyondInt32?: boolean; // every Error's error number 100 000 times its value (beyond int32)
  problemJsonErrors?: boolean; // every error answered application/problem+json (the declared 400 included)
  duplicate500?: boolean; // a duplicate id answered 500
  frameworkParseErrors?: boolean; // a body that is empty or not JSON answered 400 with a framework's error body (Fastify's), not an Error
  storeThenRefuseGarbage?: boolean; // a valid plant followed by garbage: the plant stored, then the body refused
  longTokenDrop?: boolean; // an Authorization field over 4 KiB: the connection closed
  echoExtras?: boolean; // properties the schema does not name echoed (scalars), read as doubles (JSON.parse)
  // Allowed choices: a correct server may make each (ALLOWED_CHOICES).
  echoId?: boolean; // the answer carries the id as the server holds it (Plant allows other properties)
  duplicateWithoutId?: boolean; // the duplicate answer does not name the id
  defaultTag?: boolean; // an unsent tag echoed as "" (the specification does not say what it reads back as)
  malformedToken400?: boolean; // an empty or malformed token answered 400 invalid_request, with a Bearer challenge (RFC 6750 §3.1)
  credentials403?: boolean; // refused credentials answered 403, with the Bearer challenge
  allowWithoutPost?: boolean; // 405 with an Allow that omits POST
  problemJsonUndeclared?: boolean; // undeclared error statuses (401, 404, 405, 415) answered application/problem+json
  unsupportedMediaType400?: boolean; // another media type refused with the declared 400 and an Error, not 415
  duplicate409?: boolean; // a duplicate id answered 409 with an Error
  depthLimit?: 400 | 413 | 422; // nesting deeper than 1 000 refused with this status and an Error
  bodyLimit413?: boolean; // a body over 8 KiB answered 413
  stripBom?: boolean; // a byte order mark before the text ignored (RFC 8259 §8.1 allows it)
  repeatedNameLastWins?: boolean; // a repeated member name: the last value kept (RFC 8259 §4: unpredictable)
  readsForbidden?: boolean; // GET /plants/{id} (a document that declares it) answered 403 with an Error
}

export interface FakeOptions extends Mutations {
  tokens?: string[];
  /** Ids in the store when the server starts (an earlier run's plants), read as the server reads ids. */
  preStored?: Array<bigint | number | string>;
  /** A path prefix the API lives under, e.g. `/api/v1` (a deployed server behind a gateway). */
  prefix?: string;
  /** An API gateway before the server that lets through only requests with this header (else 403 {"message":"Forbidden"}, as AWS API Gateway answers). */
  gatewayHeader?: { name: string; value: string };
  /** The loopback port to listen on (default: one the system picks). */
  port?: number;
}

/** A switch: the boolean options (depthLimit takes a status). */
export type Mutation = { [K in keyof Mutations]-?: Mutations[K] extends boolean | undefined ? K : never }[keyof Mutations];

export interface FakeServer {
  url: string;
  /** Requests received so far. */
  requests(): number;
  close(): Promise<void>;
}

/** What the server keeps: the ids stored, and what the duplicate mutants remember instead. */
interface State {
  store: Set<string>;
  /** duplicatesByName: the names created. */
  names: Set<string>;
  /** lastIdOnly: the previous create's id. */
  last?: string;
}

export async function startFake(opts: FakeOptions = {}): Promise<FakeServer> {
  const state: State = { store: new Set<string>(), names: new Set<string>() };
  for (const id of opts.preStored ?? []) {
    const read = readId({ ...opts, positiveIdsOnly: false, zeroIdMissing: false }, String(id));
    if ('id' in read) state.store.add(read.id);
  }
  let received = 0;
  const server: Server = createServer((req, res) => {
    received++;
    handle(opts, state, req, res).catch(() => send(res, 500, opts, { error: 50001, message: 'Internal server error.' }));
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

/** A request field looked up by its name exactly as written, as a server that forgets RFC 9110 §5.1 would. */
function fieldAsWritten(req: IncomingMessage, name: string): string | undefined {
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) if (req.rawHeaders[i] === name) return req.rawHeaders[i + 1];
  return undefined;
}

async function handle(o: FakeOptions, state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { store } = state;
  if (o.gatewayHeader && req.headers[o.gatewayHeader.name.toLowerCase()] !== o.gatewayHeader.value) {
    req.resume();
    res.writeHead(403, { 'content-type': 'application/json' });
    return void res.end('{"message":"Forbidden"}');
  }
  if (o.longTokenDrop && (req.headers.authorization?.length ?? 0) > 4096) return void res.socket?.destroy();
  let path = (req.url ?? '/').split('?')[0]!;
  if (o.prefix) path = path.startsWith(`${o.prefix}/`) ? path.slice(o.prefix.length) : '/__outside_prefix__';
  if (o.extraOperations && /^\/plants\/[^/]+$/.test(path) && req.method === 'DELETE') {
    if (!checkAuth(o, req, res)) return;
    const id = path.slice('/plants/'.length);
    if (!store.delete(id)) return send(res, 404, o, { error: 40401, message: 'Not found.' });
    res.writeHead(204);
    return void res.end();
  }
  if (o.readsForbidden && /^\/plants\/[^/]+$/.test(path) && req.method === 'GET') {
    if (!checkAuth(o, req, res)) return;
    return send(res, 403, o, { error: 40301, message: 'This token may not read plants.' });
  }
  if (o.subpath500 && path.startsWith('/plants/')) return send(res, 500, o, { error: 50001, message: 'Internal server error.' });
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
    const allow: Record<string, string> = o.no405Allow || (o.allowOnGetOnly && req.method !== 'GET') ? {} : { allow: o.allowWithoutPost ? 'OPTIONS' : o.extraOperations ? 'GET, POST' : 'POST' };
    return send(res, 405, o, { error: 40501, message: 'Method not allowed.' }, allow);
  }
  const invalidStatus = o.status422 ? 422 : 400;
  const invalid = (error: number, message: string) => send(res, invalidStatus, o, { error, message });
  if (o.bodyBeforeAuth) {
    const raw = await readBody(req);
    try {
      parseJson(raw.toString('utf8'), false);
    } catch {
      if (o.parseError401) return send(res, 401, o, { error: 40101, message: 'Request body is not JSON.' });
      return invalid(40001, 'Request body is not JSON.');
    }
    if (!checkAuth(o, req, res)) return;
    return createPlant(o, state, res, raw, invalid);
  }
  if (!checkAuth(o, req, res)) return;
  if (o.noTypeWildcardAccept && /application\/\*/.test(req.headers.accept ?? '')) return send(res, 406, o, { error: 40601, message: 'Not acceptable.' });
  if (o.strictAccept && req.headers.accept !== undefined && req.headers.accept !== 'application/json') {
    return send(res, 406, o, { error: 40601, message: 'Only application/json is produced.' });
  }
  const contentType = o.exactContentTypeName ? fieldAsWritten(req, 'content-type') : req.headers['content-type'];
  // The mutant hands the charset to a decoder that does not know it, and lets the error escape.
  const charset = /;\s*charset=([^;]*)/i.exec(contentType ?? '')?.[1];
  if (o.charsetCrash && charset !== undefined && charset.toLowerCase() !== 'utf-8') new TextDecoder(charset.replace(/"/g, '') === 'iso-8859-1' ? 'x-unknown' : charset);
  const media = o.exactMediaType ? (contentType === 'application/json' ? contentType : undefined) : mediaTypeEssence(contentType);
  if (o.lengthRequired && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined) {
    return send(res, 411, o, { error: 41101, message: 'Content-Length required.' });
  }
  // contentLengthOnly: the server reads Content-Length bytes, none when the field is absent.
  const raw = o.contentLengthOnly && req.headers['content-length'] === undefined ? (req.resume(), Buffer.alloc(0)) : await readBody(req, o.decodeEachChunk);
  const charsetRefused = o.charsetCaseSensitive && charset !== undefined && charset.replace(/"/g, '') !== 'utf-8';
  if (!o.ignoreContentType && raw.length > 0 && (media !== 'application/json' || charsetRefused)) {
    return send(res, o.unsupportedMediaType400 ? 400 : 415, o, { error: 41501, message: 'Content-Type must be application/json.' });
  }
  return createPlant(o, state, res, raw, invalid);
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

/** How the server reads an id numeral (a JSON number as written): its key in the store, or why it refuses it. */
function readId(o: FakeOptions, text: string): { id: string } | { problem: string } {
  const int64 = { problem: '/id must be an integer (int64)' };
  if (o.roundIds || o.doubleIds) {
    const d = Number(text);
    if (!Number.isInteger(d) || (o.roundIds && (d < -(2 ** 63) || d > 2 ** 63))) return int64;
    return { id: String(d) };
  }
  if (o.idByParseInt) return { id: BigInt(/^-?\d+/.exec(text)![0]).toString() };
  let n = exactInteger(text);
  if (n === undefined && o.truncateFractions) n = BigInt(Math.trunc(Number(text)));
  if (n === undefined || (o.rejectIntegralNumerals && /[.eE]/.test(text))) return int64;
  if (!o.noInt64Bound && (n < INT64_MIN || n > INT64_MAX)) return int64;
  if (o.int53Ids && (n > 2n ** 53n - 1n || n < -(2n ** 53n - 1n))) return { problem: '/id must be a safe integer' };
  if (o.positiveIdsOnly && n <= 0n) return { problem: '/id must be positive' };
  if (o.zeroIdMissing && n === 0n) return { problem: "/ must have required property 'id'" };
  return { id: (o.signDropped && n < 0n ? -n : n).toString() };
}

/** A Fastify server's own answer to a body it cannot parse (frameworkParseErrors): 400, but not the document's Error. */
function frameworkError(res: ServerResponse, o: FakeOptions, message: string): void {
  send(res, 400, o, { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY', error: 'Bad Request', message });
}

/** Properties the schema does not name, as JSON.parse reads them (numbers as doubles), scalars only (echoExtras). */
function extrasOf(text: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).filter(([k, v]) => !['id', 'name', 'tag'].includes(k) && (v === null || typeof v !== 'object')));
  } catch {
    return {};
  }
}

async function createPlant(o: FakeOptions, state: State, res: ServerResponse, raw: Buffer, invalid: (error: number, message: string) => void): Promise<void> {
  const { store } = state;
  if (raw.length === 0) {
    if (o.emptyBodyOk) return send(res, 200, o, { name: '' });
    if (o.frameworkParseErrors) return frameworkError(res, o, "Body cannot be empty when content-type is set to 'application/json'");
    return invalid(40002, 'Request body is required.');
  }
  if (o.bodyLimit413 && raw.length > 8 * 1024) return send(res, 413, o, { error: 41301, message: 'Request body is too large.' });
  if (!o.latin1Body) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch (error) {
      // The mutant lets the decoder's error escape: handle() answers 500.
      if (o.fatalOnBadUtf8) throw error;
      return invalid(40001, 'Request body is not UTF-8.');
    }
  }
  let text = o.latin1Body ? raw.toString('latin1') : raw.toString('utf8');
  if (o.stripBom) text = text.replace(/^\uFEFF/, '');
  if (o.stripWhitespaceEverywhere) text = text.replace(/[ \t\r\n]/g, '');
  if ((o.dropDeepNesting || o.deepNesting500 || o.hangOnDeepNesting || o.depthLimit) && nestingDepth(text) > 1000) {
    if (o.dropDeepNesting) return void res.socket?.destroy();
    if (o.hangOnDeepNesting) return; // closed by close() through closeAllConnections
    if (o.depthLimit) return send(res, o.depthLimit, o, { error: 40008, message: 'Request body is nested too deep.' });
    return send(res, 500, o, { error: 50001, message: 'Internal server error.' });
  }
  let body: Json;
  try {
    body = parseJson(text, !!o.acceptTrailingGarbage, {
      whitespace: o.tabAndCrNotWhitespace ? ' \n' : undefined,
      rawStrings: o.undecodedEscapes,
      rawNames: o.undecodedEscapedNames,
      lastWins: o.repeatedNameLastWins,
    });
  } catch {
    if (o.acceptMalformed) return send(res, 200, o, { name: '' });
    if (o.storeThenRefuseGarbage) storeFirstValue(o, store, text);
    if (o.frameworkParseErrors) return frameworkError(res, o, "Body is not valid JSON but content-type is set to 'application/json'");
    return invalid(40001, 'Request body is not JSON.');
  }
  if (o.unwrapArray && Array.isArray(body) && body.length === 1) body = body[0]!;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || body instanceof Num) {
    return invalid(40003, 'Request body is not a valid NewPlant: / must be object.');
  }
  const fields = body as { [k: string]: Json };
  if (o.idFirstOnly && Object.keys(fields)[0] !== 'id') return invalid(40003, 'Request body is not a valid NewPlant: id must come first.');
  if (o.refuseProtoNames && Object.keys(fields).some((k) => k === '__proto__' || k === 'constructor')) return invalid(40003, 'Request body is not a valid NewPlant: forbidden member name.');
  if (o.acceptNull) for (const k of Object.keys(fields)) if (fields[k] === null) delete fields[k];
  if (o.stringsByPosition) {
    const strings = Object.values(fields).filter((v): v is string => typeof v === 'string');
    if (strings[0] !== undefined) fields.name = strings[0];
    if (strings[1] !== undefined) fields.tag = strings[1];
  }
  const problems: string[] = [];
  // id
  let id: string | undefined;
  let idv = fields.id;
  if (o.coerceStrings && typeof idv === 'string' && /^-?\d+$/.test(idv)) idv = new Num(idv);
  if (o.zeroValueIds && (idv === undefined || idv === null)) idv = new Num('0');
  if (o.booleanIds && typeof idv === 'boolean') idv = new Num(idv ? '1' : '0');
  if (idv === undefined) problems.push("/ must have required property 'id'");
  else if (!(idv instanceof Num)) problems.push('/id must be an integer (int64)');
  else {
    const read = readId(o, idv.text);
    if ('problem' in read) problems.push(read.problem);
    else id = read.id;
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
  const duplicate = () => {
    if (o.duplicatePlain400) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      return void res.end('Duplicate id');
    }
    const message = o.duplicatesByName ? `A plant named ${JSON.stringify(name)} already exists.` : o.duplicateWithoutId ? 'A plant with this id already exists.' : `A plant with id ${id} already exists.`;
    send(res, o.duplicate500 ? 500 : o.duplicate409 ? 409 : 400, o, { error: 40004, message });
  };
  if (o.storeBeforeValidate && id !== undefined) {
    if (store.has(id)) return duplicate();
    store.add(id);
  }
  if (problems.length > 0) return invalid(40003, `Request body is not a valid NewPlant: ${problems.join(', ')}.`);
  if (o.duplicatesByName) {
    if (state.names.has(name!)) return duplicate();
    state.names.add(name!);
  } else if (o.lastIdOnly) {
    if (state.last === id) return duplicate();
    state.last = id;
  } else if (!o.storeBeforeValidate) {
    if (store.has(id!) && !o.duplicatesAccepted) return duplicate();
    if (o.raceDuplicates || o.uniqueViolation500) await raceWindow(id!);
    // The database's unique constraint catches the create that lost the race; its error escapes (handle() answers 500).
    if (o.uniqueViolation500 && store.has(id!)) throw new Error('duplicate key value violates unique constraint');
    store.add(id!);
  }
  return send(res, o.status201 ? 201 : 200, o, answerOf(o, id!, name ?? '', tag, text));
}

/** The Plant a valid create is answered with, as the mutants shape it. */
function answerOf(o: FakeOptions, id: string, name: string, tag: string | undefined, text: string): unknown {
  if (o.staticExample) return { name: 'Monstera', tag: 'tropical' };
  const kept = (s: string) => {
    const cut = o.truncateLongStrings ? s.slice(0, 100) : s;
    return o.normalizeNfc ? cut.normalize('NFC') : cut;
  };
  const plant: Record<string, unknown> = o.echoExtras ? extrasOf(text) : {};
  if (!(o.dropEmptyStrings && name === '')) plant.name = kept(name);
  if (tag === undefined) {
    if (o.nullForUnsentTag) plant.tag = null;
    else if (o.defaultTag) plant.tag = '';
  } else if (!o.dropTag && !(o.dropEmptyStrings && tag === '') && !(o.dropLongTag && tag.length > 255)) plant.tag = kept(tag);
  // The id as the server holds it, a JSON number of its digits (a double prints as JavaScript writes it).
  return o.echoId ? new RawJson(`${JSON.stringify(plant).slice(0, -1)}${Object.keys(plant).length > 0 ? ',' : ''}"id":${id}}`) : plant;
}

/** storeThenRefuseGarbage: the first JSON value of the text, when it is a plant with a valid id, is stored before the garbage after it is seen. */
function storeFirstValue(o: FakeOptions, store: Set<string>, text: string): void {
  try {
    const first = parseJson(text, true);
    const idv = first !== null && typeof first === 'object' && !Array.isArray(first) && !(first instanceof Num) ? first.id : undefined;
    if (idv instanceof Num) {
      const read = readId(o, idv.text);
      if ('id' in read) store.add(read.id);
    }
  } catch {
    // not even a first value: nothing stored
  }
}
