// Starts a Prism mock (@stoplight/prism-cli, pinned at 5.14.2: the last
// release that runs on Node 20) from the OpenAPI document, on a free loopback
// port, and always stops it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

export interface RunningPrism {
  url: string;
  /** Stops Prism and the processes it started; safe to call more than once. */
  stop(): Promise<void>;
}

export interface PrismOptions {
  specPath: string;
  /** How long to wait for Prism to answer, in ms. */
  startTimeoutMs?: number;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Kills every Prism still running when this process exits, whatever the reason. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) killGroup(child, 'SIGKILL');
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    // Prism runs in its own process group (detached), so the whole group goes.
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function prismEntry(): string {
  const require = createRequire(import.meta.url);
  // The package's bin, resolved from its package.json so no shell or npx is involved.
  const packageJson = require.resolve('@stoplight/prism-cli/package.json');
  const bin = (require(packageJson) as { bin: Record<string, string> | string }).bin;
  const relative = typeof bin === 'string' ? bin : bin.prism!;
  return join(dirname(packageJson), relative);
}

export async function startPrism(options: PrismOptions): Promise<RunningPrism> {
  const host = '127.0.0.1';
  const port = await freePort(host);
  const url = `http://${host}:${port}`;
  const child = spawn(process.execPath, [prismEntry(), 'mock', options.specPath, '--host', host, '--port', String(port), '--errors', 'false'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  installExitHook();
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => running.delete(child));

  let stopped = false;
  const stop = async () => {
    if (stopped) return exited;
    stopped = true;
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Prism exited before it answered (exit ${child.exitCode ?? child.signalCode}): ${output.trim().split('\n').slice(-3).join(' | ')}`);
    }
    try {
      // Any HTTP answer means Prism is up; GET on the API path answers 405.
      await fetch(`${url}/plants`, { signal: AbortSignal.timeout(1000) });
      return { url, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`Prism did not answer at ${url} within ${options.startTimeoutMs ?? 30_000} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
