#!/usr/bin/env node
// npm run lint: the four checks CI runs before the tests, each named, all
// run even when one fails (a reader fixes everything in one pass):
//   format   prettier --check .      every source formatted (.prettierrc.json)
//   types    tsc --noEmit            the type check (npm run build compiles without one)
//   code     eslint .                typescript-eslint, type-checked (eslint.config.mjs)
//   spec     npm run lint:spec       Spectral on the OpenAPI document (.spectral.yaml)
// Exit 0 when all four pass, 1 otherwise. `npx prettier --write .` and
// `npx eslint --fix .` repair most of what the first two find.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The devDependencies' own entry points (their packages export no bin path).
const bin = (...path) => join(root, 'node_modules', ...path);
const steps = [
  ['format', [bin('prettier', 'bin', 'prettier.cjs'), '--check', '--log-level', 'warn', '.']],
  ['types', [bin('typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit']],
  ['code', [bin('eslint', 'bin', 'eslint.js'), '--max-warnings', '0', '.']],
  ['spec', [fileURLToPath(new URL('lint-spec.mjs', import.meta.url))]],
];
const failed = [];
for (const [name, args] of steps) {
  process.stdout.write(`== lint: ${name}\n`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failed.push(name);
}
if (failed.length > 0) {
  process.stderr.write(
    `lint: ${failed.join(', ')} failed${failed.includes('format') ? ' (npx prettier --write . formats every file)' : ''}\n`,
  );
  process.exit(1);
}
process.stdout.write('lint: format, types, code and spec pass\n');
