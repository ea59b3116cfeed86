#!/usr/bin/env node
// plantstore-conformance: lints the spec, runs the catalog against targets
// side by side (the reference server, a Prism mock, the user's targets),
// reports. Exit 0: no check failed; 1: a check failed (or, with --strict, was
// non-strict) on the reference server or a --target (the Prism column
// informs and never fails the run by itself); 2: the harness could not do
// its job (bad arguments, a spec that does not load or lint, a target
// unreachable or dead, a check `error`, a server that does not start).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { OPENAPI_PATH } from '../spec/openapi.js';
import { catalog } from './checks/index.js';
import type { Target } from './checks/types.js';
import { compareDivergences, loadDivergences, PRISM_DIVERGENCES_PATH, type DivergenceComparison, type DivergenceFile } from './differential/divergences.js';
import { lintSpec, type LintFinding } from './lint.js';
import { buildMatrix, type MatrixTarget } from './differential/matrix.js';
import { startPrism, type RunningPrism } from './targets/prism.js';
import { startReference, type ReferenceServer } from './targets/reference.js';
import { renderConsole, renderMatrixConsole } from './report/console.js';
import { toHtml } from './report/html.js';
import { toJsonReport } from './report/json.js';
import { toJunit } from './report/junit.js';
import { exitCode, run } from './runner.js';
import { loadSpecModel } from './spec-model.js';

export const HELP = `Usage: plantstore-conformance [options]

Runs the Plant Store conformance checks (derived from spec/openapi.yaml)
against one or more targets side by side and reports per check: pass,
non-strict, fail, skip or error.

Without --target, --reference or --prism (the default run): lint the spec,
run against the reference server and a Prism mock, print the matrix and
write reports/conformance.json, .junit.xml and .html.

Options:
  --target URL        a target's base URL, may carry a path prefix
                      (repeatable)
  --reference         start the project's own server on a free loopback port
                      and run against it
  --prism             start a Prism 5.14.2 mock of the document on a free
                      loopback port and run against it; its column informs
                      and never fails the run by itself
  --divergences FILE  the Prism mock's expected divergences (default:
                      conformance/differential/divergences/prism.json)
  --token TOKEN       bearer token the targets accept (default: the
                      PLANTSTORE_TOKEN environment variable, else a
                      well-formed placeholder)
  --invalid-token     the --target servers accept only some tokens: also
                      check that an unknown token is rejected (PS-AUTH-006)
  --seed N            seed of the generated cases (default: random; printed)
  --cases N           generated cases per property check (default 50)
  --timeout MS        deadline of each exchange in milliseconds, from connecting
                      to the last byte of the answer (default 10000)
  --concurrency N     checks in flight per target (default 4)
  --only IDS          run only these checks (comma-separated IDs)
  --strict            count non-strict outcomes as failures
  --json FILE         write the JSON report to FILE
  --junit FILE        write a JUnit XML report to FILE
  --html FILE         write a self-contained HTML report to FILE
  --reports DIR       write conformance.json, conformance.junit.xml and
                      conformance.html to DIR (the default run: reports)
  --spec FILE         the OpenAPI document (default: spec/openapi.yaml)
  --help              show this help

Exit codes: 0 no check failed, 1 a check failed, 2 the harness could not run
(a target unreachable or dead, or a check ended in error).
`;

class UsageError extends Error {}
class ServerStartError extends Error {}
class ReportWriteError extends Error {}

function int(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(value)}`);
  return Number(value);
}

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      target: { type: 'string', multiple: true },
      reference: { type: 'boolean' },
      prism: { type: 'boolean' },
      divergences: { type: 'string' },
      html: { type: 'string' },
      reports: { type: 'string' },
      token: { type: 'string' },
      'invalid-token': { type: 'boolean' },
      seed: { type: 'string' },
      cases: { type: 'string' },
      timeout: { type: 'string' },
      concurrency: { type: 'string' },
      only: { type: 'string' },
      strict: { type: 'boolean' },
      json: { type: 'string' },
      junit: { type: 'string' },
      spec: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const targets = (values.target ?? []).map((raw, i, all) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UsageError(`--target ${JSON.stringify(raw)} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--target ${raw}: only http and https URLs`);
    if (url.search || url.hash) throw new UsageError(`--target ${raw}: a base URL has no query or fragment`);
    return { name: all.length === 1 ? 'target' : `target-${i + 1}`, url: url.href.replace(/\/+$/, '') };
  });
  const only = values.only?.split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of only ?? []) if (!catalog.some((c) => c.id === id)) throw new UsageError(`--only: no check ${id}`);
  // The default run: no target named at all.
  const defaultRun = targets.length === 0 && values.reference !== true && values.prism !== true;
  return {
    help: values.help === true,
    targets,
    reference: values.reference === true || defaultRun,
    prism: values.prism === true || defaultRun,
    divergences: values.divergences ?? PRISM_DIVERGENCES_PATH,
    reports: values.reports ?? (defaultRun ? 'reports' : undefined),
    html: values.html,
    token: values.token ?? process.env.PLANTSTORE_TOKEN ?? 'plantstore-conformance',
    restrictsTokens: values['invalid-token'] === true,
    seed: int('seed', values.seed, Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31 - 1),
    cases: int('cases', values.cases, 50, 1, 100_000),
    timeoutMs: int('timeout', values.timeout, 10_000, 1, 600_000),
    concurrency: int('concurrency', values.concurrency, 4, 1, 64),
    only,
    strict: values.strict === true,
    json: values.json,
    junit: values.junit,
    spec: values.spec ?? OPENAPI_PATH,
  };
}

export async function main(argv: string[]): Promise<number> {
  let opts: ReturnType<typeof parse>;
  try {
    opts = parse(argv);
  } catch (err) {
    process.stderr.write(`plantstore-conformance: ${(err as Error).message}\nTry --help.\n`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(HELP);
    return 0;
  }
  // Read before the (slower) lint, so a broken file is reported at once.
  let divergenceFile: DivergenceFile | undefined;
  if (opts.prism) {
    try {
      divergenceFile = loadDivergences(opts.divergences);
    } catch (err) {
      process.stderr.write(`plantstore-conformance: ${(err as Error).message}\n`);
      return 2;
    }
  }

  let model;
  let lint: LintFinding[];
  try {
    model = loadSpecModel(opts.spec);
    lint = await lintSpec(opts.spec);
  } catch (err) {
    process.stderr.write(`plantstore-conformance: cannot read the spec ${opts.spec}: ${(err as Error).message}\n`);
    return 2;
  }
  const lintErrors = lint.filter((f) => f.severity === 'error');
  if (lintErrors.length > 0) {
    process.stderr.write(`plantstore-conformance: the spec has lint errors; no checks were run.\n`);
    for (const e of lintErrors) process.stderr.write(`  ${e.code} at ${e.path}: ${e.message}\n`);
    return 2;
  }

  let reference: ReferenceServer | undefined;
  let prism: RunningPrism | undefined;
  const stopServers = async () => {
    const r = reference;
    const p = prism;
    reference = undefined;
    prism = undefined;
    await Promise.all([r?.stop(), p?.stop()]);
  };
  // Ctrl-C or a kill: stop what was started, then exit as the signal asks.
  // (A Prism still starting is killed by prism.ts's exit hook.)
  // A second signal while stopping exits at once; prism.ts's exit hook still kills Prism's group.
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : 143;
    if (stopping) process.exit(code);
    stopping = true;
    process.stderr.write(`\nplantstore-conformance: ${signal}, stopping the servers it started\n`);
    void stopServers().finally(() => process.exit(code));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const targets: Target[] = [];
    const roles: MatrixTarget[] = [];
    // The servers start side by side; if one fails the other is stopped in finally.
    const [startedReference, startedPrism] = await Promise.allSettled([
      opts.reference ? startReference() : Promise.resolve(undefined),
      opts.prism ? startPrism({ specPath: opts.spec }) : Promise.resolve(undefined),
    ]);
    if (startedReference.status === 'fulfilled') reference = startedReference.value;
    if (startedPrism.status === 'fulfilled') prism = startedPrism.value;
    if (startedReference.status === 'rejected') throw new ServerStartError(`the reference server did not start: ${(startedReference.reason as Error).message}`);
    if (startedPrism.status === 'rejected') throw new ServerStartError(`the Prism mock did not start: ${(startedPrism.reason as Error).message}`);
    if (reference) {
      process.stderr.write(`reference: the project's server at ${reference.target.url}\n`);
      targets.push(reference.target);
      roles.push({ name: reference.target.name, url: reference.target.url, role: 'reference', informs: false });
    }
    if (prism) {
      process.stderr.write(`prism: Prism 5.14.2 mock of ${relative(process.cwd(), opts.spec) || opts.spec} at ${prism.url}\n`);
      // Prism accepts any bearer token: a well-formed placeholder, and PS-AUTH-006 cannot run.
      targets.push({ name: 'prism', url: prism.url, token: 'plantstore-conformance', restrictsTokens: false });
      roles.push({ name: 'prism', url: prism.url, role: 'prism', informs: true });
    }
    for (const t of opts.targets) {
      targets.push({ ...t, token: opts.token, restrictsTokens: opts.restrictsTokens });
      roles.push({ name: t.name, url: t.url, role: 'target', informs: false });
    }
    const tty = process.stderr.isTTY === true;
    const results = await run({
      model,
      targets,
      seed: opts.seed,
      cases: opts.cases,
      timeoutMs: opts.timeoutMs,
      concurrency: opts.concurrency,
      only: opts.only,
      onProgress: tty ? (done, total, target, id) => process.stderr.write(`\r\x1b[K[${target} ${done}/${total}] ${id}`) : undefined,
    });
    if (tty) process.stderr.write('\r\x1b[K');
    await stopServers();

    const comparisons: DivergenceComparison[] = [];
    const prismResult = results.find((t) => roles.some((r) => r.role === 'prism' && r.name === t.name));
    if (prismResult && divergenceFile) comparisons.push(compareDivergences(prismResult, divergenceFile, opts.divergences));
    const matrix = buildMatrix(results, roles, comparisons);
    const consoleOptions = { seed: opts.seed, strict: opts.strict, color: process.stdout.isTTY === true && !process.env.NO_COLOR, lint };
    // One target and no Prism: the per-check report as before; otherwise the matrix.
    process.stdout.write(results.length === 1 && comparisons.length === 0 ? renderConsole(results, consoleOptions) : renderMatrixConsole(results, matrix, consoleOptions));

    const json = `${JSON.stringify(toJsonReport(results, opts.seed, opts.strict, lint, matrix), null, 2)}\n`;
    const written: string[] = [];
    const write = (file: string, text: string) => {
      try {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
      } catch (err) {
        throw new ReportWriteError(`cannot write the report ${file}: ${(err as Error).message}`);
      }
      written.push(file);
    };
    const reports: Array<[string | undefined, () => string]> = [
      [opts.json, () => json],
      [opts.junit, () => toJunit(results, opts.seed, opts.strict, matrix)],
      [opts.html, () => toHtml(JSON.parse(json))],
    ];
    if (opts.reports) {
      reports.push([join(opts.reports, 'conformance.json'), () => json]);
      reports.push([join(opts.reports, 'conformance.junit.xml'), () => toJunit(results, opts.seed, opts.strict, matrix)]);
      reports.push([join(opts.reports, 'conformance.html'), () => toHtml(JSON.parse(json))]);
    }
    for (const [file, text] of reports) if (file) write(file, text());
    if (written.length > 0) process.stdout.write(`Reports: ${written.map((f) => relative(process.cwd(), f) || f).join(', ')}\n`);

    // Only the reference server and the --targets decide the exit code.
    const deciding = results.filter((t) => !roles.some((r) => r.name === t.name && r.informs));
    for (const t of deciding) if (t.unreachable) process.stderr.write(`plantstore-conformance: gave up on target ${t.name} (${t.url}): ${t.unreachable}\n`);
    const code = exitCode(deciding, opts.strict);
    const unexplained = comparisons.reduce((n, c) => n + c.unexplained.length, 0);
    const stale = comparisons.reduce((n, c) => n + c.stale.length, 0);
    const note = comparisons.length > 0 ? `; Prism: ${unexplained} unexplained divergence(s), ${stale} stale entr${stale === 1 ? 'y' : 'ies'}` : '';
    process.stdout.write(`${['OK', 'FAILED', 'INCOMPLETE'][code]}: ${results.length} target(s), seed ${opts.seed}${note}\n`);
    return code;
  } catch (err) {
    const why = err instanceof ServerStartError || err instanceof ReportWriteError ? err.message : `harness error: ${(err as Error).stack ?? String(err)}`;
    process.stderr.write(`plantstore-conformance: ${why}\n`);
    return 2;
  } finally {
    await stopServers();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

// Run when executed (also through the npm bin symlink), not when imported.
const invoked = process.argv[1] ? await import('node:fs').then((fs) => fs.realpathSync(process.argv[1]!)) : '';
if (invoked === (await import('node:url')).fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
