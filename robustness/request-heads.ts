// fast-check generators of a hostile request's head: its method, its path
// (with the kind of path it is, which decides the statuses it may get), and
// the headers the API reads (Authorization, Content-Type), each valid or
// broken in the ways a careless client breaks them.
import fc from 'fast-check';
import { FUZZ_TOKEN } from './fuzz-settings.js';

/** What a path is to the API: its operation, the health probe, a path it does not serve, or one whose routing is the framework's business. */
export type PathKind = 'api' | 'health' | 'other' | 'odd';

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

export const methodArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant('POST') },
  { weight: 2, arbitrary: fc.constantFrom(...KNOWN_METHODS) },
);

export const pathArb: fc.Arbitrary<{ url: string; kind: PathKind }> = fc.oneof(
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

/** Header values as bytes on the wire can be: visible ASCII, space, tab, obs-text (latin1). */
export const headerText = (maxLength: number) =>
  fc
    .array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constant(0x09), fc.integer({ min: 0x80, max: 0xff })), {
      maxLength,
    })
    .map((codes) => String.fromCharCode(...codes));

const b64token = fc.stringMatching(/^[A-Za-z0-9\-._~+/]{1,40}=*$/);

export const authorizationArb: fc.Arbitrary<{ value?: string; valid: boolean }> = fc.oneof(
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

export const contentTypeArb: fc.Arbitrary<{ value?: string; json: boolean }> = fc.oneof(
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
