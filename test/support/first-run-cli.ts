// What the first-run tests (test/conformance/first-run*.test.ts) share: the
// CLI run as a new user runs it, in a process of its own with a clean
// environment, a fake server with the token they all use, and what a run
// that cannot mean anything must look like.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after } from 'node:test';
import { startFake, type FakeServer } from './fake-server.js';
import type { FakeOptions } from './fake-mutations.js';

const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));
/** The token every fake server of the first runs accepts. */
export const TOKEN = 'first-run-token-42';
/** At most this many lines, stdout and stderr together, for a run that cannot mean anything. */
export const MOST_LINES = 15;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr together. */
  output: string;
  lines: number;
}

/** A scratch folder for a test file's runs (reports, certificates, configuration files), removed after its tests. */
export function scratchFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-first-run-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The CLI, run in `dir` unless told otherwise, without PLANTSTORE_TOKEN unless given. */
export function cliIn(dir: string) {
  // Asynchronous on purpose: the fake servers answer from this process's event loop.
  return function cli(args: string[], env: Record<string, string | undefined> = {}, cwd = dir): Promise<CliRun> {
    const environment: Record<string, string | undefined> = {
      ...process.env,
      NO_COLOR: '1',
      PLANTSTORE_TOKEN: undefined,
      ...env,
    };
    for (const [k, v] of Object.entries(environment)) if (v === undefined) delete environment[k];
    return new Promise((resolve) => {
      execFile(process.execPath, [CLI, ...args], { cwd, env: environment, timeout: 120_000 }, (err, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        resolve({
          code: err ? (typeof err.code === 'number' ? err.code : -1) : 0,
          stdout,
          stderr,
          output,
          lines: output.split('\n').filter((l) => l !== '').length,
        });
      });
    });
  };
}

export async function withFake<T>(opts: FakeOptions, body: (fake: FakeServer) => Promise<T>): Promise<T> {
  const fake = await startFake({ tokens: [TOKEN], ...opts });
  try {
    return await body(fake);
  } finally {
    await fake.close();
  }
}

/** A run that cannot mean anything: exit 2, its own line, nothing per check, few lines. */
export function assertNotChecked(run: CliRun, line: RegExp): void {
  assert.equal(run.code, 2, run.output);
  assert.match(run.output, line);
  assert.ok(run.lines <= MOST_LINES, `${run.lines} lines:\n${run.output}`);
  assert.doesNotMatch(run.output, /PS-[A-Z]+-\d{3}/, 'no per-check line');
  assert.match(run.stdout, /^INCOMPLETE: the target not checked \(see above\), seed \d+$/m);
}
