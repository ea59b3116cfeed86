#!/usr/bin/env node
// npm run test:profile [-- FOLDER_OR_FILE …]: where the suite's time goes.
// Runs each compiled test file alone, one after the other (under dist/test/
// by default, or the given folders and files), and prints a table slowest
// first: the CPU time of the file's whole process tree (user and system, the
// children it waited for included, measured by GNU time's wait4) and the
// wall time. On a shared machine the wall time is noisy and the CPU time is
// what to compare; the load average is printed with the table for that
// reason. PLANTSTORE_TEST_MATRIX=full profiles the full matrices.
//
// --write-costs: also records each file's CPU and wall time in
// scripts/test-costs.json (merged with what it holds, and files that no
// longer exist dropped), which scripts/run-tests.mjs reads to start the
// costliest files first (scripts/test-order.mjs). Profile on a machine as
// quiet as you can find; only the order of the costs matters to the runner.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { COSTS_FILE, costKey, readCosts } from './test-order.mjs';
import { listTestFiles } from './test-files.mjs';

const TIME = '/usr/bin/time';
if (!existsSync(TIME)) {
  console.error('test:profile: needs GNU time at /usr/bin/time (Debian: apt-get install time)');
  process.exit(2);
}
const writeCosts = process.argv.includes('--write-costs');
const roots = process.argv.slice(2).filter((arg) => arg !== '--write-costs');
if (roots.length === 0) roots.push('test');
const files = listTestFiles(roots);

const scratch = mkdtempSync(join(tmpdir(), 'plantstore-profile-'));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const loadBefore = load();
const rows = [];
for (const file of files) {
  const out = join(scratch, 'time');
  // Each file with an empty lint cache of its own (scripts/run-tests.mjs shares one through a run).
  const cacheDir = join(scratch, 'cache');
  rmSync(cacheDir, { recursive: true, force: true });
  const run = spawnSync(
    TIME,
    ['-f', '%U %S %e', '-o', out, process.execPath, '--test', '--test-reporter=dot', '--test-timeout=600000', file],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, PLANTSTORE_CACHE_DIR: cacheDir } },
  );
  const [user, sys, wall] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  rows.push({ file, cpu: user + sys, wall, ok: run.status === 0 });
  process.stderr.write(`${(user + sys).toFixed(1).padStart(7)} s CPU ${wall.toFixed(1).padStart(7)} s wall  ${file}\n`);
}
rmSync(scratch, { recursive: true, force: true });
rows.sort((a, b) => b.cpu - a.cpu);
const total = (key) => rows.reduce((sum, row) => sum + row[key], 0);
console.log(`\n   CPU s   wall s  file  (load average before ${loadBefore}, after ${load()})`);
for (const row of rows) {
  console.log(
    `${row.cpu.toFixed(1).padStart(8)} ${row.wall.toFixed(1).padStart(8)}  ${row.file}${row.ok ? '' : '  FAILED'}`,
  );
}
console.log(
  `${total('cpu').toFixed(1).padStart(8)} ${total('wall').toFixed(1).padStart(8)}  total, ${rows.length} files`,
);
if (writeCosts) {
  // Keyed by the path under the compiled test folder (dist/test/, or another build's, e.g. a copy of main's
  // build kept to profile it beside a change).
  const costs = readCosts();
  for (const row of rows) {
    const under = /(?:^|[/\\])dist[^/\\]*[/\\]test[/\\]/.exec(resolve(row.file));
    if (under)
      costs.set(costKey(resolve(row.file), resolve(row.file).slice(0, under.index + under[0].length)), {
        cpu: round(row.cpu),
        wall: round(row.wall),
      });
  }
  for (const key of costs.keys()) if (!existsSync(join('dist', 'test', key))) costs.delete(key);
  const files = Object.fromEntries([...costs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeFileSync(COSTS_FILE, `${JSON.stringify({ files }, null, 1)}\n`);
  console.log(`test:profile: ${rows.length} costs written to scripts/test-costs.json`);
}
process.exit(rows.every((row) => row.ok) ? 0 : 1);

function round(seconds) {
  return Math.round(seconds * 10) / 10;
}
