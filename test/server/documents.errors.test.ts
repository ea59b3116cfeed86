// A client's exchanges with the documents that declare their errors in
// another media type or schema than the Error record, and other schemes
// (test/fixtures/documents/: problem-json.yaml, oauth-scopes.yaml,
// cookie-session.yaml), on both stores: every refusal in the media type and
// the schema declared for its status (declared-exchanges.ts judges each),
// and the error's number where the shape has a place for it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../server/app.js';
import { runKeyedExchanges, type ErrorNumberOf, type KeyedExchange } from './declared-exchanges.js';
import { useStoreKinds } from './store-kinds.js';

const { kinds } = useStoreKinds();
const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/documents/${name}`, import.meta.url));

const TOKEN = 'plants-token-123';
const bearer = { authorization: `Bearer ${TOKEN}` };

/** problem-json.yaml: every refusal it declares as problem details; each problem's status is the answer's (the judge checks it). */
const PROBLEMS: KeyedExchange[] = [
  {
    label: 'create',
    method: 'POST',
    url: '/plants',
    headers: bearer,
    body: '{"id": 1, "name": "Fern"}',
    status: 200,
    json: { name: 'Fern' },
  },
  {
    label: 'create without credentials',
    method: 'POST',
    url: '/plants',
    body: '{"id": 2, "name": "Ivy"}',
    status: 401,
    challenge: 'Bearer realm="plantstore"',
    json: {
      type: 'about:blank',
      title: 'Unauthorized',
      status: 401,
      detail: 'Authentication required: send the header Authorization: Bearer <token>.',
    },
  },
  {
    label: 'a token not accepted',
    method: 'GET',
    url: '/plants',
    headers: { authorization: 'Bearer not-this-one' },
    status: 401,
    challenge: 'Bearer realm="plantstore", error="invalid_token"',
  },
  { label: 'a body without its name', method: 'POST', url: '/plants', headers: bearer, body: '{"id": 2}', status: 400 },
  {
    label: 'a duplicate id',
    method: 'POST',
    url: '/plants',
    headers: bearer,
    body: '{"id": 1, "name": "Fern"}',
    status: 400,
    json: { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'A plant with id 1 already exists.' },
  },
  { label: 'a body that is not JSON', method: 'POST', url: '/plants', headers: bearer, body: '{"id": ', status: 400 },
  { label: 'a limit that is not a number', method: 'GET', url: '/plants?limit=x', headers: bearer, status: 400 },
  { label: 'read a plant', method: 'GET', url: '/plants/1', headers: bearer, status: 200, json: { name: 'Fern' } },
  {
    label: 'read a plant not stored',
    method: 'GET',
    url: '/plants/7',
    headers: bearer,
    status: 404,
    json: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No plant has the id 7.' },
  },
  { label: 'an id that is not an integer', method: 'GET', url: '/plants/seven', headers: bearer, status: 400 },
  { label: 'delete', method: 'DELETE', url: '/plants/1', headers: bearer, status: 204, empty: true },
  { label: 'delete it again', method: 'DELETE', url: '/plants/1', headers: bearer, status: 404 },
  {
    label: 'a media type the create does not take: 415, which no operation declares: the Error record',
    method: 'POST',
    url: '/plants',
    headers: { ...bearer, 'content-type': 'text/plain' },
    body: 'Fern',
    status: 415,
    error: 41501,
  },
];

/** oauth-scopes.yaml: OAuth tokens as bearer tokens, the scope named in the challenge; every error as `default` declares it. */
const OAUTH: KeyedExchange[] = [
  {
    label: 'create with an access token',
    method: 'POST',
    url: '/plants',
    headers: bearer,
    body: '{"id": 1, "name": "Fern"}',
    status: 200,
  },
  {
    label: 'create without one: the challenge names the scope the create needs',
    method: 'POST',
    url: '/plants',
    body: '{"id": 2, "name": "Ivy"}',
    status: 401,
    error: 40101,
    challenge: 'Bearer realm="plantstore", scope="plants:write"',
    json: {
      error: {
        code: 40101,
        message: 'Authentication required: send the header Authorization: Bearer <token>.',
        status: 401,
      },
    },
  },
  {
    label: 'a token not accepted',
    method: 'GET',
    url: '/plants',
    headers: { authorization: 'Bearer expired-token' },
    status: 401,
    error: 40104,
    challenge: 'Bearer realm="plantstore", error="invalid_token", scope="plants:read"',
  },
  {
    label: 'Basic credentials, a scheme the document does not declare',
    method: 'GET',
    url: '/plants/1',
    headers: { authorization: 'Basic YTpi' },
    status: 401,
    error: 40102,
  },
  { label: 'the list', method: 'GET', url: '/plants', headers: bearer, status: 200, json: [{ name: 'Fern' }] },
  {
    label: 'a limit below its minimum',
    method: 'GET',
    url: '/plants?limit=0',
    headers: bearer,
    status: 400,
    error: 40007,
  },
  { label: 'read one', method: 'GET', url: '/plants/1', headers: bearer, status: 200, json: { name: 'Fern' } },
  { label: 'read one not stored', method: 'GET', url: '/plants/2', headers: bearer, status: 404, error: 40402 },
  { label: 'delete', method: 'DELETE', url: '/plants/1', headers: bearer, status: 204, empty: true },
];

const SESSION = 'session-abcdef-123456';
const withSession = { cookie: `plant_session=${SESSION}` };

/** cookie-session.yaml: the session cookie everywhere but the public list; refusals as vnd.error, `logref` the number. */
const COOKIE: KeyedExchange[] = [
  {
    label: 'create with the session',
    method: 'POST',
    url: '/plants',
    headers: withSession,
    body: '{"id": 1, "name": "Fern"}',
    status: 200,
  },
  {
    label: 'create with the session quoted (RFC 6265 §4.1.1)',
    method: 'POST',
    url: '/plants',
    headers: { cookie: `plant_session="${SESSION}"` },
    body: '{"id": 2, "name": "Ivy"}',
    status: 200,
  },
  {
    label: 'create without it',
    method: 'POST',
    url: '/plants',
    body: '{"id": 3, "name": "Palm"}',
    status: 401,
    error: 40101,
    challenge: 'APIKey realm="plantstore", in="cookie", name="plant_session"',
    json: { message: 'Authentication required: send the cookie plant_session.', logref: '40101' },
  },
  {
    label: 'create with a bearer token instead',
    method: 'POST',
    url: '/plants',
    headers: { authorization: 'Bearer a-token' },
    body: '{"id": 3, "name": "Palm"}',
    status: 401,
    error: 40102,
  },
  {
    label: 'create with a session the server did not give',
    method: 'POST',
    url: '/plants',
    headers: { cookie: 'plant_session=forged-session-1' },
    body: '{"id": 3, "name": "Palm"}',
    status: 401,
    error: 40107,
  },
  {
    label: 'a duplicate',
    method: 'POST',
    url: '/plants',
    headers: withSession,
    body: '{"id": 1, "name": "Fern"}',
    status: 400,
    error: 40004,
  },
  {
    label: 'the public list, without credentials',
    method: 'GET',
    url: '/plants',
    status: 200,
    json: [{ name: 'Fern' }, { name: 'Ivy' }],
  },
  { label: 'a limit below its minimum', method: 'GET', url: '/plants?limit=0', status: 400, error: 40007 },
  {
    label: 'delete one not stored',
    method: 'DELETE',
    url: '/plants/9',
    headers: withSession,
    status: 404,
    error: 40402,
  },
  { label: 'delete', method: 'DELETE', url: '/plants/1', headers: withSession, status: 204, empty: true },
];

const BASIC = { authorization: `Basic ${Buffer.from('gardener:secret-pass').toString('base64')}` };

/**
 * vnd-error-basic.yaml: HTTP Basic only; every refusal (400, and the range 4XX) as application/vnd.error+json
 * whose `logref` has a pattern (`^[a-z]+-[0-9]+$`) the error number's digits do not match: a string drawn from
 * the pattern, seeded by the error number (one condition, one logref). The judge validates each body.
 */
const VND_BASIC: KeyedExchange[] = [
  { label: 'create', method: 'POST', url: '/plants', headers: BASIC, body: '{"id": 1, "name": "Fern"}', status: 200 },
  { label: 'list', method: 'GET', url: '/plants', headers: BASIC, status: 200, json: [{ name: 'Fern' }] },
  {
    label: 'create without credentials',
    method: 'POST',
    url: '/plants',
    body: '{"id": 2, "name": "Ivy"}',
    status: 401,
    challenge: /^Basic realm="plantstore"/,
    json: {
      message: 'Authentication required: send the header Authorization: Basic <base64 of user-id:password>.',
      logref: 'p-410545',
    },
  },
  {
    label: 'a bearer token instead',
    method: 'GET',
    url: '/plants',
    headers: { authorization: 'Bearer a-token' },
    status: 401,
  },
  {
    label: 'a duplicate',
    method: 'POST',
    url: '/plants',
    headers: BASIC,
    body: '{"id": 1, "name": "Fern"}',
    status: 400,
  },
  ...['{}', '[]', '{"id": "1", "name": "Ivy"}', '{"id": 1.5, "name": "Ivy"}', 'nope', ''].map(
    (body, n): KeyedExchange => ({
      label: `a body not a NewPlant (${n})`,
      method: 'POST',
      url: '/plants',
      headers: BASIC,
      body,
      status: 400,
    }),
  ),
  { label: 'delete one not stored (4XX)', method: 'DELETE', url: '/plants/9', headers: BASIC, status: 404 },
  { label: 'delete', method: 'DELETE', url: '/plants/1', headers: BASIC, status: 204, empty: true },
  { label: 'delete without credentials', method: 'DELETE', url: '/plants/1', status: 401 },
];

const problemNumber: ErrorNumberOf = () => undefined;
const nestedNumber: ErrorNumberOf = (body) => (body as { error: { code: number } }).error.code;
const logrefNumber: ErrorNumberOf = (body) => Number((body as { logref: string }).logref);

for (const [kind, make, options] of kinds) {
  describe(`the exchanges of a client, errors as declared: ${kind}`, options, () => {
    for (const [file, exchanges, numberOf, settings] of [
      ['problem-json.yaml', PROBLEMS, problemNumber, { tokens: [TOKEN] }],
      ['oauth-scopes.yaml', OAUTH, nestedNumber, { tokens: [TOKEN] }],
      ['cookie-session.yaml', COOKIE, logrefNumber, { credentials: new Map([['session', [SESSION]]]) }],
      [
        'vnd-error-basic.yaml',
        VND_BASIC,
        problemNumber,
        { credentials: new Map([['basicAuth', ['gardener:secret-pass']]]) },
      ],
    ] as const) {
      test(`${file}: every exchange answered, every refusal as declared`, { timeout: 120_000 }, async () => {
        const app = buildApp({ specPath: fixture(file), ...settings, store: await make() });
        try {
          const answered = await runKeyedExchanges(app, fixture(file), exchanges, numberOf);
          assert.equal(answered, exchanges.length);
        } finally {
          await app.close();
        }
      });
    }
  });
}
