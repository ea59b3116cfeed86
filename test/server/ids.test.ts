// Ids of any kind, as a client team meets them, on both stores: an id the
// server picks (server-id.yaml: readOnly, 201 with Location), and a string
// id the client chooses (uuid-id.yaml: format uuid). Every answer is judged
// against the document (client.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../server/app.js';
import { Client, documentFixture } from './client.js';
import { useStoreKinds } from './store-kinds.js';
import { TOKEN } from './support.js';

const { kinds, databases, postgres } = useStoreKinds();
const SERVER_ID = documentFixture('server-id.yaml');
const UUID_ID = documentFixture('uuid-id.yaml');
const LOCATION = /^\/plants\/([1-9]\d*)$/;

for (const [kind, make, options] of kinds) {
  describe(`ids: ${kind}`, options, () => {
    test(
      'server-id.yaml: the server picks each id from 1, answers 201 with Location, and the id reads back there',
      { timeout: 120_000 },
      async () => {
        const app = buildApp({ specPath: SERVER_ID, tokens: [TOKEN], store: await make() });
        const client = new Client(app, SERVER_ID);
        const monstera = { name: 'Monstera', tag: 'tropical' };
        const first = await client.send(
          'create a plant',
          'POST',
          '/plants',
          { status: 201, headers: { location: LOCATION } },
          { body: monstera },
        );
        const second = await client.send(
          'the same body again',
          'POST',
          '/plants',
          { status: 201, headers: { location: LOCATION } },
          { body: monstera },
        );
        const [one, two] = [first, second].map((answer) => Number(LOCATION.exec(String(answer.headers.location))![1]));
        assert.equal(one, 1, 'the first id is the schema minimum, 1');
        assert.notEqual(two, one, 'a second create of the same body is a second plant');
        assert.deepEqual(first.json(), { id: one, ...monstera }, 'the answer carries the id, first');
        await client.send('read the first where Location says', 'GET', `/plants/${one}`, {
          status: 200,
          json: { id: one, ...monstera },
        });
        await client.send('read the second', 'GET', String(second.headers.location), {
          status: 200,
          json: { id: two, ...monstera },
        });
        await client.send('list them', 'GET', '/plants', {
          status: 200,
          json: [
            { id: one, ...monstera },
            { id: two, ...monstera },
          ],
        });
        await client.send('list one', 'GET', '/plants?limit=1', { status: 200, json: [{ id: one, ...monstera }] });
        await client.send('read an id it never gave', 'GET', '/plants/999', { status: 404, error: 40402 });
        const sent = await client.send(
          'an id sent anyway (it is readOnly): the server picks one',
          'POST',
          '/plants',
          { status: 201, headers: { location: LOCATION } },
          { body: { id: 77, name: 'Fern' } },
        );
        const three = Number(LOCATION.exec(String(sent.headers.location))![1]);
        assert.notEqual(three, 77);
        assert.deepEqual(sent.json(), { id: three, name: 'Fern' }, 'one id member, the one the server picked');
        await client.send('a name too short', 'POST', '/plants', { status: 400, error: 40003 }, { body: { name: '' } });
        await client.send(
          'without credentials',
          'POST',
          '/plants',
          { status: 401, error: 40101 },
          { body: monstera, credentials: false },
        );
        await client.send('delete the first', 'DELETE', `/plants/${one}`, { status: 204, empty: true });
        await client.send('read it after', 'GET', `/plants/${one}`, { status: 404, error: 40402 });
        await client.send('delete it again', 'DELETE', `/plants/${one}`, { status: 404, error: 40402 });
        const next = await client.send(
          'a create after the delete',
          'POST',
          '/plants',
          { status: 201 },
          { body: monstera },
        );
        assert.ok(
          Number(LOCATION.exec(String(next.headers.location))![1]) > three,
          'an id is never given twice, a removed one included',
        );
      },
    );

    test(
      'uuid-id.yaml: a UUID the client chooses is the id, exactly as sent; a create without a UUID is 400',
      { timeout: 120_000 },
      async () => {
        const app = buildApp({ specPath: UUID_ID, tokens: [TOKEN], store: await make() });
        const client = new Client(app, UUID_ID);
        const upper = '6F9619FF-8B86-D011-B42D-00C04FC964FF';
        const lower = '0f8fad5b-d9cb-469f-a165-70867728950e';
        await client.send(
          'create a plant under an upper-case UUID',
          'POST',
          '/plants',
          { status: 200, json: { name: 'Monstera' } },
          { body: { id: upper, name: 'Monstera' } },
        );
        await client.send(
          'create another',
          'POST',
          '/plants',
          { status: 200, json: { name: 'Fern', tag: 'shade' } },
          { body: { id: lower, name: 'Fern', tag: 'shade' } },
        );
        await client.send('read it by its UUID as sent', 'GET', `/plants/${upper}`, {
          status: 200,
          json: { name: 'Monstera' },
        });
        await client.send(
          'another letter case is another id (the id is the text sent)',
          'GET',
          `/plants/${upper.toLowerCase()}`,
          { status: 404, error: 40402 },
        );
        await client.send(
          'the same UUID again',
          'POST',
          '/plants',
          { status: 400, error: 40004 },
          { body: { id: upper, name: 'x' } },
        );
        await client.send(
          'an id that is not a UUID',
          'POST',
          '/plants',
          { status: 400, error: 40003 },
          { body: { id: 'not-a-uuid', name: 'x' } },
        );
        await client.send(
          'an integer id',
          'POST',
          '/plants',
          { status: 400, error: 40003 },
          { body: { id: 7, name: 'x' } },
        );
        await client.send('a path that is not a UUID', 'GET', '/plants/abc', { status: 400, error: 40007 });
        await client.send('a UUID never stored', 'GET', '/plants/00000000-0000-4000-8000-000000000000', {
          status: 404,
          error: 40402,
        });
        await client.send('list', 'GET', '/plants', {
          status: 200,
          json: [{ name: 'Monstera' }, { name: 'Fern', tag: 'shade' }],
        });
        await client.send('delete by UUID', 'DELETE', `/plants/${lower}`, { status: 204, empty: true });
        await client.send('read after the delete', 'GET', `/plants/${lower}`, { status: 404, error: 40402 });
        await client.send('list after the delete', 'GET', '/plants', { status: 200, json: [{ name: 'Monstera' }] });
      },
    );
  });
}

describe('ids the server picks, on one database shared by two servers', { skip: kinds[1]![2].skip }, () => {
  test(
    "every create of either server gets an id of its own: the sequence is the database's",
    { timeout: 120_000 },
    async () => {
      const url = await databases.fresh();
      const [left, right] = [
        buildApp({ specPath: SERVER_ID, tokens: [TOKEN], store: await postgres(1000, 1e9, url) }),
        buildApp({ specPath: SERVER_ID, tokens: [TOKEN], store: await postgres(1000, 1e9, url) }),
      ];
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 === 0 ? left : right).inject({
            method: 'POST',
            url: '/plants',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
            payload: JSON.stringify({ name: `plant ${i}` }),
          }),
        ),
      );
      assert.deepEqual([...new Set(answers.map((answer) => answer.statusCode))], [201]);
      const ids = answers.map((answer) => answer.json<{ id: number }>().id);
      assert.equal(new Set(ids).size, 40, `distinct: ${ids.join(', ')}`);
      assert.deepEqual(
        [...ids].sort((a, b) => a - b),
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      const read = await right.inject({
        method: 'GET',
        url: `/plants/${ids[0]}`,
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      assert.deepEqual(
        read.json(),
        { id: ids[0], name: 'plant 0' },
        'a plant one server created reads back on the other',
      );
    },
  );
});
