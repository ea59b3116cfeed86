// fast-check generators of hostile requests for the Plant Store, and the
// statuses each one may get. Shared by the fuzz tests (npm test) and the long
// fuzz script (npm run fuzz:long), so both run the same properties.
import fc from 'fast-check';
import { INT64_MAX, INT64_MIN } from '../spec/formats.js';
import type { AnswerExpectation } from './answers.js';

/** The bearer token the fuzzed app is configured with. */
export const FUZZ_TOKEN = 'fuzz-token.AZaz09-._~+/==';
/** A small body limit, so 413 is reachable without megabyte bodies. */
export const FUZZ_BODY_LIMIT = 16 * 1024;
/** The seed of every fuzz run; FUZZ_SEED overrides it to replay or vary a run. */
export const FUZZ_SEED = seedFromEnv(process.env.FUZZ_SEED, 20261121);

function seedFromEnv(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got ${JSON.stringify(raw)}`);
  return seed;
}

/** A request as app.inject() takes it. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: Buffer;
  /** What the generator meant; decides the acceptable statuses. */
  intent: Intent;
}

interface Intent {
  path: 'api' | 'health' | 'other' | 'odd';
  auth: 'valid' | 'invalid';
  contentType: 'json' | 'other';
  /** The body is a NewPlant that must be stored (fresh id), with what must be echoed. */
  plant?: { name: string; tag?: string };
  /** Content-Length header deliberately differs from the body's size. */
  lengthMismatch: boolean;
}

// ---- methods and paths -------------------------------------------------------

/** Methods Node's HTTP parser accepts: what app.inject() can send too. */
const KNOWN_METHODS = [
  'GET',
  'PUT',
  'DELETE',
  'PATCH',
  'HEAD',
  'OPTIONS',
  'TRACE',
  'PROPFIND',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'UNLOCK',
  'SEARCH',
  'PURGE',
  'REPORT',
  'QUERY',
];

const methodArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant('POST') },
  { weight: 2, arbitrary: fc.constantFrom(...KNOWN_METHODS) },
);

const pathArb: fc.Arbitrary<{ url: string; kind: Intent['path'] }> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .constantFrom('/plants', '/plants?', '/plants?x=1', '/plants?id=1&id=2', '/plants?__proto__[x]=1')
      .map((url) => ({ url, kind: 'api' as const })),
  },
  { weight: 1, arbitrary: fc.constant({ url: '/__health', kind: 'health' as const }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '/',
        '/plant',
        '/plants/',
        '/PLANTS',
        '/plants/1',
        '/__admin',
        '/__proto__',
        '/constructor',
        '/plants.json',
        '/index.html',
      )
      .map((url) => ({ url, kind: 'other' as const })),
  },
  {
    // Paths whose routing is the framework's business (percent-encoding,
    // doubled slashes, very long or non-ASCII segments): any documented answer.
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.webPath(),
        fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => '/' + encodeURIComponent(s)),
        fc.constantFrom(
          '//plants',
          '/%70lants',
          '/plants%00',
          '/%zz',
          '/%',
          '/plants;a=b',
          '/plants%2F',
          '/plants/../plants',
          '/./plants',
          '/' + 'a'.repeat(2000),
          '/\u00e9',
          '/plants#frag',
        ),
      )
      .map((url) => ({ url: url.startsWith('/') ? url : '/' + url, kind: 'odd' as const })),
  },
);

// ---- headers -----------------------------------------------------------------

/** Header values as bytes on the wire can be: visible ASCII, space, tab, obs-text (latin1). */
const headerText = (maxLength: number) =>
  fc
    .array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constant(0x09), fc.integer({ min: 0x80, max: 0xff })), {
      maxLength,
    })
    .map((codes) => String.fromCharCode(...codes));

const b64token = fc.stringMatching(/^[A-Za-z0-9\-._~+/]{1,40}=*$/);

const authorizationArb: fc.Arbitrary<{ value?: string; valid: boolean }> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .constantFrom(`Bearer ${FUZZ_TOKEN}`, `bearer ${FUZZ_TOKEN}`, `BEARER ${FUZZ_TOKEN}`, `Bearer   ${FUZZ_TOKEN}`)
      .map((value) => ({ value, valid: true })),
  },
  {
    weight: 4,
    arbitrary: fc
      .oneof(
        fc.constant(undefined),
        fc.constantFrom(
          '',
          'Bearer',
          'Bearer ',
          'Bearer  ',
          `Basic ${Buffer.from('a:b').toString('base64')}`,
          'Digest x',
          `Bearer ${FUZZ_TOKEN} extra`,
          `Bearer ${FUZZ_TOKEN},x`,
          `Bearer "${FUZZ_TOKEN}"`,
          `Bearer\t${FUZZ_TOKEN}`,
          `Token ${FUZZ_TOKEN}`,
          FUZZ_TOKEN,
        ),
        // Prefixes, suffixes and near misses of the accepted token.
        fc.integer({ min: 1, max: FUZZ_TOKEN.length - 1 }).map((n) => `Bearer ${FUZZ_TOKEN.slice(0, n)}`),
        fc.integer({ min: 1, max: FUZZ_TOKEN.length - 1 }).map((n) => `Bearer ${FUZZ_TOKEN.slice(n)}`),
        b64token.map((t) => `Bearer ${FUZZ_TOKEN}${t}`),
        b64token.map((t) => `Bearer ${t}`),
        headerText(80),
        headerText(80).map((t) => `Bearer ${t}`),
      )
      .map((value) => ({ value, valid: false })),
  },
);

const contentTypeArb: fc.Arbitrary<{ value?: string; json: boolean }> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
        'application/json;charset="UTF-8"',
        'application/json ; foo=bar',
        ' application/json',
      )
      .map((value) => ({ value, json: true })),
  },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.constant(undefined),
        fc.constantFrom(
          '',
          'text/plain',
          'application/xml',
          'application/json; charset=latin1',
          'application/json; charset=utf-16',
          'application/jsonx',
          'application/*',
          '*/*',
          'multipart/form-data; boundary=x',
          'application/x-www-form-urlencoded',
          'application/problem+json',
          'json',
        ),
        headerText(60),
      )
      .map((value) => ({ value, json: false })),
  },
);

// ---- bodies ------------------------------------------------------------------

/** Strings with the Unicode a careless server trips on. */
const unusualString = (maxLength: number) =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.constantFrom(
      '',
      '\u0000',
      '\u202e\u202d',
      '\ufeff',
      '\ud83c\udf35',
      'e\u0301',
      '\u2028\u2029',
      '"quoted"',
      '\\',
      '<script>',
      '${x}',
      '%s%n',
      'null',
      'constructor',
      '__proto__',
    ),
  );

/** Keys that pollute prototypes in naive code, next to ordinary ones. */
const keyArb = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'id', 'name', 'tag', ''),
  fc.string({ maxLength: 12 }),
);

/** A JSON text built by hand, so it can hold repeated keys, bigints and odd numerals. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(
      'null',
      'true',
      'false',
      '0',
      '-0',
      '1.5',
      '1e400',
      '-1e-400',
      '5.0',
      '5e2',
      '9223372036854775807',
      '9223372036854775808',
      '-9223372036854775809',
      '1' + '0'.repeat(400),
    ),
    fc.bigInt({ min: INT64_MIN * 4n, max: INT64_MAX * 4n }).map(String),
    fc.double().filter(Number.isFinite).map(String),
    unusualString(30).map((s) => JSON.stringify(s)),
    fc.array(tie('value'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(keyArb, tie('value')), { maxLength: 5 })
      .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value;

/** A NewPlant: valid (fresh id) or mutated in one way. */
function newPlantArb(freshId: () => bigint): fc.Arbitrary<{ text: string; plant?: { name: string; tag?: string } }> {
  const valid = fc
    .record({
      name: unusualString(40),
      tag: fc.option(unusualString(20), { nil: undefined }),
      extra: fc.uniqueArray(
        fc.tuple(
          fc.constantFrom('__proto__', 'constructor', 'extra', 'Id', 'NAME'),
          fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
        ),
        { maxLength: 2, selector: ([key]) => key },
      ),
    })
    .map(({ name, tag, extra }) => {
      const id = freshId();
      const members = [`"id":${id}`, `"name":${JSON.stringify(name)}`];
      if (tag !== undefined) members.push(`"tag":${JSON.stringify(tag)}`);
      for (const [key, value] of extra) members.push(`${JSON.stringify(key)}:${value}`);
      const plant = tag === undefined ? { name } : { name, tag };
      return { text: `{${members.join(',')}}`, plant };
    });
  const mutated = fc
    .record({
      id: fc.oneof(
        fc.constant(undefined),
        jsonText,
        fc.constantFrom('"7"', 'true', 'null', '1.5', '9223372036854775808', '[1]', '{}'),
      ),
      name: fc.oneof(
        fc.constant(undefined),
        jsonText,
        unusualString(10).map((s) => JSON.stringify(s)),
      ),
      tag: fc.oneof(fc.constant(undefined), jsonText),
      duplicate: fc.constantFrom(undefined, 'id', 'name', 'tag'),
    })
    .map(({ id, name, tag, duplicate }) => {
      const members: string[] = [];
      if (id !== undefined) members.push(`"id":${id}`);
      if (name !== undefined) members.push(`"name":${name}`);
      if (tag !== undefined) members.push(`"tag":${tag}`);
      if (duplicate !== undefined) members.push(`"${duplicate}":"again"`);
      return { text: `{${members.join(',')}}` };
    });
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: mutated });
}

/** Nesting far beyond the parser's bound (64), arrays, objects or both. */
const deepNesting = fc
  .record({ depth: fc.integer({ min: 60, max: 5000 }), kind: fc.constantFrom('array', 'object', 'mixed', 'unclosed') })
  .map(({ depth, kind }) => {
    if (kind === 'array') return '['.repeat(depth) + ']'.repeat(depth);
    if (kind === 'object') return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    if (kind === 'mixed') return '[{"a":'.repeat(depth) + '1' + '}]'.repeat(depth);
    return '['.repeat(depth);
  });

const bodyArb = (freshId: () => bigint): fc.Arbitrary<{ bytes: Buffer; plant?: { name: string; tag?: string } }> =>
  fc.oneof(
    { weight: 6, arbitrary: newPlantArb(freshId).map(({ text, plant }) => ({ bytes: Buffer.from(text), plant })) },
    { weight: 2, arbitrary: jsonText.map((text) => ({ bytes: Buffer.from(text) })) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => ({ bytes: Buffer.from(JSON.stringify(v) ?? 'null') })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => ({ bytes: Buffer.from(a) })) },
    { weight: 1, arbitrary: deepNesting.map((text) => ({ bytes: Buffer.from(text) })) },
    {
      // Long strings: some under the body limit, some over it.
      weight: 1,
      arbitrary: fc
        .record({
          length: fc.integer({ min: 1000, max: FUZZ_BODY_LIMIT * 2 }),
          char: fc.constantFrom('a', '\u00e9', '\ud83c\udf35', '\\u0000'),
        })
        .map(({ length, char }) => ({
          bytes: Buffer.from(`{"id":1,"name":"${char.repeat(Math.ceil(length / Buffer.byteLength(char)))}"}`),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '',
          ' ',
          '\ufeff{"id":1,"name":"a"}',
          '{"id":1,"name":"a"} x',
          '{"id":1,"name":"a"}{}',
          "{'id':1}",
          '{"id":1,"name":"\ud800"}',
          '{"id":01,"name":"a"}',
          '{"id":1,"name":"a",}',
          'NaN',
          '{"id":Infinity,"name":"a"}',
        )
        .map((text) => ({ bytes: Buffer.from(text) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          Buffer.from([0xff, 0xfe]),
          Buffer.from('{"id":1,"name":"\xc3\x28"}', 'latin1'),
          Buffer.from([0xc0, 0x80]),
          Buffer.from([0xed, 0xa0, 0x80]),
        )
        .map((bytes) => ({ bytes })),
    },
  );

/**
 * Requests over every header the API reads and every body shape above.
 * `freshId` hands out ids never used before, so a valid NewPlant must be stored.
 */
export function fuzzRequestArb(freshId: () => bigint): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: methodArb,
      path: pathArb,
      authorization: authorizationArb,
      contentType: contentTypeArb,
      body: fc.option(bodyArb(freshId), { nil: undefined, freq: 10 }),
      contentLength: fc.oneof(
        { weight: 9, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom('0', '1', '-1', 'abc', '1e3', '99999999999999999999', ' 5', '0x10') },
      ),
      extraHeaders: fc.dictionary(
        fc.constantFrom(
          'x-forwarded-for',
          'accept',
          'accept-encoding',
          'expect',
          'connection',
          'te',
          'x-http-method-override',
          'cookie',
          'origin',
        ),
        headerText(40),
        { maxKeys: 2 },
      ),
    })
    .map(({ method, path, authorization, contentType, body, contentLength, extraHeaders }) => {
      const headers: Record<string, string> = { ...extraHeaders };
      if (authorization.value !== undefined) headers.authorization = authorization.value;
      if (contentType.value !== undefined) headers['content-type'] = contentType.value;
      let lengthMismatch = false;
      if (contentLength !== undefined) {
        headers['content-length'] = contentLength;
        lengthMismatch = contentLength !== String(body?.bytes.length ?? 0);
      }
      const intent: Intent = {
        path: path.kind,
        auth: authorization.valid ? 'valid' : 'invalid',
        contentType: contentType.json ? 'json' : 'other',
        lengthMismatch,
      };
      if (body?.plant) intent.plant = body.plant;
      const request: FuzzRequest = { method, url: path.url, headers, intent };
      if (body !== undefined) request.payload = body.bytes;
      return request;
    });
}

const ANY_DOCUMENTED_BUT_SERVER_ERRORS = new Set([200, 400, 401, 404, 405, 408, 413, 415, 431]);

/**
 * The statuses a request may get, following the order of checks (docs/server.md):
 * routing (404, 405), credentials (401), content type (415), size (413),
 * JSON and schema (400), then the store.
 */
export function expectationFor(request: FuzzRequest, bodyLimit = FUZZ_BODY_LIMIT): AnswerExpectation {
  const expectation = statusesFor(request, bodyLimit);
  if (request.intent.path === 'health' && request.method === 'GET') expectation.health = true;
  if (request.method === 'HEAD') expectation.head = true;
  return expectation;
}

function statusesFor(request: FuzzRequest, bodyLimit: number): AnswerExpectation {
  const { intent } = request;
  const only = (...statuses: number[]): AnswerExpectation => ({ statuses: new Set(statuses) });
  if (intent.path === 'odd' || intent.lengthMismatch) return { statuses: ANY_DOCUMENTED_BUT_SERVER_ERRORS };
  if (intent.path === 'other') return only(404);
  // GET /__health answers {"status":"ok",…}; a body sent with it is still parsed.
  if (intent.path === 'health') return request.method === 'GET' ? only(200, 400, 413, 415) : only(404);
  if (request.method !== 'POST') return only(405);
  if (intent.auth === 'invalid') return only(401);
  const size = request.payload?.length ?? 0;
  // No body: 400 (body required); a Content-Type that is not even a media
  // type is refused by the framework first, with 415.
  if (size === 0)
    return request.headers['content-type'] !== undefined && intent.contentType !== 'json' ? only(400, 415) : only(400);
  if (intent.contentType !== 'json') return only(415);
  if (size > bodyLimit) return only(413);
  if (intent.plant) return { statuses: new Set([200]), plant: intent.plant };
  return only(200, 400);
}

/** Hands out int64 ids in order from a start, none twice. */
export function idSequence(start: bigint): () => bigint {
  let next = start;
  return () => next++;
}
