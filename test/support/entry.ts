// Starts the real entry point (dist/server/start.bundle.mjs, what npm start
// and the image run) on a free loopback port,
// as `npm start` would, and waits for its "Server listening at" log line.
import { fileURLToPath } from 'node:url';
import { startProcess, type StartedProcess } from '../../lib/process.js';

export const ENTRY = fileURLToPath(new URL('../../server/start.bundle.mjs', import.meta.url));

export interface StartedEntry extends StartedProcess {
  /** The base URL it listens at. */
  url: string;
}

export async function startEntry(env: Record<string, string>, startTimeoutMs = 20_000): Promise<StartedEntry> {
  const started = await startProcess({
    file: process.execPath,
    args: [ENTRY],
    env: { PORT: '0', HOST: '127.0.0.1', ...env },
    stderr: 'inherit',
    // The line is pino JSON: the URL ends at the closing quote.
    readyLine: /Server listening at (http:\/\/[^\s"]+)/,
    timeoutMs: startTimeoutMs,
    name: 'the server',
  });
  if (started.url === undefined) throw new Error('the server logged no URL in its "Server listening at" line');
  return { ...started, url: started.url };
}
