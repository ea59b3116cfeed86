// The webhooks' deliveries on the in-memory store, against a receiver on
// loopback: sent once after the create has stored the plant, with the
// declared body and media type; retried on 503, a timeout, no answer;
// bounded in attempts, deadline and queue; never holding the API's answer.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPlant } from '../stub/helpers.js';
import { attempts, settledDeliveries, useReceivers, webhookApp } from './helpers.js';

const receiver = useReceivers();

describe('webhook deliveries (in-memory store)', { timeout: 120_000 }, () => {
  test('a create that stored the plant sends the webhook once, after the store has it, with the declared body and media type', async () => {
    let app: ReturnType<typeof webhookApp> | undefined = undefined;
    const hook = await receiver({ inspect: () => app!.plantStore.get('1') });
    app = webhookApp([hook.url]);
    const created = await createPlant(app, { id: 1, name: 'Fern', tag: 'shade', note: 'not a Plant property' });
    assert.equal(created.statusCode, 200);
    const [received] = await hook.until(1);
    assert.equal(received!.method, 'POST');
    assert.equal(received!.path, '/hooks/plants');
    assert.deepEqual(
      received!.seen,
      { name: 'Fern', tag: 'shade' },
      'the plant was readable in the store when the receiver got the webhook',
    );
    assert.equal(received!.headers['content-type'], 'application/json');
    assert.deepEqual(
      JSON.parse(received!.body),
      { id: 1, name: 'Fern', tag: 'shade' },
      'the NewPlant: the id and the plant as stored',
    );
    assert.match(String(received!.headers['webhook-id']), /^[0-9a-f-]{36}$/);
    assert.equal(received!.headers.authorization, undefined, 'no API credentials');
    const entries = await settledDeliveries(app);
    assert.deepEqual(attempts(entries), [[1, 200, 'delivered']]);
    assert.equal(hook.received.length, 1, 'once');
    assert.deepEqual(
      [entries[0]!.webhook, entries[0]!.event, entries[0]!.url, entries[0]!.delivery],
      ['/plant/webhook', 'created', hook.url, received!.headers['webhook-id']],
    );
    await app.close();
  });

  test('an answer 503 is retried: the same delivery (webhook-id and body) again, then delivered', async () => {
    const hook = await receiver({ statuses: [503] });
    const app = webhookApp([hook.url]);
    assert.equal((await createPlant(app, { id: 2, name: 'Fern' })).statusCode, 200);
    const [first, second] = await hook.until(2);
    assert.equal(second!.headers['webhook-id'], first!.headers['webhook-id']);
    assert.equal(second!.body, first!.body);
    assert.deepEqual(attempts(await settledDeliveries(app)), [
      [1, 503, 'retry'],
      [2, 200, 'delivered'],
    ]);
    assert.equal(hook.received.length, 2);
    await app.close();
  });

  test('nothing is sent for a create that stored nothing (401, 400, a duplicate, a fault): the next stored plant is the first delivery', async () => {
    const hook = await receiver();
    const app = webhookApp([hook.url]);
    await createPlant(app, { id: 3, name: 'Fern' });
    await hook.until(1);
    assert.equal(
      (
        await app.inject({
          method: 'POST',
          url: '/plants',
          headers: { 'content-type': 'application/json' },
          payload: '{"id": 4, "name": "Fern"}',
        })
      ).statusCode,
      401,
    );
    assert.equal((await createPlant(app, { id: 4 })).statusCode, 400);
    assert.equal((await createPlant(app, { id: 3, name: 'Again' })).statusCode, 400);
    assert.equal((await createPlant(app, { id: 4, name: 'Fern' }, { prefer: 'code=503' })).statusCode, 503);
    assert.equal((await createPlant(app, { id: 5, name: 'Last' })).statusCode, 200);
    const received = await hook.until(2);
    assert.deepEqual(
      received.map(({ body }) => JSON.parse(body).id),
      [3, 5],
    );
    assert.equal((await settledDeliveries(app)).length, 2);
    await app.close();
  });

  test('an int64 id beyond 2^53 is sent with all its digits', async () => {
    const hook = await receiver();
    const app = webhookApp([hook.url]);
    await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { authorization: 'Bearer client-token', 'content-type': 'application/json' },
      payload: '{"id": 9223372036854775807, "name": "Max"}',
    });
    const [received] = await hook.until(1);
    assert.equal(received!.body, '{"id":9223372036854775807,"name":"Max"}');
    await app.close();
  });

  test('retries are bounded by the attempts: a receiver that always answers 503 gets 3, then the delivery has failed', async () => {
    const hook = await receiver({ statuses: [503, 503, 503, 503] });
    const app = webhookApp([hook.url], { attempts: 3 });
    await createPlant(app, { id: 6, name: 'Fern' });
    assert.deepEqual(attempts(await settledDeliveries(app)), [
      [1, 503, 'retry'],
      [2, 503, 'retry'],
      [3, 503, 'failed'],
    ]);
    assert.equal(hook.received.length, 3);
    await app.close();
  });

  test('429, 500 and 408 are retried; 400 and 410 are the receiver refusing it, not retried', async () => {
    const retried = await receiver({ statuses: [429, 500, 408] });
    const app = webhookApp([retried.url]);
    await createPlant(app, { id: 7, name: 'Fern' });
    assert.deepEqual(
      attempts(await settledDeliveries(app)).map(([, status, outcome]) => [status, outcome]),
      [
        [429, 'retry'],
        [500, 'retry'],
        [408, 'retry'],
        [200, 'delivered'],
      ],
    );
    await app.close();
    for (const status of [400, 410]) {
      const refusing = await receiver({ statuses: [status] });
      const other = webhookApp([refusing.url]);
      await createPlant(other, { id: 8, name: 'Fern' });
      const [entry] = await settledDeliveries(other);
      assert.deepEqual([entry!.status, entry!.outcome], [status, 'failed']);
      assert.equal(refusing.received.length, 1);
      await other.close();
    }
  });

  test('no answer at all is retried: a refused connection, and a receiver past the timeout', async () => {
    const gone = await receiver();
    await gone.close();
    const app = webhookApp([gone.url], { attempts: 2 });
    await createPlant(app, { id: 9, name: 'Fern' });
    const entries = await settledDeliveries(app);
    assert.deepEqual(
      entries.map(({ status, error, outcome }) => [status, error, outcome]),
      [
        [null, 'ECONNREFUSED', 'retry'],
        [null, 'ECONNREFUSED', 'failed'],
      ],
    );
    await app.close();

    const silent = await receiver({ hold: true });
    const slow = webhookApp([silent.url], { attempts: 2, timeoutMs: 20 });
    await createPlant(slow, { id: 10, name: 'Fern' });
    const timedOut = await settledDeliveries(slow);
    assert.deepEqual(
      timedOut.map(({ status, outcome }) => [status, outcome]),
      [
        [null, 'retry'],
        [null, 'failed'],
      ],
    );
    assert.match(String(timedOut[0]!.error), /^timeout: no answer within 20 ms$/);
    await slow.close();
  });

  test('the deadline bounds the retries: a retry that would start past it is not made', async () => {
    const hook = await receiver({ statuses: [503] });
    // The first retry waits at least half the backoff, 30 s, far past a deadline of 1 s.
    const app = webhookApp([hook.url], { backoffMs: 60_000, deadlineMs: 1000 });
    await createPlant(app, { id: 11, name: 'Fern' });
    const [entry] = await settledDeliveries(app);
    assert.deepEqual([entry!.status, entry!.outcome], [503, 'failed']);
    assert.equal(hook.received.length, 1);
    await app.close();
  });

  test('the queue is bounded: past it a delivery is dropped and journaled; the API answers every create at once', async () => {
    const hook = await receiver({ hold: true });
    const app = webhookApp([hook.url], { queueSize: 1 });
    for (let id = 1; id <= 3; id++)
      assert.equal(
        (await createPlant(app, { id, name: 'Fern' })).statusCode,
        200,
        'answered while the receiver holds the first delivery',
      );
    await hook.until(1);
    hook.release();
    const entries = await settledDeliveries(app);
    assert.deepEqual(entries.map(({ attempt, outcome, error }) => [attempt, outcome, error]).sort(), [
      [0, 'dropped', '1 deliveries are pending, the most the queue holds'],
      [0, 'dropped', '1 deliveries are pending, the most the queue holds'],
      [1, 'delivered', null],
    ]);
    assert.equal(hook.received.length, 1);
    await app.close();
  });

  test('closing does not wait for a receiver that does not answer: the pending delivery is dropped after the shutdown wait', async () => {
    const hook = await receiver({ hold: true });
    const lines: string[] = [];
    const app = webhookApp(
      [hook.url],
      { shutdownMs: 10 },
      { logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } } },
    );
    await createPlant(app, { id: 12, name: 'Fern' });
    await hook.until(1);
    await app.close();
    const dropped = lines
      .map((line) => JSON.parse(line))
      .find((line) => /closing: 1 deliveries still pending after 10 ms were dropped/.test(line.msg));
    assert.ok(dropped, `the drop is logged: ${lines.join('')}`);
    assert.equal(dropped.deliveries.length, 1);
  });
});
