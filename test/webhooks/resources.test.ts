// Webhooks on every resource: a webhook describes the resource whose create
// body or item its body is, else the one its words name; it is sent after
// that resource's changes only, with the id as its resource writes it (a
// string id quoted).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { buildApp } from '../../server/app.js';
import { fixturePath } from '../support/fixtures.js';
import { AUTH, TOKEN } from '../stub/helpers.js';
import { settledDeliveries, useReceivers } from './helpers.js';

const receiver = useReceivers();
const dir = mkdtempSync(join(tmpdir(), 'plantstore-webhooks-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };

/** A document of test/fixtures/documents/ with `webhooks` added at its end. */
function withWebhooks(name: string, webhooks: string): string {
  const path = join(dir, `${name}-webhooks.yaml`);
  writeFileSync(path, `${readFileSync(fixturePath(`documents/${name}.yaml`), 'utf8')}webhooks:\n${webhooks}`);
  return path;
}

const hook = (name: string, summary: string, schema: string) => `  ${name}:
    post:
      summary: ${summary}
      requestBody:
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/${schema}'
      responses:
        '200':
          description: received
`;

describe('webhooks on every resource', { timeout: 60_000 }, () => {
  test("orders.yaml: an order's webhook is sent after an order is created, a plant's after a plant is; each body its own resource's", async () => {
    const hooks = await receiver();
    const specPath = withWebhooks(
      'orders',
      hook('orderPlaced', 'An order was placed', 'Order') +
        hook('plantAdded', 'A new plant was added', 'NewPlant') +
        hook('orderCancelled', 'An order was deleted', 'Order'),
    );
    const app = buildApp({ specPath, tokens: [TOKEN], stub: {}, webhooks: { receivers: [hooks.url], backoffMs: 0 } });
    await app.ready();
    const post = (url: string, body: unknown) =>
      app.inject({ method: 'POST', url, headers: JSON_AUTH, payload: JSON.stringify(body) });
    assert.equal((await post('/plants', { id: 7, name: 'Fern' })).statusCode, 200);
    assert.equal((await post('/orders', { id: 3, plantId: 7, quantity: 2 })).statusCode, 201);
    assert.equal((await app.inject({ method: 'DELETE', url: '/orders/3', headers: AUTH })).statusCode, 204);
    const received = await hooks.until(3);
    // Deliveries go out concurrently: compared as sets.
    const bodies = received.map((one) => one.body).sort();
    assert.deepEqual(
      bodies,
      ['{"id":3,"plantId":7,"quantity":2}', '{"id":3,"plantId":7,"quantity":2}', '{"id":7,"name":"Fern"}'].sort(),
      'the plant created, the order placed, the order cancelled: each once, each its own body',
    );
    const entries = await settledDeliveries(app);
    assert.deepEqual(
      entries.map(({ webhook, event }) => `${webhook} ${event}`).sort(),
      ['orderCancelled deleted', 'orderPlaced created', 'plantAdded created'],
      "each webhook sent after its own resource's event only",
    );
    await app.close();
  });

  test('uuid-id.yaml: the body carries a string id as a JSON string', async () => {
    const hooks = await receiver();
    const specPath = withWebhooks('uuid-id', hook('plantAdded', 'A plant was added', 'NewPlant'));
    const app = buildApp({ specPath, tokens: [TOKEN], stub: {}, webhooks: { receivers: [hooks.url], backoffMs: 0 } });
    await app.ready();
    const id = '6F9619FF-8B86-D011-B42D-00C04FC964FF';
    const created = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: JSON_AUTH,
      payload: JSON.stringify({ id, name: 'Fern' }),
    });
    assert.equal(created.statusCode, 200);
    const [received] = await hooks.until(1);
    assert.deepEqual(JSON.parse(received!.body), { id, name: 'Fern' });
    await settledDeliveries(app);
    await app.close();
  });
});
