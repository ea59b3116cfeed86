// Which failed attempts are retried, and when: the retry policy of the
// deliveries (deliveries.ts), as one pure function.
//
//   2xx                            delivered
//   no answer, a timeout,          retried after backoffMs * 2^(n-1) (half of it
//   408, 429 or 5xx                fixed, half drawn at random, each wait at most
//                                  MAX_WEBHOOK_BACKOFF_MS), until the attempts
//                                  are used or the next one would start past
//                                  the deadline: then failed
//   anything else (3xx, 4xx)       failed: the receiver refused it; not retried
import { MAX_WEBHOOK_BACKOFF_MS } from '../limits.js';
import type { AttemptResult } from './send.js';

/** What became of a delivery's attempt; `dropped` and `cancelled` come from the queue, the stub's schedule, a reset or the shutdown. */
export type Outcome = 'delivered' | 'retry' | 'failed' | 'dropped' | 'cancelled';

export interface RetrySettings {
  attempts: number;
  backoffMs: number;
}

/** The outcome of attempt number `attempt` of a delivery due by `deadline` (a time), why, and the wait before the next one. */
export function judge(
  result: AttemptResult,
  attempt: number,
  deadline: number,
  settings: RetrySettings,
  random: () => number = Math.random,
): { outcome: Outcome; reason: string; wait: number } {
  const { status } = result;
  if (status !== null && status >= 200 && status < 300) return { outcome: 'delivered', reason: 'delivered', wait: 0 };
  if (status !== null && status !== 408 && status !== 429 && status < 500)
    return { outcome: 'failed', reason: `the receiver refused it (${status}): not retried`, wait: 0 };
  if (attempt >= settings.attempts) return { outcome: 'failed', reason: `gave up after ${attempt} attempts`, wait: 0 };
  const ceiling = Math.min(MAX_WEBHOOK_BACKOFF_MS, settings.backoffMs * 2 ** (attempt - 1));
  // Half fixed, half drawn: receivers that recover together are not all hit again at once.
  const wait = ceiling / 2 + random() * (ceiling / 2);
  if (Date.now() + wait > deadline)
    return { outcome: 'failed', reason: 'gave up: the next attempt would start past the deadline', wait: 0 };
  return { outcome: 'retry', reason: 'to be retried', wait };
}
