#!/usr/bin/env node
// plantstore-conformance: lints the spec, runs the catalog against targets
// side by side (the reference server, a Prism mock, the user's targets),
// reports. Exit 0: no check failed; 1: a check failed (or, with --strict, was
// non-strict) on the reference server or a --target (the Prism column
// informs and never fails the run by itself); 2: the harness could not do
// its job (bad arguments, a spec that does not load or lint, a target
// unreachable or dead, a check `error`, a server that does not start).
import { relative } from 'node:path';
import { HELP, parseCliArgs, type CliOptions } from './args.js';
import { computeCoverage } from './coverage.js';
import { compareDivergences, loadDivergences, type DivergenceFile } from './differential/divergences.js';
import { lintSpec, type LintFinding } from './lint.js';
import { closingLine, renderConsole } from './report/console.js';
import { ReportWriteError, writeReports } from './report/write.js';
import { decidingTargets, exitCode, runResult, type RunResult } from './result.js';
import { run } from './runner.js';
import { loadSpecModel, type SpecModel } from './spec-model.js';
import { OwnedServers, ServerStartError, startTargets, stopOnSignals } from './targets/start.js';
import type { Target } from './targets/target.js';

const say = (line: string) => process.stderr.write(line);
const complain = (message: string) => say(`plantstore-conformance: ${message}\n`);

export async function main(argv: string[]): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCliArgs(argv);
  } catch (err) {
    complain(`${(err as Error).message}\nTry --help.`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const inputs = await readInputs(options);
  if (!inputs) return 2;
  const owned = new OwnedServers();
  const removeSignalHandlers = stopOnSignals(owned, say);
  try {
    const targets = await startTargets(options, owned, say);
    const result = await runChecks(options, inputs, targets);
    await owned.stopAll();
    return report(result, options);
  } catch (err) {
    complain(err instanceof ServerStartError || err instanceof ReportWriteError ? err.message : `harness error: ${(err as Error).stack ?? String(err)}`);
    return 2;
  } finally {
    await owned.stopAll();
    removeSignalHandlers();
  }
}

interface Inputs {
  model: SpecModel;
  lint: LintFinding[];
  divergenceFile: DivergenceFile | undefined;
}

/** What the run reads before any server starts; undefined, once said why, when something cannot be read or the spec has lint errors. */
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
    complain(`cannot read the spec ${options.spec}: ${(err as Error).message}`);
    return undefined;
  }
  const lintErrors = lint.filter((f) => f.severity === 'error');
  if (lintErrors.length > 0) {
    say(`plantstore-conformance: the spec has lint errors; no checks were run.\n`);
    for (const e of lintErrors) say(`  ${e.code} at ${e.path}: ${e.message}\n`);
    return undefined;
  }
  return { model, lint, divergenceFile };
}

/** Runs the catalog against every target (a progress line at a terminal), and compares the Prism mock's results with its divergence file. */
async function runChecks(options: CliOptions, inputs: Inputs, targets: Target[]): Promise<RunResult> {
  const tty = process.stderr.isTTY === true;
  const results = await run({
    model: inputs.model,
    targets,
    seed: options.seed,
    cases: options.cases,
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    only: options.only,
    onProgress: tty ? (done, total, target, id) => say(`\r\x1b[K[${target} ${done}/${total}] ${id}`) : undefined,
  });
  if (tty) say('\r\x1b[K');
  const file = inputs.divergenceFile;
  const divergences = file ? results.filter((t) => t.target.role === 'prism').map((t) => compareDivergences(t, file, options.divergences)) : [];
  const coverage = computeCoverage(inputs.model, results, new Map(results.map((t) => [t.target.name, t.observed ?? []])));
  return runResult({ seed: options.seed, strict: options.strict, lint: inputs.lint, targets: results, divergences, coverage });
}

/** Prints the console report, writes the report files, and returns the exit code. */
function report(result: RunResult, options: CliOptions): 0 | 1 | 2 {
  process.stdout.write(renderConsole(result, { color: process.stdout.isTTY === true && !process.env.NO_COLOR }));
  const written = writeReports(result, options);
  if (written.length > 0) process.stdout.write(`Reports: ${written.map((f) => relative(process.cwd(), f) || f).join(', ')}\n`);
  for (const t of decidingTargets(result.targets)) {
    if (t.unreachable) complain(`gave up on target ${t.target.name} (${t.target.url}): ${t.unreachable}`);
  }
  const code = exitCode(result.targets, result.strict);
  process.stdout.write(closingLine(result, code));
  return code;
}

// Run when executed (also through the npm bin symlink), not when imported.
const invoked = process.argv[1] ? await import('node:fs').then((fs) => fs.realpathSync(process.argv[1]!)) : '';
if (invoked === (await import('node:url')).fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
