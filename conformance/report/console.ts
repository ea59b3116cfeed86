// Console report, after h2spec: per check the ID, title and outcome; for a
// check that is not a pass, the requirement, Expected/Actual and a curl line.
// With several targets, the matrix after Autobahn|Testsuite: one column per
// target, and where targets disagree, why.
import { relative } from 'node:path';
import type { LintFinding } from '../lint.js';
import type { Matrix } from '../differential/matrix.js';
import { shorten } from '../differential/matrix.js';
import type { CheckResult, TargetResult } from '../runner.js';

const MARK: Record<string, string> = { pass: '✔', 'non-strict': '~', fail: '×', skip: '-', error: '!' };
const COLOUR: Record<string, number> = { pass: 32, 'non-strict': 33, fail: 31, skip: 90, error: 35 };

export interface ConsoleOptions {
  seed: number;
  strict: boolean;
  color: boolean;
  lint: LintFinding[];
}

function painter(o: ConsoleOptions) {
  return (code: number, s: string) => (o.color ? `\x1b[${code}m${s}\x1b[0m` : s);
}

function lintLines(o: ConsoleOptions): string[] {
  const warnings = o.lint.filter((f) => f.severity !== 'error');
  if (warnings.length === 0) return [];
  return [`Spec lint: ${warnings.length} warning(s)`, ...warnings.map((w) => `  ${w.code}: ${w.message}`), ''];
}

/** The requirement, Expected/Actual and the curl line of a result that is not a pass. */
function detailLines(r: CheckResult, o: ConsoleOptions): string[] {
  const lines: string[] = [];
  const counts = r.outcome === 'fail' || (o.strict && r.outcome === 'non-strict');
  if (counts || r.outcome === 'non-strict' || r.outcome === 'error') {
    lines.push(`      Requirement (${r.level}, ${r.source.document} ${r.source.section}${r.source.url ? `, ${r.source.url}` : ''}):`);
    lines.push(`        ${r.requirement}`);
  }
  if (r.expected) lines.push(`      Expected: ${r.expected}`);
  if (r.actual) lines.push(`        Actual: ${r.actual}`);
  if (r.reproduce) lines.push(`      Reproduce: ${r.reproduce}`);
  return lines;
}

function summaryLine(t: TargetResult, o: ConsoleOptions, note = ''): string {
  const s = t.summary;
  return `Summary ${t.name}: ${t.results.length} checks, ${s.pass} pass, ${s['non-strict']} non-strict, ${s.fail} fail, ${s.skip} skip, ${s.error} error; seed ${o.seed}${o.strict ? ' (strict)' : ''}${note}`;
}

export function renderConsole(targets: TargetResult[], o: ConsoleOptions): string {
  const paint = painter(o);
  const lines: string[] = lintLines(o);
  for (const t of targets) {
    lines.push(`Target ${t.name} (${t.url})`);
    for (const r of t.results) {
      lines.push(`  ${paint(COLOUR[r.outcome]!, `${MARK[r.outcome]} ${r.outcome.padEnd(10)}`)} ${r.id} ${r.title}`);
      if (r.outcome !== 'pass') lines.push(...detailLines(r, o));
    }
    lines.push(summaryLine(t, o));
    lines.push('');
  }
  return lines.join('\n');
}

/**
 * The matrix: a row per check, a column per target, and for rows where the
 * targets disagree the reasons. Below it the details of every departure that
 * no divergence file explains, then the divergence comparison and a summary
 * line per target.
 */
export function renderMatrixConsole(targets: TargetResult[], matrix: Matrix, o: ConsoleOptions): string {
  const paint = painter(o);
  const lines: string[] = lintLines(o);
  const names = matrix.targets.map((t) => t.name);
  const idWidth = Math.max(5, ...matrix.rows.map((r) => r.id.length));
  // A cell: mark, outcome and "doc" for a documented divergence, "!!" for an unexplained one.
  const cellWidth = (name: string) => Math.max(name.length, 17);
  lines.push(`Conformance matrix, seed ${o.seed}${o.strict ? ' (strict)' : ''}: doc = documented divergence, !! = unexplained, stale = the divergence file says otherwise`);
  for (const t of matrix.targets) lines.push(`  ${t.name.padEnd(12)} ${t.url}${t.informs ? '  (informs; does not fail the run)' : ''}`);
  lines.push('');
  lines.push(`${'check'.padEnd(idWidth)}  ${names.map((n) => n.padEnd(cellWidth(n))).join(' ')}  why they disagree`);
  for (const row of matrix.rows) {
    const cells = names.map((n) => {
      const c = row.cells[n];
      if (!c) return ''.padEnd(cellWidth(n));
      const tag = c.divergence?.status === 'documented' ? ' doc' : c.divergence?.status === 'unexplained' ? ' !!' : c.divergence?.status === 'stale' ? ' stale' : '';
      const text = `${MARK[c.outcome]} ${c.outcome}${tag}`;
      return paint(COLOUR[c.outcome]!, text) + ' '.repeat(Math.max(0, cellWidth(n) - text.length));
    });
    const why = row.why.map((w) => shorten(w, 160));
    lines.push(`${row.id.padEnd(idWidth)}  ${cells.join(' ')}  ${why[0] ?? ''}`);
    const indent = ' '.repeat(idWidth + 2 + names.reduce((n, name) => n + cellWidth(name) + 1, 0) + 1);
    for (const more of why.slice(1)) lines.push(`${indent}${more}`);
  }
  lines.push('');

  // Details of what no divergence file explains: these are what to look at.
  for (const t of targets) {
    const unexplained = t.results.filter((r) => r.outcome !== 'pass' && matrix.rows.find((row) => row.id === r.id)?.cells[t.name]?.divergence?.status !== 'documented');
    if (unexplained.length === 0) continue;
    lines.push(`Details ${t.name} (${t.url})`);
    for (const r of unexplained) {
      lines.push(`  ${paint(COLOUR[r.outcome]!, `${MARK[r.outcome]} ${r.outcome.padEnd(10)}`)} ${r.id} ${r.title}`);
      lines.push(...detailLines(r, o));
    }
    lines.push('');
  }

  for (const d of matrix.divergences) {
    const file = relative(process.cwd(), d.file);
    const departures = d.explained.length + d.unexplained.length;
    if (d.unexplained.length === 0 && d.stale.length === 0) {
      lines.push(`Divergences of ${d.target}: ${departures} departure(s), each documented in ${file}; no stale entry.`);
    } else {
      lines.push(paint(31, `Divergences of ${d.target}: ${d.unexplained.length} UNEXPLAINED, ${d.stale.length} stale, ${d.explained.length} documented (${file})`));
      for (const r of d.unexplained) lines.push(paint(31, `  UNEXPLAINED ${r.id} ${r.outcome}: not in ${file} (add an entry with its reason and evidence, or fix the cause)`));
      for (const s of d.stale) lines.push(paint(33, `  STALE ${s.divergence.check}: the file says ${s.divergence.outcome}, observed ${s.observed} (update or remove the entry)`));
    }
  }
  for (const t of targets) {
    const informs = matrix.targets.find((m) => m.name === t.name)?.informs;
    lines.push(summaryLine(t, o, informs ? ' (informs; does not fail the run)' : ''));
  }
  lines.push('');
  return lines.join('\n');
}
