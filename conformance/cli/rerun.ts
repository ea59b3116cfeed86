// --rerun-failed: the fix loop, after pytest's --last-failed. Read the last
// JSON report, and run only the checks that failed or errored there (under
// --strict, the non-strict ones too), with that report's seed, so the same
// cases go out again, and a fresh id offset, so a long-lived target that
// stored the last run's plants meets none of its ids. A report with no
// failure reruns every check (pytest's default), saying so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { UsageError } from './values.js';
import type { LintFinding } from '../model/lint.js';

/** Where --rerun-failed looks when --last-report does not say: the --json file, else the --reports folder's, else the default run's. */
export function lastReportPath(given: { lastReport?: string; json?: string; reports?: string }): string {
  return given.lastReport ?? given.json ?? join(given.reports ?? 'reports', 'conformance.json');
}

export interface Rerun {
  /** The report read. */
  from: string;
  /** The checks to run; undefined: every check (nothing failed there). */
  only: string[] | undefined;
  /** The report's seed. */
  seed: number;
  /** A fresh id offset (1 to 2^31 - 1). */
  idOffset: number;
  /** What the run says about it, on stderr. */
  note: string;
  /** The report's lint and the digest of what it linted (document, ruleset, harness version), when it has both: a rerun with the same digest reuses them. */
  lint?: { digest: string; findings: LintFinding[] };
}

interface ReportShape {
  seed?: unknown;
  strict?: unknown;
  lint?: unknown;
  lintDigest?: unknown;
  targets?: Array<{ informs?: unknown; results?: Array<{ id?: unknown; outcome?: unknown }> }>;
}

/**
 * What --rerun-failed runs, from the report at `path`: the checks that
 * failed or errored on a target that decides the exit code (not the Prism
 * column, which informs), in the report's order. A report that cannot be
 * read, or is not a report of this harness, is a UsageError that says what
 * to do (exit 2), never a run of the whole catalog by surprise.
 */
export function rerunFrom(path: string, strict: boolean, known: readonly string[]): Rerun {
  let report: ReportShape;
  try {
    report = JSON.parse(readFileSync(path, 'utf8')) as ReportShape;
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw new UsageError(
      missing
        ? `--rerun-failed: no report at ${path} to rerun from; run once with --json FILE or --reports DIR (or name the report with --last-report FILE)`
        : `--rerun-failed: ${path} is not a JSON report (${(err as Error).message})`,
    );
  }
  if (!Number.isInteger(report.seed) || !Array.isArray(report.targets))
    throw new UsageError(`--rerun-failed: ${path} is not a JSON report of plantstore-conformance (no seed or targets)`);
  const counted = new Set(['fail', 'error', ...(strict || report.strict === true ? ['non-strict'] : [])]);
  const failed = new Set<string>();
  for (const t of report.targets)
    if (t.informs !== true)
      for (const r of t.results ?? [])
        if (typeof r.id === 'string' && typeof r.outcome === 'string' && counted.has(r.outcome)) failed.add(r.id);
  const seed = report.seed as number;
  const idOffset = randomInt(1, 2 ** 31 - 1);
  // IDs are never removed (frozen-ids.json); the catalog's order is the report's.
  const only = known.filter((id) => failed.has(id));
  const lint =
    typeof report.lintDigest === 'string' && Array.isArray(report.lint)
      ? { lint: { digest: report.lintDigest, findings: report.lint as LintFinding[] } }
      : {};
  return only.length === 0
    ? {
        from: path,
        only: undefined,
        seed,
        idOffset,
        note: `--rerun-failed: no check failed in ${path}: running every check (seed ${seed}, id offset ${idOffset})`,
        ...lint,
      }
    : {
        from: path,
        only,
        seed,
        idOffset,
        note: `--rerun-failed: ${only.length} check(s) failed or errored in ${path}: running only ${only.join(', ')} (seed ${seed}, id offset ${idOffset})`,
        ...lint,
      };
}
