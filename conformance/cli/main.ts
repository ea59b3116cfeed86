#!/usr/bin/env node
// plantstore-conformance: diagnoses each target (can a run against it mean
// anything?), runs the catalog against the targets side by side (the
// reference server, a Prism mock, the user's targets), lints the spec,
// reports. Exit 0: no check failed; 1: a check failed (or, with --strict,
// was non-strict) on the reference server or a --target (the Prism column
// informs and never fails the run by itself); 2: the run could not mean
// anything or the harness could not do its job (bad arguments, a spec that
// does not load, a target misconfigured, unreachable or dead, a check
// `error`, a server that does not start).
//
// This module imports only what --help and --version need: the catalog,
// the HTTP client, the document's compiler and Spectral are imported when a
// run needs them (run-command.ts), so the first line a newcomer asks for
// does not wait for them (docs/benchmarks.md, the first line).
import { helpText } from './options.js';
import { harnessVersion } from '../report/version.js';
import type { ConfigPolicy } from './args.js';

const complain = (message: string) => process.stderr.write(`plantstore-conformance: ${message}\n`);

/** Where a run's options come from: the process's environment and working directory, the CLI's configuration file (the GitHub Action narrows all three). */
export interface MainContext {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  policy?: ConfigPolicy;
}

/** `--help` or `--version` alone (after an optional `run`): answered before any other module is imported. Anything else goes through the full parse. */
function quickAction(argv: string[]): 'help' | 'version' | undefined {
  const rest = argv[0] === 'run' ? argv.slice(1) : argv;
  if (rest.length !== 1) return undefined;
  return rest[0] === '--help' || rest[0] === '-h' ? 'help' : rest[0] === '--version' ? 'version' : undefined;
}

export async function main(
  argv: string[],
  { env = process.env, cwd = process.cwd(), policy }: MainContext = {},
): Promise<number> {
  // `compat` has its own options and reports (conformance/compat/, docs/compatibility.md).
  // It runs in a worker thread, ended at its deadline however busy (compat-deadline.ts).
  if (argv[0] === 'compat')
    return (await import('./compat-deadline.js')).compatWithDeadline(argv.slice(1), { cwd, env });
  const quick = quickAction(argv);
  if (quick === 'help') {
    process.stdout.write(helpText());
    return 0;
  }
  if (quick === 'version') {
    process.stdout.write(`plantstore-conformance ${harnessVersion()}\n`);
    return 0;
  }
  const { CLI_CONFIG_POLICY, parseCliArgs } = await import('./args.js');
  let options: import('./args.js').CliOptions;
  try {
    options = parseCliArgs(argv, env, cwd, policy ?? CLI_CONFIG_POLICY);
  } catch (err) {
    complain(`${(err as Error).message}\nTry --help.`);
    return 2;
  }
  if (options.action === 'help') {
    process.stdout.write(helpText());
    return 0;
  }
  if (options.action === 'version') {
    process.stdout.write(`plantstore-conformance ${harnessVersion()}\n`);
    return 0;
  }
  if (options.action === 'list') {
    process.stdout.write((await import('./list.js')).listChecks(options.only));
    return 0;
  }
  return (await import('./run-command.js')).runCommand(options);
}

// Run when executed (also through the npm bin symlink), not when imported.
const invoked = process.argv[1] ? await import('node:fs').then((fs) => fs.realpathSync(process.argv[1]!)) : '';
if (invoked === (await import('node:url')).fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
