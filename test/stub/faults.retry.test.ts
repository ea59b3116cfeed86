// The scenario a client's retry loop is tested with, end to end over a real
// socket: a schedule of 503s with Retry-After, or a connection reset, then
// the normal answer, through undici's RetryAgent and curl --retry; the plant
// is stored once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent, request, RetryAgent } from 'undici';
import {
  curl,
  curlCreate,
  curlMissing,
  journalEntries,
  JSON_AUTH,
  listening,
  schedule,
  storedIds,
  stubApp,
} from './helpers.js';

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
