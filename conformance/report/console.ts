// Console report, after h2spec, for a person reading a terminal or a CI
// log: one line per check (ID, title, outcome); under a check that departs
// without failing the run (non-strict), its cause and curl line; at the end,
// What failed: each departure once, with the checks that show it and its
// curl line (a CI log is read from its end). Long texts are shortened with
// their size (console-text.ts); the JSON, JUnit and HTML reports hold them
// whole. With several targets, the matrix (console-matrix.ts).
import {
  checksOf,
  counts,
  decidingTargets,
  failing,
  failureGroups,
  seedText,
  consequenceText,
  type RunResult,
} from '../run/result.js';
import { renderMatrixConsole } from './console-matrix.js';
import {
  coverageLines,
  lintLines,
  stoppedLines,
  summaryLine,
  targetLabel,
  terminalSafe,
  type ConsoleOptions,
} from './console-parts.js';
import { diagnosisLines } from './console-diagnosis.js';
import {
  belowResult,
  COLOUR,
  consoleCommand,
  consoleText,
  departureText,
  MARK,
  painter,
  refsOf,
  resultLine,
} from './console-text.js';

export { coverageLines, diagnosisLines, renderMatrixConsole, targetLabel, type ConsoleOptions };

/** One target and no divergence file: the per-check list; otherwise the matrix. */
export function renderConsole(run: RunResult, o: ConsoleOptions): string {
  return run.targets.length === 1 && run.divergences.length === 0
    ? renderCheckList(run, o)
    : renderMatrixConsole(run, o);
}

/** Per target, every check on a line, what a departure that does not fail the run comes to, the summary. */
function renderCheckList(given: RunResult, o: ConsoleOptions): string {
  const run = terminalSafe(given);
  const paint = painter(o.color);
  const lines: string[] = [...(o.diagnoses === false ? [] : diagnosisLines(run, o.color)), ...lintLines(run, o)];
  for (const t of run.targets) {
    if (t.diagnosis) {
      lines.push(summaryLine(t, run), '');
      continue;
    }
    const groups = t.target.informs ? [] : failureGroups(t, run.strict);
    lines.push(`Target ${t.target.name === 'target' ? t.target.url : `${t.target.name} (${t.target.url})`}`);
    for (const r of t.results)
      lines.push(
        resultLine(r, paint, refsOf(groups, r.id)),
        ...belowResult(r, paint, !t.target.informs && counts(r.outcome, run.strict)),
      );
    lines.push(summaryLine(t, run), ...stoppedLines(t, paint), '');
  }
  // The coverage of a run in which no check ran says nothing.
  if (run.targets.some((t) => !t.diagnosis)) lines.push(...coverageLines(run, o.narrow));
  return lines.join('\n');
}

/**
 * The end of the console report: the failures of each deciding target by
 * the departure behind them, numbered as the check lines point to them: the
 * root causes first (each with the checks that show it, what came back and
 * one reproduction, then the later failures it explains, each by the answer
 * that carries what the target took wrongly), the most checks first. A CI
 * log is read from its end; one mistake of a server that fails many checks
 * reads as one.
 */
export function whatFailedLines(given: RunResult, o: ConsoleOptions): string[] {
  const run = terminalSafe(given);
  const paint = painter(o.color);
  const lines: string[] = [];
  for (const t of decidingTargets(run.targets)) {
    if (t.diagnosis) continue;
    const groups = failureGroups(t, run.strict);
    if (groups.length === 0) continue;
    lines.push(
      paint(
        31,
        `What failed on ${targetLabel(t.target)}: ${failing(t.results, run.strict).length} check(s), ${groups.length} cause(s)`,
      ),
    );
    groups.forEach((g, i) => {
      const all = checksOf(g).length;
      const later = all - g.checks.length;
      const tally = `${all} check${all === 1 ? '' : 's'}${later > 0 ? `: ${g.checks.length} show it, ${later} fail on it later` : ''}`;
      lines.push(`  [${i + 1}] ${paint(COLOUR[g.outcome]!, `${MARK[g.outcome]} ${departureText(g)}`)} (${tally})`);
      lines.push(...wrapIds(g.checks, '      '));
      if (g.expected) lines.push(`      Expected: ${consoleText(g.expected)}`);
      if (g.actual) lines.push(`        Actual: ${consoleText(g.actual)}`);
      if (g.reproduce) lines.push(`     Reproduce: ${consoleCommand(g.reproduce)}`);
      for (const q of g.consequences ?? []) {
        lines.push(
          `      ${paint(COLOUR[q.outcome]!, `→ ${consequenceText(q)}`)} (${q.checks.length} check${q.checks.length === 1 ? '' : 's'})`,
          ...wrapIds(q.checks, '          '),
        );
        if (q.reproduce) lines.push(`         Reproduce: ${consoleCommand(q.reproduce)}`);
      }
    });
  }
  return lines;
}

/** IDs in lines of at most about 100 characters. */
function wrapIds(ids: string[], indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const id of ids) {
    if (line && line.length + id.length + 2 > 100) {
      lines.push(`${indent}${line},`);
      line = id;
    } else line = line ? `${line}, ${id}` : id;
  }
  if (line) lines.push(`${indent}${line}`);
  return lines;
}

/** The last line of a run: OK, FAILED or INCOMPLETE (by exit code), what it comes to, the seed, and the divergence counts. */
export function closingLine(run: RunResult, code: 0 | 1 | 2): string {
  const unexplained = run.divergences.reduce((n, c) => n + c.unexplained.length, 0);
  const stale = run.divergences.reduce((n, c) => n + c.stale.length, 0);
  const note =
    run.divergences.length > 0
      ? `; Prism: ${unexplained} unexplained divergence(s), ${stale} stale entr${stale === 1 ? 'y' : 'ies'}`
      : '';
  const deciding = decidingTargets(run.targets);
  const notChecked = deciding.filter((t) => t.diagnosis);
  const checks = deciding.reduce((n, t) => n + failing(t.results, run.strict).length, 0);
  const causes = deciding.reduce((n, t) => n + failureGroups(t, run.strict).length, 0);
  const what =
    notChecked.length > 0
      ? `${notChecked.map((t) => (t.target.name === 'target' ? 'the target' : t.target.name)).join(', ')} not checked (see above)`
      : code === 1
        ? `${checks} check(s) failed, ${causes} cause(s), on ${run.targets.length} target(s)`
        : `${run.targets.length} target(s)`;
  return `${['OK', 'FAILED', 'INCOMPLETE'][code]}: ${what}, ${seedText(run)}${note}\n`;
}
