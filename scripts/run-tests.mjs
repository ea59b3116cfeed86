#!/usr/bin/env node
// Runs node's test runner on the compiled test files under the given folders.
// Node 20's `node --test` takes file or folder paths but not globs, and its
// folder discovery differs from Node 22's, so we list the files ourselves and
// pass them explicitly: the same command works on every supported Node.
//
// Every test file runs with a deadline (`--test-timeout`, which bounds each
// file's process as well as each test in it): a file that hangs, even with
// its event loop blocked, is killed and reported by name as a failure,
// instead of holding the run until CI's limit. Set TEST_FILE_TIMEOUT_MS to
// change it (docs/development.md says why the default is what it is).
//
// The run ends with a summary naming every file that failed, was cancelled
// or timed out (a reader sees the cause without scrolling back through the
// log): the spec reporter writes to stdout as usual, and a second reporter
// (test-outcomes-reporter.mjs) writes each failed test to a file that is
// read back here.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { summarize, formatSummary } from './test-summary.mjs';
import { orderByCost, readCosts } from './test-order.mjs';

// --full-matrix: only the files with a long matrix (those that use
// test/support/matrix.ts), each running every row (PLANTSTORE_TEST_MATRIX=full).
// `npm run test:full` runs it, and CI after `npm test`.
const fullMatrix = process.argv.includes('--full-matrix');
const roots = process.argv.slice(2).filter((arg) => arg !== '--full-matrix');
if (roots.length === 0) roots.push('test');
const files = [];
function walk(path) {
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) walk(join(path, entry));
  else if (path.endsWith('.test.js') && (!fullMatrix || readFileSync(path, 'utf8').includes('/support/matrix.js'))) {
    files.push(path);
  }
}
const folders = roots.map((root) => (isAbsolute(root) ? root : join('dist', root)));
for (const folder of folders) walk(folder);
if (fullMatrix) process.env.PLANTSTORE_TEST_MATRIX = 'full';
if (files.length === 0) {
  console.error(`run-tests: no *.test.js files under ${folders.join(', ')}`);
  process.exit(1);
}
// Four files at a time on any machine (TEST_CONCURRENCY=N changes it): many
// files wait more than they compute (servers, child processes, timers), and
// with two at a time on two cores a third of the cores' time was idle. The
// costliest files start first (scripts/test-order.mjs). docs/development.md
// says how this was measured, under load too.
const concurrency = process.env.TEST_CONCURRENCY ?? '4';
const ordered = orderByCost(files, readCosts(), join('dist', 'test'));
// 5 minutes: the slowest file of npm test takes under a minute of wall time on a
// quiet machine (under a minute and a half on one at a load of 15 on 2 cores),
// so a file that reaches it is stuck, not slow. The full matrices run longer.
const fileTimeoutMs = process.env.TEST_FILE_TIMEOUT_MS ?? (fullMatrix ? '900000' : '300000');
const scratch = mkdtempSync(join(tmpdir(), 'plantstore-run-tests-'));
const outcomesFile = join(scratch, 'outcomes.jsonl');
const reporter = fileURLToPath(new URL('test-outcomes-reporter.mjs', import.meta.url));
const started = Date.now();
const result = spawnSync(
  process.execPath,
  [
    '--test',
    `--test-concurrency=${concurrency}`,
    `--test-timeout=${fileTimeoutMs}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${reporter}`,
    `--test-reporter-destination=${outcomesFile}`,
    ...ordered,
  ],
  { stdio: 'inherit' },
);
const seconds = (Date.now() - started) / 1000;
let lines = [];
try {
  lines = readFileSync(outcomesFile, 'utf8').split('\n').filter(Boolean);
} catch {
  // No file: the runner never started its reporters; the exit code below says so.
}
rmSync(scratch, { recursive: true, force: true });
const summary = summarize(
  files,
  lines.map((line) => JSON.parse(line)),
  seconds,
);
const code = result.status ?? 1;
process.stdout.write(formatSummary(summary, (file) => relative(process.cwd(), file) || file));
if (code !== 0 && summary.failed.length + summary.cancelled.length + summary.timedOut.length === 0) {
  process.stdout.write(
    `run-tests: the test runner exited with ${code} (${result.signal ?? 'no signal'}) outside any test\n`,
  );
}
process.exit(code === 0 && summary.passed !== files.length ? 1 : code);
