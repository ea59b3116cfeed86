// What stands between the harness and a real deployment: rate limits,
// proxies and private certificate authorities.
// - `--rate-limit N`: at most N requests per second to a target, spaced
//   evenly (one HttpClient, so one limiter, per target).
// - A 429 (RFC 6585 §4) or 503 (RFC 9110 §15.6.4) that carries Retry-After
//   is the gateway asking to come back later, not the target's verdict on
//   the request: it is waited out and the request sent again, at most
//   RETRIES times. Each wait is bounded by the exchange's deadline
//   (--timeout): a longer Retry-After is not waited. When the retries are
//   spent, or the wait is too long, the exchange has no answer (`error`,
//   with the reason). A 429 or 503 without Retry-After is an answer, graded.
// - HTTP_PROXY / HTTPS_PROXY / NO_PROXY: honoured through undici's
//   EnvHttpProxyAgent, when one of them is set (proxy.ts).
// - A private CA: NODE_EXTRA_CA_CERTS, which Node reads at start-up; nothing
//   here needs to know.
import { setTimeout as sleep } from 'node:timers/promises';
import { formatMs } from './http.js';
import type { Exchange, RequestSpec } from '../checks/exchange.js';

/** Retries of one request after a 429 or 503 with Retry-After. */
export const RETRIES = 3;

/**
 * Retry-After (RFC 9110 §10.2.3): `HTTP-date / delay-seconds`, where
 * delay-seconds is `1*DIGIT`. Milliseconds to wait from `now`, or undefined
 * when the field is absent or is neither form. A date in the past is 0.
 */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // HTTP-date: IMF-fixdate, or the obsolete RFC 850 and asctime forms, all of which Date.parse reads.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Spaces requests to one target: at most `perSecond` a second. */
export class RateLimiter {
  private next = 0;
  private readonly gapMs: number;
  constructor(perSecond: number) {
    this.gapMs = 1000 / perSecond;
  }

  /** Resolves when the caller may send; each caller gets its own slot. */
  async take(abandon?: AbortSignal): Promise<void> {
    const now = performance.now();
    const slot = Math.max(now, this.next);
    this.next = slot + this.gapMs;
    if (slot > now) await sleep(slot - now, undefined, { signal: abandon }).catch(() => undefined);
  }
}

export interface GatewayOptions {
  /** Requests per second to the target; undefined: no limit. */
  rateLimit?: number;
  /** The exchange's deadline, which also bounds each Retry-After wait. */
  timeoutMs: number;
}

/** Sends a request to a base URL; `sentBy` names the check that sends it (the exchange carries it). */
type Send = (base: string, spec: RequestSpec, abandon?: AbortSignal, sentBy?: string) => Promise<Exchange>;

/** `send` behind the gateway rules: the rate limit, and 429/503 with Retry-After waited out and retried. */
export function throughGateway(send: Send, options: GatewayOptions): Send {
  const limiter = options.rateLimit === undefined ? undefined : new RateLimiter(options.rateLimit);
  return async (base, spec, abandon, sentBy) => {
    for (let attempt = 0; ; attempt++) {
      await limiter?.take(abandon);
      const ex = await send(base, spec, abandon, sentBy);
      const status = ex.response?.status;
      if (status !== 429 && status !== 503) return ex;
      const header = ex.response!.headers['retry-after'];
      const waitMs = retryAfterMs(header);
      if (waitMs === undefined) return ex;
      const answer = `${status} with Retry-After: ${header}`;
      if (attempt >= RETRIES) {
        return {
          request: ex.request,
          url: ex.url,
          error: `rate limited: ${answer} after ${RETRIES} retries; a rate-limit answer is not the check's verdict`,
          failure: 'rate-limited',
          sentBy,
        };
      }
      if (waitMs > options.timeoutMs) {
        return {
          request: ex.request,
          url: ex.url,
          error: `rate limited: ${answer}, longer than the ${formatMs(options.timeoutMs)} deadline (--timeout); not waited`,
          failure: 'rate-limited',
          sentBy,
        };
      }
      await sleep(waitMs, undefined, { signal: abandon }).catch(() => undefined);
      if (abandon?.aborted)
        return {
          request: ex.request,
          url: ex.url,
          error: `cut short: ${String(abandon.reason)}`,
          failure: 'abandoned',
          sentBy,
        };
    }
  };
}
