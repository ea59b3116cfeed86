// `--reference`: the project's own server as a target, on a free loopback
// port, with a random token (so the target is known to restrict tokens).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Target } from '../checks/types.js';

/** dist/server/start.js, found from this compiled file (dist/conformance/targets/reference.js). */
export const REFERENCE_ENTRY = fileURLToPath(new URL('../../server/start.js', import.meta.url));

export interface ReferenceServer {
  target: Target;
  stop(): Promise<void>;
}

export async function startReference(timeoutMs = 15_000, entry = REFERENCE_ENTRY): Promise<ReferenceServer> {
  if (!existsSync(entry)) throw new Error(`the reference server is not built: ${entry} is missing (run npm run build)`);
  const token = randomBytes(18).toString('base64url');
  const child: ChildProcess = spawn(process.execPath, [entry], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', PLANTSTORE_TOKENS: token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      // A server that ignores SIGTERM is killed, so the harness never hangs.
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    let stderr = '';
    const timer = setTimeout(() => fail(new Error(`the reference server did not report its address within ${timeoutMs} ms`)), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      void stop();
      reject(err);
    };
    child.stderr!.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString('utf8')).slice(-2000);
    });
    child.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString('utf8');
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        try {
          const msg = (JSON.parse(line) as { msg?: unknown }).msg;
          const m = typeof msg === 'string' ? /^Server listening at (http:\/\/\S+)$/.exec(msg) : null;
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
            return;
          }
        } catch {
          // not a pino line
        }
      }
    });
    child.once('exit', (code, signal) => fail(new Error(`the reference server exited (${signal ?? code}) before listening: ${stderr.trim()}`)));
  });
  // Keep reading stdout so a chatty log never blocks the server on a full pipe.
  child.stdout!.resume();
  child.removeAllListeners('exit');
  return { target: { name: 'reference', url, token, restrictsTokens: true }, stop };
}
