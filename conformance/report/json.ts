// The JSON report (--json FILE). Its shape is a public interface for CI
// scripts; docs/conformance.md ("Reports") documents it. Add fields, never
// rename or remove.
import { relative } from 'node:path';
import type { Outcome, Facts } from '../checks/types.js';
import type { Coverage } from '../run/coverage.js';
import { divergenceOf, type DivergenceStatus } from '../run/differential/matrix.js';
import type { LintFinding } from '../model/lint.js';
import type { Diagnosis } from '../run/diagnose.js';
import { failureGroups, type CaseResult, type FailureGroup, type RunResult, type StoppedBy } from '../run/result.js';
import type { Role } from '../model/target.js';

export interface JsonReport {
  seed: number;
  /** With the seed, decided the plant ids: --id-offset (absent when 0). */
  idOffset?: number;
  strict: boolean;
  lint: LintFinding[];
  /** Added with issue 45: why the document was not linted, when it was not: a --target run with the shipped document (`lint` is then empty), or a rerun of the document and ruleset the last report was linted with (`lint` holds that report's findings). */
  lintSkipped?: string;
  /** Added with issue 45: the digest of what the lint depends on (document, ruleset, harness version), for --rerun-failed. */
  lintDigest?: string;
  targets: Array<{
    name: string;
    url: string;
    /** Added with the differential run: reference, prism or target. */
    role: Role;
    /** An informing target (Prism) never fails the run by itself. */
    informs: boolean;
    summary: { pass: number; 'non-strict': number; fail: number; skip: number; error: number };
    /** Present when the harness gave up on the target (unreachable, or stopped answering): why. */
    unreachable?: string;
    /** Present when the target stopped answering mid-run: the request after which it did (the check that sent it, its note and curl line). */
    stoppedBy?: StoppedBy;
    /** Present when no check could mean anything against the target (the token refused, no Plant Store at the URL, unreachable, …): why, and what to do. No check was run. */
    diagnosis?: Diagnosis;
    /** Its failures (fail and error; under strict, non-strict too) grouped by departure (cause, and the family of input where the cause depends on it), the largest group first. */
    failures: FailureGroup[];
    /** For a target with a divergence file (Prism): how its results compare with the file. */
    divergences?: {
      file: string;
      documented: number;
      unexplained: Array<{ id: string; outcome: Outcome }>;
      stale: Array<{ id: string; file: Outcome; observed: Outcome }>;
    };
    results: Array<{
      id: string;
      title: string;
      level: 'MUST' | 'SHOULD';
      outcome: Outcome;
      requirement: string;
      source: { document: string; section: string; url: string | null };
      expected: string | null;
      actual: string | null;
      reproduce: string | null;
      /** What departs, in words shared by every check it happens to; null on pass and skip. */
      cause: string | null;
      /** Which of the check's requests the verdict is about (its note), as data; the Actual says it in words too. */
      case?: string;
      /** What the verdict is about as data: the status, a header and its value, a pointer in the body, the expected and the actual value there. */
      facts?: Facts;
      /** Set when the document rules out what the check needs: why. */
      ruledOut?: string;
      /** Every departing case of the check (at most 20, one of each cause first), each with the check that sent its request, its cause, family, Expected, Actual and reproduce line. */
      cases?: CaseResult[];
      /** Departing cases beyond those listed. */
      moreCases?: number;
      divergence?: { status: DivergenceStatus; reason?: string; evidence?: string };
    }>;
  }>;
  /** With more than one target: per check whether the targets agree, and why not. */
  matrix?: Array<{ id: string; agree: boolean; why: string[] }>;
  /** Added with the document's coverage: its operations, declared responses and schema keywords, and what the run exercised of each. */
  coverage?: Coverage;
}

export function toJsonReport(run: RunResult): JsonReport {
  const report: JsonReport = {
    seed: run.seed,
    ...(run.idOffset ? { idOffset: run.idOffset } : {}),
    strict: run.strict,
    lint: run.lint,
    ...(run.lintSkipped !== undefined ? { lintSkipped: run.lintSkipped } : {}),
    ...(run.lintDigest !== undefined ? { lintDigest: run.lintDigest } : {}),
    targets: run.targets.map((t) => {
      const { target, summary, unreachable, results, diagnosis } = t;
      const comparison = run.divergences.find((d) => d.target === target.name);
      return {
        name: target.name,
        url: target.url,
        role: target.role,
        informs: target.informs,
        summary: { ...summary },
        ...(unreachable !== undefined ? { unreachable } : {}),
        ...(t.stoppedBy !== undefined ? { stoppedBy: t.stoppedBy } : {}),
        ...(diagnosis !== undefined ? { diagnosis } : {}),
        failures: diagnosis ? [] : failureGroups(t, run.strict),
        ...(comparison
          ? {
              divergences: {
                // Relative, so the report does not carry this machine's paths.
                file: relative(process.cwd(), comparison.file),
                documented: comparison.explained.length,
                unexplained: comparison.unexplained.map((r) => ({ id: r.id, outcome: r.outcome })),
                stale: comparison.stale.map((s) => ({
                  id: s.divergence.check,
                  file: s.divergence.outcome,
                  observed: s.observed,
                })),
              },
            }
          : {}),
        results: results.map((r) => {
          const divergence = divergenceOf(run.matrix, r.id, target.name);
          return {
            id: r.id,
            title: r.title,
            level: r.level,
            outcome: r.outcome,
            requirement: r.requirement,
            source: { document: r.source.document, section: r.source.section, url: r.source.url ?? null },
            expected: r.expected,
            actual: r.actual,
            reproduce: r.reproduce,
            cause: r.cause ?? null,
            ...(r.case !== undefined ? { case: r.case } : {}),
            ...(r.facts !== undefined ? { facts: r.facts } : {}),
            ...(r.ruledOut !== undefined ? { ruledOut: r.ruledOut } : {}),
            ...(r.cases !== undefined ? { cases: r.cases } : {}),
            ...(r.moreCases !== undefined ? { moreCases: r.moreCases } : {}),
            ...(divergence
              ? { divergence: { status: divergence.status, reason: divergence.reason, evidence: divergence.evidence } }
              : {}),
          };
        }),
      };
    }),
  };
  if (run.targets.length > 1) report.matrix = run.matrix.map((row) => ({ id: row.id, agree: row.agree, why: row.why }));
  if (run.coverage) report.coverage = run.coverage;
  return report;
}
