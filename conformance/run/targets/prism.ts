// Starts a Prism mock (@stoplight/prism-cli, pinned at 5.14.2: the last
// release that runs on Node 20) from the OpenAPI document, on a free loopback
// port, and always stops it: Prism runs in its own process group, which
// stop() ends and which is killed when this process exits, whatever the
// reason.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort, LOOPBACK, startProcess } from '../../../lib/process.js';

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

/** Prism is an optional dependency of the package: `npm i --omit=optional` (or a failed optional install) leaves it out. */
export const PRISM_MISSING =
  '--prism needs @stoplight/prism-cli 5.14.2, an optional dependency that is not installed here. ' +
  'Install it beside the harness (npm i @stoplight/prism-cli@5.14.2), or install the harness without --omit=optional.';

export function prismEntry(require: NodeJS.Require = createRequire(import.meta.url)): string {
  // The package's bin, resolved from its package.json so no shell or npx is involved.
  let packageJson: string;
  try {
    packageJson = require.resolve('@stoplight/prism-cli/package.json');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') throw new Error(PRISM_MISSING);
    throw err;
  }
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
