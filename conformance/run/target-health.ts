// The dead-target policy: when the runner gives up on a target, and how it
// cuts short what is in flight.
import { setMaxListeners } from 'node:events';
import type { Exchange } from '../checks/exchange.js';

/**
 * Dead-target policy. A target is dead when the preflight request gets no
 * usable HTTP answer, or when DEAD_AFTER exchanges in a row get none
 * (refused, reset, timed out, not HTTP, body over the cap); any answer resets
 * the count. From then on the runner sends nothing more to it, cuts the
 * exchanges in flight short, and grades every check not yet graded `error`
 * with the cause. Without this, a black hole would cost one timeout per
 * request of the catalog.
 */
export const DEAD_AFTER = 5;

export class TargetHealth {
  private readonly controller = new AbortController();
  private consecutive = 0;
  /** The first exchange of the present run of exchanges without an answer. */
  private firstUnanswered: Exchange | undefined;
  reason: string | undefined;
  /** When the target died mid-run: the request after which it stopped answering (the first of the run without an answer). */
  stoppedBy: Exchange | undefined;
  readonly abandon = this.controller.signal;

  constructor() {
    // One listener per exchange in flight: the checks at once, and a batch of concurrent cases.
    setMaxListeners(64, this.abandon);
  }

  /** Counts exchanges that got no usable answer through the target's fault. */
  observe(ex: Exchange): void {
    if (ex.response) {
      this.consecutive = 0;
      this.firstUnanswered = undefined;
    } else if (ex.failure !== 'abandoned' && ex.failure !== 'request') {
      if (this.consecutive++ === 0) this.firstUnanswered = ex;
      if (this.consecutive >= DEAD_AFTER) {
        const first = this.firstUnanswered!;
        const by = `${first.sentBy ? `${first.sentBy}'s ` : ''}${first.request.method} ${first.request.path}${first.request.note ? ` (${first.request.note})` : ''}`;
        if (this.reason === undefined) this.stoppedBy = first;
        this.kill(`${ex.error} (${DEAD_AFTER} requests in a row got no answer, from ${by} on)`);
      }
    }
  }

  kill(reason: string): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.controller.abort(`the target is dead: ${reason}`);
  }
}
