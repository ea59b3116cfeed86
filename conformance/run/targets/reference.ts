// `--reference`: the project's own server as a target, on a free loopback
// port, with a random token (so the target is known to restrict tokens),
// serving the run's document (PLANTSTORE_SPEC), so that `--spec FILE` checks
// the reference server against that document without a rebuild.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LOOPBACK, startProcess } from '../../../lib/process.js';
import type { Target } from '../../model/target.js';

/** dist/server/start.bundle.mjs (what npm start runs), found from this compiled file (dist/conformance/run/targets/reference.js). */
export const REFERENCE_ENTRY = fileURLToPath(new URL('../../../server/start.bundle.mjs', import.meta.url));

/** pino's line once Fastify listens: {"msg":"Server listening at http://127.0.0.1:PORT", …}; the URL is captured. */
const LISTENING = /"msg":"Server listening at (http:\/\/[^"\s]+)"/;

export interface ReferenceServer {
  target: Target;
  /** SIGTERM, then SIGKILL after 5 s: a server that ignores SIGTERM is killed, so the harness never hangs. Safe to call twice. */
  stop(): Promise<void>;
}

export interface ReferenceOptions {
  /** The OpenAPI document the server serves (default: the one it is built with). */
  specPath?: string;
  timeoutMs?: number;
  entry?: string;
}

export async function startReference({
  specPath,
  timeoutMs = 15_000,
  entry = REFERENCE_ENTRY,
}: ReferenceOptions = {}): Promise<ReferenceServer> {
  if (!existsSync(entry)) throw new Error(`the reference server is not built: ${entry} is missing (run npm run build)`);
  const token = randomBytes(18).toString('base64url');
  const server = await startProcess({
    file: process.execPath,
    args: [entry],
    // PORT 0: the OS picks a free port, and the server says which in its log line.
    env: { PORT: '0', HOST: LOOPBACK, LOG_LEVEL: 'info', PLANTSTORE_TOKENS: token, PLANTSTORE_SPEC: specPath },
    stdout: 'lines',
    readyLine: LISTENING,
    timeoutMs,
    name: 'the reference server',
  });
  return {
    target: {
      name: 'reference',
      url: server.url!,
      token,
      role: 'reference',
      informs: false,
      restrictsTokens: true,
      tokenFrom: 'the token the harness started it with',
    },
    stop: async () => {
      await server.stop(5_000);
    },
  };
}
