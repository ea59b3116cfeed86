#!/usr/bin/env node
// plantstore-conformance: lints the spec, diagnoses each target (can a run
// against it mean anything?), runs the catalog against the targets side by
// side (the reference server, a Prism mock, the user's targets), reports.
// Exit 0: no check failed; 1: a check failed (or, with --strict, was
// non-strict) on the reference server or a --target (the Prism column
// informs and never fails the run by itself); 2: the run could not mean
// anything or the harness could not do its job (bad arguments, a spec that
// does not load or lint, a target misconfigured, unreachable or dead, a
// check `error`, a server that does not start).
import { relative } from 'node:path';
import { StartError } from '../../lib/start-error.js';
import { helpText, listChecks } from './options.js';
import { CLI_CONFIG_POLICY, parseCliArgs, type CliOptions, type ConfigPolicy } from './args.js';
import { computeCoverage } from '../run/coverage.js';
import { compareDivergences, loadDivergences, type DivergenceFile } from '../run/differential/divergences.js';
import { formatMs } from '../run/http.js';
import { lintSpec, type LintFinding } from '../model/lint.js';
import { closingLine, renderConsole, whatFailedLines } from '../report/console.js';
import { HarWriter } from '../report/har.js';
import { writeReports } from '../report/write.js';
import { decidingTargets, exitCode, runResult, type RunResult } from '../run/result.js';
import { run, type RunEvent } from '../run/runner.js';
import { loadSpecModel, type SpecModel } from '../model/spec-model.js';
import { describeDocumentError } from '../model/spec-errors.js';
import { OwnedServers, startTargets, stopOnSignals } from '../run/targets/start.js';
import type { Target } from '../model/target.js';
import { harnessVersion } from '../report/version.js';

const say = (line: string) => process.stderr.write(line);
const complain = (message: string) => say(`plantstore-conformance: ${message}\n`);

/** Where a run's options come from: the process's environment and working directory, the CLI's configuration file (the GitHub Action narrows all three). */
export interface MainContext {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  policy?: ConfigPolicy;
}

export async function main(argv: string[], { env = process.env, cwd = process.cwd(), policy = CLI_CONFIG_POLICY }: MainContext = {}): Promise<number> {
  // `compat` has its own options and reports (conformance/compat/, docs/compatibility.md).
  // It runs in a worker thread, ended at its deadline however busy (compat-deadline.ts).
  if (argv[0] === 'compat') return (await import('./compat-deadline.js')).compatWithDeadline(argv.slice(1), { cwd, env });
  let options: CliOptions;
  try {
    options = parseCliArgs(argv, env, cwd, policy);
  } catch (err) {
    complain(`${(err as Error).message}\nTry --help.`);
    return 2;
  }
  if (options.action === 'help') {
    process.stdout.write(helpText());
    return 0;
  }
  if (options.action === 'version') {
    process.stdout.write(`plantstore-conformance ${harnessVersion()}\n`);
    return 0;
  }
  if (options.action === 'list') {
    process.stdout.write(listChecks(options.only));
    return 0;
  }
  const inputs = await readInputs(options);
  if (!inputs) return 2;
  const owned = new OwnedServers();
  const removeSignalHandlers = stopOnSignals(owned, say);
  let har: HarWriter | undefined;
  try {
    // Opened before anything is sent: a HAR path that cannot be written stops the run at once.
    if (options.har) har = new HarWriter(options.har);
    const targets = await startTargets(options, owned, say);
    const result = await runChecks(options, inputs, targets, har);
    await owned.stopAll();
    return report(result, options);
  } catch (err) {
    complain(err instanceof StartError ? err.message : `harness error: ${(err as Error).stack ?? String(err)}`);
    return 2;
  } finally {
    har?.close();
    await owned.stopAll();
    removeSignalHandlers();
  }
}

interface Inputs {
  model: SpecModel;
  lint: LintFinding[];
  divergenceFile: DivergenceFile | undefined;
}

/** What the run reads before any server starts; undefined, once said why, when something cannot be read (a document that cannot be served or checked). */
async function readInputs(options: CliOptions): Promise<Inputs | undefined> {
  // Read before the (slower) lint, so a broken file is reported at once.
  let divergenceFile: DivergenceFile | undefined;
  if (options.prism) {
    try {
      divergenceFile = loadDivergences(options.divergences);
    } catch (err) {
      complain((err as Error).message);
      return undefined;
    }
  }
  let model: SpecModel;
  let lint: LintFinding[];
  try {
    model = loadSpecModel(options.spec);
    lint = await lintSpec(options.spec);
  } catch (err) {
    complain(`cannot read the spec ${describeDocumentError(err, options.spec)}`);
    return undefined;
  }
  return { model, lint, divergenceFile };
}

/** How a progress line names a target. */
const named = (t: Target) => `${t.name} (${t.url})`;

/** Lines on stderr as the run goes: at a terminal, one that updates in place; elsewhere (CI), a plain line per target and event. */
function progress(tty: boolean): { onEvent: (e: RunEvent) => void; onProgress?: (done: number, total: number, target: string, id: string) => void } {
  const line = (text: string) => say(tty ? `\r\x1b[K${text}\n` : `${text}\n`);
  return {
    onEvent: (e) => {
      if (e.kind === 'waiting') line(`${named(e.target)}: waiting up to ${formatMs(e.waitMs)} for it to answer (--wait-for)`);
      else if (e.kind === 'answered') line(`${named(e.target)}: answered after ${formatMs(Math.round(e.afterMs / 100) * 100)}`);
      else if (e.kind === 'still-down') line(`${named(e.target)}: still no answer after ${formatMs(Math.round(e.afterMs / 100) * 100)}`);
      else if (e.kind === 'checking' && !tty && e.checks > 0) line(`${named(e.target)}: running ${e.checks} checks`);
      else if (e.kind === 'done' && !tty && !e.result.diagnosis) {
        const s = e.result.summary;
        line(`${named(e.target)}: done in ${formatMs(Math.round(e.ms / 100) * 100)}: ${s.pass} pass, ${s['non-strict']} non-strict, ${s.fail} fail, ${s.skip} skip, ${s.error} error`);
      }
    },
    onProgress: tty ? (done, total, target, id) => say(`\r\x1b[K[${target} ${done}/${total}] ${id}`) : undefined,
  };
}

/** Runs the catalog against every target (with progress on stderr), and compares the Prism mock's results with its divergence file. */
async function runChecks(options: CliOptions, inputs: Inputs, targets: Target[], har: HarWriter | undefined): Promise<RunResult> {
  const tty = process.stderr.isTTY === true;
  const { onEvent, onProgress } = progress(tty);
  const results = await run({
    model: inputs.model,
    targets,
    seed: options.seed,
    cases: options.cases,
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    rateLimit: options.rateLimit,
    waitForMs: options.waitForMs,
    maxFailures: options.maxFailures,
    strict: options.strict,
    only: options.only,
    onEvent,
    onProgress,
    onWire: har ? (target, ex, timing) => har.add(target, ex, timing) : undefined,
  });
  if (tty) say('\r\x1b[K');
  const file = inputs.divergenceFile;
  const divergences = file ? results.filter((t) => t.target.role === 'prism').map((t) => compareDivergences(t, file, options.divergences)) : [];
  const coverage = computeCoverage(inputs.model, results, new Map(results.map((t) => [t.target.name, t.observed ?? []])));
  return runResult({ seed: options.seed, strict: options.strict, lint: inputs.lint, targets: results, divergences, coverage });
}

/** Prints the console report, writes the report files, and returns the exit code. */
function report(result: RunResult, options: CliOptions): 0 | 1 | 2 {
  const color = options.color !== false && process.stdout.isTTY === true && !process.env.NO_COLOR;
  // The default run is the project's own: its lint warnings are for us. A --target run lists lint errors only.
  const lint = options.targets.length > 0 ? 'count' : 'warnings';
  process.stdout.write(renderConsole(result, { color, lint }));
  const written = writeReports(result, options);
  if (options.har) written.push(options.har);
  if (written.length > 0) process.stdout.write(`Reports: ${written.map((f) => relative(process.cwd(), f) || f).join(', ')}\n`);
  for (const t of decidingTargets(result.targets)) {
    if (t.unreachable && !t.diagnosis) complain(`gave up on ${named(t.target)}: ${t.unreachable}`);
  }
  const code = exitCode(result.targets, result.strict);
  const failed = whatFailedLines(result, { color });
  if (failed.length > 0) process.stdout.write(`\n${failed.join('\n')}\n`);
  process.stdout.write(closingLine(result, code));
  return code;
}

// Run when executed (also through the npm bin symlink), not when imported.
const invoked = process.argv[1] ? await import('node:fs').then((fs) => fs.realpathSync(process.argv[1]!)) : '';
if (invoked === (await import('node:url')).fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
