// The stub's delay (PLANTSTORE_DELAY_MS, PUT /__admin/delay): what it holds
// and what it does not, the plant stored only after it, a client that gives
// up during it (nothing stored, its journal entry abandoned), a server that
// closes, and the bound on answers held at once.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { test } from 'node:test';
import { buildApp } from '../../server/app.js';
import { MAX_DELAY_MS } from '../../server/limits.js';
import type { Sleep } from '../../server/stub/index.js';
import { createPlant, stubApp, TOKEN } from './helpers.js';

test(
  'delay: read, set, bounded, and applied only to authenticated requests to the operation',
  { timeout: 60_000 },
  async () => {
    const slept: number[] = [];
    const sleep: Sleep = async (ms) => {
      slept.push(ms);
    };
    const app = stubApp({ stub: { delayMs: 250, sleep } });
    assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/delay' })).json(), { ms: 250 });

    assert.equal((await createPlant(app, { id: 1, name: 'Fern' })).statusCode, 200);
    assert.equal((await createPlant(app, { id: 2 })).statusCode, 400);
    assert.deepEqual(slept, [250, 250], 'authenticated requests wait, whatever their answer');
    assert.equal((await app.inject({ method: 'GET', url: '/nowhere' })).statusCode, 404);
    assert.equal((await app.inject({ method: 'GET', url: '/plants' })).statusCode, 405);
    assert.equal((await createPlant(app, { id: 1, name: 'Fern' }, { authorization: 'Basic x' })).statusCode, 401);
    assert.equal(
      (await createPlant(app, { id: 1, name: 'Fern' }, { authorization: 'Bearer someone-else' })).statusCode,
      401,
    );
    assert.deepEqual(slept, [250, 250], 'a client without credentials holds no socket for the delay');

    await app.inject({ method: 'GET', url: '/__health' });
    await app.inject({ method: 'GET', url: '/__admin/plants' });
    assert.deepEqual(slept, [250, 250], 'health and the controls are not delayed');

    const put = (payload: string) =>
      app.inject({ method: 'PUT', url: '/__admin/delay', headers: { 'content-type': 'application/json' }, payload });
    for (const bad of ['{"ms": -1}', `{"ms": ${MAX_DELAY_MS + 1}}`, '{"ms": 1.5}', '{"ms": "10"}', '{}', '[]', '5']) {
      const res = await put(bad);
      assert.equal(res.statusCode, 400, bad);
      assert.equal(res.json().error, 40023);
      assert.match(res.json().message, /whole number of milliseconds from 0 to 60000/);
    }
    assert.deepEqual(
      (await app.inject({ method: 'GET', url: '/__admin/delay' })).json(),
      { ms: 250 },
      'bad values change nothing',
    );

    assert.deepEqual((await put('{"ms": 0}')).json(), { ms: 0 });
    await createPlant(app, { id: 2, name: 'Fern' });
    assert.equal(slept.length, 2, 'a delay of 0 does not wait');
    assert.deepEqual((await put(`{"ms": ${MAX_DELAY_MS}}`)).json(), { ms: MAX_DELAY_MS });
    await createPlant(app, { id: 3, name: 'Fern' });
    assert.deepEqual(slept.slice(2), [MAX_DELAY_MS]);
  },
);

test('delay with the controls off: set at start, still applied', { timeout: 60_000 }, async () => {
  const slept: number[] = [];
  const app = buildApp({
    tokens: [TOKEN],
    stub: { controls: false, delayMs: 40, sleep: async (ms) => void slept.push(ms) },
  });
  assert.equal((await createPlant(app, { id: 1, name: 'Fern' })).statusCode, 200);
  assert.deepEqual(slept, [40]);
  assert.equal((await app.inject({ method: 'GET', url: '/__admin/delay' })).statusCode, 404);
});

test('a delayed answer is sent at once when the server closes', { timeout: 60_000 }, async () => {
  let started!: () => void;
  const waiting = new Promise<void>((resolve) => (started = resolve));
  let aborted = false;
  // A sleep that only ends when the server's close aborts it.
  const sleep: Sleep = (_ms, signal) =>
    new Promise((_resolve, reject) => {
      started();
      signal.addEventListener('abort', () => {
        aborted = true;
        reject(signal.reason as Error);
      });
    });
  const app = stubApp({ stub: { delayMs: MAX_DELAY_MS, sleep } });
  const answer = createPlant(app, { id: 1, name: 'Fern' });
  await waiting;
  await app.close();
  const res = await answer;
  assert.equal(aborted, true);
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { name: 'Fern' });
});

/** A sleep that lasts until released (or aborted), and tells when a request starts to wait. */
function heldSleep() {
  const held: Array<() => void> = [];
  let onWait: () => void = () => undefined;
  const sleep: Sleep = (_ms, signal) =>
    new Promise<void>((resolve, reject) => {
      held.push(resolve);
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      onWait();
    });
  return {
    sleep,
    nextWait: () => new Promise<void>((resolve) => (onWait = resolve)),
    releaseAll: () => held.splice(0).forEach((resume) => resume()),
  };
}

test(
  'delay: the plant is stored after the delay, not before; the journal shows the waiting request with status null',
  { timeout: 60_000 },
  async () => {
    const sleeps = heldSleep();
    const app = stubApp({ stub: { delayMs: 5000, sleep: sleeps.sleep } });
    const waiting = sleeps.nextWait();
    const answer = createPlant(app, { id: 1, name: 'Fern' });
    await waiting;
    assert.equal((await app.plantStore.usage()).plants, 0, 'nothing is stored while the answer waits');
    const during = (await app.inject({ method: 'GET', url: '/__admin/journal' })).json();
    assert.deepEqual(
      during.entries.map((e: { seq: number; status: number | null }) => [e.seq, e.status]),
      [[1, null]],
    );
    sleeps.releaseAll();
    assert.equal((await answer).statusCode, 200);
    assert.equal((await app.plantStore.usage()).plants, 1);
    const after = (await app.inject({ method: 'GET', url: '/__admin/journal' })).json();
    assert.deepEqual(
      after.entries.map((e: { seq: number; status: number | null }) => [e.seq, e.status]),
      [[1, 200]],
    );
  },
);

test(
  'delay: a client that gives up during the delay (closes its connection) has created nothing, and its entry says abandoned (status null), not the 400 no one was sent',
  { timeout: 60_000 },
  async () => {
    const sleeps = heldSleep();
    let aborted!: () => void;
    const abortSeen = new Promise<void>((resolve) => (aborted = resolve));
    // The wait ends when the client's connection closes: the sleep's signal aborts.
    const sleep: Sleep = (ms, signal) => {
      signal.addEventListener('abort', () => aborted(), { once: true });
      return sleeps.sleep(ms, signal);
    };
    const app = stubApp({ stub: { delayMs: MAX_DELAY_MS, sleep } });
    let handled!: () => void;
    const answered = new Promise<void>((resolve) => (handled = resolve));
    // onSend: the answer is made, although the socket it would go to is gone.
    app.addHook('onSend', (_request, _reply, payload, done) => {
      handled();
      done(null, payload);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      const body = '{"id": 1, "name": "Fern"}';
      const waiting = sleeps.nextWait();
      socket.write(
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      await waiting;
      socket.destroy();
      await abortSeen;
      await answered;
      assert.equal((await app.plantStore.usage()).plants, 0, 'the plant its client never saw was not stored');
      // Nothing was sent: the journal says the client abandoned it, never the 400 the server made of it.
      const journaled = (await app.inject({ method: 'GET', url: '/__admin/journal' })).json();
      assert.deepEqual(
        journaled.entries.map((e: { status: number | null; abandoned: boolean }) => [e.status, e.abandoned]),
        [[null, true]],
      );
      // The id is free: a retry is not told "already exists".
      await app.inject({
        method: 'PUT',
        url: '/__admin/delay',
        headers: { 'content-type': 'application/json' },
        payload: '{"ms": 0}',
      });
      assert.equal((await createPlant(app, { id: 1, name: 'Fern' })).statusCode, 200);
      const after = (await app.inject({ method: 'GET', url: '/__admin/journal' })).json();
      assert.deepEqual(
        after.entries.map((e: { status: number | null; abandoned: boolean }) => [e.status, e.abandoned]),
        [
          [null, true],
          [200, false],
        ],
      );
    } finally {
      sleeps.releaseAll();
      await app.close();
    }
  },
);

test(
  'delay: past the most answers waiting at once, a request is answered 503 with Retry-After at once; unauthenticated ones are answered as ever',
  { timeout: 60_000 },
  async () => {
    const sleeps = heldSleep();
    const app = stubApp({ stub: { delayMs: 2500, sleep: sleeps.sleep, maxWaiting: 2 } });
    const answers = [];
    for (const id of [1, 2]) {
      const waiting = sleeps.nextWait();
      answers.push(createPlant(app, { id, name: 'Fern' }));
      await waiting;
    }
    const busy = await createPlant(app, { id: 3, name: 'Fern' });
    assert.equal(busy.statusCode, 503);
    assert.equal(busy.json().error, 50301);
    assert.match(
      busy.json().message,
      /2 answers are held by the stub \(waiting out its delay of 2500 ms, hang and dribble faults\)/,
    );
    assert.equal(busy.headers['retry-after'], '3');
    assert.equal((await createPlant(app, { id: 4, name: 'Fern' }, { authorization: 'Bearer other' })).statusCode, 401);
    sleeps.releaseAll();
    assert.deepEqual(
      (await Promise.all(answers)).map((a) => a.statusCode),
      [200, 200],
    );
    assert.deepEqual(
      (await app.plantStore.list(0, 1000, 1e9)).plants.map((p) => p.id),
      ['1', '2'],
      'the 503 stored nothing',
    );
    const waiting = sleeps.nextWait();
    const again = createPlant(app, { id: 3, name: 'Fern' });
    await waiting;
    sleeps.releaseAll();
    assert.equal((await again).statusCode, 200, 'once answers are sent, requests wait again');
  },
);
