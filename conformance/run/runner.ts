// Runs the catalog against targets: bounded concurrency, run-unique ids,
// grading. Results are per target so that reporters can set targets side by
// side. Checks do no I/O; every request goes through HttpClient.
// The dead-target policy is in target-health.ts, what becomes of verdicts
// in verdicts.ts.
import { catalog as defaultCatalog } from '../checks/index.js';
import { runProperty } from '../checks/property.js';
import {
  DISRUPTIVE,
  ONE_AT_A_TIME,
  INFERENCES,
  MAX_BATCH,
  MAX_FOLLOW_ROUNDS,
  STAGES,
  type AggregateCheck,
  type Case,
  type CaseExchange,
  type Check,
  type CheckContext,
  type Inference,
  type Outcome,
  type Verdict,
} from '../checks/types.js';
import { RuledOut } from '../cases/draw.js';
import { toCurl } from './curl.js';
import { diagnose, waitForAnswer, type Diagnosis } from './diagnose.js';
import { throughGateway } from './gateway.js';
import { HttpClient } from './http.js';
import type { Exchange, RequestSpec } from '../checks/exchange.js';
import { IdAllocator } from '../cases/ids.js';
import { runRedactor } from '../redact/secrets.js';
import type { ObservedExchange } from './coverage.js';
import { summarize, type CheckResult, type TargetResult } from './result.js';
import { checkResult, type Sent, type Tracer } from './case-results.js';
import { acceptedId, linkSameDouble, traceOf } from './traces.js';
import type { StoppedBy } from './target-result.js';
import { TargetHealth } from './target-health.js';
import { storePrerequisites } from './setup.js';
import { AggregateVerdicts, partialVerdict } from './verdicts.js';
import { batches, pool, sameRequest } from './sending.js';
import type { SpecModel } from '../model/spec-model.js';
import { declaredSchemes } from '../model/security.js';
import { withTargetHeaders } from '../checks/credentials.js';
import type { Target } from '../model/target.js';

export interface RunOptions {
  model: SpecModel;
  targets: Target[];
  seed: number;
  /** With the seed, decides every id the run sends (--id-offset): another offset, other ids (a rerun against the same long-lived target). Default 0. */
  idOffset?: bigint;
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
  /** Requests per second to each target (--rate-limit); undefined: no limit. */
  rateLimit?: number;
  /** Wait this long for each target of role `target` to answer at all before the diagnosis (--wait-for). */
  waitForMs?: number;
  /** Stop starting checks once this many have failed on the deciding targets (--max-failures); the rest are skip. */
  maxFailures?: number;
  /** With maxFailures: non-strict counts as a failure too (--strict). */
  strict?: boolean;
  /** The inferences the checks grade by (--inferences); default every one. */
  inferences?: readonly Inference[];
  /** What happens to a target as the run goes: waiting for it, its diagnosis, its checks starting and done. */
  onEvent?: (event: RunEvent) => void;
  /** Sees every HTTP exchange with a target as it went over the wire (a retry after 429 included), with when it started and how long it took: the HAR recording. */
  onWire?: (target: Target, exchange: Exchange, timing: WireTiming) => void;
}

export interface WireTiming {
  /** When the request was started (epoch milliseconds). */
  startedAt: number;
  /** From the start to the end of the answer, or of the attempt, in milliseconds. */
  ms: number;
}

export type RunEvent =
  | { kind: 'waiting'; target: Target; waitMs: number }
  | { kind: 'answered'; target: Target; afterMs: number }
  | { kind: 'still-down'; target: Target; afterMs: number }
  | { kind: 'checking'; target: Target; checks: number }
  | { kind: 'done'; target: Target; result: TargetResult; ms: number };

/** The failures counted against --max-failures, over the whole run. */
interface FailureBudget {
  failures: number;
}

/** Whether an outcome counts against --max-failures. */
function failsRun(outcome: Outcome, strict: boolean): boolean {
  return outcome === 'fail' || outcome === 'error' || (strict && outcome === 'non-strict');
}

export async function runTarget(
  opts: RunOptions,
  target: Target,
  budget: FailureBudget = { failures: 0 },
): Promise<TargetResult> {
  const started = performance.now();
  const checks = (opts.catalog ?? defaultCatalog).filter((c) => !opts.only || opts.only.includes(c.id));
  // Room for a batch of concurrent cases (PS-STATE-003) beside the checks running at once; every
  // exchange carries the target's secrets, redacted from whatever of it a report shortens.
  const client = new HttpClient(opts.timeoutMs, (opts.concurrency ?? 4) + MAX_BATCH, runRedactor([target]));
  // Every request carries the target's own headers (-H) but those that carry a credential of the document's schemes
  // (credentials.ts withTargetHeaders); each exchange on the wire is recorded (--har), with the check that sent it.
  const extra = target.headers ?? {};
  const schemes = declaredSchemes(opts.model.doc);
  const sendOnWire = async (
    base: string,
    spec: RequestSpec,
    abandon?: AbortSignal,
    sentBy?: string,
  ): Promise<Exchange> => {
    const request = withTargetHeaders(spec, extra, schemes);
    const tagged = (ex: Exchange): Exchange => (sentBy === undefined ? ex : Object.assign(ex, { sentBy }));
    if (!opts.onWire || abandon?.aborted) return tagged(await client.send(base, request, abandon));
    const startedAt = Date.now();
    const t0 = performance.now();
    const ex = tagged(await client.send(base, request, abandon));
    opts.onWire(target, ex, { startedAt, ms: performance.now() - t0 });
    return ex;
  };
  // The rate limit, and 429/503 with Retry-After waited out and retried (gateway.ts).
  const send = throughGateway(sendOnWire, { rateLimit: opts.rateLimit, timeoutMs: opts.timeoutMs });
  const health = new TargetHealth();
  try {
    if (opts.waitForMs !== undefined && target.role === 'target') {
      opts.onEvent?.({ kind: 'waiting', target, waitMs: opts.waitForMs });
      // The polls go straight to the client: they are not exchanges of the run (nor of its HAR).
      const waited = await waitForAnswer(
        opts.model,
        target,
        (spec) => client.send(target.url, withTargetHeaders(spec, extra, schemes)),
        opts.waitForMs,
        opts.timeoutMs,
      );
      opts.onEvent?.({ kind: waited.answered ? 'answered' : 'still-down', target, afterMs: waited.afterMs });
    }
    const ids = new IdAllocator(opts.seed, opts.idOffset ?? 0n);
    const { diagnosis, preflight: first } = await diagnose(
      opts.model,
      target,
      (spec) => send(target.url, spec, undefined, DIAGNOSIS),
      opts.timeoutMs,
      ids.scoped(DIAGNOSIS),
    );
    if (!first.response) health.kill(`${first.error} (preflight ${first.request.method} ${first.request.path})`);
    else if (diagnosis) health.kill(diagnosis.problem);
    opts.onEvent?.({ kind: 'checking', target, checks: diagnosis ? 0 : checks.length });
    const shared: CheckContext = {
      model: opts.model,
      target,
      ids,
      seed: opts.seed,
      cases: opts.cases,
      auth: () => `Bearer ${target.token}`,
      inferences: new Set(opts.inferences ?? INFERENCES),
    };
    // What the checks' requests need to exist first (parents, referenced items), stored once before them.
    if (!diagnosis && health.reason === undefined)
      shared.prerequisites = await storePrerequisites(shared, (spec) => send(target.url, spec, health.abandon, SETUP));
    const results = new Map<string, CheckResult>();
    const aggregates = new AggregateVerdicts(
      checks.filter((c): c is AggregateCheck => c.kind === 'aggregate'),
      shared,
    );
    const tracer: Tracer = (v, ex) => aggregates.traceOf(v) ?? traceOf(opts.model, ex);
    // Of every exchange, what the coverage of the document needs: the request's method and path, the status.
    const observed: ObservedExchange[] = [];
    // The ids of the creates the target accepted (2xx), as sent.
    const acceptedIds = new Set<string>();
    let done = 0;
    const record = (check: Check, verdict: Verdict, sent: Sent) => {
      // A check not run (the target given up) is no failure found: it does not count against --max-failures.
      const notRun = verdict.cause?.startsWith('not run: ') === true;
      if (!target.informs && !notRun && failsRun(verdict.outcome, opts.strict === true)) budget.failures++;
      results.set(check.id, checkResult(check, verdict, sent, target.token, tracer));
      opts.onProgress?.(++done, checks.length, target.name, check.id);
    };
    const nothingSent: Sent = { exchanges: [], requests: 0 };
    const dead = (): Verdict => ({
      outcome: 'error',
      expected: 'an HTTP answer',
      actual: `not run: ${health.reason}`,
      cause: diagnosis ? `not run: ${diagnosis.problem}` : `not run: the target stopped answering`,
    });
    const stopped = (): Verdict => ({
      outcome: 'skip',
      actual: `not run: the run stopped after ${opts.maxFailures} failure(s) (--max-failures)`,
    });
    const overBudget = () => opts.maxFailures !== undefined && budget.failures >= opts.maxFailures;
    // One sender per check: it counts the check's requests, tags each exchange with the check, and
    // notes when the dead-target policy cut the check short.
    const sender = (check: Check) => {
      const s = {
        requests: 0,
        cutShort: false,
        send: async (req: RequestSpec): Promise<Exchange> => {
          const ex = await send(target.url, req, health.abandon, check.id);
          if (ex.failure === 'abandoned') {
            s.cutShort = true;
            return ex;
          }
          s.requests++;
          health.observe(ex);
          aggregates.grade(ex);
          observed.push({ method: ex.request.method, path: ex.request.path, status: ex.response?.status });
          const created = acceptedId(opts.model, ex);
          if (created !== undefined) acceptedIds.add(created);
          opts.onExchange?.(ex);
          return ex;
        },
      };
      return s;
    };
    let stoppedEarly = false;
    const runCheck = async (check: Check): Promise<void> => {
      // Each check draws from its own scope of the seed: what it sends does not depend on the order the checks start in.
      const ctx = { ...shared, ids: ids.scoped(check.id) };
      if (overBudget() && health.reason === undefined) stoppedEarly = true;
      // The document rules out what the check needs: a skip that says why (and the coverage lists it).
      const ruledOut = (reason: string) =>
        record(check, { outcome: 'skip', actual: reason }, { ...nothingSent, ruledOut: reason });
      let reason: string | undefined;
      let planned: Array<Case<unknown>> | undefined;
      try {
        reason = check.precondition?.(ctx);
        if (!reason && check.kind === 'exchange' && health.reason === undefined && !overBudget())
          planned = check.cases(ctx);
      } catch (err) {
        if (!(err instanceof RuledOut))
          return record(
            check,
            { outcome: 'error', expected: 'the check to run', actual: `harness error: ${(err as Error).message}` },
            nothingSent,
          );
        reason = err.message;
      }
      if (reason) return ruledOut(reason);
      if (health.reason !== undefined) return record(check, dead(), nothingSent);
      if (overBudget()) return record(check, stopped(), nothingSent);
      const s = sender(check);
      try {
        if (check.kind === 'exchange') {
          const sent: Array<CaseExchange<unknown>> = [];
          // The planned cases, then those the check builds from their answers (follow), round after round.
          let next: Array<Case<unknown>> = planned!;
          for (let round = 0; next.length > 0 && !s.cutShort && round <= MAX_FOLLOW_ROUNDS; round++) {
            for (const group of batches(next)) {
              const exchanges = await Promise.all(group.map((c) => s.send(c.request)));
              if (s.cutShort) break;
              group.forEach((c, i) => sent.push({ ...c, exchange: exchanges[i]! }));
            }
            next = s.cutShort ? [] : (check.follow?.(sent, ctx) ?? []);
          }
          const verdict = s.cutShort ? (partialVerdict(check, sent, ctx) ?? dead()) : check.verify(sent, ctx);
          // A case sent at the same time as identical others: its reproduction says so.
          const together = (i: number) => {
            const about = sent[i];
            return about?.batch === undefined
              ? undefined
              : sent.filter((c) => c.batch === about.batch && sameRequest(c.request, about.request)).length;
          };
          record(check, verdict, { exchanges: sent.map((c) => c.exchange), together, requests: s.requests });
        } else if (check.kind === 'property') {
          const verdict = await runProperty(check, ctx, s.send);
          if (verdict.outcome === 'skip' && verdict.ruledOut)
            return ruledOut(verdict.actual ?? 'the document rules out what this check draws');
          // A failure found before the target died stands; anything else is incomplete.
          record(check, s.cutShort && verdict.outcome !== 'fail' ? dead() : verdict, {
            exchanges: [],
            requests: s.requests,
          });
        }
      } catch (err) {
        record(
          check,
          { outcome: 'error', expected: 'the check to run', actual: `harness error: ${(err as Error).message}` },
          nothingSent,
        );
      }
    };
    // Stage by stage (types.ts Stage): the checks that store fixed ids after the ordinary ones, and those
    // that may knock the target out last, one at a time, the most hostile last.
    let diedDisrupted = false;
    for (const stage of STAGES) {
      const staged = checks.filter((c) => c.kind !== 'aggregate' && (c.stage ?? 'ordinary') === stage);
      const aliveBefore = health.reason === undefined;
      await pool(staged, ONE_AT_A_TIME.has(stage) ? 1 : (opts.concurrency ?? 4), runCheck);
      if (aliveBefore && health.reason !== undefined && DISRUPTIVE.has(stage)) diedDisrupted = true;
    }
    for (const check of checks) {
      if (check.kind !== 'aggregate') continue;
      const verdict = aggregates.verdict(check);
      // Graded on the answers of a run the target did not finish: a failure stands, nothing else is known;
      // unless it stopped answering only after the checks that may knock it out began: then every other
      // check's answers were graded.
      if (health.reason !== undefined && !diedDisrupted && verdict.outcome !== 'fail')
        record(check, dead(), { exchanges: [], requests: aggregates.count });
      else if (stoppedEarly && verdict.outcome !== 'fail')
        record(check, stopped(), { exchanges: [], requests: aggregates.count });
      else {
        // It applied to no exchange, and the document says why none could: skipped because of the document.
        const ruledOut = verdict.outcome === 'skip' ? check.precondition?.(shared) : undefined;
        record(
          check,
          ruledOut !== undefined ? { outcome: 'skip', actual: ruledOut } : verdict,
          ruledOut !== undefined
            ? { exchanges: [], requests: aggregates.count, ruledOut }
            : { exchanges: [], requests: aggregates.count },
        );
      }
    }
    const ordered = checks.map((c) => results.get(c.id)!);
    // A refused create whose id is one double with an id the target took (root-causes.ts), known once the run is over.
    linkSameDouble(ordered, acceptedIds);
    // A target that answered but cannot be checked meaningfully (the token refused, no Plant Store at the
    // URL) was not given up for lack of answers: it has a diagnosis, not `unreachable`.
    const unreachable = first.response ? (diagnosis ? undefined : health.reason) : health.reason;
    const stoppedBy =
      unreachable !== undefined && health.stoppedBy ? stoppedByOf(health.stoppedBy, target.token) : undefined;
    const result: TargetResult = {
      target,
      summary: summarize(ordered),
      results: ordered,
      unreachable,
      ...(stoppedBy ? { stoppedBy } : {}),
      observed,
      ...(diagnosis ? { diagnosis } : {}),
    };
    opts.onEvent?.({ kind: 'done', target, result, ms: performance.now() - started });
    return result;
  } finally {
    await client.close();
  }
}

/** The check named for the diagnosis's requests. */
const DIAGNOSIS = 'diagnosis';
/** The check named for the requests that store what the checks need first (setup.ts). */
const SETUP = 'setup';

/** The request after which a target stopped answering, as the results carry it. */
function stoppedByOf(ex: Exchange, token: string): StoppedBy {
  return {
    check: ex.sentBy ?? DIAGNOSIS,
    method: ex.request.method,
    path: ex.request.path,
    ...(ex.request.note !== undefined ? { case: ex.request.note } : {}),
    reproduce: toCurl(ex, token),
  };
}

export async function run(opts: RunOptions): Promise<TargetResult[]> {
  const out: TargetResult[] = [];
  const budget: FailureBudget = { failures: 0 };
  for (const t of opts.targets) out.push(await runTarget(opts, t, budget));
  return out;
}

export type { Diagnosis };
