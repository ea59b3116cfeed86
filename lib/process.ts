// Child processes for the harness, the benchmarks, the scripts and the tests:
// a free loopback port, spawn-and-wait-until-ready, stop (SIGTERM, then
// SIGKILL after a grace period), and what /proc says about a process.
// One home for what was written five times; it depends on nothing of ours.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export const LOOPBACK = '127.0.0.1';

/** A port that was free a moment ago on `host` (the OS picks it). */
export function freePort(host = LOOPBACK): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Thrown by a readyProbe to stop waiting: the child is up but will never be ready. */
export class GiveUp extends Error {}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartOptions {
  file: string;
  args?: string[];
  /** Added to this process's environment. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /**
   * Own process group: `stop()` then signals the whole group (a launcher and
   * the processes it starts), and the group is killed when this process exits.
   */
  group?: boolean;
  /**
   * What the child's standard output is: 'lines' (kept, one string per line,
   * and read for `readyLine`), 'inherit', or 'ignore' (sent to /dev/null so a
   * full pipe can never slow the child down).
   */
  stdout?: 'lines' | 'inherit' | 'ignore';
  /** 'keep' (the last 16 KiB, for error messages) or 'inherit'. */
  stderr?: 'keep' | 'inherit';
  /**
   * Ready when a stdout line matches; the first capture group, if any, is the
   * `url` of the started child (e.g. pino's "Server listening at URL").
   * Needs stdout: 'lines'.
   */
  readyLine?: RegExp;
  /**
   * Ready when this resolves true; polled until it does. A rejection counts
   * as not yet (connection refused), except a `GiveUp`, which ends the wait
   * with its message (the child answered, but wrongly).
   */
  readyProbe?: () => Promise<boolean>;
  /** Milliseconds to wait for readiness (default 20 000). */
  timeoutMs?: number;
  /** The name used in error messages (default: the file). */
  name?: string;
}

export interface StartedProcess {
  child: ChildProcess;
  pid: number;
  /** The capture of `readyLine`, when it had one. */
  url: string | undefined;
  /** Milliseconds from spawn to ready. */
  readyMs: number;
  /** Every stdout line so far (stdout: 'lines'); it keeps growing while the child runs. */
  lines: string[];
  /** The last 16 KiB of stderr (stderr: 'keep'). */
  stderr: () => string;
  /** Resolves once the child has ended. */
  exited: Promise<Exit>;
  /** The exit, once the child has ended; undefined while it runs. */
  exit(): Exit | undefined;
  /** SIGTERM, then SIGKILL after `graceMs` (default 5 000); resolves once it has ended. Safe to call twice. */
  stop(graceMs?: number): Promise<Exit>;
}

const groups = new Set<ChildProcess>();
let exitHookInstalled = false;

function signal(child: ChildProcess, sig: NodeJS.Signals, group: boolean): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (group) process.kill(-child.pid, sig);
    else child.kill(sig);
  } catch {
    child.kill(sig);
  }
}

/** Process groups we started die with us, whatever the reason we exit. */
function killGroupsOnExit(child: ChildProcess): void {
  groups.add(child);
  child.once('exit', () => groups.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const c of groups) signal(c, 'SIGKILL', true);
  });
}

function describeExit(exit: Exit): string {
  return exit.signal ? `killed by ${exit.signal}` : `exit ${exit.code}`;
}

/** Spawns a child and resolves once it is ready (readyLine, readyProbe, or at once). */
export async function startProcess(options: StartOptions): Promise<StartedProcess> {
  const name = options.name ?? options.file;
  const stdoutMode = options.stdout ?? 'lines';
  const stdio: StdioOptions = [
    'ignore',
    stdoutMode === 'lines' ? 'pipe' : stdoutMode,
    options.stderr === 'inherit' ? 'inherit' : 'pipe',
  ];
  const started = process.hrtime.bigint();
  const child = spawn(options.file, options.args ?? [], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio,
    detached: options.group === true,
  });
  const group = options.group === true;
  if (group) killGroupsOnExit(child);
  let ended: Exit | undefined;
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, sig) => {
      ended = { code, signal: sig };
      resolve(ended);
    }),
  );
  // A spawn error (no such file) also ends the child: report it as an exit.
  child.once('error', (error) => {
    kept = `${kept}${error.message}\n`.slice(-16_384);
    ended ??= { code: null, signal: null };
  });

  let kept = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    kept = (kept + text).slice(-16_384);
  });

  const lines: string[] = [];
  let onLine: ((line: string) => void) | undefined;
  if (child.stdout) {
    let buffered = '';
    child.stdout.setEncoding('utf8');
    // The listener stays for the life of the child, so its stdout never backs up.
    child.stdout.on('data', (text: string) => {
      buffered += text;
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        onLine?.(line);
      }
    });
  }

  let stopping: Promise<Exit> | undefined;
  const stop = (graceMs = 5_000): Promise<Exit> => {
    stopping ??= (async () => {
      if (ended) return ended;
      signal(child, 'SIGTERM', group);
      const timer = setTimeout(() => signal(child, 'SIGKILL', group), graceMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    })();
    return stopping;
  };

  const timeoutMs = options.timeoutMs ?? 20_000;
  let url: string | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${name} was not ready within ${timeoutMs} ms${kept ? `: ${kept.trim()}` : ''}`)),
        timeoutMs,
      );
      const done = (error?: Error) => {
        clearTimeout(timer);
        onLine = undefined;
        if (error) reject(error);
        else resolve();
      };
      void exited.then((exit) =>
        done(new Error(`${name} ended (${describeExit(exit)}) before it was ready${kept ? `: ${kept.trim()}` : ''}`)),
      );
      if (options.readyLine) {
        const pattern = options.readyLine;
        const check = (line: string) => {
          const match = pattern.exec(line);
          if (!match) return;
          url = match[1];
          done();
        };
        lines.forEach(check);
        onLine = check;
      } else if (options.readyProbe) {
        const probe = options.readyProbe;
        void (async () => {
          for (let attempt = 0; !ended; attempt++) {
            const ready = await probe().catch((error: unknown) => (error instanceof GiveUp ? error : false));
            if (ready instanceof GiveUp) return done(ready);
            if (ready) return done();
            await sleep(attempt < 200 ? 5 : 50);
          }
        })();
      } else {
        done();
      }
    });
  } catch (error) {
    await stop(1_000);
    throw error;
  }
  return {
    child,
    pid: child.pid!,
    url,
    readyMs: Number(process.hrtime.bigint() - started) / 1e6,
    lines,
    stderr: () => kept,
    exited,
    exit: () => ended,
    stop,
  };
}

/** Runs a command to its end; killed (SIGKILL) past `timeoutMs`. */
export async function runProcess(
  options: Omit<StartOptions, 'readyLine' | 'readyProbe'> & { timeoutMs: number },
): Promise<Exit & { stderr: string; lines: string[] }> {
  const started = await startProcess({ ...options, timeoutMs: undefined });
  const timer = setTimeout(() => signal(started.child, 'SIGKILL', options.group === true), options.timeoutMs);
  const exit = await started.exited;
  clearTimeout(timer);
  return { ...exit, stderr: started.stderr(), lines: started.lines };
}

/** The resident set size of a process in bytes (VmRSS in /proc/<pid>/status); undefined where there is no /proc. */
export function residentBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return parseVmRss(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used so far (/proc/<pid>/stat); undefined where there is no /proc. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return parseCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** VmRSS of the text of /proc/<pid>/status, in bytes. */
export function parseVmRss(status: string): number | undefined {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}

/**
 * User plus system CPU seconds of a process from the text of /proc/<pid>/stat
 * (fields 14 and 15, utime and stime, in clock ticks of USER_HZ, which is 100
 * on Linux). The command name (field 2) may hold spaces and parentheses, so
 * fields are counted from its closing parenthesis.
 */
export function parseCpuSeconds(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / 100 : undefined;
}
