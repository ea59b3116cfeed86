// Small helpers for the container tests: the engine's API over its unix
// socket, the README's commands, HTTP calls to a container, and bounded waits.
import { request } from 'node:http';
import { createServer } from 'node:net';
import { runProcess } from '../lib/process.js';

/** The engine's unix socket, from DOCKER_HOST as the docker CLI reads it. */
function socketPath(): string {
  const host = process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock';
  if (!host.startsWith('unix://')) throw new Error(`container tests need a unix socket in DOCKER_HOST, got ${host}`);
  return host.slice('unix://'.length);
}

/** One request to the engine's API; resolves with the status and the parsed JSON body. */
export function engine(method: string, path: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: socketPath(), method, path, timeout: 30_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`engine ${method} ${path}: no answer within 30 s`)));
    req.on('error', reject);
    req.end();
  });
}

export async function isPodman(): Promise<boolean> {
  const { body } = await engine('GET', '/version');
  return (
    Array.isArray(body?.Components) && body.Components.some((c: { Name?: string }) => /podman/i.test(c.Name ?? ''))
  );
}

/**
 * Waits until the engine reports the container healthy, by the image's own
 * HEALTHCHECK. Docker schedules the check itself; podman does so through
 * systemd timers, which a machine without systemd (like a CI sandbox) does
 * not have, so on podman the same check is asked for through its API
 * (`podman healthcheck run`). Bounded: gives up after `timeoutMs`.
 */
export async function waitUntilHealthy(id: string, timeoutMs = 60_000): Promise<string[]> {
  const podman = await isPodman();
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { body } = await engine('GET', `/containers/${id}/json`);
    const status: string | undefined = body?.State?.Health?.Status;
    if (status === undefined) throw new Error('the container has no health check: the image declares no HEALTHCHECK');
    if (seen.at(-1) !== status) seen.push(status);
    if (status === 'healthy') return seen;
    if (status === 'unhealthy') throw new Error(`the container is unhealthy: ${JSON.stringify(body.State.Health.Log)}`);
    if (podman) {
      const run = await engine('GET', `/v4.0.0/libpod/containers/${id}/healthcheck`);
      if (run.status !== 200) throw new Error(`podman healthcheck run: ${run.status} ${JSON.stringify(run.body)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`the container was not healthy within ${timeoutMs} ms (states seen: ${seen.join(', ')})`);
}

export interface CommandResult {
  code: number | null;
  output: string;
}

/** Runs a shell command line as written (README commands), bounded by `timeoutMs`: past it the shell and what it started are killed. */
export async function run(line: string, cwd: string, timeoutMs: number): Promise<CommandResult> {
  const result = await runProcess({ file: 'sh', args: ['-c', line], cwd, group: true, timeoutMs, name: line });
  const output = [...result.lines, result.stderr].join('\n');
  if (result.signal === 'SIGKILL')
    throw new Error(`${line}: did not finish within ${timeoutMs} ms\n${output.slice(-4000)}`);
  return { code: result.code, output };
}

/** True when nothing listens on 127.0.0.1:`port`. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A request to a container, bounded; the status, headers and parsed JSON body. */
export async function call(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}
