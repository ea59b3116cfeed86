// The stub's stages on every operation, not only the create (crud.yaml):
// Prefer answers what each operation declares, the delay holds each, one
// fault schedule serves the requests of every operation in the order they
// arrive, and a fault never changes the store.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Sleep } from '../../server/stub/index.js';
import { AUTH, createPlant, journalEntries, schedule, stubApp } from './helpers.js';

const CRUD = fileURLToPath(new URL('../../../test/fixtures/operations/crud.yaml', import.meta.url));
const MERGE = { ...AUTH, 'content-type': 'application/merge-patch+json' };

describe("the stub's stages on every operation", { timeout: 60_000 }, () => {
  test("Prefer: code= is judged against the operation's own declared statuses; its success status answers normally", async () => {
    const app = stubApp({ specPath: CRUD });
    await createPlant(app, { id: 1, name: 'Fern' });
    const read = (prefer: string) => app.inject({ method: 'GET', url: '/plants/1', headers: { ...AUTH, prefer } });
    const forced = await read('code=404');
    assert.equal(forced.statusCode, 404, 'the read declares 404');
    assert.deepEqual(forced.json(), { error: 40499, message: 'Answer requested by the header Prefer: code=404.' });
    assert.equal(forced.headers['preference-applied'], 'code=404');
    assert.deepEqual((await read('code=200')).json(), { name: 'Fern' }, 'the success status: the plant');
    const undeclared = await app.inject({
      method: 'DELETE',
      url: '/plants/1',
      headers: { ...AUTH, prefer: 'code=200' },
    });
    assert.equal(undeclared.statusCode, 400);
    assert.equal(
      undeclared.json().message,
      'Prefer: code=200 is not a response that DELETE /plants/{id} declares; declared: 204, 400; any error status from 400 to 599 is answered with an Error record.',
    );
    const removed = await app.inject({ method: 'DELETE', url: '/plants/1', headers: { ...AUTH, prefer: 'code=204' } });
    assert.equal(removed.statusCode, 204, 'the delete deletes');
    assert.equal((await read('code=200')).statusCode, 404);
  });

  test('a fault changes nothing: a replace, a merge and a delete answered 503 leave the plant as it was', async () => {
    const app = stubApp({ specPath: CRUD });
    await createPlant(app, { id: 1, name: 'Fern' });
    const busy = { prefer: 'code=503, retry-after=1' };
    assert.equal(
      (
        await app.inject({
          method: 'PUT',
          url: '/plants/1',
          headers: { ...AUTH, 'content-type': 'application/json', ...busy },
          payload: '{"name": "Palm"}',
        })
      ).statusCode,
      503,
    );
    assert.equal(
      (await app.inject({ method: 'PATCH', url: '/plants/1', headers: { ...MERGE, ...busy }, payload: '{"tag": "x"}' }))
        .statusCode,
      503,
    );
    assert.equal(
      (await app.inject({ method: 'DELETE', url: '/plants/1', headers: { ...AUTH, ...busy } })).statusCode,
      503,
    );
    assert.deepEqual((await app.inject({ method: 'GET', url: '/plants/1', headers: AUTH })).json(), { name: 'Fern' });
  });

  test('one schedule for every operation: its steps are taken by the requests in the order they arrive, whichever operation each asks for', async () => {
    const app = stubApp({ specPath: CRUD });
    await createPlant(app, { id: 1, name: 'Fern' });
    await schedule(app, [{ code: 503, retryAfter: 1 }, 'normal', { code: 429 }]);
    const answers = [
      await app.inject({ method: 'GET', url: '/plants', headers: AUTH }),
      await app.inject({ method: 'GET', url: '/plants/1', headers: AUTH }),
      await app.inject({ method: 'PATCH', url: '/plants/1', headers: MERGE, payload: '{"tag": "x"}' }),
      await app.inject({ method: 'PATCH', url: '/plants/1', headers: MERGE, payload: '{"tag": "y"}' }),
    ];
    assert.deepEqual(
      answers.map((res) => res.statusCode),
      [503, 200, 429, 200],
    );
    assert.equal(answers[0]!.headers['retry-after'], '1');
    assert.deepEqual(answers[3]!.json(), { name: 'Fern', tag: 'y' }, 'the merge the 429 refused was not made');
    const entries = await journalEntries(app);
    assert.deepEqual(
      entries.map(({ method, path, status, fault }) => [method, path, status, fault?.from ?? null]),
      [
        ['POST', '/plants', 200, null],
        ['GET', '/plants', 503, 'schedule'],
        ['GET', '/plants/1', 200, 'schedule'],
        ['PATCH', '/plants/1', 429, 'schedule'],
        ['PATCH', '/plants/1', 200, null],
      ],
    );
    // A request refused before the fault (a bad id) takes no step.
    await schedule(app, [{ code: 500 }]);
    assert.equal((await app.inject({ method: 'GET', url: '/plants/abc', headers: AUTH })).statusCode, 400);
    assert.equal((await app.inject({ method: 'GET', url: '/plants', headers: AUTH })).statusCode, 500);
  });

  test('the delay holds the requests of every operation once their credentials and parameters pass, not the ones refused', async () => {
    const waits: number[] = [];
    const sleep: Sleep = (ms) => {
      waits.push(ms);
      return Promise.resolve();
    };
    const app = stubApp({ specPath: CRUD, stub: { delayMs: 250, sleep } });
    await createPlant(app, { id: 1, name: 'Fern' });
    assert.equal((await app.inject({ method: 'GET', url: '/plants/1', headers: AUTH })).statusCode, 200);
    assert.equal((await app.inject({ method: 'DELETE', url: '/plants/1', headers: AUTH })).statusCode, 204);
    assert.equal((await app.inject({ method: 'GET', url: '/plants/1' })).statusCode, 401);
    assert.equal((await app.inject({ method: 'GET', url: '/plants/x', headers: AUTH })).statusCode, 400);
    assert.deepEqual(waits, [250, 250, 250], 'the create, the read and the delete waited; the 401 and the 400 did not');
  });
});
