// Console report, after h2spec: per check the ID, title and outcome; for a
// check that is not a pass, the requirement, Expected/Actual and a curl line.
// With several targets, the matrix after Autobahn|Testsuite: one column per
// target, and where targets disagree, why.
import { relative } from 'node:path';
import { coverageCounts } from '../run/coverage.js';
import { divergenceOf, oneLine } from '../run/differential/matrix.js';
import { decidingTargets, failureGroups, type CheckResult, type RunResult, type TargetResult } from '../run/result.js';
import { escapeControls, mapStrings } from '../redact/escape.js';
import { runRedactor } from '../redact/secrets.js';

const MARK: Record<string, string> = { pass: '✔', 'non-strict': '~', fail: '×', skip: '-', error: '!' };
const COLOUR: Record<string, number> = { pass: 32, 'non-strict': 33, fail: 31, skip: 90, error: 35 };
const INFORMS = ' (informs; does not fail the run)';

export interface ConsoleOptions {
  /** ANSI colours (a terminal without NO_COLOR). */
  color: boolean;
  /**
   * How much of the lint to print: every warning (the default run, which is
   * the project's own), or only a count of them (a --target run: teams that
   * consume the document cannot act on its warnings). Lint errors stop the
   * run before any report.
   */
  lint?: 'warnings' | 'count';
}

/** One target and no divergence file: the per-check list; otherwise the matrix. */
export function renderConsole(run: RunResult, o: ConsoleOptions): string {
  return run.targets.length === 1 && run.divergences.length === 0 ? renderCheckList(run, o) : renderMatrixConsole(run, o);
}

/**
 * Every text of the run with its control characters escaped, before it
 * reaches the terminal: runResult did so already, a run built otherwise is
 * escaped here, so the only escape sequences written are the colours.
 */
function terminalSafe(run: RunResult): RunResult {
  return mapStrings(run, escapeControls);
}

function painter(o: ConsoleOptions) {
  return (code: number, s: string) => (o.color ? `\x1b[${code}m${s}\x1b[0m` : s);
}

/** Lint errors in full (the run went on: the document could be checked); warnings listed or counted. */
function lintLines(run: RunResult, o: ConsoleOptions): string[] {
  const errors = run.lint.filter((f) => f.severity === 'error');
  const warnings = run.lint.filter((f) => f.severity !== 'error');
  const lines = errors.length > 0 ? [`Spec lint: ${errors.length} error(s) in the document (it could still be served and checked)`, ...errors.map((e) => `  ${e.code} at ${e.path}: ${e.message}`)] : [];
  if (warnings.length > 0 && o.lint === 'count') lines.push(`Spec lint: ${warnings.length} warning(s) about the document, not listed here (the JSON report lists them)`);
  else if (warnings.length > 0) lines.push(`Spec lint: ${warnings.length} warning(s)`, ...warnings.map((w) => `  ${w.code}: ${w.message}`), '');
  else if (errors.length > 0) lines.push('');
  return lines;
}

/** How a report names a target: its name, unless it is the one `--target` (then its URL says it). */
export function targetLabel(t: TargetResult['target']): string {
  return t.name === 'target' ? `the target (${t.url})` : `${t.name} (${t.url})`;
}

/** A target no check could mean anything against: the diagnosis and what to do, instead of its checks. */
function diagnosisLines(t: TargetResult, paint: ReturnType<typeof painter>): string[] {
  const d = t.diagnosis!;
  const label = targetLabel(t.target);
  return [
    paint(31, `${label[0]!.toUpperCase()}${label.slice(1)} was not checked: ${d.problem}.`),
    ...(d.evidence ? [`  ${d.evidence}`] : []),
    `  What to do: ${d.fix}`,
  ];
}

/** The requirement, Expected/Actual and the curl line of a result that is not a pass. */
function detailLines(r: CheckResult, run: RunResult): string[] {
  const lines: string[] = [];
  const counts = r.outcome === 'fail' || (run.strict && r.outcome === 'non-strict');
  if (counts || r.outcome === 'non-strict' || r.outcome === 'error') {
    lines.push(`      Requirement (${r.level}, ${r.source.document} ${r.source.section}${r.source.url ? `, ${r.source.url}` : ''}):`);
    lines.push(`        ${r.requirement}`);
  }
  if (r.expected) lines.push(`      Expected: ${r.expected}`);
  if (r.actual) lines.push(`        Actual: ${r.actual}`);
  if (r.reproduce) lines.push(`      Reproduce: ${r.reproduce}`);
  return lines;
}

function resultLine(r: CheckResult, paint: ReturnType<typeof painter>): string {
  return `  ${paint(COLOUR[r.outcome]!, `${MARK[r.outcome]} ${r.outcome.padEnd(10)}`)} ${r.id} ${r.title}`;
}

function summaryLine(t: TargetResult, run: RunResult, note = ''): string {
  const s = t.summary;
  const name = t.target.name === 'target' ? '' : ` ${t.target.name}`;
  if (t.diagnosis) return `Summary${name}: ${t.results.length} checks not run; seed ${run.seed}${note}`;
  return `Summary${name}: ${t.results.length} checks, ${s.pass} pass, ${s['non-strict']} non-strict, ${s.fail} fail, ${s.skip} skip, ${s.error} error; seed ${run.seed}${run.strict ? ' (strict)' : ''}${note}`;
}

/**
 * What the run exercised of the document, in a few lines: the counts, then
 * each operation only the generic checks reached or none did, each declared
 * response no target gave, and each schema keyword not exercised, with why.
 */
export function coverageLines(run: RunResult): string[] {
  const c = run.coverage;
  if (!c) return [];
  const n = coverageCounts(c);
  const lines = [
    `Coverage of the document: ${n.operations[0]} of ${n.operations[1]} operation(s) sent requests; ${n.responses[0]} of ${n.responses[1]} declared response(s) given; schema keywords: ${n.keywords.exercised} exercised, ${n.keywords.annotation} annotation(s), ${n.keywords['not exercised']} not exercised; ${(c.ruledOut ?? []).length} check(s) skipped because of the document`,
  ];
  for (const o of c.operations) {
    if (o.requests === 0) lines.push(`  operation ${o.method} ${o.path} (${o.operationId}): not covered, no request was sent`);
    else if (!o.known) lines.push(`  operation ${o.method} ${o.path} (${o.operationId}): PS-OP-*, PS-DOC-*${o.role ? ` and the state checks (its role: ${o.role.role}, by ${o.role.by})` : ''}, ${o.requests} request(s)`);
  }
  for (const r of c.responses) if (r.observedOn.length === 0) lines.push(`  response ${r.status} of ${r.method} ${r.path}: no target gave it${r.why ? ` (${r.why})` : ''}`);
  for (const k of c.keywords) if (k.status === 'not exercised') lines.push(`  not exercised: ${k.keyword} at ${k.pointer}: ${k.detail}`);
  for (const r of c.ruledOut ?? []) lines.push(`  skipped because of the document: ${r.id} ${r.title}: ${r.reason}`);
  lines.push('');
  return lines;
}

/** Per target, every check with its outcome, and the details of each that is not a pass. */
function renderCheckList(given: RunResult, o: ConsoleOptions): string {
  const run = terminalSafe(given);
  const paint = painter(o);
  const lines: string[] = lintLines(run, o);
  for (const t of run.targets) {
    if (t.diagnosis) {
      lines.push(...diagnosisLines(t, paint), summaryLine(t, run), '');
      continue;
    }
    lines.push(`Target ${t.target.name === 'target' ? t.target.url : `${t.target.name} (${t.target.url})`}`);
    for (const r of t.results) {
      lines.push(resultLine(r, paint));
      if (r.outcome !== 'pass') lines.push(...detailLines(r, run));
    }
    lines.push(summaryLine(t, run));
    lines.push('');
  }
  // The coverage of a run in which no check ran says nothing.
  if (run.targets.some((t) => !t.diagnosis)) lines.push(...coverageLines(run));
  return lines.join('\n');
}

/**
 * The end of the console report: the failures of each deciding target,
 * grouped by cause, each group with its check IDs and one reproduction. A
 * CI log is read from its end; one mistake of a server that fails many
 * checks reads as one.
 */
export function whatFailedLines(given: RunResult, o: ConsoleOptions): string[] {
  const run = terminalSafe(given);
  const paint = painter(o);
  const lines: string[] = [];
  for (const t of decidingTargets(run.targets)) {
    if (t.diagnosis) continue;
    const groups = failureGroups(t, run.strict);
    if (groups.length === 0) continue;
    const count = groups.reduce((n, g) => n + g.checks.length, 0);
    lines.push(paint(31, `What failed on ${targetLabel(t.target)}: ${count} check(s), ${groups.length} cause(s)`));
    for (const g of groups) {
      lines.push(`  ${paint(COLOUR[g.outcome]!, `${MARK[g.outcome]} ${g.cause}`)} (${g.checks.length} check${g.checks.length === 1 ? '' : 's'})`);
      lines.push(...wrapIds(g.checks, '      '));
      if (g.reproduce) lines.push(`      Reproduce: ${g.reproduce}`);
    }
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

/**
 * The matrix: a row per check, a column per target, and for rows where the
 * targets disagree the reasons. Below it the details of every departure that
 * no divergence file explains, then the divergence comparison and a summary
 * line per target.
 */
export function renderMatrixConsole(given: RunResult, o: ConsoleOptions): string {
  const run = terminalSafe(given);
  const paint = painter(o);
  const lines: string[] = lintLines(run, o);
  const names = run.targets.map((t) => t.target.name);
  const idWidth = Math.max(5, ...run.matrix.map((r) => r.id.length));
  // A cell: mark, outcome and "doc" for a documented divergence, "!!" for an unexplained one.
  const cellWidth = (name: string) => Math.max(name.length, 17);
  const redact = runRedactor(run.targets.map((t) => t.target));
  lines.push(`Conformance matrix, seed ${run.seed}${run.strict ? ' (strict)' : ''}: doc = documented divergence, !! = unexplained, stale = the divergence file says otherwise`);
  for (const { target } of run.targets) lines.push(`  ${target.name.padEnd(12)} ${target.url}${target.informs ? `  ${INFORMS.trim()}` : ''}`);
  lines.push('');
  lines.push(`${'check'.padEnd(idWidth)}  ${names.map((n) => n.padEnd(cellWidth(n))).join(' ')}  why they disagree`);
  for (const row of run.matrix) {
    const cells = names.map((n) => {
      const c = row.cells[n];
      if (!c) return ''.padEnd(cellWidth(n));
      const tag = c.divergence?.status === 'documented' ? ' doc' : c.divergence?.status === 'unexplained' ? ' !!' : c.divergence?.status === 'stale' ? ' stale' : '';
      const text = `${MARK[c.outcome]} ${c.outcome}${tag}`;
      return paint(COLOUR[c.outcome]!, text) + ' '.repeat(Math.max(0, cellWidth(n) - text.length));
    });
    const why = row.why.map((w) => oneLine(w, redact, 160));
    lines.push(`${row.id.padEnd(idWidth)}  ${cells.join(' ')}  ${why[0] ?? ''}`);
    const indent = ' '.repeat(idWidth + 2 + names.reduce((n, name) => n + cellWidth(name) + 1, 0) + 1);
    for (const more of why.slice(1)) lines.push(`${indent}${more}`);
  }
  lines.push('');

  // Details of what no divergence file explains: these are what to look at.
  for (const t of run.targets) {
    if (t.diagnosis) {
      lines.push(...diagnosisLines(t, paint), '');
      continue;
    }
    const unexplained = t.results.filter((r) => r.outcome !== 'pass' && divergenceOf(run.matrix, r.id, t.target.name)?.status !== 'documented');
    if (unexplained.length === 0) continue;
    lines.push(`Details ${t.target.name} (${t.target.url})`);
    for (const r of unexplained) {
      lines.push(resultLine(r, paint));
      lines.push(...detailLines(r, run));
    }
    lines.push('');
  }

  for (const d of run.divergences) {
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
  for (const t of run.targets) lines.push(summaryLine(t, run, t.target.informs ? INFORMS : ''));
  lines.push('');
  if (run.targets.some((t) => !t.diagnosis)) lines.push(...coverageLines(run));
  return lines.join('\n');
}

/** The last line of a run: OK, FAILED or INCOMPLETE (by exit code), what it comes to, the seed, and the divergence counts. */
export function closingLine(run: RunResult, code: 0 | 1 | 2): string {
  const unexplained = run.divergences.reduce((n, c) => n + c.unexplained.length, 0);
  const stale = run.divergences.reduce((n, c) => n + c.stale.length, 0);
  const note = run.divergences.length > 0 ? `; Prism: ${unexplained} unexplained divergence(s), ${stale} stale entr${stale === 1 ? 'y' : 'ies'}` : '';
  const deciding = decidingTargets(run.targets);
  const notChecked = deciding.filter((t) => t.diagnosis);
  const failed = deciding.map((t) => failureGroups(t, run.strict));
  const checks = failed.reduce((n, groups) => n + groups.reduce((m, g) => m + g.checks.length, 0), 0);
  const causes = failed.reduce((n, groups) => n + groups.length, 0);
  const what =
    notChecked.length > 0
      ? `${notChecked.map((t) => (t.target.name === 'target' ? 'the target' : t.target.name)).join(', ')} not checked (see above)`
      : code === 1
        ? `${checks} check(s) failed, ${causes} cause(s), on ${run.targets.length} target(s)`
        : `${run.targets.length} target(s)`;
  return `${['OK', 'FAILED', 'INCOMPLETE'][code]}: ${what}, seed ${run.seed}${note}\n`;
}
