// The request body: JSON per RFC 8259, required by the specification.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QUOTED_NAME_LIMIT } from '../../server/json/json.js';
import { app, assertError, freshId, post } from './support.js';

test('a body that is not JSON, or has trailing garbage, is 400 MALFORMED_JSON', async () => {
  const server = app();
  const id = freshId();
  for (const body of [
    '{',
    'nope',
    `{"id": ${id}, "name": "x"} garbage`,
    `{"id": ${id}, "name": "x"}{}`,
    `{"id": ${id}, "name": 'x'}`,
    `{"id": ${id}, "name": "x",}`,
    `{id: ${id}, "name": "x"}`,
    `{"id": 0${id}, "name": "x"}`,
    `{"id": +${id}, "name": "x"}`,
    `{"id": ${id}., "name": "x"}`,
    `{"id": NaN, "name": "x"}`,
    `{"id": ${id}, "name": "tab\tinside"}`,
    `{"id": ${id}, "name": "bad \\x escape"}`,
    `{"id": ${id}, "name": "\\u12"}`,
    '   ',
  ]) {
    const error = assertError(await post(server, body), 400, 40001);
    assert.match(error.message, /^Malformed JSON at position \d+: /, body);
  }
});

test('whitespace around the value is allowed (RFC 8259 §2)', async () => {
  const response = await post(app(), ` \n\t\r{ "id" : ${freshId()} , "name" : "x" } \n`);
  assert.equal(response.statusCode, 200);
});

test('a repeated member name is refused (RFC 7493 §2.3): two parsers must not read one request differently', async () => {
  const error = assertError(await post(app(), `{"id": ${freshId()}, "name": "a", "name": "b"}`), 400, 40001);
  assert.match(error.message, /"name" is repeated/);
  assertError(await post(app(), `{"id": 1, "id": 2, "name": "a"}`), 400, 40001);
});

test('a repeated member name of 500 KB is quoted shortened in the message, with its length', async () => {
  const long = 'k'.repeat(500_000);
  const response = await post(
    app({ bodyLimit: 2 * 1024 * 1024 }),
    `{"${long}": 1, "${long}": 2, "id": 1, "name": "a"}`,
  );
  const error = assertError(response, 400, 40001);
  assert.ok(response.body.length < 500, `an answer of ${response.body.length} bytes`);
  assert.match(
    error.message,
    new RegExp(`the member name "${'k'.repeat(QUOTED_NAME_LIMIT)}"… \\(500000 characters\\) is repeated`),
  );
});

test('member names that Object.prototype holds (__proto__, constructor, toString) are ordinary names: repeated only when repeated', async () => {
  const server = app();
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    assert.equal((await post(server, `{"id": ${freshId()}, "name": "a", "${name}": 1}`)).statusCode, 200, name);
    assertError(await post(server, `{"id": ${freshId()}, "name": "a", "${name}": 1, "${name}": 2}`), 400, 40001);
  }
});

test('nesting deeper than 64 levels is refused; 64 levels are fine', async () => {
  const deep = (n: number) => `{"id": ${freshId()}, "name": "x", "extra": ${'['.repeat(n)}${']'.repeat(n)}}`;
  assert.equal((await post(app(), deep(63))).statusCode, 200);
  const error = assertError(await post(app(), deep(100_000)), 400, 40001);
  assert.match(error.message, /nesting deeper than 64/);
});

test('a body that is not UTF-8 is refused (RFC 8259 §8.1)', async () => {
  const server = app();
  const payload = Buffer.concat([
    Buffer.from(`{"id": ${freshId()}, "name": "`),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('"}'),
  ]);
  const response = await server.inject({
    method: 'POST',
    url: '/plants',
    headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
    payload,
  });
  const error = assertError(response, 400, 40001);
  assert.match(error.message, /UTF-8/);
});

test('a leading byte order mark is ignored (RFC 8259 §8.1 allows it)', async () => {
  const response = await post(app(), `\ufeff{"id": ${freshId()}, "name": "x"}`);
  assert.equal(response.statusCode, 200);
});

test('no body, or an empty one, is 400 BODY_REQUIRED: "The request body is required"', async () => {
  const server = app();
  assertError(await post(server, undefined), 400, 40002);
  assertError(await post(server, ''), 400, 40002);
  assertError(await post(server, undefined, { 'content-type': undefined }), 400, 40002);
});
