#!/usr/bin/env node
// npm run lint:spec [-- FILE… [spectral options]]: lints the project's
// OpenAPI document, or the files named (and only those), with Spectral's CLI
// and the project's ruleset (.spectral.yaml); fails on errors only.
// (A script rather than `spectral lint … spec/openapi.yaml` in package.json:
// npm appends the arguments, and FILE would be linted beside the document.)
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const cliPackage = require.resolve('@stoplight/spectral-cli/package.json');
const bin = join(dirname(cliPackage), require(cliPackage).bin.spectral);

const args = process.argv.slice(2);
// Options that take a value: the value is not a file.
const withValue = new Set([
  '-f',
  '--format',
  '-o',
  '--output',
  '-r',
  '--ruleset',
  '-F',
  '--fail-severity',
  '-e',
  '--encoding',
  '--resolver',
  '--stdin-filepath',
]);
const files = args.filter((a, i) => !a.startsWith('-') && !withValue.has(args[i - 1] ?? ''));
const options = [
  ...(args.some((a) => a === '-r' || a.startsWith('--ruleset')) ? [] : ['--ruleset', join(ROOT, '.spectral.yaml')]),
  ...(args.some((a) => a === '-F' || a.startsWith('--fail-severity')) ? [] : ['--fail-severity=error']),
];
const run = spawnSync(
  process.execPath,
  [bin, 'lint', ...options, ...args, ...(files.length === 0 ? [join(ROOT, 'spec', 'openapi.yaml')] : [])],
  { stdio: 'inherit' },
);
process.exit(run.status ?? 1);
