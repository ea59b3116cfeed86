// What a run produces: per target, the result of each check; for the run, the
// matrix of outcomes side by side and how informing targets compare with
// their divergence files. Every reporter takes the one RunResult; the exit
// code is read from it.
import { OUTCOMES, SEVERITY, type Outcome } from '../checks/types.js';
import type { Coverage } from './coverage.js';
import type { DivergenceComparison } from './differential/divergences.js';
import { buildMatrix, type MatrixRow } from './differential/matrix.js';
import type { LintFinding } from '../model/lint.js';
import { escapeControls, mapStrings } from '../redact/escape.js';
import { runRedactor } from '../redact/secrets.js';
import type { CaseResult, CheckResult, Summary, TargetResult } from './target-result.js';

export type { CaseResult, CheckResult, ObservedExchange, StoppedBy, Summary, TargetResult } from './target-result.js';

/**
 * One departure and the checks that show it: a cause (the rule broken, in
 * words shared by every check it happens to) with, where the target does it
 * only to some requests of the kind, the family of input that shows it; and
 * one way to reproduce it.
 */
export interface FailureGroup {
  cause: string;
  /** The family of input that shows it, when the cause depends on the input ("an empty string", "id 0"); absent when the target does it to every request of the kind. */
  family?: string;
  /** The worst outcome among them. */
  outcome: Outcome;
  /** The IDs of the checks, in report order. */
  checks: string[];
  /** The shortest reproduction among its cases, or null. */
  reproduce: string | null;
  /** Expected and Actual of the case reproduced. */
  expected?: string | null;
  actual?: string | null;
}

export interface RunResult {
  /** The random seed of the generated cases. */
  seed: number;
  /** With the seed, decides the plant ids (--id-offset); absent when 0. */
  idOffset?: number;
  strict: boolean;
  /** The spec's lint findings (none stops a run; our own house rules are warnings). */
  lint: LintFinding[];
  targets: TargetResult[];
  /** Per check, the outcome on each target side by side, and where they disagree, why. */
  matrix: MatrixRow[];
  /** For each informing target with a divergence file: how its results compare with the file. */
  divergences: DivergenceComparison[];
  /** What the run exercised of the document: operations, declared responses, schema keywords. */
  coverage?: Coverage;
}

/**
 * The run's result, with the matrix built from its targets and divergence
 * comparisons: what every reporter takes, so the one point where what the
 * targets sent is made safe to show (safeRun).
 */
export function runResult(parts: Omit<RunResult, 'matrix'>): RunResult {
  const safe = safeRun(parts);
  return { ...safe, matrix: buildMatrix(safe.targets, safe.divergences) };
}

/**
 * A copy of the run in which every string of every field has each target's
 * token replaced by $PLANTSTORE_TOKEN, any other credential the harness sent
 * redacted, and control characters escaped (redact/). Targets echo
 * requests, and a report is read in terminals, CI logs and browsers.
 */
export function safeRun<T extends Omit<RunResult, 'matrix'>>(parts: T): T {
  const redact = runRedactor(parts.targets.map((t) => t.target));
  return mapStrings(parts, (text) => escapeControls(redact(text)));
}

/** The seed as a report prints it: what to give back to replay the run (--seed, and --id-offset when not 0). */
export function seedText(run: Pick<RunResult, 'seed' | 'idOffset'>): string {
  return `seed ${run.seed}${run.idOffset ? `, id offset ${run.idOffset}` : ''}`;
}

/** A departure as the reports name it: its cause, and the family of input that shows it. */
export function departureText(d: Pick<FailureGroup | CaseResult, 'cause' | 'family'>): string {
  return d.family === undefined ? d.cause : `${d.cause} (${d.family})`;
}

/** The results that fail the run: fail and error, and under --strict non-strict. */
export function failing(results: CheckResult[], strict: boolean): CheckResult[] {
  return results.filter((r) => counts(r.outcome, strict));
}

/** Whether an outcome counts as a failure of the run: fail and error, and under --strict non-strict. */
export function counts(outcome: Outcome, strict: boolean): boolean {
  return outcome === 'fail' || outcome === 'error' || (strict && outcome === 'non-strict');
}

/**
 * A target's failures grouped by departure, the largest group first (then in
 * report order): a departure is a cause (the rule broken) with the family of
 * input that shows it. One server mistake that fails many checks reads as
 * one (a 201 to every valid create), and distinct mistakes that read alike
 * stay apart, each with its own curl line (a Go server that refuses an empty
 * name, id 0 and 1.0 with 400 breaks rule 1 three times). A cause that a
 * plain case shows too (a plain request, or an aggregate check that grades
 * every answer) is the target's answer to every request of the kind: one
 * group, whatever the families.
 */
export function failureGroups(t: TargetResult, strict: boolean): FailureGroup[] {
  const departures: Array<{
    check: string;
    c: Pick<CaseResult, 'outcome' | 'cause' | 'family' | 'reproduce' | 'expected' | 'actual'>;
  }> = [];
  for (const r of failing(t.results, strict)) {
    const cases = (r.cases ?? []).filter((c) => counts(c.outcome, strict));
    if (cases.length > 0) for (const c of cases) departures.push({ check: r.id, c });
    else
      departures.push({
        check: r.id,
        c: {
          outcome: r.outcome,
          cause: r.cause ?? r.actual ?? r.outcome,
          reproduce: r.reproduce,
          expected: r.expected,
          actual: r.actual,
        },
      });
  }
  const general = new Set(departures.filter((d) => d.c.family === undefined).map((d) => d.c.cause));
  const groups = new Map<string, FailureGroup>();
  for (const { check, c } of departures) {
    const family = general.has(c.cause) ? undefined : c.family;
    const key = `${c.cause}\u0000${family ?? ''}`;
    let g = groups.get(key);
    if (!g)
      groups.set(
        key,
        (g = {
          cause: c.cause,
          ...(family !== undefined ? { family } : {}),
          outcome: c.outcome,
          checks: [],
          reproduce: null,
          expected: c.expected,
          actual: c.actual,
        }),
      );
    if (!g.checks.includes(check)) g.checks.push(check);
    if (SEVERITY[c.outcome] > SEVERITY[g.outcome]) g.outcome = c.outcome;
    if (c.reproduce !== null && (g.reproduce === null || c.reproduce.length < g.reproduce.length))
      Object.assign(g, { reproduce: c.reproduce, expected: c.expected, actual: c.actual });
  }
  return [...groups.values()].sort((a, b) => b.checks.length - a.checks.length);
}

export function summarize(results: CheckResult[]): Summary {
  const s = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Summary;
  for (const r of results) s[r.outcome]++;
  return s;
}

/** The targets that decide the exit code: every one but the informing ones (the Prism mock). */
export function decidingTargets(targets: TargetResult[]): TargetResult[] {
  return targets.filter((t) => !t.target.informs);
}

/**
 * The CLI's exit code (docs/conformance.md, exit codes), from the deciding
 * targets: 1 when a check failed (with --strict: or was non-strict) on one of
 * them, even if a target later stopped answering or a check ended in `error`:
 * a finding is kept, and a gate that reads the code must not take it for "could
 * not run"; else 2 when the harness could not do its whole job on one of them
 * (it was unreachable, not checked, stopped answering, or a check ended in
 * `error`): nothing failed, but nothing says it would have passed; else 0.
 */
export function exitCode(targets: TargetResult[], strict: boolean): 0 | 1 | 2 {
  const deciding = decidingTargets(targets);
  if (deciding.some((t) => t.summary.fail > 0 || (strict && t.summary['non-strict'] > 0))) return 1;
  return deciding.some((t) => incomplete(t)) ? 2 : 0;
}

/** Whether the harness could not do its whole job on a target: unreachable or stopped answering, not checked (a diagnosis), or a check ended in `error`. */
export function incomplete(t: TargetResult): boolean {
  return t.unreachable !== undefined || t.diagnosis !== undefined || t.summary.error > 0;
}
