// The answers the stub holds back: those waiting out a delay (configured,
// asked for, or scheduled), a `hang`, a `dribble`. Each holds a socket and
// its request's body, so there is a bound on how many are held at once, and
// every wait ends early when its client goes away or the server closes.
// Within the bound, each credential holds at most its share: one API client
// asking for `hang` 64 times would otherwise leave every other client's
// delayed create a 503.
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import { credentialOf } from '../security/check.js';

/** Waits `ms` milliseconds, or less when `signal` aborts (the client is gone, or the server is closing). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const defaultSleep: Sleep = (ms, signal) => sleepFor(ms, undefined, { signal });

/** One held answer: its waits end early when its client goes away or the server closes. */
export interface Hold {
  /** Resolves after `ms`, or at once when the hold has ended (then `ended` says why); never rejects. */
  wait(ms: number): Promise<void>;
  /** Why the hold ended early: 'client-gone' (its connection closed), 'closing' (the server is closing), or undefined. */
  readonly ended: 'client-gone' | 'closing' | undefined;
  /** Gives the place back; idempotent. */
  release(): void;
}

/** Why no place was given: every place is taken, or the credential holds its share. */
export type Refusal = 'full' | 'share';

export class HeldAnswers {
  private count = 0;
  /** Places held per credential (the Authorization value), while it holds any. */
  private readonly byHolder = new Map<string, number>();

  constructor(
    /** Most answers held at once. */
    readonly max: number,
    /** Most of them one credential holds at once. */
    readonly share: number,
    /** Aborts when the server closes: every wait ends at once. */
    private readonly closing: AbortSignal,
    private readonly sleep: Sleep = defaultSleep,
  ) {}

  get held(): number {
    return this.count;
  }

  /** A place for one more held answer on `socket`, for `holder` (the request's credential); why not, when `max` are held or `holder` holds its share. */
  acquire(socket: Socket, holder: string): Hold | Refusal {
    if (this.count >= this.max) return 'full';
    const mine = this.byHolder.get(holder) ?? 0;
    if (mine >= this.share) return 'share';
    this.count++;
    this.byHolder.set(holder, mine + 1);
    const clientGone = new AbortController();
    const onClose = () => clientGone.abort();
    if (socket.destroyed) clientGone.abort();
    else socket.once('close', onClose);
    const signal = AbortSignal.any([this.closing, clientGone.signal]);
    const { closing, sleep } = this;
    let released = false;
    return {
      wait: (ms) => sleep(ms, signal).catch(() => undefined),
      get ended() {
        return closing.aborted ? 'closing' : clientGone.signal.aborted ? 'client-gone' : undefined;
      },
      release: () => {
        if (released) return;
        released = true;
        this.count--;
        const left = (this.byHolder.get(holder) ?? 1) - 1;
        if (left === 0) this.byHolder.delete(holder);
        else this.byHolder.set(holder, left);
        socket.off('close', onClose);
      },
    };
  }
}

/** Whose place a request takes: its credential as sent, its Authorization or its keys (the operation's requests are authenticated before anything is held). */
export function holderOf(request: FastifyRequest): string {
  return credentialOf(request);
}

/**
 * The 503 for a request that would be held but gets no place; Retry-After
 * the wait it asked for, in seconds (1 at least). `delays` says which the
 * message names (the configured one: `its delay of 200 ms`).
 */
export function busy(held: HeldAnswers, refusal: Refusal, retryAfterSeconds: number, delays = 'delays'): ApiError {
  const message =
    refusal === 'share'
      ? `This credential holds ${held.share} answers of the stub's ${held.max} places (waiting out ${delays}, hang and dribble faults), its share: try again later.`
      : `${held.max} answers are held by the stub (waiting out ${delays}, hang and dribble faults), the most it holds at once: try again later.`;
  return new ApiError('STUB_BUSY', message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
}
