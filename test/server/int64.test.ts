// ids are integer int64: exact over the whole range, as the specification types them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { app, assertError, post } from './support.js';

test('the int64 edges are accepted and stored exactly', async () => {
  const server = app();
  for (const id of ['-9223372036854775808', '9223372036854775807']) {
    const response = await post(server, `{"id": ${id}, "name": "edge"}`);
    assert.equal(response.statusCode, 200, id);
    assert.deepEqual(await server.plantStore.get(id), { name: 'edge' });
  }
});

test('one beyond either end is 400', async () => {
  for (const id of [
    '-9223372036854775809',
    '9223372036854775808',
    '1e19',
    '1e400',
    '-1e400',
    '123456789012345678901234567890',
  ]) {
    const error = assertError(await post(app(), `{"id": ${id}, "name": "x"}`), 400, 40003);
    assert.match(error.message, /\/id must be an integer/, id);
  }
});

test('2^53 + 1 is stored as itself, a different plant from 2^53', async () => {
  const server = app();
  assert.equal((await post(server, '{"id": 9007199254740992, "name": "even"}')).statusCode, 200);
  assert.equal((await post(server, '{"id": 9007199254740993, "name": "odd"}')).statusCode, 200);
  assert.deepEqual(await server.plantStore.get('9007199254740992'), { name: 'even' });
  assert.deepEqual(await server.plantStore.get('9007199254740993'), { name: 'odd' });
  const again = assertError(await post(server, '{"id": 9007199254740993, "name": "again"}'), 400, 40004);
  assert.match(again.message, /9007199254740993/);
});

test('integral numerals are integers (JSON Schema 2020-12): 5.0, 5e2, 50E-1, -0', async () => {
  const server = app();
  const cases: Array<[string, string]> = [
    ['5.0', '5'],
    ['5e2', '500'],
    ['50E-1', '5'],
    ['-0', '0'],
    ['1.5e1', '15'],
    ['9.223372036854775807e18', '9223372036854775807'],
  ];
  for (const [numeral, stored] of cases) {
    await server.plantStore.clear();
    const response = await post(server, `{"id": ${numeral}, "name": "n"}`);
    assert.equal(response.statusCode, 200, numeral);
    assert.ok(await server.plantStore.get(stored), `${numeral} stored as ${stored}`);
  }
});

test('0 and negative ids are valid', async () => {
  const server = app();
  assert.equal((await post(server, { id: 0, name: 'zero' })).statusCode, 200);
  assert.equal((await post(server, { id: -42, name: 'negative' })).statusCode, 200);
  // -0 is the integer 0, already stored.
  assertError(await post(server, '{"id": -0, "name": "z"}'), 400, 40004);
});
