// Idempotency keys and a declared conflict, as a client team meets them, on
// both stores (idempotency.yaml): a create without the key is 400; a retry
// with the same key and body gets the first answer and stores nothing more;
// the same key with another body is the declared 422; a new key with a
// stored id is the declared 409. Then the keys' bounds (count, bytes, age).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../server/app.js';
import { IDEMPOTENCY_IN_FLIGHT_MS } from '../../server/limits.js';
import { IdempotencyKeys } from '../../server/operations/idempotency.js';
import { Client, documentFixture } from './client.js';
import { useStoreKinds } from './store-kinds.js';
import { TOKEN } from './support.js';

const { kinds } = useStoreKinds();
const IDEMPOTENCY = documentFixture('idempotency.yaml');
const SERVER_ID = documentFixture('server-id.yaml');

for (const [kind, make, options] of kinds) {
  describe(`idempotency keys: ${kind}`, options, () => {
    test(
      'idempotency.yaml: one key, one body: the first answer again and one plant; another body: 422; a stored id under a new key: 409',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        const app = buildApp({ specPath: IDEMPOTENCY, tokens: [TOKEN, 'another-client'], store });
        const client = new Client(app, IDEMPOTENCY);
        const fern = { id: 1, name: 'Fern' };
        await client.send('a create without the key', 'POST', '/plants', { status: 400, error: 40007 }, { body: fern });
        const first = await client.send(
          'create with a key',
          'POST',
          '/plants',
          { status: 200, json: { name: 'Fern' } },
          { body: fern, headers: { 'idempotency-key': 'k-1' } },
        );
        const again = await client.send(
          'the retry: same key, same body',
          'POST',
          '/plants',
          { status: 200, json: { name: 'Fern' } },
          { body: fern, headers: { 'idempotency-key': 'k-1' } },
        );
        assert.equal(again.body, first.body, 'the first answer, byte for byte');
        assert.equal(again.headers['content-type'], first.headers['content-type']);
        assert.equal((await store.usage()).plants, 1, 'nothing stored again');
        await client.send(
          'the same key, another body',
          'POST',
          '/plants',
          { status: 422, error: 42202 },
          { body: { id: 2, name: 'Ivy' }, headers: { 'idempotency-key': 'k-1' } },
        );
        await client.send(
          'a new key, a stored id',
          'POST',
          '/plants',
          { status: 409, error: 40901 },
          { body: { id: 1, name: 'Ivy' }, headers: { 'idempotency-key': 'k-2' } },
        );
        await client.send(
          'the key of a refused create is free: the retry is done again, and refused again',
          'POST',
          '/plants',
          { status: 409, error: 40901 },
          { body: { id: 1, name: 'Ivy' }, headers: { 'idempotency-key': 'k-2' } },
        );
        await client.send(
          'another client, the same key: its own',
          'POST',
          '/plants',
          { status: 200, json: { name: 'Ivy' } },
          {
            body: { id: 2, name: 'Ivy' },
            headers: { 'idempotency-key': 'k-1', authorization: 'Bearer another-client' },
          },
        );
        await client.send(
          'a key the schema refuses (too long)',
          'POST',
          '/plants',
          { status: 400, error: 40007 },
          { body: { id: 3, name: 'x' }, headers: { 'idempotency-key': 'k'.repeat(256) } },
        );
        await client.send('list: one of each', 'GET', '/plants', {
          status: 200,
          json: [{ name: 'Fern' }, { name: 'Ivy' }],
        });
        await client.send('a retry after a delete still gets the first answer (nothing done)', 'DELETE', '/plants/1', {
          status: 204,
        });
        await client.send(
          'the retry',
          'POST',
          '/plants',
          { status: 200, json: { name: 'Fern' } },
          { body: fern, headers: { 'idempotency-key': 'k-1' } },
        );
        await client.send('list: the retry created nothing', 'GET', '/plants', {
          status: 200,
          json: [{ name: 'Ivy' }],
        });
      },
    );
  });
}

describe('idempotency keys, as any document may declare them', { timeout: 60_000 }, () => {
  test('a document that declares no Idempotency-Key (server-id.yaml): the header does nothing', async () => {
    const app = buildApp({ specPath: SERVER_ID, tokens: [TOKEN] });
    const send = () =>
      app.inject({
        method: 'POST',
        url: '/plants',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'idempotency-key': 'one' },
        payload: '{"name":"Fern"}',
      });
    const [a, b] = [await send(), await send()];
    assert.notEqual(a.headers.location, b.headers.location, 'undeclared, the key is not read');
  });

  test('the keys are bounded: the oldest goes past the count or the bytes, a key past its age is forgotten, an unanswered one after a minute', () => {
    let now = 0;
    const keys = new IdempotencyKeys(3, 4096, 100_000, () => now);
    const answer = (body: string) => ({ status: 201, headers: { location: '/x' }, body });
    for (const key of ['a', 'b', 'c', 'd']) {
      keys.start(key, 'f');
      keys.finish(key, answer('{}'));
    }
    assert.equal(keys.size, 3);
    assert.equal(keys.find('a'), undefined, 'the oldest went past the count');
    keys.start('big', 'f');
    keys.finish('big', answer('x'.repeat(3000)));
    assert.equal(keys.find('b'), undefined, 'past the bytes, the oldest went');
    assert.ok(keys.find('big') !== undefined);
    keys.start('huge', 'f');
    keys.finish('huge', answer('x'.repeat(5000)));
    assert.equal(keys.find('huge'), undefined, 'an answer larger than the whole budget is not kept');
    now = 100_001;
    assert.equal(keys.find('big'), undefined, 'past its age');
    keys.start('lost', 'f');
    now += IDEMPOTENCY_IN_FLIGHT_MS - 1;
    assert.ok(keys.find('lost') !== undefined, 'still being answered');
    keys.start('lost-too', 'f');
    now += 2;
    assert.equal(keys.find('lost'), undefined, 'unanswered past a minute: a retry is done again');
  });
});
