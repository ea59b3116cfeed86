// The stub on every resource (orders.yaml, server-id.yaml): Prefer answers
// what an order's operation declares, the fault schedule and the journal
// take an order's requests as a plant's, a fault stores no order, the reset
// empties every resource, and the plants the controls store get their ids
// from the server where it picks them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixturePath } from '../support/fixtures.js';
import { AUTH, JSON_AUTH, journalEntries, schedule, stubApp } from './helpers.js';

const ORDERS = fixturePath('documents/orders.yaml');
const SERVER_ID = fixturePath('documents/server-id.yaml');
const NESTED = fixturePath('documents/nested.yaml');

describe('the stub on every resource', { timeout: 60_000 }, () => {
  test("orders.yaml: Prefer, the schedule's faults and the journal on an order's operations; a fault stores no order; the reset empties both resources", async () => {
    const app = stubApp({ specPath: ORDERS });
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url, headers: { ...JSON_AUTH, ...headers }, payload: JSON.stringify(body) });
    assert.equal((await post('/plants', { id: 7, name: 'Fern' })).statusCode, 200);
    const order = { id: 1, plantId: 7, quantity: 1 };
    const forced = await post('/orders', order, { prefer: 'code=422' });
    assert.equal(forced.statusCode, 422, "the order's create declares 422");
    assert.equal(forced.headers['preference-applied'], 'code=422');
    const undeclared = await app.inject({ method: 'GET', url: '/orders', headers: { ...AUTH, prefer: 'code=404' } });
    assert.equal(undeclared.statusCode, 404, 'an error status is answered whatever is declared');
    await schedule(app, [{ code: 503, retryAfter: 1 }]);
    const faulted = await post('/orders', order);
    assert.equal(faulted.statusCode, 503, "the schedule's next step takes the order's create");
    assert.deepEqual(
      (await app.inject({ method: 'GET', url: '/orders', headers: AUTH })).json(),
      [],
      'no order stored',
    );
    assert.equal((await post('/orders', order)).statusCode, 201, 'the schedule is spent: stored');
    const journaled = (await journalEntries(app)).map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
    assert.deepEqual(journaled, [
      'POST /plants 200',
      'POST /orders 422',
      'GET /orders 404',
      'POST /orders 503',
      'GET /orders 200',
      'POST /orders 201',
    ]);
    const reset = await app.inject({
      method: 'POST',
      url: '/__admin/reset',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(reset.json().plantsDeleted, 2, 'every item counted: a plant and an order');
    assert.deepEqual((await app.inject({ method: 'GET', url: '/orders', headers: AUTH })).json(), []);
    assert.deepEqual((await app.inject({ method: 'GET', url: '/plants', headers: AUTH })).json(), []);
  });

  test('nested.yaml: the plants live in gardens, which a list does not give: the controls refuse to store one, saying why', async () => {
    const app = stubApp({ specPath: NESTED });
    const refused = await app.inject({
      method: 'POST',
      url: '/__admin/plants',
      headers: { 'content-type': 'application/json' },
      payload: '[{"id": 1, "name": "Fern"}]',
    });
    assert.equal(refused.statusCode, 400);
    assert.match(
      refused.json().message,
      /the plants live under the gardenId of \/gardens\/\{gardenId\}\/plants, which a list does not give/,
    );
  });

  test('server-id.yaml: plants stored by the controls without ids get them from the server, as a create would', async () => {
    const app = stubApp({ specPath: SERVER_ID });
    const stored = await app.inject({
      method: 'POST',
      url: '/__admin/plants',
      headers: { 'content-type': 'application/json' },
      payload: '[{"name": "Fern"}, {"name": "Ivy", "tag": "climber"}]',
    });
    assert.deepEqual(stored.json(), { created: 2 });
    const listed = await app.inject({ method: 'GET', url: '/__admin/plants' });
    assert.deepEqual(listed.json(), {
      plants: [
        { id: '1', name: 'Fern' },
        { id: '2', name: 'Ivy', tag: 'climber' },
      ],
      next: null,
    });
    const created = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: JSON_AUTH,
      payload: '{"name":"Aloe"}',
    });
    assert.equal(created.headers.location, '/plants/3', 'the sequence goes on from the stored ones');
    assert.deepEqual((await app.inject({ method: 'GET', url: '/plants/2', headers: AUTH })).json(), {
      id: 2,
      name: 'Ivy',
      tag: 'climber',
    });
  });
});
