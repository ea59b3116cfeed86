// The fault schedule through the controls (POST, GET, DELETE /__admin/faults
// and POST /__admin/reset): steps in order, one per request to the
// operation, repeating steps, who may schedule, the bounds and the 400s,
// what the journal shows; and the scenario a client's retry loop is tested
// with, end to end over a real socket.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Agent, request, RetryAgent } from 'undici';
import { buildApp } from '../../server/app.js';
import { MAX_FAULT_STEPS } from '../../server/limits.js';
import { mulberry32 } from '../../server/stub/fault-schedule.js';
import {
  AUTH,
  createPlant,
  curl,
  curlCreate,
  curlMissing,
  journalEntries,
  JSON_AUTH,
  listening,
  schedule,
  storedIds,
  stubApp,
  TOKEN,
} from './helpers.js';

const JSON_TYPE = { 'content-type': 'application/json' };

function postFaults(app: FastifyInstance, body: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/__admin/faults', headers: { ...JSON_TYPE, ...headers }, payload: body });
}

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

  test('a bad request to the controls is a 400 that names the step and what is wrong; nothing is added', async () => {
    const app = stubApp();
    const cases: Array<[string, RegExp]> = [
      ['{"code": 503}', /^Send a JSON array of steps/],
      [
        '["fast"]',
        /^step 0 must be "normal", \{"code": N, "retryAfter": S\}, \{"fault": F\} or \{"delayMs": MS\}, got "fast"\.$/,
      ],
      ['[{}]', /^step 0 must be .* got \{\}\.$/],
      ['["normal", {"code": 302}]', /^step 1: "code" must be a whole number from 400 to 599, got 302\.$/],
      ['[{"code": 503.5}]', /"code" must be a whole number from 400 to 599, got 503\.5/],
      ['[{"code": "503"}]', /"code" must be a whole number from 400 to 599, got "503"/],
      ['[{"code": 503, "retryAfter": -1}]', /"retryAfter" must be a whole number from 0 to 86400, got -1/],
      [
        '[{"code": 503, "retry_after": 1}]',
        /^step 0 has an unknown property "retry_after"; a step takes delayMs, code, retryAfter/,
      ],
      [
        '[{"fault": "explode"}]',
        /^step 0: "fault" must be one of reset, close, close-mid-body, garbage, truncated, hang, dribble, lost-answer, got "explode"\.$/,
      ],
      ['[{"code": 503, "fault": "reset"}]', /has both "code" and "fault"/],
      ['[{"fault": "reset", "retryAfter": 1}]', /"retryAfter" goes with "code"/],
      ['[{"fault": "reset", "bytes": 1}]', /"bytes" goes with \{"fault": "dribble"\}/],
      ['[{"fault": "dribble", "bytes": 0}]', /"bytes" must be a whole number from 1 to 1024, got 0/],
      ['[{"fault": "dribble", "intervalMs": 10001}]', /"intervalMs" must be a whole number from 1 to 10000/],
      ['[{"delayMs": 60001}]', /"delayMs" must be a whole number from 0 to 60000, got 60001/],
      [
        '[{"code": 400, "example": "nosuch"}]',
        /^step 0: "example": nosuch is not an example of the 400 response; examples: invalidBody\.$/,
      ],
      ['[{"code": 503, "example": "x"}]', /x is not an example of the 503 response; examples: none/],
      ['[{"code": 503, "every": 0}]', /"every" must be a whole number from 1 to 1000000, got 0/],
      ['[{"code": 503, "probability": 1.5}]', /"probability" must be a number from 0 to 1, got 1\.5/],
      ['[{"code": 503, "every": 2, "probability": 0.5}]', /has both "every" and "probability"/],
      ['[{"code": 503, "seed": 1}]', /"seed" goes with "probability"/],
      ['[{"code": 503, "probability": 0.5, "seed": -1}]', /"seed" must be a whole number from 0 to 4294967295/],
      [
        '[{"code": 503, "every": 2}, "normal"]',
        /^step 0 repeats \("every" or "probability"\) and stays for every later request: it must be the last step\.$/,
      ],
      [
        JSON.stringify(Array(MAX_FAULT_STEPS + 1).fill('normal')),
        new RegExp(`^${MAX_FAULT_STEPS + 1} steps are more than the ${MAX_FAULT_STEPS} the schedule holds\\.$`),
      ],
      ['', /^Request body is required\.$/],
    ];
    for (const [body, message] of cases) {
      const res = await postFaults(app, body);
      assert.equal(res.statusCode, 400, body.slice(0, 80));
      assert.equal(res.json().error, 40023, body.slice(0, 80));
      assert.match(res.json().message, message, body.slice(0, 80));
    }
    const notJson = await postFaults(app, '[{"code": 503}');
    assert.deepEqual([notJson.statusCode, notJson.json().error], [400, 40001]);
    const wrongType = await app.inject({
      method: 'POST',
      url: '/__admin/faults',
      headers: { 'content-type': 'text/plain' },
      payload: '[]',
    });
    assert.equal(wrongType.statusCode, 415);
    assert.deepEqual(
      (await app.inject({ method: 'GET', url: '/__admin/faults' })).json(),
      { steps: [] },
      'nothing was added',
    );
  });

  test('the schedule is bounded: it holds MAX_FAULT_STEPS at most, and nothing follows a repeating step', async () => {
    const app = stubApp();
    await schedule(app, Array(MAX_FAULT_STEPS - 1).fill('normal'));
    const over = await postFaults(app, '["normal", "normal"]');
    assert.equal(over.statusCode, 400);
    assert.equal(
      over.json().message,
      `The schedule holds ${MAX_FAULT_STEPS - 1} steps: 2 more would pass the ${MAX_FAULT_STEPS} it holds.`,
    );
    await schedule(app, [{ code: 500, every: 2 }]);
    const after = await postFaults(app, '["normal"]');
    assert.equal(after.statusCode, 400);
    assert.match(after.json().message, /ends with a repeating step .* DELETE \/__admin\/faults first/);
    assert.equal((await app.inject({ method: 'GET', url: '/__admin/faults' })).json().steps.length, MAX_FAULT_STEPS);
  });

  test('only the controls token schedules; an API token or none is 401 and schedules nothing', async () => {
    const app = stubApp({ stub: { controlsToken: 'admin-secret' } });
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Array<Record<string, string>>) {
      assert.equal((await postFaults(app, '[{"code": 503}]', headers)).statusCode, 401);
      assert.equal((await app.inject({ method: 'GET', url: '/__admin/faults', headers })).statusCode, 401);
      assert.equal((await app.inject({ method: 'DELETE', url: '/__admin/faults', headers })).statusCode, 401);
      assert.equal((await app.inject({ method: 'POST', url: '/__admin/reset', headers })).statusCode, 401);
    }
    assert.equal((await createPlant(app, { id: 1, name: 'Fern' })).statusCode, 200, 'nothing was scheduled');
    assert.equal((await postFaults(app, '[{"code": 503}]', { authorization: 'Bearer admin-secret' })).statusCode, 200);
    assert.equal((await createPlant(app, { id: 2, name: 'Fern' })).statusCode, 503);
  });

  test('with the controls off there are no faults: /__admin/faults is 404 and Prefer: fault= is ignored', async () => {
    for (const app of [
      buildApp({ tokens: [TOKEN] }),
      buildApp({ tokens: [TOKEN], stub: { controls: false, delayMs: 1 } }),
    ]) {
      assert.equal((await postFaults(app, '[{"code": 503}]')).statusCode, 404);
      assert.equal((await app.inject({ method: 'POST', url: '/__admin/reset' })).statusCode, 404);
      for (const [id, prefer] of ['fault=reset', 'code=503', 'delay=60000'].entries()) {
        const res = await createPlant(app, { id, name: 'Fern' }, { prefer });
        assert.equal(res.statusCode, 200, prefer);
      }
    }
  });

  test('POST /__admin/reset empties the store, the journal and the schedule, and sets the delay back to its value at start', async () => {
    const app = stubApp({ stub: { delayMs: 1 } });
    await createPlant(app, { id: 1, name: 'Fern' });
    await app.inject({ method: 'PUT', url: '/__admin/delay', headers: JSON_TYPE, payload: '{"ms": 500}' });
    await schedule(app, [{ code: 503 }, { fault: 'reset' }]);
    const reset = await app.inject({ method: 'POST', url: '/__admin/reset', headers: JSON_TYPE });
    assert.deepEqual(reset.json(), { plantsDeleted: 1, journalCleared: 1, faultsCleared: 2, delayMs: 1 });
    assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/faults' })).json(), { steps: [] });
    assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/delay' })).json(), { ms: 1 });
    assert.deepEqual(await journalEntries(app), []);
    assert.deepEqual(await storedIds(app), []);
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

describe('a scenario: a client with a retry policy, over a real socket', { timeout: 120_000 }, () => {
  test('undici’s RetryAgent gets 503, 503 (Retry-After: 1), then 200, and the plant is stored once', async () => {
    const app = stubApp();
    const base = await listening(app);
    const agent = new Agent();
    const retrying = new RetryAgent(agent, { methods: ['POST'], statusCodes: [503], maxRetries: 3 });
    try {
      await schedule(app, [{ code: 503, retryAfter: 1 }, { code: 503, retryAfter: 1 }, 'normal']);
      const res = await request(`${base}/plants`, {
        method: 'POST',
        headers: JSON_AUTH,
        body: '{"id": 7, "name": "Fern"}',
        dispatcher: retrying,
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(await res.body.json(), { name: 'Fern' });
      assert.deepEqual(await storedIds(app), ['7']);
      assert.deepEqual(
        (await journalEntries(app)).map(({ status, fault, body }) => [status, fault?.step, body]),
        [
          [503, { code: 503, retryAfter: 1 }, '{"id": 7, "name": "Fern"}'],
          [503, { code: 503, retryAfter: 1 }, '{"id": 7, "name": "Fern"}'],
          [200, 'normal', '{"id": 7, "name": "Fern"}'],
        ],
      );
    } finally {
      await retrying.close();
      await app.close();
    }
  });

  test('a connection reset, then a 503, then 200: the retry is not told "already exists", as the reset stored nothing', async () => {
    const app = stubApp();
    const base = await listening(app);
    const agent = new Agent();
    const retrying = new RetryAgent(agent, { methods: ['POST'], statusCodes: [503], maxRetries: 3, minTimeout: 1 });
    try {
      await schedule(app, [{ fault: 'reset' }, { code: 503, retryAfter: 0 }]);
      const res = await request(`${base}/plants`, {
        method: 'POST',
        headers: JSON_AUTH,
        body: '{"id": 8, "name": "Fern"}',
        dispatcher: retrying,
      });
      assert.equal(res.statusCode, 200);
      await res.body.dump();
      assert.deepEqual(await storedIds(app), ['8']);
      assert.deepEqual(
        (await journalEntries(app)).map(({ status }) => status),
        [null, 503, 200],
      );
    } finally {
      await retrying.close();
      await app.close();
    }
  });

  test('curl --retry honours Retry-After: 503, 503, then 200, stored once', { skip: curlMissing }, async () => {
    const app = stubApp();
    const base = await listening(app);
    try {
      await schedule(app, [{ code: 503, retryAfter: 1 }, { code: 503, retryAfter: 1 }, 'normal']);
      const result = await curl([...curlCreate(base, { id: 9, name: 'Fern' }), '--retry', '3', '--fail']);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.toString('utf8'), '{"name":"Fern"}');
      assert.deepEqual(await storedIds(app), ['9']);
      assert.deepEqual(
        (await journalEntries(app)).map(({ status }) => status),
        [503, 503, 200],
      );
    } finally {
      await app.close();
    }
  });
});
