// The JSON report (--json FILE). Its shape is a public interface for CI
// scripts; README "JSON report" documents it. Add fields, never rename.
import { relative } from 'node:path';
import type { LintFinding } from '../lint.js';
import type { DivergenceStatus, Matrix, Role } from '../differential/matrix.js';
import type { Outcome } from '../checks/types.js';
import type { TargetResult } from '../runner.js';

export interface JsonReport {
  seed: number;
  strict: boolean;
  lint: LintFinding[];
  targets: Array<{
    name: string;
    url: string;
    /** Added with the differential run: reference, prism or target. */
    role?: Role;
    /** An informing target (Prism) never fails the run by itself. */
    informs?: boolean;
    summary: { pass: number; 'non-strict': number; fail: number; skip: number; error: number };
    /** Present when the harness gave up on the target (unreachable, or stopped answering): why. */
    unreachable?: string;
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
      outcome: string;
      requirement: string;
      source: { document: string; section: string; url: string | null };
      expected: string | null;
      actual: string | null;
      reproduce: string | null;
      divergence?: { status: DivergenceStatus; reason?: string; evidence?: string };
    }>;
  }>;
  /** With more than one target: per check whether the targets agree, and why not. */
  matrix?: Array<{ id: string; agree: boolean; why: string[] }>;
}

export function toJsonReport(targets: TargetResult[], seed: number, strict: boolean, lint: LintFinding[], matrix?: Matrix): JsonReport {
  const report: JsonReport = {
    seed,
    strict,
    lint,
    targets: targets.map((t) => {
      const meta = matrix?.targets.find((m) => m.name === t.name);
      const comparison = matrix?.divergences.find((d) => d.target === t.name);
      return {
        name: t.name,
        url: t.url,
        ...(meta ? { role: meta.role, informs: meta.informs } : {}),
        summary: { ...t.summary },
        ...(t.unreachable !== undefined ? { unreachable: t.unreachable } : {}),
        ...(comparison
          ? {
              divergences: {
                // Relative, so the report does not carry this machine's paths.
                file: relative(process.cwd(), comparison.file),
                documented: comparison.explained.length,
                unexplained: comparison.unexplained.map((r) => ({ id: r.id, outcome: r.outcome })),
                stale: comparison.stale.map((s) => ({ id: s.divergence.check, file: s.divergence.outcome, observed: s.observed })),
              },
            }
          : {}),
        results: t.results.map((r) => {
          const divergence = matrix?.rows.find((row) => row.id === r.id)?.cells[t.name]?.divergence;
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
            ...(divergence ? { divergence: { status: divergence.status, reason: divergence.reason, evidence: divergence.evidence } } : {}),
          };
        }),
      };
    }),
  };
  if (matrix && matrix.targets.length > 1) report.matrix = matrix.rows.map((row) => ({ id: row.id, agree: row.agree, why: row.why }));
  return report;
}
