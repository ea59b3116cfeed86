// Security: token checks (behaviour only; the constant-time comparison is
// by construction in server/security/auth.ts and is not timed here), limits on
// headers, bodies and the store, and no internals in any answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../server/app.js';
import { DEFAULT_MAX_PLANTS } from '../../server/limits.js';
import { readConfig } from '../../server/config.js';
import type { PlantStore } from '../../server/store/store.js';
import { answerProblems } from '../../robustness/answers.js';
import { exchange, rawRequest } from '../../robustness/wire.js';

const TOKENS = ['alpha-Token_1', 'beta.token/2+=='];

async function post(
  app: ReturnType<typeof buildApp>,
  authorization: string | undefined,
  payload: string,
  contentType = 'application/json',
) {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (authorization !== undefined) headers.authorization = authorization;
  return app.inject({ method: 'POST', url: '/plants', headers, payload });
}

test(
  'configured tokens are accepted; prefixes, suffixes, case changes and other tokens are not',
  { timeout: 60_000 },
  async () => {
    const app = buildApp({ tokens: TOKENS });
    let id = 0;
    for (const token of TOKENS) {
      const response = await post(app, `Bearer ${token}`, `{"id":${++id},"name":"a"}`);
      assert.equal(response.statusCode, 200, token);
    }
    const refused = [
      ...TOKENS.flatMap((t) => [
        t.slice(0, -1),
        t.slice(1),
        `${t}x`,
        `x${t}`,
        `${t}=`,
        t.toUpperCase(),
        t.toLowerCase(),
        t.slice(0, 1),
      ]),
      TOKENS.join(''),
      'alpha',
      'a'.repeat(10_000),
    ].filter((t) => !TOKENS.includes(t));
    for (const token of refused) {
      const response = await post(app, `Bearer ${token}`, `{"id":${++id},"name":"a"}`);
      assert.equal(response.statusCode, 401, token);
      // 40104 (not accepted), or 40103 when the variant is not even b64token syntax.
      assert.ok([40103, 40104].includes(response.json<{ error: number }>().error), token);
      assert.equal(response.headers['www-authenticate'], 'Bearer realm="plantstore", error="invalid_token"');
    }
    assert.equal((await app.plantStore.usage()).plants, TOKENS.length);
  },
);

test(
  'without configured tokens any well-formed token is accepted, and malformed ones still are not',
  { timeout: 60_000 },
  async () => {
    const app = buildApp();
    assert.equal((await post(app, 'Bearer anything.at-all', '{"id":1,"name":"a"}')).statusCode, 200);
    for (const authorization of [undefined, 'Bearer', 'Bearer a b', 'Bearer =abc', 'Basic YTpi']) {
      assert.equal((await post(app, authorization, '{"id":2,"name":"a"}')).statusCode, 401, String(authorization));
    }
  },
);

test(
  'credentials are checked before the body is read: an unauthenticated 1 MiB body gets 401, not 413',
  { timeout: 60_000 },
  async () => {
    const app = buildApp({ tokens: TOKENS, bodyLimit: 1000 });
    const response = await post(app, 'Bearer wrong', 'x'.repeat(1024 * 1024));
    assert.equal(response.statusCode, 401);
  },
);

test(
  'body limit: the limit itself is read, one byte more is 413 with an Error record, chunked too',
  { timeout: 60_000 },
  async () => {
    const limit = 200;
    const app = buildApp({ tokens: TOKENS, bodyLimit: limit });
    const atLimit = `{"id":1,"name":"${'a'.repeat(limit - 18)}"}`;
    assert.equal(Buffer.byteLength(atLimit), limit);
    assert.equal((await post(app, `Bearer ${TOKENS[0]}`, atLimit)).statusCode, 200);
    const over = await post(app, `Bearer ${TOKENS[0]}`, `{"id":2,"name":"${'a'.repeat(limit - 17)}"}`);
    assert.equal(over.statusCode, 413);
    assert.equal(over.json<{ error: number }>().error, 41301);

    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const body = Buffer.from(`{"id":3,"name":"${'a'.repeat(limit)}"}`);
    const chunked = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
    const result = await exchange(
      port,
      rawRequest(
        'POST /plants HTTP/1.1',
        [
          ['Host', 'a'],
          ['Authorization', `Bearer ${TOKENS[0]}`],
          ['Content-Type', 'application/json'],
          ['Transfer-Encoding', 'chunked'],
        ],
        chunked,
      ),
    );
    assert.equal(result.responses[0]?.status, 413);
    assert.equal(await app.plantStore.get('3'), undefined);
    await app.close();
  },
);

test('header limit: 16 KiB of headers over a socket is 431 with an Error record', { timeout: 60_000 }, async () => {
  const app = buildApp({ tokens: TOKENS });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const headers: Array<[string, string]> = [['Host', 'a']];
  for (let i = 0; i < 400; i++) headers.push([`X-Header-${i}`, 'v'.repeat(40)]);
  const result = await exchange(port, rawRequest('GET /plants HTTP/1.1', headers));
  await app.close();
  assert.equal(result.responses[0]?.status, 431);
  assert.deepEqual(
    answerProblems({ status: 431, headers: result.responses[0]?.headers ?? {}, body: result.responses[0]?.body ?? '' }),
    [],
  );
});

test(
  'the store maximum: past it a create is 507 with an Error record, and the store stops growing',
  { timeout: 60_000 },
  async () => {
    const app = buildApp({ tokens: TOKENS, maxPlants: 3 });
    const auth = `Bearer ${TOKENS[0]}`;
    for (let id = 1; id <= 3; id++) assert.equal((await post(app, auth, `{"id":${id},"name":"a"}`)).statusCode, 200);
    for (let id = 4; id <= 50; id++) {
      const response = await post(app, auth, `{"id":${id},"name":"a"}`);
      assert.equal(response.statusCode, 507);
      assert.deepEqual(response.json(), { error: 50701, message: 'The store is full: no more plants can be stored.' });
    }
    // A stored id is still a duplicate, not a full store.
    assert.equal((await post(app, auth, '{"id":2,"name":"a"}')).json<{ error: number }>().error, 40004);
    assert.equal((await app.plantStore.usage()).plants, 3);
  },
);

test('PLANTSTORE_MAX_PLANTS: default 1,000,000, 0 allowed, nonsense refused', { timeout: 60_000 }, () => {
  assert.equal(DEFAULT_MAX_PLANTS, 1_000_000);
  assert.equal(readConfig({}).maxPlants, 1_000_000);
  assert.equal(readConfig({ PLANTSTORE_MAX_PLANTS: '0' }).maxPlants, 0);
  assert.equal(readConfig({ PLANTSTORE_MAX_PLANTS: '25' }).maxPlants, 25);
  for (const bad of ['-1', '1.5', 'many', '1e6'])
    assert.throws(() => readConfig({ PLANTSTORE_MAX_PLANTS: bad }), /PLANTSTORE_MAX_PLANTS/);
});

test(
  'an unexpected failure is 500 with the bare Error record: no message, stack or path of the fault',
  { timeout: 60_000 },
  async () => {
    const failing: PlantStore = {
      create() {
        throw new TypeError("Cannot read properties of undefined (reading 'x') at /srv/app/node_modules/store.js:12:7");
      },
      createAll: () => 'created',
      get: () => undefined,
      read: () => undefined,
      update: () => 'missing',
      remove: () => undefined,
      list: () => ({ plants: [], next: null }),
      count: () => 0,
      items() {
        return this;
      },
      removeUnder: () => 0,
      nextNumbers: () => 1,
      clear: () => 0,
      usage: () => ({ plants: 0, bytes: 0 }),
      health: () => ({ store: 'failing', ok: true }),
      close: () => {},
    };
    const app = buildApp({ tokens: TOKENS, store: failing });
    const response = await post(app, `Bearer ${TOKENS[0]}`, '{"id":1,"name":"a"}');
    assert.equal(response.statusCode, 500);
    assert.equal(response.body, '{"error":50001,"message":"Internal server error."}');
  },
);
