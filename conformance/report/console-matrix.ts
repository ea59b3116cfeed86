// The console's matrix, after Autobahn|Testsuite: a row per check, a column
// per target, and where targets disagree, why. Below it each departure no
// divergence file explains (its cause and curl line; a failure points to
// What failed), the comparison with the divergence files, and a summary line
// per target.
import { relative } from 'node:path';
import { divergenceOf, oneLine } from '../run/differential/matrix.js';
import { counts, failureGroups, seedText, type RunResult } from '../run/result.js';
import { runRedactor } from '../redact/secrets.js';
import {
  coverageLines,
  lintLines,
  stoppedLines,
  summaryLine,
  terminalSafe,
  type ConsoleOptions,
} from './console-parts.js';
import { diagnosisLines } from './console-diagnosis.js';
import { belowResult, COLOUR, MARK, painter, refsOf, resultLine } from './console-text.js';

const INFORMS = ' (informs; does not fail the run)';

export function renderMatrixConsole(given: RunResult, o: ConsoleOptions): string {
  const run = terminalSafe(given);
  const paint = painter(o.color);
  const lines: string[] = [...(o.diagnoses === false ? [] : diagnosisLines(run, o.color)), ...lintLines(run, o)];
  const names = run.targets.map((t) => t.target.name);
  const idWidth = Math.max(5, ...run.matrix.map((r) => r.id.length));
  // A cell: mark, outcome and "doc" for a documented divergence, "!!" for an unexplained one.
  const cellWidth = (name: string) => Math.max(name.length, 17);
  const redact = runRedactor(run.targets.map((t) => t.target));
  // No target was checked: every row would say `! error`, and the diagnoses above say why.
  if (!run.targets.every((t) => t.diagnosis)) {
    lines.push(
      `Conformance matrix, ${seedText(run)}${run.strict ? ' (strict)' : ''}: doc = documented divergence, !! = unexplained, stale = the divergence file says otherwise`,
    );
    for (const { target } of run.targets)
      lines.push(`  ${target.name.padEnd(12)} ${target.url}${target.informs ? `  ${INFORMS.trim()}` : ''}`);
    lines.push('');
    lines.push(`${'check'.padEnd(idWidth)}  ${names.map((n) => n.padEnd(cellWidth(n))).join(' ')}  why they disagree`);
    for (const row of run.matrix) {
      const cells = names.map((n) => {
        const c = row.cells[n];
        if (!c) return ''.padEnd(cellWidth(n));
        const tag =
          c.divergence?.status === 'documented'
            ? ' doc'
            : c.divergence?.status === 'unexplained'
              ? ' !!'
              : c.divergence?.status === 'stale'
                ? ' stale'
                : '';
        const text = `${MARK[c.outcome]} ${c.outcome}${tag}`;
        return paint(COLOUR[c.outcome]!, text) + ' '.repeat(Math.max(0, cellWidth(n) - text.length));
      });
      const why = row.why.map((w) => oneLine(w, redact, 160));
      lines.push(`${row.id.padEnd(idWidth)}  ${cells.join(' ')}  ${why[0] ?? ''}`);
      const indent = ' '.repeat(idWidth + 2 + names.reduce((n, name) => n + cellWidth(name) + 1, 0) + 1);
      for (const more of why.slice(1)) lines.push(`${indent}${more}`);
    }
    lines.push('');
  }

  // What no divergence file explains: these are what to look at.
  for (const t of run.targets) {
    if (t.diagnosis) continue;
    const unexplained = t.results.filter(
      (r) => r.outcome !== 'pass' && divergenceOf(run.matrix, r.id, t.target.name)?.status !== 'documented',
    );
    if (unexplained.length === 0 && !t.stoppedBy) continue;
    const groups = t.target.informs ? [] : failureGroups(t, run.strict);
    lines.push(`Details ${t.target.name} (${t.target.url})`);
    // An informing target's failures are in no What failed: their causes go here.
    for (const r of unexplained)
      lines.push(
        resultLine(r, paint, refsOf(groups, r.id)),
        ...belowResult(r, paint, !t.target.informs && counts(r.outcome, run.strict)),
      );
    lines.push(...stoppedLines(t, paint), '');
  }

  for (const d of run.divergences) {
    const file = relative(process.cwd(), d.file);
    const departures = d.explained.length + d.unexplained.length;
    if (d.unexplained.length === 0 && d.stale.length === 0) {
      lines.push(`Divergences of ${d.target}: ${departures} departure(s), each documented in ${file}; no stale entry.`);
    } else {
      lines.push(
        paint(
          31,
          `Divergences of ${d.target}: ${d.unexplained.length} UNEXPLAINED, ${d.stale.length} stale, ${d.explained.length} documented (${file})`,
        ),
      );
      for (const r of d.unexplained)
        lines.push(
          paint(
            31,
            `  UNEXPLAINED ${r.id} ${r.outcome}: not in ${file} (add an entry with its reason and evidence, or fix the cause)`,
          ),
        );
      for (const s of d.stale)
        lines.push(
          paint(
            33,
            `  STALE ${s.divergence.check}: the file says ${s.divergence.outcome}, observed ${s.observed} (update or remove the entry)`,
          ),
        );
    }
  }
  for (const t of run.targets) lines.push(summaryLine(t, run, t.target.informs ? INFORMS : ''));
  lines.push('');
  if (run.targets.some((t) => !t.diagnosis)) lines.push(...coverageLines(run, o.narrow));
  return lines.join('\n');
}
