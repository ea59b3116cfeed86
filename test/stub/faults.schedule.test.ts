// The fault schedule through the controls (POST, GET, DELETE /__admin/faults):
// steps in order, one per request to the operation that the server read,
// repeating steps (every K-th, with a seeded probability), what the journal
// shows, and the one bound of held answers that delays and held faults
// share. What the controls refuse, who may use them and the reset:
// faults.admin.test.ts; a client's retry loop against a schedule:
// faults.retry.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { mulberry32 } from '../../server/stub/fault-schedule.js';
import { AUTH, createPlant, journalEntries, JSON_AUTH, postFaults, schedule, storedIds, stubApp } from './helpers.js';

async function statuses(app: FastifyInstance, count: number, firstId = 1): Promise<number[]> {
  const seen: number[] = [];
  for (let id = firstId; id < firstId + count; id++)
    seen.push((await createPlant(app, { id, name: 'Fern' })).statusCode);
  return seen;
}

describe('the fault schedule', { timeout: 120_000 }, () => {
  test('POST appends steps, completed with their defaults; GET lists what is left; DELETE clears', async () => {
    const app = stubApp();
    const added = await postFaults(
      app,
      '[{"code": 503, "retryAfter": 1}, {"fault": "dribble"}, {"delayMs": 20}, "normal"]',
    );
    assert.equal(added.statusCode, 200);
    const listed = [
      { code: 503, retryAfter: 1 },
      { fault: 'dribble', bytes: 16, intervalMs: 100 },
      { delayMs: 20 },
      'normal',
    ];
    assert.deepEqual(added.json(), { added: 4, steps: listed });
    const more = await postFaults(
      app,
      '[{"intervalMs": 5, "fault": "dribble", "bytes": 2, "delayMs": 1}, {"fault": "reset", "probability": 0.5}]',
    );
    assert.deepEqual(more.json().steps.slice(4), [
      { fault: 'dribble', bytes: 2, intervalMs: 5, delayMs: 1 },
      { fault: 'reset', probability: 0.5, seed: 0 },
    ]);
    assert.equal((await app.inject({ method: 'GET', url: '/__admin/faults' })).json().steps.length, 6);
    assert.deepEqual((await app.inject({ method: 'DELETE', url: '/__admin/faults' })).json(), { cleared: 6 });
    assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/faults' })).json(), { steps: [] });
  });

  test('steps apply in order, one per request to the operation; each is journaled; only "normal" and a delay alone store', async () => {
    const app = stubApp();
    await schedule(app, [
      { code: 503, retryAfter: 2 },
      { code: 400 },
      { code: 500 },
      { delayMs: 1 },
      'normal',
      { code: 401 },
    ]);
    const answers = [];
    for (let id = 1; id <= 7; id++) answers.push(await createPlant(app, { id, name: 'Fern' }));
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      [503, 400, 500, 200, 200, 401, 200],
    );
    const [unavailable, declared, internal, , , unauthorized] = answers;
    assert.equal(unavailable?.headers['retry-after'], '2');
    assert.deepEqual(unavailable?.json(), {
      error: 50399,
      message: 'Answer requested by the stub\'s fault schedule: {"code":503,"retryAfter":2}.',
    });
    assert.equal(unavailable?.headers['preference-applied'], undefined, 'no Prefer was sent');
    assert.deepEqual(declared?.json().error, 40003, 'a declared status answers the document’s example');
    assert.equal(internal?.json().error, 50099);
    assert.equal(internal?.headers['retry-after'], undefined);
    assert.equal(
      unauthorized?.headers['www-authenticate'],
      'Bearer realm="plantstore"',
      'RFC 9110 §15.5.2: a 401 carries WWW-Authenticate',
    );
    assert.deepEqual(await storedIds(app), ['4', '5', '7']);
    const journal = await journalEntries(app);
    assert.deepEqual(
      journal.map(({ status, fault }) => [status, fault]),
      [
        [503, { from: 'schedule', step: { code: 503, retryAfter: 2 } }],
        [400, { from: 'schedule', step: { code: 400 } }],
        [500, { from: 'schedule', step: { code: 500 } }],
        [200, { from: 'schedule', step: { delayMs: 1 } }],
        [200, { from: 'schedule', step: 'normal' }],
        [401, { from: 'schedule', step: { code: 401 } }],
        [200, null],
      ],
    );
    assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/faults' })).json(), { steps: [] });
  });

  test('a step is taken only by a request the server read: 401, 404, 405, 415 and malformed JSON take none; a request with its own Prefer takes none', async () => {
    const app = stubApp();
    await schedule(app, [{ code: 503 }]);
    assert.equal((await createPlant(app, { id: 1, name: 'Fern' }, { authorization: 'Bearer wrong' })).statusCode, 401);
    assert.equal(
      (
        await app.inject({
          method: 'POST',
          url: '/plants',
          headers: { ...AUTH, 'content-type': 'text/plain' },
          payload: 'x',
        })
      ).statusCode,
      415,
    );
    assert.equal((await app.inject({ method: 'GET', url: '/plants', headers: AUTH })).statusCode, 405);
    assert.equal(
      (await app.inject({ method: 'POST', url: '/nowhere', headers: JSON_AUTH, payload: '{}' })).statusCode,
      404,
    );
    const malformed = await app.inject({ method: 'POST', url: '/plants', headers: JSON_AUTH, payload: '{"id": 1,' });
    assert.equal(malformed.json().error, 40001, 'the JSON error wins, as for Prefer: code=');
    const own = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: 'code=429' });
    assert.equal(own.statusCode, 429, 'the request’s own Prefer');
    assert.equal(own.headers['preference-applied'], 'code=429');
    assert.equal(
      (await createPlant(app, { id: 1, name: 'Fern' }, { prefer: 'return=minimal' })).statusCode,
      503,
      'a Prefer that asks nothing of the stub takes the step',
    );
    assert.equal((await createPlant(app, { id: 1, name: 'Fern' })).statusCode, 200);
    // A step applies whatever the body, once it is JSON: the schema is judged after.
    await schedule(app, [{ code: 503 }]);
    assert.equal((await createPlant(app, { id: 'not a number' })).statusCode, 503);
  });

  test('{"every": K} stays and applies to every K-th request that reaches it', async () => {
    const app = stubApp();
    await schedule(app, [{ code: 503 }, { code: 500, every: 3 }]);
    assert.deepEqual(await statuses(app, 8), [503, 200, 200, 500, 200, 200, 500, 200]);
    assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/faults' })).json(), {
      steps: [{ code: 500, every: 3 }],
    });
    assert.deepEqual(await storedIds(app), ['2', '3', '5', '6', '8']);
  });

  test('{"probability": P, "seed": X} stays; the same seed gives the same run, which the seed’s generator predicts', async () => {
    const runs = [];
    for (let run = 0; run < 2; run++) {
      const app = stubApp();
      await schedule(app, [{ fault: 'garbage', probability: 0.3, seed: 42 }]);
      runs.push(await statuses(app, 40));
    }
    assert.deepEqual(runs[0], runs[1]);
    const draw = mulberry32(42);
    const predicted = Array.from({ length: 40 }, () => (draw() < 0.3 ? 'fault' : 'normal'));
    // A garbage fault answers 200 too, but stores nothing: tell them apart by what was stored.
    const app = stubApp();
    await schedule(app, [{ fault: 'garbage', probability: 0.3, seed: 42 }]);
    await statuses(app, 40);
    const stored = new Set(await storedIds(app));
    assert.deepEqual(
      Array.from({ length: 40 }, (_, i) => (stored.has(String(i + 1)) ? 'normal' : 'fault')),
      predicted,
    );
    assert.ok(predicted.includes('fault') && predicted.includes('normal'));
    const never = stubApp();
    await schedule(never, [{ code: 503, probability: 0 }]);
    assert.deepEqual(await statuses(never, 5), [200, 200, 200, 200, 200]);
    const always = stubApp();
    await schedule(always, [{ code: 503, probability: 1, seed: 9 }]);
    assert.deepEqual(await statuses(always, 5), [503, 503, 503, 503, 503]);
  });

  test('delays, hangs and dribbles share one bound of held answers: past it, 503 at once', async () => {
    const app = stubApp({
      stub: {
        maxWaiting: 1,
        sleep: (_ms, signal) =>
          new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
      },
    });
    await schedule(app, [{ delayMs: 5000 }, { fault: 'hang' }]);
    const held = createPlant(app, { id: 1, name: 'Fern' });
    const busy = await createPlant(app, { id: 2, name: 'Fern' });
    assert.equal(busy.statusCode, 503);
    assert.equal(busy.json().error, 50301);
    assert.match(
      busy.json().message,
      /^1 answers are held by the stub \(waiting out delays, hang and dribble faults\), the most it holds at once/,
    );
    assert.equal(busy.headers['retry-after'], '1');
    assert.equal(
      (await createPlant(app, { id: 3, name: 'Fern', tag: 'x' }, { prefer: 'delay=3000' })).headers['retry-after'],
      '3',
    );
    await app.close(); // ends the held delay: the request is answered
    assert.equal((await held).statusCode, 200);
  });
});
