// Starts the real entry point (dist/server/start.js) on a free loopback port,
// as `npm start` would, and waits for its "Server listening at" log line.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const ENTRY = fileURLToPath(new URL('../../server/start.js', import.meta.url));

export interface StartedEntry {
  child: ChildProcessByStdio<null, Readable, null>;
  /** The base URL it listens at. */
  url: string;
  /** Every stdout line so far (pino JSON); it keeps growing while the server runs. */
  lines: string[];
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

export async function startEntry(env: Record<string, string>, startTimeoutMs = 20_000): Promise<StartedEntry> {
  const child = spawn(process.execPath, [ENTRY], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within ${startTimeoutMs} ms`)), startTimeoutMs);
    let buffered = '';
    // The listener stays for the life of the process, so stdout never backs up.
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before listening`));
    });
  });
  return { child, url, lines, exited };
}
