#!/usr/bin/env node
// npm run test:profile [-- FOLDER_OR_FILE …]: where the suite's time goes.
// Runs each compiled test file alone, one after the other (under dist/test/
// by default, or the given folders and files), and prints a table slowest
// first: the CPU time of the file's whole process tree (user and system, the
// children it waited for included, measured by GNU time's wait4) and the
// wall time. On a shared machine the wall time is noisy and the CPU time is
// what to compare; the load average is printed with the table for that
// reason. PLANTSTORE_TEST_MATRIX=full profiles the full matrices.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

const TIME = '/usr/bin/time';
if (!existsSync(TIME)) {
  console.error('test:profile: needs GNU time at /usr/bin/time (Debian: apt-get install time)');
  process.exit(2);
}
const roots = process.argv.slice(2);
if (roots.length === 0) roots.push('test');
const files = [];
function walk(path) {
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) walk(join(path, entry));
  else if (path.endsWith('.test.js')) files.push(path);
}
for (const root of roots) walk(isAbsolute(root) || root.startsWith('dist') ? root : join('dist', root));

const scratch = mkdtempSync(join(tmpdir(), 'plantstore-profile-'));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const loadBefore = load();
const rows = [];
for (const file of files) {
  const out = join(scratch, 'time');
  const run = spawnSync(
    TIME,
    ['-f', '%U %S %e', '-o', out, process.execPath, '--test', '--test-reporter=dot', '--test-timeout=600000', file],
    { stdio: ['ignore', 'ignore', 'inherit'] },
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
process.exit(rows.every((row) => row.ok) ? 0 : 1);
