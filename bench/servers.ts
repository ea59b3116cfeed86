// Starting, probing, measuring and stopping the servers under test, each in
// its own process.
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { freePort, GiveUp, startProcess, type StartedProcess } from '../lib/process.js';

/** The project's root, from both the source tree and dist/. */
export const PROJECT_ROOT = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '../../' : '../', import.meta.url),
);

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
    command: () => ({ file: process.execPath, args: ['dist/server/start.bundle.mjs'] }),
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

export function floorPostgresServer(token: string, databaseUrl: string): ServerKind {
  return {
    name: 'floor-postgres',
    command: () => ({ file: process.execPath, args: ['dist/bench/floor-postgres.js'] }),
    env: { HOST, PLANTSTORE_TOKENS: token, PLANTSTORE_DATABASE_URL: databaseUrl },
  };
}

export function fastifyBareServer(token: string): ServerKind {
  return {
    name: 'fastify-bare',
    command: () => ({ file: process.execPath, args: ['dist/bench/fastify-bare.js'] }),
    env: { HOST, PLANTSTORE_TOKENS: token },
  };
}

export function prismServer(): ServerKind {
  return {
    name: 'prism',
    // The package's own launcher (a `#!/usr/bin/env node` script): the
    // process we spawn is the mock server itself, so its RSS is the mock's.
    command: (port) => ({
      file: 'node_modules/.bin/prism',
      args: ['mock', 'spec/openapi.yaml', '-p', String(port), '-h', HOST],
    }),
    env: {},
  };
}

export interface RunningServer {
  kind: ServerKind;
  port: number;
  url: string;
  process: StartedProcess;
  /** Milliseconds from spawn to the first request answered 200. */
  startupMs: number;
  /** How the process ended ("exited with 1"), undefined while it runs. */
  exit: () => string | undefined;
  /** The end of its stderr. */
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
  const started = await startProcess({
    name: kind.name,
    file,
    args,
    cwd: PROJECT_ROOT,
    env: { ...kind.env, ...options.env, PORT: String(port) },
    stdout: 'ignore',
    timeoutMs: options.timeoutMs ?? 60_000,
    // Connection refused (not listening yet) is "not yet"; any other answer
    // means the server is up but refused a valid create: stop waiting.
    readyProbe: async () => {
      const status = await createPlant(port, options.token, nextProbeId--).catch(() => undefined);
      if (status !== undefined && status !== 200)
        throw new GiveUp(`${kind.name} answered a valid create with ${status}`);
      return status === 200;
    },
  });
  const exit = () => {
    const ended = started.exit();
    return ended && `exited with ${ended.signal ?? ended.code}`;
  };
  return {
    kind,
    port,
    url: `http://${HOST}:${port}`,
    process: started,
    startupMs: started.readyMs,
    exit,
    stderr: started.stderr,
  };
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
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
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

/** SIGTERM, then SIGKILL if the process has not exited within `graceMs`. */
export async function stopServer(server: RunningServer, graceMs = 5_000): Promise<void> {
  await server.process.stop(graceMs);
}
