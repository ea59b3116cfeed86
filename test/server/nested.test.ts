// Several resources, as a client team meets them, on both stores: a nested
// resource (nested.yaml: plants live in gardens, each under its own), and a
// second resource that refers to the first (orders.yaml: an order names a
// stored plant, 422 where it does not). Every answer is judged against the
// document (client.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { buildApp } from '../../server/app.js';
import { Client, documentFixture } from './client.js';
import { useStoreKinds } from './store-kinds.js';
import { TOKEN } from './support.js';

const { kinds } = useStoreKinds();
const NESTED = documentFixture('nested.yaml');
const ORDERS = documentFixture('orders.yaml');
const dir = mkdtempSync(join(tmpdir(), 'plantstore-nested-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** nested.yaml with a DELETE of a garden. */
function withGardenDelete(): string {
  const text = readFileSync(NESTED, 'utf8');
  const anchor = '  /gardens/{gardenId}/plants:\n';
  assert.ok(text.includes(anchor));
  const path = join(dir, 'nested-delete.yaml');
  writeFileSync(
    path,
    text.replace(
      anchor,
      `    delete:\n      operationId: deleteGarden\n      parameters:\n        - $ref: '#/components/parameters/GardenId'\n      responses:\n        '204':\n          description: Gone, with its plants\n${anchor}`,
    ),
  );
  return path;
}

for (const [kind, make, options] of kinds) {
  describe(`several resources: ${kind}`, options, () => {
    test(
      'nested.yaml: a plant lives in its garden only; a garden that does not exist is 404',
      { timeout: 120_000 },
      async () => {
        const app = buildApp({ specPath: NESTED, tokens: [TOKEN], store: await make() });
        const client = new Client(app, NESTED);
        const fern = { id: 5, name: 'Fern' };
        await client.send(
          'plant in a garden not created',
          'POST',
          '/gardens/1/plants',
          { status: 404, error: 40402 },
          { body: fern },
        );
        await client.send('list a garden not created', 'GET', '/gardens/1/plants', { status: 404, error: 40402 });
        await client.send(
          'create garden 1',
          'POST',
          '/gardens',
          { status: 201, json: { id: 1, name: 'Roof' } },
          { body: { id: 1, name: 'Roof' } },
        );
        await client.send(
          'create garden 2',
          'POST',
          '/gardens',
          { status: 201, json: { id: 2, name: 'Yard' } },
          { body: { id: 2, name: 'Yard' } },
        );
        await client.send(
          'garden 2 again',
          'POST',
          '/gardens',
          { status: 400, error: 40004 },
          { body: { id: 2, name: 'x' } },
        );
        await client.send('read garden 1', 'GET', '/gardens/1', { status: 200, json: { id: 1, name: 'Roof' } });
        await client.send('read a garden not stored', 'GET', '/gardens/3', { status: 404, error: 40402 });
        await client.send(
          'plant 5 in garden 1',
          'POST',
          '/gardens/1/plants',
          { status: 201, json: fern },
          { body: fern },
        );
        await client.send(
          'a plant 5 in garden 2 is another plant',
          'POST',
          '/gardens/2/plants',
          { status: 201, json: { id: 5, name: 'Ivy', tag: 'climber' } },
          { body: { id: 5, name: 'Ivy', tag: 'climber' } },
        );
        await client.send(
          'plant 5 in garden 1 again',
          'POST',
          '/gardens/1/plants',
          { status: 400, error: 40004 },
          { body: fern },
        );
        await client.send(
          'plant 6 in garden 1',
          'POST',
          '/gardens/1/plants',
          { status: 201 },
          { body: { id: 6, name: 'Aloe' } },
        );
        await client.send('garden 1 lists its own', 'GET', '/gardens/1/plants', {
          status: 200,
          json: [fern, { id: 6, name: 'Aloe' }],
        });
        await client.send('garden 1, a page of one', 'GET', '/gardens/1/plants?limit=1', { status: 200, json: [fern] });
        await client.send('garden 2 lists its own', 'GET', '/gardens/2/plants', {
          status: 200,
          json: [{ id: 5, name: 'Ivy', tag: 'climber' }],
        });
        await client.send('read plant 5 in garden 1', 'GET', '/gardens/1/plants/5', { status: 200, json: fern });
        await client.send('plant 6 is not in garden 2', 'GET', '/gardens/2/plants/6', { status: 404, error: 40402 });
        await client.send('a plant of a garden not stored', 'GET', '/gardens/9/plants/5', {
          status: 404,
          error: 40402,
        });
        await client.send('delete plant 5 from garden 1', 'DELETE', '/gardens/1/plants/5', {
          status: 204,
          empty: true,
        });
        await client.send('garden 2 keeps its plant 5', 'GET', '/gardens/2/plants/5', { status: 200 });
        await client.send('garden 1 after the delete', 'GET', '/gardens/1/plants', {
          status: 200,
          json: [{ id: 6, name: 'Aloe' }],
        });
        await client.send('delete it again', 'DELETE', '/gardens/1/plants/5', { status: 404, error: 40402 });
        await client.send(
          'without credentials',
          'GET',
          '/gardens/1/plants',
          { status: 401, error: 40101 },
          { credentials: false },
        );
      },
    );

    test(
      'a garden deleted takes its plants with it: they are gone, and a garden of the same id starts empty',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        const specPath = withGardenDelete();
        const app = buildApp({ specPath, tokens: [TOKEN], store });
        const client = new Client(app, specPath);
        for (const id of [1, 10])
          await client.send(`garden ${id}`, 'POST', '/gardens', { status: 201 }, { body: { id, name: `g${id}` } });
        for (const id of [5, 6])
          await client.send(
            `plant ${id} in garden 1`,
            'POST',
            '/gardens/1/plants',
            { status: 201 },
            { body: { id, name: 'Fern' } },
          );
        await client.send(
          'plant 5 in garden 10',
          'POST',
          '/gardens/10/plants',
          { status: 201 },
          { body: { id: 5, name: 'Ivy' } },
        );
        await client.send('delete garden 1', 'DELETE', '/gardens/1', { status: 204, empty: true });
        await client.send('its plants are gone with it', 'GET', '/gardens/1/plants/5', { status: 404, error: 40402 });
        assert.equal(
          (await store.usage()).plants,
          2,
          'garden 10 and its plant: the bytes and places of the others given back',
        );
        await client.send('garden 10 keeps its plant', 'GET', '/gardens/10/plants', {
          status: 200,
          json: [{ id: 5, name: 'Ivy' }],
        });
        await client.send('garden 1 again', 'POST', '/gardens', { status: 201 }, { body: { id: 1, name: 'g1' } });
        await client.send('starts empty', 'GET', '/gardens/1/plants', { status: 200, json: [] });
      },
    );

    test(
      'orders.yaml: orders kept apart from plants, read back and listed; an order of a plant not stored is 422 and not stored',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        const app = buildApp({ specPath: ORDERS, tokens: [TOKEN], store });
        const client = new Client(app, ORDERS);
        const order = { id: 7, plantId: 7, quantity: 2 };
        await client.send(
          'an order of a plant not stored',
          'POST',
          '/orders',
          { status: 422, error: 42201 },
          { body: order },
        );
        await client.send('nothing was stored', 'GET', '/orders', { status: 200, json: [] });
        await client.send(
          'create plant 7',
          'POST',
          '/plants',
          { status: 200, json: { name: 'Monstera' } },
          { body: { id: 7, name: 'Monstera' } },
        );
        await client.send(
          'order 7 of plant 7: ids of two resources may be equal',
          'POST',
          '/orders',
          { status: 201, json: order },
          { body: order },
        );
        await client.send('order 7 again', 'POST', '/orders', { status: 400, error: 40004 }, { body: order });
        await client.send(
          'a quantity past the maximum',
          'POST',
          '/orders',
          { status: 400, error: 40003 },
          { body: { ...order, id: 8, quantity: 100 } },
        );
        await client.send('read the order', 'GET', '/orders/7', { status: 200, json: order });
        await client.send('an order not stored', 'GET', '/orders/8', { status: 404, error: 40402 });
        await client.send('list the orders', 'GET', '/orders', { status: 200, json: [order] });
        await client.send('the plant is still a plant', 'GET', '/plants/7', {
          status: 200,
          json: { name: 'Monstera' },
        });
        await client.send('list the plants', 'GET', '/plants', { status: 200, json: [{ name: 'Monstera' }] });
        await client.send('cancel the order', 'DELETE', '/orders/7', { status: 204, empty: true });
        await client.send('read it after', 'GET', '/orders/7', { status: 404, error: 40402 });
        await client.send('the plant stays', 'GET', '/plants/7', { status: 200 });
        assert.equal((await store.usage()).plants, 1, 'the caps count every item: the plant left, the order gone');
      },
    );
  });
}
