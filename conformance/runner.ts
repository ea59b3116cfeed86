// Runs the catalog against targets: bounded concurrency, run-unique ids,
// grading. Results are per target so that reporters can set targets side by
// side. Checks do no I/O; every request goes through HttpClient.
import { catalog as defaultCatalog } from './checks/index.js';
import { worst } from './checks/grades.js';
import { runProperty } from './checks/property.js';
import type { CaseExchange, Check, CheckContext, Verdict } from './checks/types.js';
import { toCurl } from './curl.js';
import { HttpClient, type Exchange, type RequestSpec } from './http.js';
import { IdAllocator } from './ids.js';
import { summarize, type CheckResult, type TargetResult } from './result.js';
import type { SpecModel } from './spec-model.js';
import type { Target } from './targets/target.js';

export interface RunOptions {
  model: SpecModel;
  targets: Target[];
  seed: number;
  cases: number;
  timeoutMs: number;
  /** Checks run at once per target (requests within a check are sequential). */
  concurrency?: number;
  /** Run only these check IDs (aggregate checks then see only their exchanges). */
  only?: string[];
  catalog?: Check[];
  onProgress?: (done: number, total: number, target: string, id: string) => void;
  /** Sees every exchange (used by the catalog test to prove every declared status is exercised). */
  onExchange?: (ex: Exchange) => void;
}

async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  });
  await Promise.all(workers);
}

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

class TargetHealth {
  private readonly controller = new AbortController();
  private consecutive = 0;
  reason: string | undefined;
  readonly abandon = this.controller.signal;

  /** Counts exchanges that got no usable answer through the target's fault. */
  observe(ex: Exchange): void {
    if (ex.response) this.consecutive = 0;
    else if (ex.failure !== 'abandoned' && ex.failure !== 'request' && ++this.consecutive >= DEAD_AFTER) {
      this.kill(`${ex.error} (${DEAD_AFTER} requests in a row got no answer)`);
    }
  }

  kill(reason: string): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.controller.abort(`the target is dead: ${reason}`);
  }
}

/** The preflight: the operation without credentials or body, which a conforming server refuses (401) and which creates nothing. */
function preflight(model: SpecModel): RequestSpec {
  return { method: model.create.method, path: model.create.path, headers: {}, note: 'preflight' };
}

export async function runTarget(opts: RunOptions, target: Target): Promise<TargetResult> {
  const checks = (opts.catalog ?? defaultCatalog).filter((c) => !opts.only || opts.only.includes(c.id));
  const client = new HttpClient(opts.timeoutMs, opts.concurrency ?? 4);
  const health = new TargetHealth();
  try {
    const first = await client.send(target.url, preflight(opts.model));
    if (!first.response) health.kill(`${first.error} (preflight ${first.request.method} ${first.request.path})`);
    const ctx: CheckContext = {
      model: opts.model,
      target,
      ids: new IdAllocator(),
      seed: opts.seed,
      cases: opts.cases,
      auth: () => `Bearer ${target.token}`,
    };
    const results = new Map<string, CheckResult>();
    const all: Exchange[] = [];
    let done = 0;
    const record = (check: Check, verdict: Verdict, exchanges: Exchange[], requests: number) => {
      const ex = verdict.reproduce ?? (verdict.exchange !== undefined ? exchanges[verdict.exchange] : undefined);
      const reportable = verdict.outcome !== 'pass';
      results.set(check.id, {
        id: check.id,
        title: check.title,
        level: check.level,
        outcome: verdict.outcome,
        requirement: check.requirement,
        source: check.source,
        expected: reportable ? (verdict.expected ?? null) : null,
        // The request's note says which of a check's requests this is (e.g. "id as a string of digits").
        actual: reportable && verdict.actual ? (ex?.request.note ? `[${ex.request.note}] ${verdict.actual}` : verdict.actual) : null,
        reproduce: reportable && ex ? toCurl(ex, target.token) : null,
        requests,
      });
      opts.onProgress?.(++done, checks.length, target.name, check.id);
    };
    const dead = (): Verdict => ({ outcome: 'error', expected: 'an HTTP answer', actual: `not run: ${health.reason}` });
    // One sender per check: it counts the check's requests and notes when
    // the dead-target policy cut the check short.
    const sender = () => {
      const s = {
        requests: 0,
        cutShort: false,
        send: async (req: RequestSpec): Promise<Exchange> => {
          const ex = await client.send(target.url, req, health.abandon);
          if (ex.failure === 'abandoned') {
            s.cutShort = true;
            return ex;
          }
          s.requests++;
          health.observe(ex);
          all.push(ex);
          opts.onExchange?.(ex);
          return ex;
        },
      };
      return s;
    };
    const active = checks.filter((c) => c.kind !== 'aggregate');
    await pool(active, opts.concurrency ?? 4, async (check) => {
      const reason = check.precondition?.(ctx);
      if (reason) return record(check, { outcome: 'skip', actual: reason }, [], 0);
      if (health.reason !== undefined) return record(check, dead(), [], 0);
      const s = sender();
      try {
        if (check.kind === 'exchange') {
          const sent: Array<CaseExchange<unknown>> = [];
          for (const c of check.cases(ctx)) {
            const exchange = await s.send(c.request);
            if (s.cutShort) break;
            sent.push({ ...c, exchange });
          }
          // A check cut short cannot be graded on part of its cases.
          record(check, s.cutShort ? dead() : check.verify(sent, ctx), sent.map((c) => c.exchange), s.requests);
        } else if (check.kind === 'property') {
          const verdict = await runProperty(check, ctx, s.send);
          // A failure found before the target died stands; anything else is incomplete.
          record(check, s.cutShort && verdict.outcome !== 'fail' ? dead() : verdict, [], s.requests);
        }
      } catch (err) {
        record(check, { outcome: 'error', expected: 'the check to run', actual: `harness error: ${(err as Error).message}` }, [], 0);
      }
    });
    for (const check of checks) {
      if (check.kind !== 'aggregate') continue;
      // An exchange the check does not apply to (skip) does not make the check a skip.
      const graded = all.map((ex) => ({ ...check.verifyEach(ex, ctx), reproduce: ex })).filter((v) => v.outcome !== 'skip');
      const verdict = worst(graded);
      // Graded on the answers of a run the target did not finish: a failure stands, nothing else is known.
      record(check, health.reason !== undefined && verdict.outcome !== 'fail' ? dead() : verdict, [], all.length);
    }
    const ordered = checks.map((c) => results.get(c.id)!);
    const observed = all.map((ex) => ({ method: ex.request.method, path: ex.request.path, status: ex.response?.status }));
    return { target, summary: summarize(ordered), results: ordered, unreachable: health.reason, observed };
  } finally {
    await client.close();
  }
}

export async function run(opts: RunOptions): Promise<TargetResult[]> {
  const out: TargetResult[] = [];
  for (const t of opts.targets) out.push(await runTarget(opts, t));
  return out;
}
