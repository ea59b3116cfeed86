// The webhooks through the stub's controls: only the admin token (or the
// environment) names receivers, a receiver's answer reaches no one, the
// requests carry no API credentials, and faults scheduled for deliveries
// (a copy, a delay, a drop) do what real senders do.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AUTH, createPlant, TOKEN } from '../stub/helpers.js';
import { attempts, deliveryEntries, settledDeliveries, untilPending, useReceivers, webhookApp } from './helpers.js';

const ADMIN = { authorization: 'Bearer admin-token' };
const JSON_TYPE = { 'content-type': 'application/json' };

const receiver = useReceivers();

describe('webhooks through the stub controls', { timeout: 120_000 }, () => {
  test('only the admin token names receivers: none, or an API token, is 401 and changes nothing', async () => {
    const hook = await receiver();
    const app = webhookApp([], {}, { stub: { controlsToken: 'admin-token' } });
    const put = (headers: Record<string, string>) =>
      app.inject({
        method: 'PUT',
        url: '/__admin/webhooks',
        headers: { ...JSON_TYPE, ...headers },
        payload: JSON.stringify({ receivers: [hook.url] }),
      });
    assert.equal((await put({})).statusCode, 401);
    assert.equal((await put(AUTH)).statusCode, 401);
    assert.equal((await app.inject({ method: 'GET', url: '/__admin/webhooks', headers: AUTH })).statusCode, 401);
    assert.deepEqual(
      (await app.inject({ method: 'GET', url: '/__admin/webhooks', headers: ADMIN })).json().receivers,
      [],
    );
    await createPlant(app, { id: 1, name: 'Fern' });
    const named = await put(ADMIN);
    assert.equal(named.statusCode, 200);
    assert.deepEqual(named.json().receivers, [hook.url]);
    await createPlant(app, { id: 2, name: 'Fern' });
    const [received] = await hook.until(1);
    assert.equal(JSON.parse(received!.body).id, 2, 'the plant created before a receiver was named was sent to none');
    await settledDeliveries(app, ADMIN);
    assert.equal(hook.received.length, 1);
    await app.close();
  });

  test('a receiver is an http(s) URL without credentials, 16 at most: anything else is 400 and changes nothing', async () => {
    const app = webhookApp(['http://127.0.0.1:9/kept']);
    const put = (body: unknown) =>
      app.inject({ method: 'PUT', url: '/__admin/webhooks', headers: JSON_TYPE, payload: JSON.stringify(body) });
    for (const [body, message] of [
      [{ receivers: ['ftp://127.0.0.1/x'] }, /http:\/\/ or https:\/\/ URL, got the scheme "ftp"/],
      [{ receivers: ['http://user:secret@127.0.0.1/x'] }, /no user name or password/],
      [{ receivers: ['/relative'] }, /absolute http:\/\/ or https:\/\/ URL, got "\/relative"/],
      [{ receivers: Array.from({ length: 17 }, (_, i) => `http://127.0.0.1/${i}`) }, /at most 16 receivers, got 17/],
      [{ receivers: 'http://127.0.0.1/x' }, /Send \{"receivers": \[/],
      [['http://127.0.0.1/x'], /Send \{"receivers": \[/],
    ] as const) {
      const res = await put(body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().error, 40023);
      assert.match(res.json().message, message);
      assert.doesNotMatch(res.body, /secret/);
    }
    assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/webhooks' })).json().receivers, [
      'http://127.0.0.1:9/kept',
    ]);
    await app.close();
  });

  test('GET /__admin/webhooks lists the receivers (credentials in a query redacted), the webhooks with their events, what is pending and the settings', async () => {
    const app = webhookApp(['http://127.0.0.1:9/hook?token=abc&x=1'], { attempts: 4, deadlineMs: 5000 });
    assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/webhooks' })).json(), {
      receivers: ['http://127.0.0.1:9/hook?token=<redacted>&x=1'],
      webhooks: [
        {
          name: '/plant/webhook',
          method: 'POST',
          event: 'created',
          reason: `its words say created: "new" (description), "added" (description); its body is the create operation's request body`,
          mediaType: 'application/json',
        },
      ],
      pending: 0,
      pendingBytes: 0,
      settings: {
        attempts: 4,
        backoffMs: 0,
        timeoutMs: 10_000,
        deadlineMs: 5000,
        queueSize: 1000,
        queueBytes: 67_108_864,
      },
    });
    await app.close();
  });

  test("the receiver's answer reaches no API client and no control: the journal keeps its status only; the request carries no credentials", async () => {
    const secret = 'RECEIVER-ANSWER-BODY-4f1c';
    const hook = await receiver({ statuses: [503], answerBody: secret });
    const app = webhookApp([hook.url]);
    const created = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { ...AUTH, ...JSON_TYPE, cookie: 'session=s3cr3t', 'x-api-key': 'k3y' },
      payload: '{"id": 1, "name": "Fern"}',
    });
    assert.equal(created.statusCode, 200);
    await hook.until(2);
    const entries = await settledDeliveries(app);
    assert.deepEqual(attempts(entries), [
      [1, 503, 'retry'],
      [2, 200, 'delivered'],
    ]);
    for (const res of [
      created,
      await app.inject({ method: 'GET', url: '/__admin/journal' }),
      await app.inject({ method: 'GET', url: '/__admin/webhooks' }),
    ])
      assert.ok(!res.body.includes(secret));
    assert.deepEqual(Object.keys(entries[0]!.headers).sort(), [
      'content-type',
      'user-agent',
      'webhook-id',
      'webhook-timestamp',
    ]);
    for (const { headers } of hook.received) {
      assert.deepEqual(Object.keys(headers).sort(), [
        'connection',
        'content-length',
        'content-type',
        'host',
        'user-agent',
        'webhook-id',
        'webhook-timestamp',
      ]);
      assert.ok(!JSON.stringify(headers).includes(TOKEN));
    }
    await app.close();
  });

  test('every receiver gets each delivery, with one webhook-id', async () => {
    const [one, two] = [await receiver(), await receiver({ statuses: [500] })];
    const app = webhookApp([one.url, two.url]);
    await createPlant(app, { id: 1, name: 'Fern' });
    const [[first], [second]] = [await one.until(1), await two.until(2)];
    assert.equal(first!.headers['webhook-id'], second!.headers['webhook-id']);
    assert.equal((await settledDeliveries(app)).length, 3);
    await app.close();
  });

  test('faults for deliveries: a copy (the same webhook-id twice), a drop, then as ever; the journal says which step did what', async () => {
    const hook = await receiver();
    const app = webhookApp([hook.url]);
    const scheduled = await app.inject({
      method: 'POST',
      url: '/__admin/webhooks/faults',
      headers: JSON_TYPE,
      payload: JSON.stringify([{ copies: 2 }, { drop: true }, 'normal']),
    });
    assert.deepEqual(scheduled.json(), { added: 3, steps: [{ copies: 2 }, { drop: true }, 'normal'] });
    for (let id = 1; id <= 3; id++) await createPlant(app, { id, name: 'Fern' });
    const received = await hook.until(3);
    const entries = await settledDeliveries(app);
    assert.deepEqual(received.map(({ body }) => JSON.parse(body).id).sort(), [1, 1, 3]);
    const copies = received.filter(({ body }) => JSON.parse(body).id === 1);
    assert.equal(copies[0]!.headers['webhook-id'], copies[1]!.headers['webhook-id']);
    // By plant and copy: the second copy goes once the first is delivered, whatever the creates after it.
    const byPlant = entries
      .map(({ body, copy, attempt, outcome, fault }) => [JSON.parse(body).id, copy, attempt, outcome, fault])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    assert.deepEqual(byPlant, [
      [1, 1, 1, 'delivered', { from: 'schedule', step: { copies: 2 } }],
      [1, 2, 1, 'delivered', { from: 'schedule', step: { copies: 2 } }],
      [2, 1, 0, 'dropped', { from: 'schedule', step: { drop: true } }],
      [3, 1, 1, 'delivered', { from: 'schedule', step: 'normal' }],
    ]);
    const [firstCopy, secondCopy] = entries.filter(({ body }) => JSON.parse(body).id === 1);
    assert.ok(firstCopy!.seq < secondCopy!.seq, 'the copy is sent after the first is answered');
    assert.equal(hook.received.length, 3);
    assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/webhooks/faults' })).json(), { steps: [] });
    await app.close();
  });

  test('a delayed delivery is overtaken by a later one; POST /__admin/reset cancels it, clears the steps and restores the receivers', async () => {
    const hook = await receiver();
    const app = webhookApp([hook.url]);
    await app.inject({
      method: 'POST',
      url: '/__admin/webhooks/faults',
      headers: JSON_TYPE,
      payload: JSON.stringify([{ delayMs: 60_000 }, 'normal', { drop: true, every: 5 }]),
    });
    await createPlant(app, { id: 1, name: 'Delayed' });
    await createPlant(app, { id: 2, name: 'Overtakes' });
    const [received] = await hook.until(1);
    assert.equal(JSON.parse(received!.body).id, 2);
    await untilPending(app, 1); // the delayed one waits, the other is delivered
    await app.inject({ method: 'PUT', url: '/__admin/webhooks', headers: JSON_TYPE, payload: '{"receivers": []}' });
    const reset = await app.inject({ method: 'POST', url: '/__admin/reset', headers: JSON_TYPE });
    assert.deepEqual(reset.json(), {
      plantsDeleted: 2,
      journalCleared: 3,
      faultsCleared: 0,
      delayMs: 0,
      webhookFaultsCleared: 1,
      deliveriesCancelled: 1,
    });
    const after = (await app.inject({ method: 'GET', url: '/__admin/webhooks' })).json();
    assert.deepEqual([after.pending, after.receivers], [0, [hook.url]]);
    assert.deepEqual(await deliveryEntries(app), []);
    assert.equal(hook.received.length, 1);
    await app.close();
  });

  test('a delayed delivery is sent once its delay has passed', async () => {
    const hook = await receiver();
    const app = webhookApp([hook.url]);
    await app.inject({
      method: 'POST',
      url: '/__admin/webhooks/faults',
      headers: JSON_TYPE,
      payload: '[{"delayMs": 1}]',
    });
    await createPlant(app, { id: 1, name: 'Fern' });
    await hook.until(1);
    assert.deepEqual(
      (await settledDeliveries(app)).map(({ outcome, fault }) => [outcome, fault]),
      [['delivered', { from: 'schedule', step: { delayMs: 1 } }]],
    );
    await app.close();
  });

  test('a bad delivery step is 400 naming it, and adds nothing', async () => {
    const app = webhookApp([]);
    for (const [steps, message] of [
      [{ copies: 2 }, /Send a JSON array of steps, each "normal", \{"copies": N\}/],
      [[{ copies: 11 }], /step 0: "copies" must be a whole number from 1 to 10, got 11/],
      [[{ drop: true, copies: 2 }], /step 0: "drop" goes alone/],
      [[{ drop: false }], /step 0: "drop" is true or absent/],
      [[{ code: 503 }], /step 0 has an unknown property "code"/],
      [[{ drop: true, every: 2 }, 'normal'], /step 0 repeats .* it must be the last step/],
      [[{}], /step 0 must be "normal", \{"copies": N\}/],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: '/__admin/webhooks/faults',
        headers: JSON_TYPE,
        payload: JSON.stringify(steps),
      });
      assert.equal(res.statusCode, 400, JSON.stringify(steps));
      assert.match(res.json().message, message);
    }
    assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/webhooks/faults' })).json(), { steps: [] });
    await app.close();
  });

  test('with the controls off, webhooks are still sent (the document says so), and nothing is journaled or controllable', async () => {
    const hook = await receiver();
    const app = webhookApp([hook.url], {}, { stub: { controls: false } });
    await createPlant(app, { id: 1, name: 'Fern' });
    await hook.until(1);
    assert.equal((await app.inject({ method: 'GET', url: '/__admin/webhooks' })).statusCode, 404);
    await app.close();
  });
});
