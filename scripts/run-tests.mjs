#!/usr/bin/env node
// Runs node's test runner on the compiled test files under the given folders.
// Node 20's `node --test` takes file or folder paths but not globs, and its
// folder discovery differs from Node 22's, so we list the files ourselves and
// pass them explicitly: the same command works on every supported Node.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
for (const root of roots) walk(join('dist', root));
if (files.length === 0) {
  console.error(`run-tests: no *.test.js files under ${roots.map((r) => join('dist', r)).join(', ')}`);
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
