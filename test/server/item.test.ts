// The operations on one plant (server/operations/item.ts) with crud.yaml:
// exact int64 ids in the path, what a replace keeps, what a merge does, the
// caps through every change, and the answers for the wrong method, HEAD and
// the wrong media type.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { plantBytes } from '../../server/store/store.js';
import { app, assertError, AUTH, post } from './support.js';

const CRUD = fileURLToPath(new URL('../../../test/fixtures/operations/crud.yaml', import.meta.url));
const JSON_TYPE = { 'content-type': 'application/json' };
const MERGE = { 'content-type': 'application/merge-patch+json' };

const read = (server: FastifyInstance, id: string) =>
  server.inject({ method: 'GET', url: `/plants/${id}`, headers: AUTH });
const put = (server: FastifyInstance, id: string, body: string, headers: Record<string, string> = JSON_TYPE) =>
  server.inject({ method: 'PUT', url: `/plants/${id}`, headers: { ...AUTH, ...headers }, payload: body });
const patch = (server: FastifyInstance, id: string, body: string, headers: Record<string, string> = MERGE) =>
  server.inject({ method: 'PATCH', url: `/plants/${id}`, headers: { ...AUTH, ...headers }, payload: body });
const remove = (server: FastifyInstance, id: string) =>
  server.inject({ method: 'DELETE', url: `/plants/${id}`, headers: AUTH });

describe('the item operations', { timeout: 60_000 }, () => {
  test('path ids are exact int64: both ends, neighbours beyond 2^53 apart, leading zeros and -0 read as the integer; anything else 400 naming the parameter', async () => {
    const server = app({ specPath: CRUD });
    for (const id of ['9223372036854775807', '-9223372036854775808', '9007199254740993', '0'])
      assert.equal((await post(server, `{"id": ${id}, "name": "p${id}"}`)).statusCode, 200, id);
    assert.deepEqual((await read(server, '9223372036854775807')).json(), { name: 'p9223372036854775807' });
    assert.deepEqual((await read(server, '-9223372036854775808')).json(), { name: 'p-9223372036854775808' });
    assert.deepEqual((await read(server, '9007199254740993')).json(), { name: 'p9007199254740993' });
    assertError(await read(server, '9007199254740992'), 404, 40402);
    assert.deepEqual((await read(server, '-0')).json(), { name: 'p0' });
    assert.deepEqual((await read(server, '000')).json(), { name: 'p0' });
    for (const bad of [
      '9223372036854775808',
      '-9223372036854775809',
      'abc',
      '1.5',
      '1e3',
      '%20',
      '0x10',
      '99999999999999999999999999',
    ]) {
      const error = assertError(await read(server, bad), 400, 40007);
      assert.match(
        error.message,
        /^Path parameter id must be an integer from -9223372036854775808 to 9223372036854775807 \(int64\), got /,
        bad,
      );
    }
  });

  test('a replace keeps what Plant declares, as sent, and the plant keeps its place; its body is judged by the declared schema', async () => {
    const server = app({ specPath: CRUD });
    for (const [id, name] of [
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ] as const)
      await post(server, { id, name });
    const replaced = await put(server, '2', '{"tag":"t",  "name": "B", "colour": "green", "id": 2}');
    assert.equal(replaced.statusCode, 200);
    assert.equal(
      replaced.body,
      '{"tag":"t","name":"B"}',
      'the members Plant declares, in the order sent; the id and an undeclared member dropped',
    );
    assert.deepEqual((await server.inject({ method: 'GET', url: '/plants', headers: AUTH })).json(), [
      { name: 'a' },
      { tag: 't', name: 'B' },
      { name: 'c' },
    ]);
    assertError(await put(server, '2', '{"tag": "t"}'), 400, 40008);
    assertError(await put(server, '2', '[]'), 400, 40008);
    assertError(await put(server, '2', '{"name": "B", "id": "2"}'), 400, 40009);
    assertError(await put(server, '2', '{"name": "B", "id": 2.5}'), 400, 40009);
    assertError(
      await server.inject({ method: 'PUT', url: '/plants/2', headers: { ...AUTH, ...JSON_TYPE } }),
      400,
      40002,
    );
    assertError(await put(server, '2', '{"name": "B"', JSON_TYPE), 400, 40001);
    assertError(await put(server, '2', '{"name": "B"}', { 'content-type': 'text/plain' }), 415, 41501);
    assert.deepEqual((await read(server, '2')).json(), { tag: 't', name: 'B' }, 'nothing refused changed it');
  });

  test('a merge applies RFC 7396 to the stored plant; the patch and the merged plant are judged; the id cannot change; only the declared media type is taken', async () => {
    const server = app({ specPath: CRUD });
    await post(server, { id: 7, name: 'Fern', tag: 'shade' });
    const merged = await patch(server, '7', '{"tag": null}');
    assert.equal(merged.statusCode, 200);
    assert.equal(merged.body, '{"name":"Fern"}');
    assert.equal(
      (await patch(server, '7', '{"tag": "indoor", "id": 7}')).body,
      '{"name":"Fern","tag":"indoor"}',
      'the same id is no change',
    );
    assertError(await patch(server, '7', '{"id": 8}'), 400, 40009);
    assertError(await patch(server, '7', '{"id": null}'), 400, 40009);
    assertError(await patch(server, '7', '{}'), 400, 40008); // PlantPatch: minProperties 1
    const refused = assertError(await patch(server, '7', '{"tag": "x"}', JSON_TYPE), 415, 41501);
    assert.equal(refused.message, 'Unsupported media type: send Content-Type: application/merge-patch+json (UTF-8).');
    assert.deepEqual((await read(server, '7')).json(), { name: 'Fern', tag: 'indoor' });
  });

  test('the caps hold through every change: a replace that grows past the byte budget is 507 and changes nothing; a delete frees the plant and its bytes', async () => {
    const fern = plantBytes('1', '{"name":"Fern"}');
    const server = app({ specPath: CRUD, maxPlants: 2, maxBytes: 2 * fern });
    assert.equal((await post(server, { id: 1, name: 'Fern' })).statusCode, 200);
    assert.equal((await post(server, { id: 2, name: 'Fern' })).statusCode, 200);
    const full = assertError(await put(server, '1', '{"name": "Ferns"}'), 507, 50701);
    assert.match(full.message, /nothing was changed/);
    assertError(await patch(server, '1', '{"tag": "t"}'), 507, 50701);
    assert.deepEqual((await read(server, '1')).json(), { name: 'Fern' });
    assert.equal((await put(server, '1', '{"name": "Fen"}')).statusCode, 200, 'a shrinking plant always fits');
    assert.equal((await put(server, '2', '{"name": "Ferns"}')).statusCode, 200, 'into the byte the other gave back');
    assertError(await post(server, { id: 3, name: 'c' }), 507, 50701);
    assert.equal((await remove(server, '1')).statusCode, 204);
    assert.equal(
      (await post(server, { id: 3, name: 'Fer' })).statusCode,
      200,
      'the delete gave back a place and its bytes',
    );
    assert.deepEqual(await server.plantStore.usage(), { plants: 2, bytes: 2 * fern });
  });

  test('another method on a declared path is 405 with the methods declared there; HEAD is GET without the content', async () => {
    const server = app({ specPath: CRUD });
    await post(server, { id: 1, name: 'Fern' });
    const notAllowed = await server.inject({ method: 'POST', url: '/plants/1', headers: AUTH });
    assertError(notAllowed, 405, 40501);
    assert.equal(notAllowed.headers.allow, 'GET, PUT, DELETE, HEAD, PATCH');
    assertError(await server.inject({ method: 'POST', url: '/plants/abc', headers: AUTH }), 404, 40401); // no plant can have it: the id is an integer
    const onCollection = await server.inject({ method: 'DELETE', url: '/plants' });
    assertError(onCollection, 405, 40501);
    assert.equal(onCollection.headers.allow, 'GET, POST, HEAD');
    const head = await server.inject({ method: 'HEAD', url: '/plants/1', headers: AUTH });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assert.match(String(head.headers['content-type']), /^application\/json/);
    const anonymous = await server.inject({ method: 'HEAD', url: '/plants/1' });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.body, '');
  });
});
