// The controls of the fault schedule (/__admin/faults, /__admin/reset) guard
// themselves: a bad request is a 400 that names the step and what is wrong,
// the schedule is bounded, only the controls token schedules, with the
// controls off there are no faults, and a reset sets everything back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../server/app.js';
import { MAX_FAULT_STEPS } from '../../server/limits.js';
import { createPlant, journalEntries, postFaults, schedule, storedIds, stubApp, TOKEN } from './helpers.js';

const JSON_TYPE = { 'content-type': 'application/json' };

describe('the controls of the fault schedule', { timeout: 120_000 }, () => {
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
});
