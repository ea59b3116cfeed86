// The conformance harness measurement: wall time of a full run against the
// reference server, and generated cases per second. Runs only when the
// harness is part of the build; otherwise says so (never a made-up number).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from './servers.js';

export const HARNESS_CLI = 'dist/conformance/cli.js';

export type HarnessResult =
  | { available: false; reason: string }
  | {
      available: true;
      command: string;
      exitCode: number | null;
      wallSeconds: number;
      /** Cases the run generated, read from its JSON report; null when the report does not say. */
      cases: number | null;
      casesPerSecond: number | null;
    };

export async function measureHarness(timeoutMs = 300_000): Promise<HarnessResult> {
  if (!existsSync(join(PROJECT_ROOT, HARNESS_CLI))) return { available: false, reason: 'harness: not available on this build' };
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-bench-'));
  const reportFile = join(dir, 'conformance.json');
  const args = [HARNESS_CLI, '--reference', '--json', reportFile];
  try {
    const started = process.hrtime.bigint();
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    let cases: number | null = null;
    try {
      cases = countCases(JSON.parse(readFileSync(reportFile, 'utf8')));
    } catch {
      cases = null; // no report written, or not JSON: the table says n/a
    }
    return {
      available: true,
      command: `node ${args.slice(0, -1).join(' ')} FILE`,
      exitCode,
      wallSeconds,
      cases,
      casesPerSecond: cases === null ? null : cases / wallSeconds,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The number of cases in a conformance report. The report's shape is the
 * harness's to define; this accepts the likely ones (a `cases` count or list,
 * a `summary.total`/`summary.cases`, a `total`, a `results` list) and
 * answers null rather than guess beyond them.
 */
export function countCases(report: unknown): number | null {
  if (typeof report !== 'object' || report === null) return null;
  const r = report as Record<string, unknown>;
  const summary = (typeof r.summary === 'object' && r.summary !== null ? r.summary : {}) as Record<string, unknown>;
  for (const candidate of [r.cases, summary.cases, summary.total, r.total, r.results, r.checks]) {
    if (typeof candidate === 'number' && Number.isInteger(candidate) && candidate >= 0) return candidate;
    if (Array.isArray(candidate)) return candidate.length;
  }
  return null;
}
