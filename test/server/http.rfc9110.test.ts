// HTTP semantics around the one operation: RFC 9110.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { app, AUTH, assertError, freshId, post } from './support.js';

test(
  'other methods on /plants: 405 with Allow: POST (RFC 9110 §15.5.6), credentials or not',
  { timeout: 60_000 },
  async () => {
    const server = app();
    for (const method of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'TRACE'] as const) {
      for (const headers of [{}, AUTH]) {
        // light-my-request 6.6 (pinned for Node 20) types fewer methods than it sends: PROPFIND goes out all the same.
        const response = await server.inject({ method: method as 'GET', url: '/plants', headers });
        assert.equal(response.statusCode, 405, method);
        assert.equal(response.headers.allow, 'POST', method);
        if (method !== 'HEAD') assertError(response, 405, 40501);
      }
    }
    const withQuery = await server.inject({ method: 'GET', url: '/plants?limit=1' });
    assertError(withQuery, 405, 40501);
  },
);

test('unknown paths: 404 with an Error body', { timeout: 60_000 }, async () => {
  const server = app();
  for (const url of ['/', '/plant', '/plants/', '/plants/1', '/PLANTS', '/v1/plants', '/__admin/unknown']) {
    assertError(await server.inject({ method: 'POST', url, headers: AUTH }), 404, 40401);
  }
});

test('a Content-Type other than application/json is 415 (RFC 9110 §15.5.16)', { timeout: 60_000 }, async () => {
  const server = app();
  const body = { id: freshId(), name: 'x' };
  for (const type of [
    'text/plain',
    'application/xml',
    'application/x-www-form-urlencoded',
    'application/jsonx',
    'application/json-patch+json',
    'application/json; charset=latin1',
    'multipart/form-data; boundary=x',
  ]) {
    assertError(await post(server, body, { 'content-type': type }), 415, 41501);
  }
  assertError(await post(server, body, { 'content-type': undefined }), 415, 41501);
});

test('application/json in any case and with parameters is accepted', { timeout: 60_000 }, async () => {
  const server = app();
  for (const type of [
    'application/json',
    'Application/JSON',
    'application/json; charset=utf-8',
    'application/json;charset="UTF-8"',
    'application/json; profile=x',
  ]) {
    const response = await post(server, { id: freshId(), name: 'x' }, { 'content-type': type });
    assert.equal(response.statusCode, 200, type);
  }
});

test('a body over the limit is 413 (RFC 9110 §15.5.14); the default limit is 1 MiB', { timeout: 60_000 }, async () => {
  const small = app({ bodyLimit: 64 });
  const error = assertError(await post(small, { id: freshId(), name: 'x'.repeat(100) }), 413, 41301);
  assert.match(error.message, /64 bytes/);
  const server = app();
  const justUnder = { id: freshId(), name: 'x'.repeat(1024 * 1024 - 40) };
  assert.equal((await post(server, justUnder)).statusCode, 200);
  assertError(await post(server, { id: freshId(), name: 'x'.repeat(1024 * 1024) }), 413, 41301);
});

test('the health endpoint answers without credentials, outside the API paths', { timeout: 60_000 }, async () => {
  const response = await app().inject({ method: 'GET', url: '/__health' });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), { status: 'ok', store: 'memory' });
});

test('an unexpected failure is 500 with the Error record and no internals', { timeout: 60_000 }, async () => {
  const server = app({
    store: {
      create() {
        throw new Error('disk on fire at /secret/path.js:12');
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
    },
  });
  const response = await post(server, { id: freshId(), name: 'x' });
  const error = assertError(response, 500, 50001);
  assert.equal(error.message, 'Internal server error.');
  assert.doesNotMatch(response.body, /fire|secret|\.js|at /);
});
