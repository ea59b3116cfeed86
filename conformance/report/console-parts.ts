// The parts of the console report that the check list (console.ts) and the
// matrix (console-matrix.ts) share: the lint, a target's name, where it stopped answering, its summary, and the coverage.
import { coverageCounts } from '../run/coverage.js';
import { seedText, type RunResult, type TargetResult } from '../run/result.js';
import { escapeControls, mapStrings } from '../redact/escape.js';
import { consoleCommand, type Paint } from './console-text.js';

export interface ConsoleOptions {
  /** ANSI colours (a terminal without NO_COLOR). */
  color: boolean;
  /**
   * How much of the lint to print: every warning (the default run, which is
   * the project's own: its warnings are ours to act on), a count of them (a
   * run with another --spec document), or nothing but errors (a run against
   * a --target with the shipped document: teams that consume it cannot act
   * on its warnings, which `npm run lint:spec` lists). Lint errors in full
   * whatever this says.
   */
  lint?: 'warnings' | 'count' | 'none';
  /** Print the diagnoses of the targets not checked at the top (default); false when the CLI printed them already, as soon as they were known. */
  diagnoses?: boolean;
  /** The run ran the checks --only named: the coverage is its counts, in one line (what a few checks leave unexercised is no news). */
  narrow?: boolean;
}

/**
 * Every text of the run with its control characters escaped, before it
 * reaches the terminal: runResult did so already, a run built otherwise is
 * escaped here, so the only escape sequences written are the colours.
 */
export function terminalSafe(run: RunResult): RunResult {
  return mapStrings(run, escapeControls);
}

/** Lint errors in full (the run went on: the document could be checked); warnings listed, counted, or left to `npm run lint:spec`. */
export function lintLines(run: RunResult, o: ConsoleOptions): string[] {
  const errors = run.lint.filter((f) => f.severity === 'error');
  const warnings = run.lint.filter((f) => f.severity !== 'error');
  const lines =
    errors.length > 0
      ? [
          `Spec lint: ${errors.length} error(s) in the document (it could still be served and checked)`,
          ...errors.map((e) => `  ${e.code} at ${e.path}: ${e.message}`),
        ]
      : [];
  if (warnings.length > 0 && o.lint === 'count')
    lines.push(
      `Spec lint: ${warnings.length} warning(s) about the document, not listed here (the JSON report lists them)`,
    );
  else if (warnings.length > 0 && o.lint !== 'none')
    lines.push(`Spec lint: ${warnings.length} warning(s)`, ...warnings.map((w) => `  ${w.code}: ${w.message}`), '');
  else if (errors.length > 0) lines.push('');
  return lines;
}

/** How a report names a target: its name, unless it is the one `--target` (then its URL says it). */
export function targetLabel(t: TargetResult['target']): string {
  return t.name === 'target' ? `the target (${t.url})` : `${t.name} (${t.url})`;
}

/** A target that stopped answering mid-run: after which request, and that every verdict before it stands. */
export function stoppedLines(t: TargetResult, paint: Paint): string[] {
  const by = t.stoppedBy;
  if (!by) return [];
  return [
    paint(
      35,
      `  It stopped answering after ${by.check}'s ${by.method} ${by.path}${by.case ? ` (${by.case})` : ''}: the checks not run then are error, every verdict reached before stands.`,
    ),
    `    Reproduce: ${consoleCommand(by.reproduce)}`,
  ];
}

export function summaryLine(t: TargetResult, run: RunResult, note = ''): string {
  const s = t.summary;
  const name = t.target.name === 'target' ? '' : ` ${t.target.name}`;
  if (t.diagnosis) return `Summary${name}: ${t.results.length} checks not run; ${seedText(run)}${note}`;
  return `Summary${name}: ${t.results.length} checks, ${s.pass} pass, ${s['non-strict']} non-strict, ${s.fail} fail, ${s.skip} skip, ${s.error} error; ${seedText(run)}${run.strict ? ' (strict)' : ''}${note}`;
}

/**
 * What the run exercised of the document, in a few lines: the counts, then
 * each operation only the generic checks reached or none did, each declared
 * response no target gave, and each schema keyword not exercised, with why.
 */
export function coverageLines(run: RunResult, narrow = false): string[] {
  const c = run.coverage;
  if (!c) return [];
  const n = coverageCounts(c);
  const lines = [
    `Coverage of the document: ${n.operations[0]} of ${n.operations[1]} operation(s) sent requests; ${n.responses[0]} of ${n.responses[1]} declared response(s) given; schema keywords: ${n.keywords.exercised} exercised, ${n.keywords.annotation} annotation(s), ${n.keywords['not exercised']} not exercised; ${(c.ruledOut ?? []).length} check(s) skipped because of the document`,
  ];
  if (narrow)
    return [
      ...lines,
      '  (--only: what the other checks would exercise is not listed; the JSON report holds the whole coverage)',
      '',
    ];
  for (const o of c.operations) {
    if (o.requests === 0)
      lines.push(`  operation ${o.method} ${o.path} (${o.operationId}): not covered, no request was sent`);
    else if (!o.known)
      lines.push(
        `  operation ${o.method} ${o.path} (${o.operationId}): PS-OP-*, PS-DOC-*${o.role ? ` and the state checks (its role: ${o.role.role}, by ${o.role.by})` : ''}, ${o.requests} request(s)`,
      );
  }
  for (const r of c.responses)
    if (r.observedOn.length === 0)
      lines.push(`  response ${r.status} of ${r.method} ${r.path}: no target gave it${r.why ? ` (${r.why})` : ''}`);
  for (const k of c.keywords)
    if (k.status === 'not exercised') lines.push(`  not exercised: ${k.keyword} at ${k.pointer}: ${k.detail}`);
  for (const r of c.ruledOut ?? []) lines.push(`  skipped because of the document: ${r.id} ${r.title}: ${r.reason}`);
  lines.push('');
  return lines;
}
