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
// change it; it is long enough for the slowest file on a loaded 2-core
// machine (about one minute).
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = process.argv.slice(2);
if (roots.length === 0) roots.push('test');
const files = [];
function walk(dir) {
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) walk(full);
    else if (entry.endsWith('.test.js')) files.push(full);
  }
}
const folders = roots.map((root) => (isAbsolute(root) ? root : join('dist', root)));
for (const folder of folders) walk(folder);
if (files.length === 0) {
  console.error(`run-tests: no *.test.js files under ${folders.join(', ')}`);
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const fileTimeoutMs = process.env.TEST_FILE_TIMEOUT_MS ?? '600000';
const result = spawnSync(
  process.execPath,
  ['--test', `--test-concurrency=${concurrency}`, `--test-timeout=${fileTimeoutMs}`, ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
