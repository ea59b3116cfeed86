// The JSON report (--json FILE). Its shape is a public interface for CI
// scripts; README "JSON report" documents it. Add fields, never rename.
import type { LintFinding } from '../lint.js';
import type { TargetResult } from '../runner.js';

export interface JsonReport {
  seed: number;
  strict: boolean;
  lint: LintFinding[];
  targets: Array<{
    name: string;
    url: string;
    summary: { pass: number; 'non-strict': number; fail: number; skip: number; error: number };
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
    }>;
  }>;
}

export function toJsonReport(targets: TargetResult[], seed: number, strict: boolean, lint: LintFinding[]): JsonReport {
  return {
    seed,
    strict,
    lint,
    targets: targets.map((t) => ({
      name: t.name,
      url: t.url,
      summary: { ...t.summary },
      results: t.results.map((r) => ({
        id: r.id,
        title: r.title,
        level: r.level,
        outcome: r.outcome,
        requirement: r.requirement,
        source: { document: r.source.document, section: r.source.section, url: r.source.url ?? null },
        expected: r.expected,
        actual: r.actual,
        reproduce: r.reproduce,
      })),
    })),
  };
}
