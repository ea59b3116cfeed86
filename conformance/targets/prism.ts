// Starts a Prism mock (@stoplight/prism-cli, pinned at 5.14.2: the last
// release that runs on Node 20) from the OpenAPI document, on a free loopback
// port, and always stops it: Prism runs in its own process group, which
// stop() ends and which is killed when this process exits, whatever the
// reason.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort, LOOPBACK, startProcess } from '../../lib/process.js';

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

function prismEntry(): string {
  const require = createRequire(import.meta.url);
  // The package's bin, resolved from its package.json so no shell or npx is involved.
  const packageJson = require.resolve('@stoplight/prism-cli/package.json');
  const bin = (require(packageJson) as { bin: Record<string, string> | string }).bin;
  const relative = typeof bin === 'string' ? bin : bin.prism!;
  return join(dirname(packageJson), relative);
}

/** Any HTTP answer means Prism is up (GET on the API path answers 405). */
async function answers(url: string): Promise<boolean> {
  await fetch(`${url}/plants`, { signal: AbortSignal.timeout(1000) });
  return true;
}

export async function startPrism(options: PrismOptions): Promise<RunningPrism> {
  const port = await freePort(LOOPBACK);
  const url = `http://${LOOPBACK}:${port}`;
  const prism = await startProcess({
    file: process.execPath,
    args: [prismEntry(), 'mock', options.specPath, '--host', LOOPBACK, '--port', String(port), '--errors', 'false'],
    group: true,
    // Prism logs every request; nothing here reads it.
    stdout: 'ignore',
    readyProbe: () => answers(url),
    timeoutMs: options.startTimeoutMs ?? 30_000,
    name: 'Prism',
  });
  return {
    url,
    stop: async () => {
      await prism.stop(2_000);
    },
  };
}
