// The run itself (main.ts imports it only for a run): read the document,
// start the servers asked for, diagnose and check each target, lint, and
// report. The diagnoses are printed as soon as the run has them (the first
// line of a first run says what to fix, issue 36); the lint starts once the
// checks are under way and never delays them, and does not run at all where
// it cannot change anything (issue 45).
import { relative, resolve } from 'node:path';
import { OPENAPI_PATH } from '../../spec/openapi.js';
import { echoesRedactable } from '../redact/secrets.js';
import { StartError } from '../../lib/start-error.js';
import type { CliOptions } from './args.js';
import { checkCredentials } from './credentials.js';
import { placeholderSchemes } from '../checks/credentials.js';
import { credentialKind, declaredSchemes, describeScheme } from '../model/security.js';
import { computeCoverage } from '../run/coverage.js';
import { compareDivergences, loadDivergences, type DivergenceFile } from '../run/differential/divergences.js';
import { formatMs, formatSeconds } from '../run/http.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DEFAULT_RULESET, lintApart, type LintOutcome } from '../model/lint.js';
import { harnessVersion } from '../report/version.js';
import { closingLine, diagnosisLines, renderConsole, whatFailedLines } from '../report/console.js';
import { HarWriter } from '../report/har.js';
import { writeReports } from '../report/write.js';
import { decidingTargets, exitCode, runResult, type RunResult } from '../run/result.js';
import { run, type RunEvent } from '../run/runner.js';
import { loadSpecModel, type SpecModel } from '../model/spec-model.js';
import { describeDocumentError } from '../model/spec-errors.js';
import { OwnedServers, startTargets, stopOnSignals } from '../run/targets/start.js';
import type { Target } from '../model/target.js';

const say = (line: string) => process.stderr.write(line);
const complain = (message: string) => say(`plantstore-conformance: ${message}\n`);

/** A run of the catalog: the exit code (main.ts). */
export async function runCommand(options: CliOptions): Promise<number> {
  const inputs = readInputs(options);
  if (!inputs) return 2;
  const owned = new OwnedServers();
  const removeSignalHandlers = stopOnSignals(owned, say);
  let har: HarWriter | undefined;
  try {
    // Opened before anything is sent: a HAR path that cannot be written stops the run at once.
    if (options.har) har = new HarWriter(options.har);
    const targets = await startTargets({ ...options, schemes: declaredSchemes(inputs.model.doc) }, owned, say);
    if (options.rerun) complain(options.rerun.note);
    const lint = plannedLint(options);
    const parts = await runChecks(options, inputs, targets, har, lint.start);
    await owned.stopAll();
    const color = options.color !== false && process.stdout.isTTY === true && !process.env.NO_COLOR;
    // The diagnoses first, at once: they say what to fix, and the lint may still be running.
    const diagnoses = diagnosisLines(runResult({ ...parts, lint: [] }), color);
    if (diagnoses.length > 0) process.stdout.write(`${diagnoses.join('\n')}\n`);
    lint.start();
    const linted = await lint.outcome;
    if ('error' in linted) {
      complain(`cannot lint the spec ${linted.error}`);
      return 2;
    }
    return report(
      runResult({
        ...parts,
        lint: linted.findings,
        ...(lint.skipped ? { lintSkipped: lint.skipped } : {}),
        ...(lint.digest ? { lintDigest: lint.digest } : {}),
      }),
      options,
      color,
    );
  } catch (err) {
    complain(err instanceof StartError ? err.message : `harness error: ${(err as Error).stack ?? String(err)}`);
    return 2;
  } finally {
    har?.close();
    await owned.stopAll();
    removeSignalHandlers();
  }
}

/** How much of the lint the console shows (ConsoleOptions.lint): the default run's are ours, another --spec's are counted, the shipped document's against a --target left out. */
function lintShown(options: CliOptions): 'warnings' | 'count' | 'none' {
  return options.targets.length === 0 ? 'warnings' : resolve(options.spec) === resolve(OPENAPI_PATH) ? 'none' : 'count';
}

/** What a lint depends on: the document, the ruleset and the harness's version (its rules' code), as one digest. */
function lintDigest(spec: string): string {
  const hash = createHash('sha256');
  for (const part of [readFileSync(spec), readFileSync(DEFAULT_RULESET), harnessVersion()])
    hash.update(part).update('\0');
  return `sha256:${hash.digest('hex')}`;
}

/**
 * The document's lint (Spectral, a second or more of CPU), planned so that
 * it never delays a target's checks: on a thread of its own (lintApart),
 * started once the first target's checks are under way (or after the run,
 * when no target got that far), and awaited for the report. Not run at all
 * where it cannot change anything: a --target run with the shipped
 * document, whose warnings the console leaves out and whose lint the
 * project's CI runs (`npm run lint:spec`); and a --rerun-failed run whose
 * document and ruleset are those the last report was linted with (its
 * findings are reused).
 */
function plannedLint(options: CliOptions): {
  start: () => void;
  outcome: Promise<LintOutcome>;
  skipped?: string;
  digest?: string;
} {
  if (lintShown(options) === 'none')
    return {
      start: () => undefined,
      outcome: Promise.resolve({ findings: [] }),
      skipped: 'the shipped document, against a --target: its lint cannot change the run (npm run lint:spec lists it)',
    };
  let digest: string | undefined;
  try {
    digest = lintDigest(options.spec);
  } catch {
    // A file that cannot be read: the lint says why, when it runs.
  }
  const last = options.rerun?.lint;
  if (digest !== undefined && last?.digest === digest)
    return {
      start: () => undefined,
      outcome: Promise.resolve({ findings: last.findings }),
      skipped: `not run again: the document and the ruleset are those the last report (${options.rerun!.from}) was linted with, whose findings these are`,
      digest,
    };
  let begin!: () => void;
  const started = new Promise<void>((resolve) => (begin = resolve));
  // After the event that asked for it has been written: the line that says checks started goes out first.
  return {
    start: () => setImmediate(begin),
    outcome: started.then(() => lintApart(options.spec)),
    ...(digest !== undefined ? { digest } : {}),
  };
}

interface Inputs {
  model: SpecModel;
  divergenceFile: DivergenceFile | undefined;
}

/** What the run reads before any server starts; undefined, once said why, when something cannot be read (a document that cannot be served or checked). */
function readInputs(options: CliOptions): Inputs | undefined {
  // Read before the document, so a broken file is reported at once.
  let divergenceFile: DivergenceFile | undefined;
  if (options.prism) {
    try {
      divergenceFile = loadDivergences(options.divergences);
    } catch (err) {
      complain((err as Error).message);
      return undefined;
    }
  }
  // The document, loaded and compiled: the diagnosis needs it (which operation, which credentials).
  // The lint waits until the targets are diagnosed and checked: none of its findings stops a run.
  let model: SpecModel;
  try {
    model = loadSpecModel(options.spec);
  } catch (err) {
    complain(`cannot read the spec ${describeDocumentError(err, options.spec)}`);
    return undefined;
  }
  // A --credential for a scheme the document does not declare would be sent nowhere: said before anything starts.
  try {
    checkCredentials(model, options.credentials);
  } catch (err) {
    complain((err as Error).message);
    return undefined;
  }
  return { model, divergenceFile };
}

/** How a progress line names a target. */
const named = (t: Target) => `${t.name} (${t.url})`;

/** Lines on stderr as the run goes: at a terminal, one that updates in place; elsewhere (CI), a plain line per target and event. */
function progress(tty: boolean): {
  onEvent: (e: RunEvent) => void;
  onProgress?: (done: number, total: number, target: string, id: string) => void;
} {
  const line = (text: string) => say(tty ? `\r\x1b[K${text}\n` : `${text}\n`);
  return {
    onEvent: (e) => {
      if (e.kind === 'waiting')
        line(`${named(e.target)}: waiting up to ${formatMs(e.waitMs)} for it to answer (--wait-for)`);
      else if (e.kind === 'answered') line(`${named(e.target)}: answered after ${formatSeconds(e.afterMs)}`);
      else if (e.kind === 'still-down') line(`${named(e.target)}: still no answer after ${formatSeconds(e.afterMs)}`);
      else if (e.kind === 'checking' && !tty && e.checks > 0) line(`${named(e.target)}: running ${e.checks} checks`);
      else if (e.kind === 'done' && !tty && !e.result.diagnosis) {
        const s = e.result.summary;
        line(
          `${named(e.target)}: done in ${formatSeconds(e.ms)}: ${s.pass} pass, ${s['non-strict']} non-strict, ${s.fail} fail, ${s.skip} skip, ${s.error} error`,
        );
      }
    },
    onProgress: tty ? (done, total, target, id) => say(`\r\x1b[K[${target} ${done}/${total}] ${id}`) : undefined,
  };
}

/** Runs the catalog against every target (with progress on stderr), and compares the Prism mock's results with its divergence file. */
async function runChecks(
  options: CliOptions,
  inputs: Inputs,
  targets: Target[],
  har: HarWriter | undefined,
  checksStarted: () => void,
): Promise<Omit<RunResult, 'matrix' | 'lint'>> {
  const tty = process.stderr.isTTY === true;
  // A token of fewer than 8 characters is in every other word: the reports replace it only where the requests use it.
  const short = targets.filter((t) => !echoesRedactable(t.token));
  if (short.length > 0)
    complain(
      `warning: the token of ${short.map(named).join(', ')} is shorter than 8 characters: the reports write it as $PLANTSTORE_TOKEN where the requests use it (the Authorization field), but cannot redact it from what a target echoes`,
    );
  // A credential given for some schemes but not for another an operation needs: its requests carry a placeholder.
  for (const t of targets.filter((x) => x.role === 'target' && (x.tokenFrom !== undefined || x.credentials)))
    for (const { scheme, operations } of placeholderSchemes(t, inputs.model.operations))
      complain(
        `warning: no credential was given for ${describeScheme(scheme)}, which ${operations.join(', ')} ${operations.length > 1 ? 'need' : 'needs'}: ${named(t)} gets a placeholder (${credentialKind(scheme) === 'bearer' ? '--token, or ' : ''}--credential ${scheme.name}=…)`,
      );
  const progressed = progress(tty);
  const onProgress = progressed.onProgress;
  const onEvent = (e: RunEvent) => {
    progressed.onEvent(e);
    if (e.kind === 'checking' && e.checks > 0) checksStarted();
  };
  const results = await run({
    model: inputs.model,
    targets,
    seed: options.seed,
    idOffset: BigInt(options.idOffset),
    cases: options.cases,
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    rateLimit: options.rateLimit,
    waitForMs: options.waitForMs,
    maxFailures: options.maxFailures,
    strict: options.strict,
    only: options.only,
    inferences: options.inferences,
    onEvent,
    onProgress,
    onWire: har ? (target, ex, timing) => har.add(target, ex, timing) : undefined,
  });
  if (tty) say('\r\x1b[K');
  const file = inputs.divergenceFile;
  const divergences = file
    ? results.filter((t) => t.target.role === 'prism').map((t) => compareDivergences(t, file, options.divergences))
    : [];
  const coverage = computeCoverage(
    inputs.model,
    results,
    new Map(results.map((t) => [t.target.name, t.observed ?? []])),
  );
  return {
    seed: options.seed,
    ...(options.idOffset !== 0 ? { idOffset: options.idOffset } : {}),
    strict: options.strict,
    targets: results,
    divergences,
    coverage,
  };
}

/** Prints the console report (the diagnoses were printed already), writes the report files, and returns the exit code. */
function report(result: RunResult, options: CliOptions, color: boolean): 0 | 1 | 2 {
  // The default run is the project's own: its lint warnings are for us (and for `npm run lint:spec`).
  // A run against a --target with the shipped document lists lint errors only: the teams that run it
  // cannot act on the document's warnings. With a document of their own (--spec), they are counted.
  process.stdout.write(
    renderConsole(result, { color, lint: lintShown(options), diagnoses: false, narrow: options.only !== undefined }),
  );
  const written = writeReports(result, options);
  if (options.har) written.push(options.har);
  if (written.length > 0)
    process.stdout.write(`Reports: ${written.map((f) => relative(process.cwd(), f) || f).join(', ')}\n`);
  for (const t of decidingTargets(result.targets)) {
    if (t.unreachable && !t.diagnosis) complain(`gave up on ${named(t.target)}: ${t.unreachable}`);
  }
  const code = exitCode(result.targets, result.strict);
  const failed = whatFailedLines(result, { color });
  if (failed.length > 0) process.stdout.write(`\n${failed.join('\n')}\n`);
  process.stdout.write(closingLine(result, code));
  return code;
}
