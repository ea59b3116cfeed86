// `--reference`: the project's own server as a target, on a free loopback
// port, with a random token (so the target is known to restrict tokens) and
// a random credential for each API key and HTTP Basic scheme the document
// declares (PLANTSTORE_CREDENTIALS: a scheme configured with none accepts
// any well-formed credential, and the target would restrict the token only),
// serving the run's document (PLANTSTORE_SPEC), so that `--spec FILE` checks
// the reference server against that document without a rebuild.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LOOPBACK, startProcess } from '../../../lib/process.js';
import type { GivenCredential, Target } from '../../model/target.js';
import { credentialKind, type SecuritySchemeModel } from '../../model/security.js';

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
  /** The security schemes the document declares: each API key and HTTP Basic scheme gets a credential of its own. */
  schemes?: readonly SecuritySchemeModel[];
  timeoutMs?: number;
  entry?: string;
}

const STARTED_WITH = 'the credential the harness started it with';

/** A random credential for each API key and HTTP Basic scheme (the bearer schemes take the token). */
function referenceCredentials(schemes: readonly SecuritySchemeModel[]): GivenCredential[] {
  const out: GivenCredential[] = [];
  for (const s of schemes) {
    // PLANTSTORE_CREDENTIALS is `scheme=value` pairs separated by commas: a scheme so named is left unconfigured.
    if (/[,=\\]/.test(s.name)) continue;
    const kind = credentialKind(s);
    // base64url: valid in a header field, a cookie value and a query (no `,` nor `\\` to escape in the list).
    if (kind === 'apiKey')
      out.push({ scheme: s.name, value: randomBytes(18).toString('base64url'), from: STARTED_WITH });
    if (kind === 'basic')
      out.push({ scheme: s.name, value: `conformance:${randomBytes(12).toString('base64url')}`, from: STARTED_WITH });
  }
  return out;
}

export async function startReference({
  specPath,
  schemes = [],
  timeoutMs = 15_000,
  entry = REFERENCE_ENTRY,
}: ReferenceOptions = {}): Promise<ReferenceServer> {
  if (!existsSync(entry)) throw new Error(`the reference server is not built: ${entry} is missing (run npm run build)`);
  const token = randomBytes(18).toString('base64url');
  const credentials = referenceCredentials(schemes);
  const credentialList = credentials.map((c) => `${c.scheme}=${c.value}`).join(',');
  const server = await startProcess({
    file: process.execPath,
    args: [entry],
    // PORT 0: the OS picks a free port, and the server says which in its log line.
    env: {
      PORT: '0',
      HOST: LOOPBACK,
      LOG_LEVEL: 'info',
      PLANTSTORE_TOKENS: token,
      PLANTSTORE_SPEC: specPath,
      // Never the harness's own environment's: the reference accepts what the harness gives it, and nothing else.
      PLANTSTORE_CREDENTIALS: credentials.length > 0 ? credentialList : undefined,
    },
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
      ...(credentials.length > 0 ? { credentials } : {}),
    },
    stop: async () => {
      await server.stop(5_000);
    },
  };
}
