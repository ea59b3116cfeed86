// The CLI's arguments: --help's text, and the options they give.
import { parseArgs } from 'node:util';
import { OPENAPI_PATH } from '../spec/openapi.js';
import { catalog } from './checks/index.js';
import { PRISM_DIVERGENCES_PATH } from './differential/divergences.js';
import { PLACEHOLDER_TOKEN } from './targets/target.js';

export const HELP = `Usage: plantstore-conformance [options]

Runs the Plant Store conformance checks (derived from spec/openapi.yaml)
against one or more targets side by side and reports per check: pass,
non-strict, fail, skip or error.

Without --target, --reference or --prism (the default run): lint the spec,
run against the reference server and a Prism mock, print the matrix and
write reports/conformance.json, .junit.xml and .html.

Options:
  --target URL        a target's base URL, may carry a path prefix
                      (repeatable)
  --reference         start the project's own server on a free loopback port
                      and run against it
  --prism             start a Prism 5.14.2 mock of the document on a free
                      loopback port and run against it; its column informs
                      and never fails the run by itself
  --divergences FILE  the Prism mock's expected divergences (default:
                      conformance/differential/divergences/prism.json)
  --token TOKEN       bearer token the targets accept (default: the
                      PLANTSTORE_TOKEN environment variable, else a
                      well-formed placeholder)
  --invalid-token     the --target servers accept only some tokens: a random
                      token they accept is then a failure of PS-AUTH-006, not
                      a skip (without it, a target that refuses a random token
                      is seen to restrict tokens)
  --seed N            seed of the generated cases (default: random; printed)
  --cases N           generated cases per property check (default 50)
  --timeout MS        deadline of each exchange in milliseconds, from connecting
                      to the last byte of the answer (default 10000)
  --concurrency N     checks in flight per target (default 4)
  --rate-limit N      at most N requests per second to each target; a 429 or
                      503 with Retry-After is waited out and retried either way
  --only IDS          run only these checks (comma-separated IDs)
  --strict            count non-strict outcomes as failures
  --json FILE         write the JSON report to FILE
  --junit FILE        write a JUnit XML report to FILE
  --html FILE         write a self-contained HTML report to FILE
  --reports DIR       write conformance.json, conformance.junit.xml and
                      conformance.html to DIR (the default run: reports)
  --spec FILE         the OpenAPI document (default: spec/openapi.yaml); the
                      reference server serves it too and Prism mocks it
  --help              show this help

Exit codes: 0 no check failed, 1 a check failed, 2 the harness could not run
(a target unreachable or dead, or a check ended in error).
`;

export class UsageError extends Error {}

export interface CliOptions {
  help: boolean;
  /** The --target URLs, with their column names. */
  targets: Array<{ name: string; url: string }>;
  /** Start the reference server as a target (--reference, or the default run). */
  reference: boolean;
  /** Start a Prism mock as a target (--prism, or the default run). */
  prism: boolean;
  divergences: string;
  reports: string | undefined;
  html: string | undefined;
  json: string | undefined;
  junit: string | undefined;
  /** The bearer token of the --targets. */
  token: string;
  /** The --targets accept only some tokens (--invalid-token). */
  restrictsTokens: boolean;
  /** The random seed of the generated cases. */
  seed: number;
  cases: number;
  timeoutMs: number;
  concurrency: number;
  /** Requests per second to each target (--rate-limit). */
  rateLimit: number | undefined;
  only: string[] | undefined;
  strict: boolean;
  spec: string;
}

function int(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(value)}`);
  return Number(value);
}

/**
 * `raw` with whatever stands between "//" (or the start) and its last "@"
 * replaced: a URL's user information, shown to nobody. Up to the last "@" of
 * the whole text, as a password may hold "/" or "@", and then the URL does
 * not parse.
 */
export function withoutUserInformation(raw: string): string {
  const at = raw.lastIndexOf('@');
  if (at === -1) return raw;
  const slashes = raw.indexOf('//');
  const start = slashes !== -1 && slashes < at ? slashes + 2 : 0;
  return `${raw.slice(0, start)}…${raw.slice(at)}`;
}

/** The CLI's options from its arguments; throws UsageError when they make no sense. */
export function parseCliArgs(argv: string[]): CliOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      target: { type: 'string', multiple: true },
      reference: { type: 'boolean' },
      prism: { type: 'boolean' },
      divergences: { type: 'string' },
      html: { type: 'string' },
      reports: { type: 'string' },
      token: { type: 'string' },
      'invalid-token': { type: 'boolean' },
      seed: { type: 'string' },
      cases: { type: 'string' },
      timeout: { type: 'string' },
      concurrency: { type: 'string' },
      'rate-limit': { type: 'string' },
      only: { type: 'string' },
      strict: { type: 'boolean' },
      json: { type: 'string' },
      junit: { type: 'string' },
      spec: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const targets = (values.target ?? []).map((raw, i, all) => {
    // Messages quote the URL without anything between "//" and "@": that may be a password.
    const shown = JSON.stringify(withoutUserInformation(raw));
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UsageError(`--target ${shown} is not a URL`);
    }
    // A password on the command line ends up in shell history, process lists
    // and the reports' target URL; the harness sends bearer tokens only.
    if (url.username !== '' || url.password !== '') {
      throw new UsageError(`--target ${shown}: a URL with user information (user:password@) is refused; give the bearer token with --token or PLANTSTORE_TOKEN`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--target ${shown}: only http and https URLs`);
    if (url.search || url.hash) throw new UsageError(`--target ${shown}: a base URL has no query or fragment`);
    return { name: all.length === 1 ? 'target' : `target-${i + 1}`, url: url.href.replace(/\/+$/, '') };
  });
  const only = values.only?.split(',').map((s) => s.trim()).filter(Boolean);
  for (const id of only ?? []) if (!catalog.some((c) => c.id === id)) throw new UsageError(`--only: no check ${id}`);
  // The default run: no target named at all.
  const defaultRun = targets.length === 0 && values.reference !== true && values.prism !== true;
  return {
    help: values.help === true,
    targets,
    reference: values.reference === true || defaultRun,
    prism: values.prism === true || defaultRun,
    divergences: values.divergences ?? PRISM_DIVERGENCES_PATH,
    reports: values.reports ?? (defaultRun ? 'reports' : undefined),
    html: values.html,
    token: values.token ?? process.env.PLANTSTORE_TOKEN ?? PLACEHOLDER_TOKEN,
    restrictsTokens: values['invalid-token'] === true,
    seed: int('seed', values.seed, Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31 - 1),
    cases: int('cases', values.cases, 50, 1, 100_000),
    timeoutMs: int('timeout', values.timeout, 10_000, 1, 600_000),
    concurrency: int('concurrency', values.concurrency, 4, 1, 64),
    rateLimit: values['rate-limit'] === undefined ? undefined : int('rate-limit', values['rate-limit'], 0, 1, 10_000),
    only,
    strict: values.strict === true,
    json: values.json,
    junit: values.junit,
    spec: values.spec ?? OPENAPI_PATH,
  };
}

