// Runs the catalog against targets: bounded concurrency, run-unique ids,
// grading. Results are per target so that reporters can set targets side by
// side. Checks do no I/O; every request goes through HttpClient.
import { catalog as defaultCatalog } from './checks/index.js';
import type { Check, CheckContext, Outcome, Source, Target, Verdict } from './checks/types.js';
import { OUTCOMES } from './checks/types.js';
import { toCurl } from './curl.js';
import { HttpClient, type Exchange, type RequestSpec } from './http.js';
import { IdAllocator } from './ids.js';
import type { SpecModel } from './spec-model.js';

export interface CheckResult {
  id: string;
  title: string;
  level: 'MUST' | 'SHOULD';
  outcome: Outcome;
  requirement: string;
  source: Source;
  expected: string | null;
  actual: string | null;
  /** A curl command reproducing the exchange the verdict is about (token redacted), or null. */
  reproduce: string | null;
  /** Requests this check sent. */
  requests: number;
}

export type Summary = Record<Outcome, number>;

export interface TargetResult {
  name: string;
  url: string;
  summary: Summary;
  results: CheckResult[];
}

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

export class UnreachableTarget extends Error {}

export function summarize(results: CheckResult[]): Summary {
  const s = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Summary;
  for (const r of results) s[r.outcome]++;
  return s;
}

/** A run fails when a check fails, or (strict) when one is non-strict. */
export function runFailed(targets: TargetResult[], strict: boolean): boolean {
  return targets.some((t) => t.summary.fail > 0 || (strict && t.summary['non-strict'] > 0));
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

/** Fails fast (exit 2) when the target does not answer HTTP at all. */
async function probe(client: HttpClient, target: Target): Promise<void> {
  const ex = await client.send(target.url, { method: 'GET', path: '/', headers: {} });
  if (!ex.response) throw new UnreachableTarget(`target ${target.name} (${target.url}) is unreachable: ${ex.error}`);
}

export async function runTarget(opts: RunOptions, target: Target): Promise<TargetResult> {
  const checks = (opts.catalog ?? defaultCatalog).filter((c) => !opts.only || opts.only.includes(c.id));
  const client = new HttpClient(opts.timeoutMs, opts.concurrency ?? 4);
  try {
    await probe(client, target);
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
    const send = async (req: RequestSpec): Promise<Exchange> => {
      const ex = await client.send(target.url, req);
      all.push(ex);
      opts.onExchange?.(ex);
      return ex;
    };
    const active = checks.filter((c) => c.kind !== 'aggregate');
    await pool(active, opts.concurrency ?? 4, async (check) => {
      const reason = check.precondition?.(ctx);
      if (reason) return record(check, { outcome: 'skip', actual: reason }, [], 0);
      try {
        if (check.kind === 'exchange') {
          const exchanges: Exchange[] = [];
          for (const req of check.requests(ctx)) exchanges.push(await send(req));
          record(check, check.verify(exchanges, ctx), exchanges, exchanges.length);
        } else if (check.kind === 'property') {
          const before = all.length;
          const verdict = await check.run(ctx, send);
          record(check, verdict, [], all.length - before);
        }
      } catch (err) {
        record(check, { outcome: 'error', expected: 'the check to run', actual: `harness error: ${(err as Error).message}` }, [], 0);
      }
    });
    for (const check of checks) {
      if (check.kind !== 'aggregate') continue;
      let worst: Verdict = { outcome: 'pass' };
      const rank = (o: Outcome) => ['pass', 'skip', 'non-strict', 'fail', 'error'].indexOf(o);
      for (const ex of all) {
        const v = check.verifyEach(ex, ctx);
        if (v.outcome !== 'skip' && rank(v.outcome) > rank(worst.outcome)) worst = { ...v, reproduce: ex };
      }
      record(check, worst, [], all.length);
    }
    const ordered = checks.map((c) => results.get(c.id)!);
    return { name: target.name, url: target.url, summary: summarize(ordered), results: ordered };
  } finally {
    await client.close();
  }
}

export async function run(opts: RunOptions): Promise<TargetResult[]> {
  const out: TargetResult[] = [];
  for (const t of opts.targets) out.push(await runTarget(opts, t));
  return out;
}
