// Starting, probing, measuring and stopping the servers under test, each in
// its own process.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { freePort } from '../lib/process.js';
import { fileURLToPath } from 'node:url';
import { parseCpuSeconds, parseVmRss } from './stats.js';

/** The project's root, from both the source tree and dist/. */
export const PROJECT_ROOT = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../' : '../', import.meta.url));

export const HOST = '127.0.0.1';

export interface ServerKind {
  /** A short name for tables and JSON. */
  name: string;
  /** The command, relative to the project root; the port is filled in. */
  command: (port: number) => { file: string; args: string[] };
  env: Record<string, string>;
}

export function referenceServer(name: string, token: string, env: Record<string, string> = {}): ServerKind {
  return {
    name,
    // What `npm start` runs, without npm's own start-up in front of it.
    command: () => ({ file: process.execPath, args: ['dist/server/start.js'] }),
    env: { HOST, PLANTSTORE_TOKENS: token, ...env },
  };
}

export function floorServer(token: string): ServerKind {
  return {
    name: 'floor',
    command: () => ({ file: process.execPath, args: ['dist/bench/floor-start.js'] }),
    env: { HOST, PLANTSTORE_TOKENS: token },
  };
}

export function prismServer(): ServerKind {
  return {
    name: 'prism',
    // The package's own launcher (a `#!/usr/bin/env node` script): the
    // process we spawn is the mock server itself, so its RSS is the mock's.
    command: (port) => ({ file: 'node_modules/.bin/prism', args: ['mock', 'spec/openapi.yaml', '-p', String(port), '-h', HOST] }),
    env: {},
  };
}

export interface RunningServer {
  kind: ServerKind;
  port: number;
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn to the first request answered 200. */
  startupMs: number;
  /** How the process ended ("exited with 1"), undefined while it runs. */
  exit: () => string | undefined;
  /** The start of its stderr (the first 16 KiB). */
  stderr: () => string;
}

export interface StartOptions {
  token: string;
  /** Gives up when no request was accepted within this many milliseconds. */
  timeoutMs?: number;
  /** Extra environment for this start only. */
  env?: Record<string, string>;
}

// Probe ids are negative, the load's ids positive: no probe collides with a load request.
let nextProbeId = -1;

/**
 * Spawns the server on a free port and waits until it answers a valid
 * create with 200: start-up is measured from spawn to that first accepted
 * request. Its stdout (the request log) goes to /dev/null, so a full pipe
 * can never slow it down; stderr is kept for the error message.
 */
export async function startServer(kind: ServerKind, options: StartOptions): Promise<RunningServer> {
  const port = await freePort();
  const { file, args } = kind.command(port);
  const devNull = openSync('/dev/null', 'w');
  const started = process.hrtime.bigint();
  const child = spawn(file, args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...kind.env, ...options.env, PORT: String(port) },
    stdio: ['ignore', devNull, 'pipe'],
  });
  closeSync(devNull);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    if (stderr.length < 16_384) stderr += text;
  });
  let exited: string | undefined;
  child.on('exit', (code, signal) => (exited = `exited with ${signal ?? code}`));

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (let attempt = 0; ; attempt++) {
    if (exited !== undefined) throw new Error(`${kind.name} ${exited} before accepting a request: ${stderr.trim()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${kind.name} accepted no request within ${options.timeoutMs ?? 60_000} ms: ${stderr.trim()}`);
    }
    const status = await createPlant(port, options.token, nextProbeId--).catch(() => undefined);
    if (status === 200) break;
    // Connection refused (not listening yet): try again shortly. Any other
    // answer means the server is up but refused a valid create.
    if (status !== undefined) {
      child.kill('SIGKILL');
      throw new Error(`${kind.name} answered a valid create with ${status}`);
    }
    await sleep(attempt < 200 ? 5 : 50);
  }
  const startupMs = Number(process.hrtime.bigint() - started) / 1e6;
  return { kind, port, url: `http://${HOST}:${port}`, child, startupMs, exit: () => exited, stderr: () => stderr };
}

/** POSTs one valid NewPlant on a fresh connection and resolves with the status. */
export function createPlant(port: number, token: string, id: number): Promise<number> {
  const body = JSON.stringify({ id, name: 'Probe', tag: 'bench' });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: HOST,
        port,
        method: 'POST',
        path: '/plants',
        agent: false,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: 5_000,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('probe timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** The resident set size of a process in bytes (VmRSS of /proc/<pid>/status); undefined where there is no /proc. */
export function residentBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return parseVmRss(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a process has used so far; undefined where there is no /proc. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    return parseCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** SIGTERM, then SIGKILL if the process has not exited within `graceMs`. */
export async function stopServer(server: RunningServer, graceMs = 5_000): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
