#!/usr/bin/env node
// Runs node's test runner on the compiled test files under the given folders.
// Node 20's test runner takes file or folder paths but not globs, and its
// folder discovery differs from Node 22's, so we list the files ourselves and
// pass them explicitly: the same command works on every supported Node.
//
// Every test file runs with a deadline (run()'s `timeout`, as `--test-timeout`,
// which bounds each file's process as well as each test in it): a file that
// hangs, even with its event loop blocked, is killed and reported by name as
// a failure, instead of holding the run until CI's limit. Set
// TEST_FILE_TIMEOUT_MS to change it (docs/development.md says why the default
// is what it is).
//
// The run ends with a summary naming every file that failed, was cancelled
// or timed out (a reader sees the cause without scrolling back through the
// log): the spec reporter writes to stdout as usual, and a second reporter
// (test-outcomes-reporter.mjs) gives a line for each failed test.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { run } from 'node:test';
import { pathToFileURL } from 'node:url';
import { spec } from 'node:test/reporters';
import outcomes from './test-outcomes-reporter.mjs';
import { summarize, formatSummary } from './test-summary.mjs';
import { orderByCost, readCosts } from './test-order.mjs';
import { compiledRoot, listTestFiles } from './test-files.mjs';

// --full-matrix: only the files with a long matrix (those that use
// test/support/matrix.ts), each running every row (PLANTSTORE_TEST_MATRIX=full).
// `npm run test:full` runs it, and CI after `npm test`.
const fullMatrix = process.argv.includes('--full-matrix');
const roots = process.argv.slice(2).filter((arg) => arg !== '--full-matrix');
if (roots.length === 0) roots.push('test');
const files = listTestFiles(roots, (path) => !fullMatrix || readFileSync(path, 'utf8').includes('/support/matrix.js'));
if (fullMatrix) process.env.PLANTSTORE_TEST_MATRIX = 'full';
if (files.length === 0) {
  console.error(`run-tests: no *.test.js files under ${roots.map(compiledRoot).join(', ')}`);
  process.exit(1);
}
// Four files at a time on any machine (TEST_CONCURRENCY=N changes it): many
// files wait more than they compute (servers, child processes, timers), and
// with two at a time on two cores a third of the cores' time was idle. The
// costliest files start first (scripts/test-order.mjs). docs/development.md
// says how this was measured, under load too.
const concurrency = process.env.TEST_CONCURRENCY ?? '4';
// TEST_COSTS_FILE names another costs file (test/suite/run-tests.test.ts).
const costsFile = process.env.TEST_COSTS_FILE;
const ordered = orderByCost(
  files,
  readCosts(costsFile === undefined ? undefined : pathToFileURL(costsFile)),
  join('dist', 'test'),
);
// 5 minutes: the slowest files of npm test take under two and a half minutes
// of wall time run alone at a load of 8 on 2 cores, mostly waiting, so a file
// that reaches it is stuck, not slow. The full matrices run longer.
const fileTimeoutMs = process.env.TEST_FILE_TIMEOUT_MS ?? (fullMatrix ? '900000' : '300000');
// The harness keeps lint findings on disk (conformance/model/lint-cache.ts):
// the run keeps them in a folder of its own, removed at the end, so that a
// run neither reads what an earlier one left nor leaves anything behind.
// Within the run, a document linted once (the shipped one, a fixture) is
// read back by every later run of the harness on it.
// A PLANTSTORE_CACHE_DIR already set is the caller's choice, and is used.
// The files also share the run's folder, PLANTSTORE_TEST_RUN_DIR, for what
// they make once for the run (test/support/postgres.ts: a copy of initdb's
// cluster, which every later PostgreSQL file copies instead of running initdb).
const runDir = mkdtempSync(join(tmpdir(), 'plantstore-test-run-'));
process.env.PLANTSTORE_TEST_RUN_DIR = runDir;
process.on('exit', () => rmSync(runDir, { recursive: true, force: true }));
process.env.PLANTSTORE_CACHE_DIR ??= join(runDir, 'cache');
// Node's run() API, not `node --test`: the command line sorts the files by
// name whatever order it is given them, run() starts them in the order given.
// Its events go to two reporters: spec on stdout, as `node --test` writes it,
// and test-outcomes-reporter.mjs, whose lines make the summary.
const started = Date.now();
const events = run({ files: ordered, concurrency: Number(concurrency), timeout: Number(fileTimeoutMs) });
const forSpec = new PassThrough({ objectMode: true });
const forOutcomes = new PassThrough({ objectMode: true });
events.pipe(forSpec);
events.pipe(forOutcomes);
const lines = [];
await Promise.all([
  pipeline(forSpec, new spec(), async (source) => {
    for await (const chunk of source) process.stdout.write(chunk);
  }),
  (async () => {
    for await (const line of outcomes(forOutcomes)) lines.push(line.trim());
  })(),
]);
const seconds = (Date.now() - started) / 1000;
const summary = summarize(
  files,
  lines.map((line) => JSON.parse(line)),
  seconds,
);
process.stdout.write(formatSummary(summary, (file) => relative(process.cwd(), file) || file));
// A file that fails outside any test (its process exits non-zero) is a failed test of the file: it is in the lines.
process.exit(lines.length === 0 && summary.passed === files.length ? 0 : 1);
