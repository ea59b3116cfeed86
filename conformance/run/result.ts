// What a run produces: per target, the result of each check; for the run, the
// matrix of outcomes side by side and how informing targets compare with
// their divergence files. Every reporter takes the one RunResult; the exit
// code is read from it.
import { OUTCOMES } from '../checks/types.js';
import type { Coverage } from './coverage.js';
import type { DivergenceComparison } from './differential/divergences.js';
import { buildMatrix, type MatrixRow } from './differential/matrix.js';
import type { LintFinding } from '../model/lint.js';
import { escapeControls, mapStrings } from '../redact/escape.js';
import { runRedactor } from '../redact/secrets.js';
import type { CheckResult, Summary, TargetResult } from './target-result.js';

export type {
  CaseResult,
  CaseTrace,
  CheckResult,
  ObservedExchange,
  StoppedBy,
  Summary,
  TargetResult,
  ValueAt,
} from './target-result.js';
export {
  checksOf,
  consequenceText,
  counts,
  departureText,
  failing,
  failureGroups,
  type Consequence,
  type FailureGroup,
} from './root-causes.js';

export interface RunResult {
  /** The random seed of the generated cases. */
  seed: number;
  /** With the seed, decides the plant ids (--id-offset); absent when 0. */
  idOffset?: number;
  strict: boolean;
  /** The spec's lint findings (none stops a run; our own house rules are warnings). */
  lint: LintFinding[];
  /** Why the document was not linted, when it was not (a --target run with the shipped document; a rerun of a document linted last time, whose findings `lint` holds). */
  lintSkipped?: string;
  /** The digest of what the lint depends on (the document, the ruleset, the harness's version): a --rerun-failed with the same digest reuses `lint`. */
  lintDigest?: string;
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
 * targets: 2 when the harness could not do its whole job on one of them (it
 * was unreachable or stopped answering, or a check ended in `error`), else 1
 * when a check failed (with --strict: or was non-strict), else 0.
 */
export function exitCode(targets: TargetResult[], strict: boolean): 0 | 1 | 2 {
  const deciding = decidingTargets(targets);
  if (deciding.some((t) => t.unreachable !== undefined || t.diagnosis !== undefined || t.summary.error > 0)) return 2;
  return deciding.some((t) => t.summary.fail > 0 || (strict && t.summary['non-strict'] > 0)) ? 1 : 0;
}
