// The differential run's matrix, after Autobahn|Testsuite: for each check,
// the outcome on each target side by side, and where targets disagree, why
// (the documented divergence of an informing target such as the Prism mock,
// or a target's Expected/Actual).
import type { Level, Outcome } from '../../checks/types.js';
import { redactor, shorten, type Redactor } from '../../redact/shorten.js';
import { runRedactor } from '../../redact/secrets.js';
import type { TargetResult } from '../target-result.js';
import type { DivergenceComparison } from './divergences.js';

export type DivergenceStatus = 'documented' | 'unexplained' | 'stale';

export interface MatrixCell {
  outcome: Outcome;
  /** For an informing target with a divergence file: how this result compares with the file. */
  divergence?: { status: DivergenceStatus; reason?: string; evidence?: string; fileOutcome?: Outcome };
}

export interface MatrixRow {
  id: string;
  title: string;
  level: Level;
  /** target name → cell; a target that did not run the check has no cell. */
  cells: Record<string, MatrixCell>;
  /** Every target that ran the check got the same outcome. */
  agree: boolean;
  /** Where targets disagree: one line per target that did not pass, saying why. */
  why: string[];
}

const WHY_MAX = 300;

/** A long Expected/Actual on one line of at most `max` characters, for a reason (the full text stays in the reports); redacted before it is cut, as every shortening is. */
export function oneLine(s: string, redact: Redactor, max = WHY_MAX): string {
  return shorten(
    s,
    max - 1,
    redactor((text) => redact(text).replace(/\s+/g, ' '), redact.reach),
  );
}

/** A row per check, in the order the targets ran them, with a cell per target. */
export function buildMatrix(targets: TargetResult[], divergences: DivergenceComparison[] = []): MatrixRow[] {
  const rows = new Map<string, MatrixRow>();
  const redact = runRedactor(targets.map((t) => t.target));
  for (const t of targets) {
    const name = t.target.name;
    const comparison = divergences.find((d) => d.target === name);
    for (const r of t.results) {
      let row = rows.get(r.id);
      if (!row) {
        row = { id: r.id, title: r.title, level: r.level, cells: {}, agree: true, why: [] };
        rows.set(r.id, row);
      }
      const cell: MatrixCell = { outcome: r.outcome };
      if (comparison) {
        const documented = comparison.explained.find((e) => e.result.id === r.id);
        const stale = comparison.stale.find((s) => s.divergence.check === r.id);
        if (documented)
          cell.divergence = {
            status: 'documented',
            reason: documented.divergence.reason,
            evidence: documented.divergence.evidence,
          };
        else if (stale)
          cell.divergence = {
            status: 'stale',
            reason: stale.divergence.reason,
            evidence: stale.divergence.evidence,
            fileOutcome: stale.divergence.outcome,
          };
        else if (r.outcome !== 'pass' && !(r.outcome === 'skip' && r.ruledOut !== undefined))
          cell.divergence = { status: 'unexplained' };
      }
      row.cells[name] = cell;
    }
  }
  for (const row of rows.values()) {
    const outcomes = Object.values(row.cells).map((c) => c.outcome);
    row.agree = outcomes.every((o) => o === outcomes[0]);
    if (row.agree) continue;
    for (const t of targets) {
      const name = t.target.name;
      const cell = row.cells[name];
      const r = t.results.find((x) => x.id === row.id);
      if (!cell || !r || cell.outcome === 'pass') continue;
      const d = cell.divergence;
      if (d?.status === 'documented') row.why.push(`${name} (documented): ${d.reason}`);
      else {
        const detail = [r.expected && `expected ${r.expected}`, r.actual && `actual ${r.actual}`]
          .filter(Boolean)
          .join('; ');
        const label =
          d?.status === 'unexplained'
            ? 'UNEXPLAINED divergence'
            : d?.status === 'stale'
              ? `divergence file says ${d.fileOutcome}`
              : cell.outcome;
        row.why.push(`${name} (${label}): ${oneLine(detail || cell.outcome, redact)}`);
      }
    }
  }
  return [...rows.values()];
}

/** How a target's result of a check compares with the target's divergence file, when it has one. */
export function divergenceOf(rows: MatrixRow[], id: string, targetName: string): MatrixCell['divergence'] {
  return rows.find((row) => row.id === id)?.cells[targetName]?.divergence;
}
