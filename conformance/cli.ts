#!/usr/bin/env node
// plantstore-conformance: lints the spec, runs the catalog against targets,
// reports. Exit 0: no check failed; 1: a check failed (or, with --strict, was
// non-strict); 2: the harness could not do its job (bad arguments, a spec
// that does not load or lint, a target unreachable or dead, a check `error`).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { OPENAPI_PATH } from '../spec/openapi.js';
import { catalog } from './checks/index.js';
import type { Target } from './checks/types.js';
import { lintSpec, type LintFinding } from './lint.js';
import { startReference, type ReferenceServer } from './reference.js';
import { renderConsole } from './report/console.js';
import { toJsonReport } from './report/json.js';
import { toJunit } from './report/junit.js';
import { exitCode, run } from './runner.js';
import { loadSpecModel } from './spec-model.js';

export const HELP = `Usage: plantstore-conformance [options]

Runs the Plant Store conformance checks (derived from spec/openapi.yaml)
against one or more targets and reports per check: pass, non-strict, fail,
skip or error.

Options:
  --target URL        a target's base URL, may carry a path prefix
                      (repeatable). Without --target, --reference is used.
  --reference         start the project's own server on a free loopback port
                      and run against it
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
  --spec FILE         the OpenAPI document (default: spec/openapi.yaml)
  --help              show this help

Exit codes: 0 no check failed, 1 a check failed, 2 the harness could not run
(a target unreachable or dead, or a check ended in error).
`;

class UsageError extends Error {}

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
  return {
    help: values.help === true,
    targets,
    reference: values.reference === true || targets.length === 0,
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
  const stopReference = async () => {
    const r = reference;
    reference = undefined;
    await r?.stop();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    void stopReference().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const targets: Target[] = [];
    if (opts.reference) {
      reference = await startReference();
      targets.push(reference.target);
    }
    for (const t of opts.targets) targets.push({ ...t, token: opts.token, restrictsTokens: opts.restrictsTokens });
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
    process.stdout.write(renderConsole(results, { seed: opts.seed, strict: opts.strict, color: process.stdout.isTTY === true && !process.env.NO_COLOR, lint }));
    if (opts.json) writeFileSync(opts.json, `${JSON.stringify(toJsonReport(results, opts.seed, opts.strict, lint), null, 2)}\n`);
    if (opts.junit) writeFileSync(opts.junit, toJunit(results, opts.seed, opts.strict));
    for (const t of results) if (t.unreachable) process.stderr.write(`plantstore-conformance: gave up on target ${t.name} (${t.url}): ${t.unreachable}\n`);
    const code = exitCode(results, opts.strict);
    process.stdout.write(`${['OK', 'FAILED', 'INCOMPLETE'][code]}: ${results.length} target(s), seed ${opts.seed}\n`);
    return code;
  } catch (err) {
    process.stderr.write(`plantstore-conformance: harness error: ${(err as Error).stack ?? String(err)}\n`);
    return 2;
  } finally {
    await stopReference();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

// Run when executed (also through the npm bin symlink), not when imported.
const invoked = process.argv[1] ? await import('node:fs').then((fs) => fs.realpathSync(process.argv[1]!)) : '';
if (invoked === (await import('node:url')).fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
