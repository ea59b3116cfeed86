// The stub's test controls: what a client team's tests need when the server
// stands in for the real Plant Store in CI. Everything lives outside the
// API's paths, under ADMIN_PREFIX, and speaks JSON:
//
//   GET    /__admin/plants    the stored plants        DELETE /__admin/plants   reset the store
//   POST   /__admin/plants    store NewPlants (array)
//   GET    /__admin/journal   recent API requests       DELETE /__admin/journal  clear it
//   GET    /__admin/delay     the answer delay          PUT    /__admin/delay    {"ms": N}
//
// and, on the API's operation, `Prefer: code=NNN` (RFC 7240, in Prism's
// syntax) answers the operation's declared response for that status.
//
// buildApp installs this only when asked to; without it the hot path carries
// no hook of ours at all.
import { readFileSync } from 'node:fs';
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OpenApiDocument } from '../spec/openapi.js';
import { createAuthenticator } from './auth.js';
import { ApiError } from './errors.js';
import { JsonSyntaxError, NonIntegralNumber, parseJson, type JsonObject, type JsonValue } from './json.js';
import type { PlantStore, StoredPlant } from './store.js';
import type { OperationContract } from './validation.js';

export const ADMIN_PREFIX = '/__admin';
/** Paths under this prefix belong to the stub (health, controls), not to the API, and are never journaled or delayed. */
export const STUB_PREFIX = '/__';
export const DEFAULT_JOURNAL_SIZE = 100;
export const MAX_JOURNAL_SIZE = 10_000;
export const MAX_DELAY_MS = 60_000;
/** Bytes of a request body the journal keeps; the rest is cut and the entry says so. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;
const REDACTED = '<redacted>';

/** Waits `ms` milliseconds, or less when `signal` aborts (the server is closing). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface StubOptions {
  /** The /__admin endpoints, the journal and `Prefer: code=`; default true. */
  controls?: boolean;
  /** When set, the controls require `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
  /** Most requests the journal keeps (a ring: the oldest go first); 0 keeps none. */
  journalSize?: number;
  /** Milliseconds every API answer waits before it is sent, 0 to MAX_DELAY_MS. */
  delayMs?: number;
  /** Replaces the timer behind the delay (tests observe the delay without waiting). */
  sleep?: Sleep;
}

/** Plants to store before the first request, and where they came from (for messages). */
export interface SeedPlants {
  source: string;
  plants: JsonValue[];
}

/** A seed that cannot be used: the server refuses to start. */
export class SeedError extends Error {}

/** What buildApp asks of the stub on the API's route. */
export interface StubHooks {
  /** True when request bodies should be kept for the journal. */
  readonly keepsBodies: boolean;
  /** Remembers the raw body of a request for the journal. */
  keepBody(request: FastifyRequest, body: Buffer): void;
  /** Checks a Prefer header right after the credentials: throws a 400 when it is malformed or asks for an undeclared status. */
  checkPrefer(prefer: string | string[]): void;
  /** The answer a Prefer header asks for, once the body is read; undefined to answer normally. */
  preferredAnswer(prefer: string | string[]): PreferredAnswer | undefined;
}

export interface PreferredAnswer {
  status: number;
  body: unknown;
  preferenceApplied: string;
}

interface Api {
  store: PlantStore;
  doc: OpenApiDocument;
  path: string;
  method: string;
  contract: OperationContract;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The raw request body, kept for the journal when the controls are on. */
    stubBody: Buffer | null;
  }
}

/**
 * Installs the stub's hooks and control routes on `app` (before the API's
 * routes are added, so the hooks apply to them). Returns undefined when
 * nothing is to be installed.
 */
export function installStub(app: FastifyInstance, options: StubOptions | undefined, api: Api): StubHooks | undefined {
  if (options === undefined) return undefined;
  const controls = options.controls ?? true;
  const sleep = options.sleep ?? defaultSleep;
  const state = { delayMs: checkedDelay(options.delayMs ?? 0) };
  if (!controls && state.delayMs === 0) return undefined;

  const journal = new Journal(controls ? (options.journalSize ?? DEFAULT_JOURNAL_SIZE) : 0);
  // Delays end early when the server closes, so that `docker stop` answers
  // the requests in flight at once instead of waiting out their delay.
  const closing = new AbortController();
  app.addHook('preClose', (done) => {
    closing.abort();
    done();
  });

  if (journal.capacity > 0) app.decorateRequest('stubBody', null);

  // One onSend hook does both: it runs before the answer leaves, so a test
  // that has its answer always finds the request in the journal.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith(STUB_PREFIX)) return done(null, payload);
    if (journal.capacity > 0) journal.record(request, reply.statusCode);
    if (state.delayMs === 0) return done(null, payload);
    sleep(state.delayMs, closing.signal).then(
      () => done(null, payload),
      () => done(null, payload), // aborted: the server is closing
    );
  });

  if (!controls) {
    return { keepsBodies: false, keepBody() {}, checkPrefer() {}, preferredAnswer: () => undefined };
  }

  registerControls(app, options, api, journal, state);
  const prefer = preferenceResolver(api);
  return {
    keepsBodies: journal.capacity > 0,
    keepBody(request, body) {
      request.stubBody = body;
    },
    checkPrefer: (header) => void prefer(header),
    preferredAnswer: prefer,
  };
}

function registerControls(
  app: FastifyInstance,
  options: StubOptions,
  api: Api,
  journal: Journal,
  state: { delayMs: number },
): void {
  const guard = options.adminToken === undefined ? undefined : createAuthenticator([options.adminToken]);
  const onRequest = async (request: FastifyRequest) => guard?.check(request.headers.authorization);
  const json = (request: FastifyRequest): JsonValue => {
    if (!isJson(request.headers['content-type'])) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
    // The body parser hands a JSON syntax error on as the body (see app.ts).
    if (request.body instanceof ApiError) throw request.body;
    const body = request.body as JsonValue | undefined;
    if (body === undefined) throw new ApiError('ADMIN_INVALID_REQUEST', 'Request body is required.');
    return body;
  };

  app.get(`${ADMIN_PREFIX}/plants`, { onRequest }, async () => ({
    // Ids as decimal strings: a JSON number would lose int64 digits in most clients.
    plants: api.store.list().map(({ id, plant }) => ({ id, ...plant })),
  }));
  app.post(`${ADMIN_PREFIX}/plants`, { onRequest }, async (request) => {
    const plants = json(request);
    return { created: storePlants(api, plants, 'request body', ApiErrorFactory) };
  });
  app.delete(`${ADMIN_PREFIX}/plants`, { onRequest }, async () => {
    const deleted = api.store.size;
    api.store.clear();
    return { deleted };
  });

  app.get(`${ADMIN_PREFIX}/journal`, { onRequest }, async () => journal.snapshot());
  app.delete(`${ADMIN_PREFIX}/journal`, { onRequest }, async () => ({ cleared: journal.clear() }));

  app.get(`${ADMIN_PREFIX}/delay`, { onRequest }, async () => ({ ms: state.delayMs }));
  app.put(`${ADMIN_PREFIX}/delay`, { onRequest }, async (request) => {
    const body = json(request);
    const ms = isObject(body) ? body.ms : undefined;
    if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > MAX_DELAY_MS) {
      throw new ApiError('ADMIN_INVALID_REQUEST', `Send {"ms": N} with N a whole number of milliseconds from 0 to ${MAX_DELAY_MS}.`);
    }
    state.delayMs = ms;
    return { ms };
  });
}

// ---------------------------------------------------------------------------
// Seeding

/** Reads PLANTSTORE_SEED_FILE: a JSON array of NewPlant records. */
export function readSeedFile(file: string): SeedPlants {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SeedError(`PLANTSTORE_SEED_FILE ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let value: JsonValue;
  try {
    value = parseJson(text.replace(/^\uFEFF/, ''), { maxDepth: 64 });
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new SeedError(`PLANTSTORE_SEED_FILE ${file} is not valid JSON: ${error.message}`);
  }
  if (!Array.isArray(value)) throw new SeedError(`PLANTSTORE_SEED_FILE ${file} must hold a JSON array of NewPlant records`);
  return { source: `PLANTSTORE_SEED_FILE ${file}`, plants: value };
}

/** Stores the seed plants (all or none); throws SeedError naming the source and the problem. */
export function seedStore(api: Api, seed: SeedPlants): number {
  return storePlants(api, seed.plants, seed.source, (message) => new SeedError(message));
}

const ApiErrorFactory = (message: string) => new ApiError('ADMIN_INVALID_REQUEST', message);

/**
 * Validates every record against the NewPlant schema and checks the ids
 * (unique, not yet stored, room in the store) before storing any, so a bad
 * list changes nothing.
 */
function storePlants(api: Api, value: JsonValue, source: string, fail: (message: string) => Error): number {
  if (!Array.isArray(value)) throw fail(`${source} must be a JSON array of NewPlant records`);
  const plants: Array<{ id: string; plant: StoredPlant }> = [];
  const seen = new Set<string>();
  value.forEach((item, index) => {
    const violations = api.contract.validateRequestBody(item);
    if (violations.length > 0) throw fail(`${source}: item ${index} is not a valid NewPlant: ${violations.join('; ')}`);
    const record = item as JsonObject;
    const id = String(record.id as number | bigint);
    if (seen.has(id) || api.store.get(id) !== undefined) throw fail(`${source}: item ${index} repeats the id ${id}`);
    seen.add(id);
    const plant: StoredPlant = { name: record.name as string };
    if (record.tag !== undefined) plant.tag = record.tag as string;
    plants.push({ id, plant });
  });
  for (const { id, plant } of plants) {
    if (api.store.create(id, plant) === 'full') throw fail(`${source}: the store is full after ${api.store.size} plants`);
  }
  return plants.length;
}

// ---------------------------------------------------------------------------
// The journal: a ring buffer of the most recent API requests.

interface JournalSlot {
  seq: number;
  time: number;
  method: string;
  url: string;
  headers: FastifyRequest['headers'];
  body: Buffer | null;
  status: number;
}

export interface JournalEntry {
  /** Running number since the server started; clearing does not reset it. */
  seq: number;
  time: string;
  method: string;
  /** The request target as sent: path and query. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body as received, decoded as UTF-8; null when there was none or it was not read (answered before). */
  body: string | null;
  /** The body's size in bytes, null when the body was not read. */
  bodyBytes: number | null;
  /** True when `body` holds only the first JOURNAL_BODY_LIMIT bytes. */
  bodyTruncated: boolean;
  /** The status of the answer. */
  status: number;
}

class Journal {
  private readonly slots: Array<JournalSlot | undefined>;
  private next = 0; // where the next entry goes
  private count = 0;
  private seq = 0;
  constructor(readonly capacity: number) {
    this.slots = new Array<JournalSlot | undefined>(capacity);
  }

  /** Hot path: keeps references only; copying, redaction and decoding wait for snapshot(). */
  record(request: FastifyRequest, status: number): void {
    let body = request.stubBody ?? null;
    // A large body is copied down to the limit, so the ring never holds a
    // whole megabyte-sized upload per entry.
    if (body !== null && body.length > JOURNAL_BODY_LIMIT) {
      const cut = Buffer.from(body.subarray(0, JOURNAL_BODY_LIMIT)) as Buffer & { originalLength?: number };
      cut.originalLength = body.length;
      body = cut;
    }
    this.slots[this.next] = {
      seq: ++this.seq,
      time: Date.now(),
      method: request.method,
      url: request.url,
      headers: request.headers,
      body,
      status,
    };
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  snapshot(): { size: number; total: number; entries: JournalEntry[] } {
    const entries: JournalEntry[] = [];
    const start = (this.next - this.count + this.capacity) % this.capacity;
    for (let i = 0; i < this.count; i++) {
      const slot = this.slots[(start + i) % this.capacity];
      if (slot !== undefined) entries.push(present(slot));
    }
    return { size: this.capacity, total: this.seq, entries };
  }

  clear(): number {
    const cleared = this.count;
    this.slots.fill(undefined);
    this.count = 0;
    this.next = 0;
    return cleared;
  }
}

function present(slot: JournalSlot): JournalEntry {
  const body = slot.body as (Buffer & { originalLength?: number }) | null;
  return {
    seq: slot.seq,
    time: new Date(slot.time).toISOString(),
    method: slot.method,
    path: slot.url,
    headers: redactHeaders(slot.headers),
    body: body === null ? null : body.toString('utf8'),
    bodyBytes: body === null ? null : (body.originalLength ?? body.length),
    bodyTruncated: body?.originalLength !== undefined,
    status: slot.status,
  };
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization']);

/** Credentials keep their scheme and lose the rest: `Bearer <redacted>`. Cookies are dropped whole. */
export function redactHeaders(headers: FastifyRequest['headers']): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (SECRET_HEADERS.has(name) && typeof value === 'string') {
      const space = value.indexOf(' ');
      out[name] = space === -1 ? REDACTED : `${value.slice(0, space)} ${REDACTED}`;
    } else if (name === 'cookie') {
      out[name] = REDACTED;
    } else {
      out[name] = value;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Prefer: code=NNN

// RFC 7240 §2:  Prefer     = "Prefer" ":" 1#preference
//               preference = token [ BWS "=" BWS word ] *( OWS ";" [ OWS parameter ] )
//               word       = token / quoted-string
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const WORD = `(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*")`;
const PARAMETER = `${TOKEN}(?:[ \\t]*=[ \\t]*${WORD})?`;
const PREFERENCE = new RegExp(`^(${TOKEN})(?:[ \\t]*=[ \\t]*(${WORD}))?((?:[ \\t]*;(?:[ \\t]*${PARAMETER})?)*)$`);

/**
 * Resolves a Prefer header against the operation's declared responses (read
 * from the OpenAPI document, not listed here). Throws an ApiError for a
 * malformed header or an undeclared status; returns the forced answer, or
 * undefined when the request is to be answered normally (no `code`, or the
 * operation's success status).
 */
function preferenceResolver(api: Api): (header: string | string[]) => PreferredAnswer | undefined {
  const operation = api.doc.paths[api.path]?.[api.method.toLowerCase()];
  const responses = operation?.responses ?? {};
  const declared = Object.keys(responses).filter((status) => /^[1-5]\d\d$/.test(status));
  const success = declared.find((status) => status.startsWith('2'));
  return (header) => {
    // RFC 9110 §5.3: repeated header lines are one comma-separated list.
    const preferences = parsePrefer(Array.isArray(header) ? header.join(',') : header);
    if (!preferences.has('code')) return undefined; // RFC 7240 §2: preferences a server does not know are ignored
    const code = preferences.get('code') ?? '';
    if (!/^\d{3}$/.test(code)) throw new ApiError('PREFER_MALFORMED', `Prefer: code must be a three-digit HTTP status, got ${JSON.stringify(code)}.`);
    if (!declared.includes(code)) {
      throw new ApiError(
        'PREFER_UNDECLARED',
        `Prefer: code=${code} is not a response that ${api.method.toUpperCase()} ${api.path} declares; declared: ${declared.join(', ')}.`,
      );
    }
    if (code === success) return undefined;
    const status = Number(code);
    const content = responses[code]?.content?.['application/json'] as
      | { schema?: Record<string, unknown>; example?: unknown; examples?: Record<string, { value?: unknown }> }
      | undefined;
    const wanted = preferences.get('example');
    const examples = content?.examples ?? {};
    if (wanted !== undefined && examples[wanted] === undefined) {
      throw new ApiError(
        'PREFER_UNDECLARED',
        `Prefer: example=${wanted} is not an example of the ${code} response; examples: ${Object.keys(examples).join(', ') || 'none'}.`,
      );
    }
    const example = wanted !== undefined ? examples[wanted]?.value : (content?.example ?? Object.values(examples)[0]?.value);
    const body = example ?? {
      // No example in the document: an Error record of our own.
      error: status * 100 + 99,
      message: `Answer requested by the header Prefer: code=${code}.`,
    };
    return { status, body, preferenceApplied: wanted === undefined ? `code=${code}` : `code=${code}, example=${wanted}` };
  };
}

/** The preferences of a Prefer header by name (lower case), values unquoted. */
export function parsePrefer(header: string): Map<string, string | undefined> {
  const preferences = new Map<string, string | undefined>();
  // Commas inside quoted strings are rare in practice and not part of Prism's
  // syntax; splitting on every comma keeps the hot path a plain split.
  for (const part of header.split(',')) {
    const trimmed = part.trim();
    if (trimmed === '') continue; // RFC 9110 §5.6.1: empty list elements are allowed
    const match = PREFERENCE.exec(trimmed);
    if (match === null) {
      throw new ApiError('PREFER_MALFORMED', `Malformed Prefer header: ${JSON.stringify(trimmed)} is not a preference (RFC 7240 §2).`);
    }
    const name = (match[1] as string).toLowerCase();
    const raw = match[2];
    const value = raw?.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    // RFC 7240 §2: with a repeated preference, the first one counts.
    if (!preferences.has(name)) preferences.set(name, value);
  }
  if (preferences.size === 0) throw new ApiError('PREFER_MALFORMED', 'Malformed Prefer header: it names no preference (RFC 7240 §2).');
  return preferences;
}

// ---------------------------------------------------------------------------

function checkedDelay(ms: number): number {
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_DELAY_MS) throw new RangeError(`delayMs must be a whole number from 0 to ${MAX_DELAY_MS}`);
  return ms;
}

const defaultSleep: Sleep = (ms, signal) => sleepFor(ms, undefined, { signal });

function isObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof NonIntegralNumber);
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** Sends a forced Prefer answer. */
export function sendPreferred(reply: FastifyReply, answer: PreferredAnswer): FastifyReply {
  // RFC 7240 §3: Preference-Applied names the preferences that were honoured.
  return reply
    .code(answer.status)
    .header('preference-applied', answer.preferenceApplied)
    .type('application/json; charset=utf-8')
    .send(answer.body);
}
