// Regression tests for what fuzzing found in the server.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { exchange, rawRequest } from '../../robustness/wire.js';

const TOKEN = 'regression-token';
let app: FastifyInstance;
let port: number;

before(async () => {
  app = buildApp({ tokens: [TOKEN], bodyLimit: 1024 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
after(() => app.close());

const json = (body: string): unknown => JSON.parse(body);

test('a body sent to an unknown path or with another method is not read: 404 and 405, not 400/413/415', async () => {
  // text/plain and bodies over the limit: had the body been read, the answer would be 415 or 413.
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'text/plain' };
  const cases = [
    { method: 'POST', url: '/plants/1', payload: 'not json', status: 404, error: 40401 },
    { method: 'POST', url: '/nowhere', payload: 'x'.repeat(5000), status: 404, error: 40401 },
    { method: 'PUT', url: '/plants', payload: 'not json', status: 405, error: 40501 },
    { method: 'DELETE', url: '/plants', payload: 'x'.repeat(5000), status: 405, error: 40501 },
  ] as const;
  for (const { method, url, payload, status, error } of cases) {
    const response = await app.inject({ method, url, payload, headers });
    assert.equal(response.statusCode, status, `${method} ${url}`);
    assert.equal((json(response.body) as { error: number }).error, error);
  }
});

test('a request target with bad percent-encoding: 400 with an Error record, not the framework body', async () => {
  for (const url of ['/%zz', '/plants%', '/%E0%A4%A']) {
    const response = await app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(response.statusCode, 400, url);
    assert.deepEqual(Object.keys(json(response.body) as object).sort(), ['error', 'message']);
    assert.equal((json(response.body) as { error: number }).error, 40005);
  }
});

test('an HTTP/1.1 request without Host: 400 with an Error record (RFC 9112 §3.2), not an empty body', async () => {
  const result = await exchange(port, Buffer.from('GET /plants HTTP/1.1\r\n\r\n'));
  assert.equal(result.responses[0]?.status, 400);
  assert.equal((json(result.responses[0]?.body ?? '') as { error: number }).error, 40005);
});

test('an Expect other than 100-continue is ignored (RFC 9110 §10.1.1 MAY), not answered 417 with an empty body', async () => {
  const body = Buffer.from('{"id":1,"name":"a"}');
  const result = await exchange(
    port,
    rawRequest(
      'POST /plants HTTP/1.1',
      [
        ['Host', 'a'],
        ['Authorization', `Bearer ${TOKEN}`],
        ['Content-Type', 'application/json'],
        ['Expect', 'teapot'],
        ['Content-Length', String(body.length)],
      ],
      body,
    ),
  );
  assert.equal(result.responses[0]?.status, 200);
  assert.equal(result.responses[0]?.body, '{"name":"a"}');
});

test('a complete request pipelined before a malformed one is answered before the 400, not cut off', async () => {
  const body = Buffer.from('{"id":2,"name":"b"}');
  const good = rawRequest(
    'POST /plants HTTP/1.1',
    [
      ['Host', 'a'],
      ['Authorization', `Bearer ${TOKEN}`],
      ['Content-Type', 'application/json'],
      ['Content-Length', String(body.length)],
    ],
    body,
  );
  const result = await exchange(port, Buffer.concat([good, good, Buffer.from('NOT HTTP\r\n\r\n')]));
  assert.deepEqual(
    result.responses.map((r) => r.status),
    [200, 400, 400],
  );
  assert.equal(result.responses[0]?.body, '{"name":"b"}');
  assert.equal((json(result.responses[1]?.body ?? '') as { error: number }).error, 40004); // the same id again
  assert.equal((json(result.responses[2]?.body ?? '') as { error: number }).error, 40006);
  assert.equal(result.leftover.length, 0);
});

test('CONNECT is answered 405 with an Error record, not dropped unanswered', async () => {
  for (const target of ['127.0.0.1:80', '/plants']) {
    const result = await exchange(port, Buffer.from(`CONNECT ${target} HTTP/1.1\r\nHost: a\r\n\r\n`));
    assert.equal(result.responses[0]?.status, 405, target);
    assert.equal(result.responses[0]?.headers.allow, 'POST');
    assert.equal((json(result.responses[0]?.body ?? '') as { error: number }).error, 40501);
  }
});

test('a create pipelined before a CONNECT is answered 200 before the 405, not cut off', async () => {
  const body = Buffer.from('{"id":3,"name":"c"}');
  const create = rawRequest(
    'POST /plants HTTP/1.1',
    [
      ['Host', 'a'],
      ['Authorization', `Bearer ${TOKEN}`],
      ['Content-Type', 'application/json'],
      ['Content-Length', String(body.length)],
    ],
    body,
  );
  const result = await exchange(
    port,
    Buffer.concat([create, Buffer.from('CONNECT /plants HTTP/1.1\r\nHost: a\r\n\r\n')]),
  );
  assert.deepEqual(
    result.responses.map((r) => r.status),
    [200, 405],
  );
  assert.equal(result.responses[0]?.body, '{"name":"c"}');
  assert.deepEqual(await app.plantStore.get('3'), { name: 'c' });
});

test('a create pipelined behind a 413 (which closes the connection) is not processed: no plant stored unanswered', async () => {
  const auth: Array<[string, string]> = [
    ['Host', 'a'],
    ['Authorization', `Bearer ${TOKEN}`],
    ['Content-Type', 'application/json'],
  ];
  const big = Buffer.from(`{"id":4,"name":"${'a'.repeat(2000)}"}`);
  for (const [i, chunked] of [false, true].entries()) {
    const oversized = chunked
      ? rawRequest(
          'POST /plants HTTP/1.1',
          [...auth, ['Transfer-Encoding', 'chunked']],
          Buffer.concat([Buffer.from(`${big.length.toString(16)}\r\n`), big, Buffer.from('\r\n0\r\n\r\n')]),
        )
      : rawRequest('POST /plants HTTP/1.1', [...auth, ['Content-Length', String(big.length)]], big);
    const body = Buffer.from(`{"id":${5 + i},"name":"e"}`);
    const result = await exchange(
      port,
      Buffer.concat([
        oversized,
        rawRequest('POST /plants HTTP/1.1', [...auth, ['Content-Length', String(body.length)]], body),
      ]),
    );
    assert.equal(result.responses[0]?.status, 413);
    const answered = result.responses.some((r) => r.status === 200);
    assert.equal(
      (await app.plantStore.get(String(5 + i))) !== undefined,
      answered,
      'a plant stored without its 200, or the reverse',
    );
  }
});

test('a malformed JSON body does not close the connection: a create pipelined behind it is answered', async () => {
  const auth: Array<[string, string]> = [
    ['Host', 'a'],
    ['Authorization', `Bearer ${TOKEN}`],
    ['Content-Type', 'application/json'],
  ];
  const body = Buffer.from('{"id":7,"name":"g"}');
  const result = await exchange(
    port,
    Buffer.concat([
      rawRequest('POST /plants HTTP/1.1', [...auth, ['Content-Length', '3']], Buffer.from('{x}')),
      rawRequest('POST /plants HTTP/1.1', [...auth, ['Content-Length', String(body.length)]], body),
    ]),
  );
  assert.deepEqual(
    result.responses.map((r) => r.status),
    [400, 200],
  );
  assert.deepEqual(await app.plantStore.get('7'), { name: 'g' });
});
