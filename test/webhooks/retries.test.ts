// The retry policy as a function: which answers are retried, the backoff's
// bounds (half fixed, half drawn), and the attempts and the deadline that
// end the retries. No clock is waited on.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judge } from '../../server/webhooks/retries.js';

const later = Date.now() + 3_600_000;
const settings = { attempts: 5, backoffMs: 1000 };
const answered = (status: number) => ({ status, error: null });
const none = { status: null, error: 'ECONNRESET' };

describe('the retry policy', { timeout: 30_000 }, () => {
  test('2xx is delivered; 408, 429, 5xx and no answer are retried; 3xx and other 4xx are refused', () => {
    for (const status of [200, 201, 204, 299])
      assert.equal(judge(answered(status), 1, later, settings).outcome, 'delivered');
    for (const result of [answered(408), answered(429), answered(500), answered(503), answered(599), none])
      assert.equal(judge(result, 1, later, settings).outcome, 'retry');
    for (const status of [301, 304, 400, 401, 404, 410, 422]) {
      assert.deepEqual(judge(answered(status), 1, later, settings), {
        outcome: 'failed',
        reason: `the receiver refused it (${status}): not retried`,
        wait: 0,
      });
    }
  });

  test('the wait before attempt n + 1 is from half to all of backoffMs * 2^(n-1), and at most 60 s', () => {
    const waits = (attempt: number) => [
      judge(none, attempt, later, settings, () => 0).wait,
      judge(none, attempt, later, settings, () => 1).wait,
    ];
    assert.deepEqual([1, 2, 3, 4].map(waits), [
      [500, 1000],
      [1000, 2000],
      [2000, 4000],
      [4000, 8000],
    ]);
    assert.deepEqual([judge(none, 19, later, { attempts: 20, backoffMs: 60_000 }, () => 1).wait], [60_000]);
    assert.equal(judge(none, 1, later, { attempts: 2, backoffMs: 0 }).wait, 0);
  });

  test('the attempts and the deadline end the retries', () => {
    assert.deepEqual(judge(none, 5, later, settings), {
      outcome: 'failed',
      reason: 'gave up after 5 attempts',
      wait: 0,
    });
    assert.equal(
      judge(none, 1, Date.now() + 100, settings, () => 0).outcome,
      'failed',
      'a wait of 500 ms would pass a deadline 100 ms away',
    );
  });
});
