// The answers the stub holds back: those waiting out a delay (configured,
// asked for, or scheduled), a `hang`, a `dribble`. Each holds a socket and
// its request's body, so there is a bound on how many are held at once, and
// every wait ends early when its client goes away or the server closes.
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { Socket } from 'node:net';

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

export class HeldAnswers {
  private count = 0;

  constructor(
    /** Most answers held at once. */
    readonly max: number,
    /** Aborts when the server closes: every wait ends at once. */
    private readonly closing: AbortSignal,
    private readonly sleep: Sleep = defaultSleep,
  ) {}

  get held(): number {
    return this.count;
  }

  /** A place for one more held answer on `socket`; undefined when `max` are held already. */
  acquire(socket: Socket): Hold | undefined {
    if (this.count >= this.max) return undefined;
    this.count++;
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
        socket.off('close', onClose);
      },
    };
  }
}
