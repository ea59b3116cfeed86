// The targets of a CLI run, in report order: the reference server and the
// Prism mock, started here side by side on free loopback ports, then the
// --target URLs. The servers started here belong to the run, which stops
// them: on success, on failure, and on SIGINT or SIGTERM.
import { relative } from 'node:path';
import { StartError } from '../../../lib/start-error.js';
import { startPrism } from './prism.js';
import { startReference } from './reference.js';
import type { SecuritySchemeModel } from '../../model/security.js';
import { PLACEHOLDER_TOKEN, type GivenCredential, type Target } from '../../model/target.js';

export interface TargetPlan {
  reference: boolean;
  prism: boolean;
  /** The document the reference server serves and Prism mocks. */
  spec: string;
  /** The document's security schemes: the reference server is started with a credential for each (reference.ts). */
  schemes?: readonly SecuritySchemeModel[];
  /** The --target URLs, with their column names. */
  targets: Array<{ name: string; url: string }>;
  /** The bearer token of the --targets. */
  token: string;
  /** The --targets accept only some tokens. */
  restrictsTokens: boolean;
  /** Where the token came from; undefined: none given. */
  tokenFrom?: string;
  /** Credentials of the document's security schemes for the --targets (--credential). */
  credentials?: GivenCredential[];
  /** Headers for every request to the --targets. */
  headers?: Array<[name: string, value: string]>;
  /** Values to redact by value in every report (what the configuration file took from ${VAR}). */
  secrets?: string[];
}

export class ServerStartError extends StartError {
  override readonly name = 'ServerStartError';
  constructor(message: string) {
    super('PLANTSTORE_SERVER_START', message);
  }
}

/** The servers a run started; each is stopped once, by whichever comes first: the run's end or a signal. */
export class OwnedServers {
  private stops: Array<() => Promise<void>> = [];

  add(stop: () => Promise<void>): void {
    this.stops.push(stop);
  }

  async stopAll(): Promise<void> {
    const stops = this.stops;
    this.stops = [];
    await Promise.all(stops.map((stop) => stop()));
  }
}

/**
 * Ctrl-C or a kill: stop the servers the run started, then exit as the
 * signal asks (130, 143). A second signal while stopping exits at once;
 * Prism's process group is still killed by lib/process.ts's exit hook.
 * Returns the function that removes the handlers.
 */
export function stopOnSignals(owned: OwnedServers, say: (line: string) => void): () => void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = signal === 'SIGINT' ? 130 : 143;
    if (stopping) process.exit(code);
    stopping = true;
    say(`\nplantstore-conformance: ${signal}, stopping the servers it started\n`);
    void owned.stopAll().finally(() => process.exit(code));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

/** Starts the servers the plan asks for (side by side) and lists every target; each server started goes into `owned` at once. */
export async function startTargets(
  plan: TargetPlan,
  owned: OwnedServers,
  say: (line: string) => void,
): Promise<Target[]> {
  const own = <Server extends { stop(): Promise<void> }>(server: Server): Server => {
    owned.add(() => server.stop());
    return server;
  };
  const [reference, prism] = await Promise.allSettled([
    plan.reference
      ? startReference({ specPath: plan.spec, schemes: plan.schemes ?? [] }).then(own)
      : Promise.resolve(undefined),
    plan.prism ? startPrism({ specPath: plan.spec }).then(own) : Promise.resolve(undefined),
  ]);
  // If one did not start, the other is stopped with the rest of `owned`.
  if (reference.status === 'rejected')
    throw new ServerStartError(`the reference server did not start: ${(reference.reason as Error).message}`);
  if (prism.status === 'rejected')
    throw new ServerStartError(`the Prism mock did not start: ${(prism.reason as Error).message}`);
  const targets: Target[] = [];
  if (reference.value) {
    say(`reference: the project's server at ${reference.value.target.url}\n`);
    targets.push(reference.value.target);
  }
  if (prism.value) {
    say(`prism: Prism 5.14.2 mock of ${relative(process.cwd(), plan.spec) || plan.spec} at ${prism.value.url}\n`);
    // Prism accepts any bearer token: a well-formed placeholder, and PS-AUTH-006 cannot run.
    targets.push({
      name: 'prism',
      url: prism.value.url,
      token: PLACEHOLDER_TOKEN,
      role: 'prism',
      informs: true,
      restrictsTokens: false,
    });
  }
  const headers = plan.headers && plan.headers.length > 0 ? Object.fromEntries(plan.headers) : undefined;
  const secrets = plan.secrets && plan.secrets.length > 0 ? plan.secrets : undefined;
  for (const t of plan.targets) {
    targets.push({
      ...t,
      token: plan.token,
      role: 'target',
      informs: false,
      restrictsTokens: plan.restrictsTokens,
      tokenFrom: plan.tokenFrom,
      ...(plan.credentials && plan.credentials.length > 0 ? { credentials: plan.credentials } : {}),
      ...(headers ? { headers } : {}),
      ...(secrets ? { secrets } : {}),
    });
  }
  return targets;
}
