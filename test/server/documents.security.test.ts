// A client's exchanges with the documents that declare other security
// schemes than a bearer token (test/fixtures/documents/: api-key.yaml,
// auth-alternatives.yaml), on both stores: each scheme enforced as
// declared, alternatives and combinations, `security: []`, and every 401
// with the declared body and a challenge of the scheme declared.
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../server/app.js';
import { recordNumber, runKeyedExchanges, type KeyedExchange } from './declared-exchanges.js';
import { useStoreKinds } from './store-kinds.js';

const { kinds } = useStoreKinds();
const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/documents/${name}`, import.meta.url));

const KEY = 'plant-key-1234567890';
const withKey = { 'x-api-key': KEY };
const KEY_CHALLENGE = 'APIKey realm="plantstore", in="header", name="X-API-Key"';

/** api-key.yaml: a key in X-API-Key for the list, the create and the delete; no bearer scheme. */
const API_KEY: KeyedExchange[] = [
  {
    label: 'create with the key',
    method: 'POST',
    url: '/plants',
    headers: withKey,
    body: '{"id": 1, "name": "Monstera"}',
    status: 200,
    json: { name: 'Monstera' },
  },
  {
    label: 'the header name in another letter case',
    method: 'POST',
    url: '/plants',
    headers: { 'X-API-KEY': KEY },
    body: '{"id": 2, "name": "Fern"}',
    status: 200,
  },
  {
    label: 'create without the key',
    method: 'POST',
    url: '/plants',
    body: '{"id": 3, "name": "Ivy"}',
    status: 401,
    error: 40101,
    challenge: KEY_CHALLENGE,
  },
  {
    label: 'the key sent as a bearer token instead',
    method: 'POST',
    url: '/plants',
    headers: { authorization: `Bearer ${KEY}` },
    body: '{"id": 3, "name": "Ivy"}',
    status: 401,
    error: 40102,
    challenge: KEY_CHALLENGE,
  },
  {
    label: 'a key not configured',
    method: 'POST',
    url: '/plants',
    headers: { 'x-api-key': 'another-key-0000' },
    body: '{"id": 3, "name": "Ivy"}',
    status: 401,
    error: 40107,
    challenge: KEY_CHALLENGE,
  },
  {
    label: 'an empty key',
    method: 'POST',
    url: '/plants',
    headers: { 'x-api-key': '' },
    body: '{"id": 3, "name": "Ivy"}',
    status: 401,
    error: 40107,
  },
  {
    label: 'a list with a bearer token and no key',
    method: 'GET',
    url: '/plants',
    headers: { authorization: 'Bearer some-token' },
    status: 401,
    error: 40102,
  },
  {
    label: 'a list with the key',
    method: 'GET',
    url: '/plants',
    headers: withKey,
    status: 200,
    json: [{ name: 'Monstera' }, { name: 'Fern' }],
  },
  { label: 'a delete without the key', method: 'DELETE', url: '/plants/1', status: 401, error: 40101 },
  { label: 'a delete with the key', method: 'DELETE', url: '/plants/1', headers: withKey, status: 204, empty: true },
  { label: 'the delete again', method: 'DELETE', url: '/plants/1', headers: withKey, status: 404, error: 40402 },
];

const basic = (pair: string) => ({ authorization: `Basic ${Buffer.from(pair, 'utf8').toString('base64')}` });
const ALICE = 'alice:green-thumb-42';
const QUERY_KEY = 'query-key-1234567';
const SESSION = 'admin-session-0987';
const CREATE_CHALLENGE =
  'Basic realm="plantstore", charset="UTF-8", APIKey realm="plantstore", in="query", name="api_key"';
const DELETE_CHALLENGE =
  'Basic realm="plantstore", charset="UTF-8", APIKey realm="plantstore", in="cookie", name="admin_session"';

/** auth-alternatives.yaml: Basic or a query key create; the list is public; a delete needs Basic and the admin cookie. */
const ALTERNATIVES: KeyedExchange[] = [
  {
    label: 'create with Basic',
    method: 'POST',
    url: '/plants',
    headers: basic(ALICE),
    body: '{"id": 1, "name": "Monstera"}',
    status: 200,
  },
  {
    label: 'create with the query key',
    method: 'POST',
    url: `/plants?api_key=${QUERY_KEY}`,
    body: '{"id": 2, "name": "Fern"}',
    status: 200,
  },
  {
    label: 'create with Basic that is not accepted, and the query key: one requirement met is enough',
    method: 'POST',
    url: `/plants?api_key=${QUERY_KEY}`,
    headers: basic('alice:wrong'),
    body: '{"id": 3, "name": "Ivy"}',
    status: 200,
  },
  {
    label: 'create with neither',
    method: 'POST',
    url: '/plants',
    body: '{"id": 4, "name": "Palm"}',
    status: 401,
    error: 40101,
    challenge: CREATE_CHALLENGE,
  },
  {
    label: 'create with a bearer token',
    method: 'POST',
    url: '/plants',
    headers: { authorization: 'Bearer a-token' },
    body: '{"id": 4, "name": "Palm"}',
    status: 401,
    error: 40102,
    challenge: CREATE_CHALLENGE,
  },
  {
    label: 'create with a Basic password not accepted',
    method: 'POST',
    url: '/plants',
    headers: basic('alice:wrong'),
    body: '{"id": 4, "name": "Palm"}',
    status: 401,
    error: 40106,
    challenge: CREATE_CHALLENGE,
  },
  {
    label: 'create with Basic credentials that are not base64 of user-id:password',
    method: 'POST',
    url: '/plants',
    headers: { authorization: `Basic ${Buffer.from('no colon').toString('base64')}` },
    body: '{"id": 4, "name": "Palm"}',
    status: 401,
    error: 40105,
  },
  {
    label: 'create with a query key not accepted',
    method: 'POST',
    url: '/plants?api_key=wrong-key-123',
    body: '{"id": 4, "name": "Palm"}',
    status: 401,
    error: 40107,
  },
  {
    label: 'create with the query key given twice',
    method: 'POST',
    url: `/plants?api_key=${QUERY_KEY}&api_key=${QUERY_KEY}`,
    body: '{"id": 4, "name": "Palm"}',
    status: 401,
    error: 40107,
  },
  {
    label: 'the public list, without credentials',
    method: 'GET',
    url: '/plants',
    status: 200,
    json: [{ name: 'Monstera' }, { name: 'Fern' }, { name: 'Ivy' }],
  },
  {
    label: 'a delete with Basic only',
    method: 'DELETE',
    url: '/plants/1',
    headers: basic(ALICE),
    status: 401,
    error: 40101,
    challenge: DELETE_CHALLENGE,
  },
  {
    label: 'a delete with the cookie only',
    method: 'DELETE',
    url: '/plants/1',
    headers: { cookie: `admin_session=${SESSION}` },
    status: 401,
    error: 40101,
  },
  {
    label: 'a delete with Basic and a cookie not accepted',
    method: 'DELETE',
    url: '/plants/1',
    headers: { ...basic(ALICE), cookie: 'admin_session=stale-session-1' },
    status: 401,
    error: 40107,
  },
  {
    label: 'a delete with the query key, which the delete does not take',
    method: 'DELETE',
    url: `/plants/1?api_key=${QUERY_KEY}`,
    status: 401,
    error: 40101,
  },
  {
    label: 'a delete with both, the cookie among others',
    method: 'DELETE',
    url: '/plants/1',
    headers: { ...basic(ALICE), cookie: `theme=dark; admin_session=${SESSION}` },
    status: 204,
    empty: true,
  },
  { label: 'the list after it', method: 'GET', url: '/plants', status: 200, json: [{ name: 'Fern' }, { name: 'Ivy' }] },
];

for (const [kind, make, options] of kinds) {
  describe(`the exchanges of a client, other schemes: ${kind}`, options, () => {
    test(
      'api-key.yaml: the key in its header is the credential, a bearer token is not',
      { timeout: 120_000 },
      async () => {
        const app = buildApp({
          specPath: fixture('api-key.yaml'),
          credentials: new Map([['plantKey', [KEY]]]),
          store: await make(),
        });
        try {
          await runKeyedExchanges(app, fixture('api-key.yaml'), API_KEY, recordNumber);
        } finally {
          await app.close();
        }
      },
    );

    test(
      'auth-alternatives.yaml: Basic or the query key; a public list; Basic and the cookie together',
      { timeout: 120_000 },
      async () => {
        const app = buildApp({
          specPath: fixture('auth-alternatives.yaml'),
          credentials: new Map([
            ['basicAuth', [ALICE]],
            ['queryKey', [QUERY_KEY]],
            ['adminSession', [SESSION]],
          ]),
          store: await make(),
        });
        try {
          await runKeyedExchanges(app, fixture('auth-alternatives.yaml'), ALTERNATIVES, recordNumber);
        } finally {
          await app.close();
        }
      },
    );
  });
}
