// The proof by execution. The reference server follows whatever document it
// is given, and the harness derives its checks from whatever document it is
// given; so crossing them shows what each change does to those already
// deployed:
//   - existing clients: the checks of the OLD document (what a client written
//     from it sends and expects) against the reference serving the NEW one;
//   - existing servers: the checks of the NEW document (what a new client
//     sends and expects) against the reference serving the OLD one.
// Each departure (fail, non-strict) is a concrete request, with its Expected,
// Actual and curl line, that someone already deployed gets wrong. The
// reference runs in this process (buildApp, listening on 127.0.0.1), as the
// Action has no built server to start; the checks still know nothing of it.
import { randomBytes } from 'node:crypto';
import type { CheckResult, Summary } from '../run/result.js';
import { runTarget } from '../run/runner.js';
import { loadSpecModel, type SpecModel } from '../model/spec-model.js';
import type { Target } from '../model/target.js';
import type { Side } from './change.js';
import { operationsMet, type OperationMet } from './operation-proof.js';
import { departureKeys } from './preexisting.js';
import { lenient } from './tie.js';

export interface ExecutionOptions {
  /** Files of the old and the new document. */
  basePath: string;
  headPath: string;
  seed: number;
  cases: number;
  timeoutMs: number;
  concurrency?: number;
}

export interface CrossRun {
  side: Side;
  /** Whose checks ran, against the reference serving which. */
  checksOf: 'base' | 'head';
  serving: 'base' | 'head';
  summary: Summary;
  /** The checks that departed: fail and non-strict (a request someone deployed gets wrong), and error (could not be run). */
  departures: CheckResult[];
  /** The operations the checking document's PS-OP-001 and PS-OP-002 reached, with each one's outcome (passes too: a pass refutes a rule about that operation). */
  operations?: OperationMet[];
  /**
   * The departures of the old document's checks against the reference serving the old document
   * (preexisting.ts, departureKeys): what departs before the change, on both sides. Run only where a crossing departed.
   */
  baseline?: string[];
  /** Why the crossing shows nothing: no checks could be derived, the reference could not serve the document, or the harness could not check it at all. The side is then judged by the rules. */
  notChecked?: string;
}

/** A document the reference cannot serve: what to say, as `cannot serve …`. */
class ServeError extends Error {}

interface Served {
  url: string;
  token: string;
  close(): Promise<void>;
}

/** The reference server serving `specPath` on a free loopback port, with a token of its own. */
async function serve(specPath: string, which: string): Promise<Served> {
  // Loaded when compat runs: a conformance run never loads the server.
  const { buildApp } = await import('../../server/app.js');
  const token = randomBytes(18).toString('base64url');
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = buildApp({ specPath, tokens: [token] });
    await app.ready();
  } catch (err) {
    throw new ServeError(`the reference server cannot serve the ${which} document: ${(err as Error).message}`);
  }
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, token, close: () => app.close() };
}

function target(name: string, served: Served): Target {
  return {
    name,
    url: served.url,
    token: served.token,
    role: 'reference',
    informs: false,
    restrictsTokens: true,
    tokenFrom: 'the token compat started it with',
  };
}

/** No check ran: every count is 0. */
const NOTHING_RAN: Summary = { pass: 0, 'non-strict': 0, fail: 0, skip: 0, error: 0 };

async function cross(side: Side, checksOf: 'base' | 'head', o: ExecutionOptions): Promise<CrossRun> {
  const serving = checksOf === 'base' ? 'head' : 'base';
  const which = (d: 'base' | 'head') => (d === 'base' ? 'old' : 'new');
  // What cannot run is said in one line, and the side is judged by the rules: the reasons are the document's, not a fault of the command.
  const notPossible = (why: string): CrossRun => ({
    side,
    checksOf,
    serving,
    summary: { ...NOTHING_RAN },
    departures: [],
    notChecked: why,
  });
  let model: SpecModel;
  try {
    model = loadSpecModel(checksOf === 'base' ? o.basePath : o.headPath);
  } catch (err) {
    return notPossible(`no checks can be derived from the ${which(checksOf)} document: ${(err as Error).message}`);
  }
  let served: Served;
  try {
    served = await serve(serving === 'base' ? o.basePath : o.headPath, which(serving));
  } catch (err) {
    return notPossible((err as Error).message);
  }
  try {
    const result = await runTarget(
      { model, targets: [], seed: o.seed, cases: o.cases, timeoutMs: o.timeoutMs, concurrency: o.concurrency },
      target(`${serving}-served`, served),
    );
    const departures = result.results.filter(
      (r) => r.outcome === 'fail' || r.outcome === 'non-strict' || r.outcome === 'error',
    );
    const notChecked = result.diagnosis
      ? `${result.diagnosis.problem}${result.diagnosis.evidence ? ` (${result.diagnosis.evidence})` : ''}`
      : result.unreachable;
    if (notChecked) return { side, checksOf, serving, summary: result.summary, departures: [], notChecked };
    return { side, checksOf, serving, summary: result.summary, departures, operations: operationsMet(result.results) };
  } catch (err) {
    // A document the checks cannot be built from (RuledOut: no integer id to identify a plant, say).
    return notPossible(`the checks of the ${which(checksOf)} document cannot run: ${(err as Error).message}`);
  } finally {
    await served.close();
  }
}

/** The departures of the old document's checks against the reference serving it: what departs before the change (none where it cannot run). */
async function baselineOf(o: ExecutionOptions): Promise<string[]> {
  let model: SpecModel;
  let served: Served;
  try {
    model = loadSpecModel(o.basePath);
    served = await serve(o.basePath, 'old');
  } catch {
    return [];
  }
  try {
    const result = await runTarget(
      { model, targets: [], seed: o.seed, cases: o.cases, timeoutMs: o.timeoutMs, concurrency: o.concurrency },
      target('baseline', served),
    );
    return result.results.filter((r) => r.outcome === 'fail' || r.outcome === 'non-strict').flatMap(departureKeys);
  } finally {
    await served.close();
  }
}

/** Both crossings, one after the other (each starts and stops its own server). */
export async function execute(o: ExecutionOptions): Promise<{ clients: CrossRun; servers: CrossRun }> {
  const clients = await cross('clients', 'base', o);
  const servers = await cross('servers', 'head', o);
  const departed = [clients, servers].some((r) => r.departures.some((d) => d.outcome !== 'error' && !lenient(d)));
  if (!departed) return { clients, servers };
  const baseline = await baselineOf(o);
  return { clients: { ...clients, baseline }, servers: { ...servers, baseline } };
}
