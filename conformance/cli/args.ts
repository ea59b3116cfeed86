// The CLI's arguments. One table (OPTIONS) gives every option its flag, its
// environment variable and its help; a value comes from the flag, else the
// environment variable, else the configuration file (config-file.ts), and
// each is checked the same way, the message naming where it came from.
// The table is in options.ts, how each value is checked in values.ts.
import { OPENAPI_PATH } from '../../spec/openapi.js';
import { PLACEHOLDER_TOKEN, type GivenCredential } from '../model/target.js';
import { FRAGMENT } from '../redact/shorten.js';
import { PRISM_DIVERGENCES_PATH } from '../run/differential/divergences.js';
import { ConfigFileError, findConfigFile, readConfigFile } from './config-file.js';
import { COMMANDS, OPTIONS, type Command } from './options.js';
import { didYouMean } from './suggest.js';
import { lastReportPath, rerunFrom, type Rerun } from './rerun.js';
import { catalog } from '../checks/index.js';
import { parseCredentials } from './credentials.js';
import type { Inference } from '../checks/types.js';
import {
  fromEnvironment,
  fromFile,
  int,
  parseHeaders,
  parseInferences,
  parseOnly,
  parseTargets,
  readFlags,
  UsageError,
  type Given,
} from './values.js';

export interface CliOptions {
  /** What was asked: a run, or the help, the version or the list of checks. */
  action: 'run' | 'help' | 'version' | 'list';
  command: Command;
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
  har: string | undefined;
  /** The bearer token of the --targets. */
  token: string;
  /** Where the token came from (`--token`, `PLANTSTORE_TOKEN`, `token in FILE`); undefined: none was given, the placeholder stands in. */
  tokenFrom: string | undefined;
  /** Credentials of the document's security schemes for the --targets (--credential SCHEME=VALUE), in the order given. */
  credentials: GivenCredential[];
  /** Headers sent with every request to the --targets (-H), in the order given. */
  headers: Array<[name: string, value: string]>;
  /** The --targets accept only some tokens (--invalid-token). */
  restrictsTokens: boolean;
  /** The random seed of the generated cases. */
  seed: number;
  /** With the seed, decides the plant ids (--id-offset). */
  idOffset: number;
  cases: number;
  timeoutMs: number;
  concurrency: number;
  /** Requests per second to each target (--rate-limit). */
  rateLimit: number | undefined;
  /** How long to wait for each --target to answer at all (--wait-for), in ms. */
  waitForMs: number | undefined;
  /** Stop starting checks after this many failures (--max-failures, --fail-fast). */
  maxFailures: number | undefined;
  only: string[] | undefined;
  /** The inferences the checks grade by (every one but those --no-infer names). */
  inferences: Inference[];
  strict: boolean;
  spec: string;
  /** False when colours are turned off (--no-color, NO_COLOR); undefined: colours when the output is a terminal. */
  color: false | undefined;
  /** The configuration file read, if any. */
  configFile: string | undefined;
  /** Values of 8 or more characters the configuration file took from ${VAR}: redacted by value in every report. */
  secrets: string[];
  /** --rerun-failed: the report read, what the run says of it (the checks, seed and id offset are set from it), and its lint with what it linted. */
  rerun?: { from: string; note: string; lint?: Rerun['lint'] };
}

/**
 * What a configuration file may do. The CLI's default: the file of the
 * working directory is read when none is named, its ${VAR} reads the whole
 * environment, and it may set every option. The GitHub Action reads only
 * the file its inputs name, with the variables they allow, setting the keys
 * that tune a run (scripts/action.ts).
 */
export interface ConfigPolicy {
  /** Read plantstore.conformance.(json|yaml|yml) of the working directory when no file is named. */
  implicitFile: boolean;
  /** The only variables ${VAR} may read (a name with an undefined value: allowed but unset); undefined: the whole environment. */
  variables?: NodeJS.ProcessEnv;
  /** The only options the file may set; undefined: any. */
  keys?: readonly string[];
}

export const CLI_CONFIG_POLICY: ConfigPolicy = { implicitFile: true };

/** The arguments' first word when it names a command; the rest of the arguments. */
function splitCommand(argv: string[]): { command: Command; rest: string[] } {
  const first = argv[0];
  if (first !== undefined && !first.startsWith('-')) {
    if ((COMMANDS as readonly string[]).includes(first)) return { command: first as Command, rest: argv.slice(1) };
    const hint = /^https?:\/\//i.test(first) ? ` (a URL is given with --target ${first})` : didYouMean(first, COMMANDS);
    throw new UsageError(
      `unknown command ${JSON.stringify(first)}${hint}; the commands are: ${COMMANDS.join(', ')} (the default)`,
    );
  }
  return { command: 'run', rest: argv };
}

/**
 * The CLI's options from its arguments, the environment and the
 * configuration file (flags win over the environment, which wins over the
 * file); throws UsageError when they make no sense.
 */
export function parseCliArgs(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  policy: ConfigPolicy = CLI_CONFIG_POLICY,
): CliOptions {
  const { command, rest } = splitCommand(argv);
  const flags = readFlags(
    rest,
    OPTIONS,
    (word) =>
      `unexpected argument ${JSON.stringify(word)}${/^https?:\/\//i.test(word) ? ` (a URL is given with --target ${word})` : ''}`,
  );
  const action = flags.help ? 'help' : flags.version ? 'version' : flags.list ? 'list' : 'run';

  let configFile: string | undefined;
  let file: Record<string, unknown> = {};
  let secrets: string[] = [];
  try {
    configFile =
      (flags.config as string | undefined) ??
      (env.PLANTSTORE_CONFIG || undefined) ??
      (action === 'run' && policy.implicitFile ? findConfigFile(cwd) : undefined);
    if (configFile !== undefined)
      ({ values: file, substituted: secrets } = readConfigFile(
        configFile,
        policy.variables ?? env,
        policy.variables !== undefined,
      ));
  } catch (err) {
    if (err instanceof ConfigFileError) throw new UsageError(err.message);
    throw err;
  }
  const inFile = OPTIONS.filter((o) => o.env !== undefined && o.name !== 'config');
  for (const key of Object.keys(file)) {
    if (!inFile.some((o) => o.name === key))
      throw new UsageError(
        `${configFile}: no option ${JSON.stringify(key)}${didYouMean(
          key,
          inFile.map((o) => o.name),
        )}`,
      );
    if (policy.keys && !policy.keys.includes(key))
      throw new UsageError(
        `${configFile}: ${key} cannot be set in this configuration file (it may set ${policy.keys.join(', ')})`,
      );
  }

  const settings = new Map<string, Given>();
  for (const o of OPTIONS) {
    const flag = flags[o.name];
    const given: Given | undefined =
      flag !== undefined
        ? { value: flag, from: `--${o.name}` }
        : (fromEnvironment(o, env) ??
          (configFile !== undefined && o.name in file ? fromFile(o, file[o.name], configFile) : undefined));
    if (given !== undefined) settings.set(o.name, given);
  }
  const string = (name: string) => settings.get(name)?.value as string | undefined;
  const flag = (name: string) => settings.get(name)?.value === true;
  const number = (name: string, fallback: number, min: number, max: number) =>
    int(settings.get(name)?.from ?? `--${name}`, string(name), fallback, min, max);

  const targets = parseTargets(settings.get('target'));
  // The default run: no target named at all.
  const defaultRun = targets.length === 0 && !flag('reference') && !flag('prism');
  const reports = string('reports') ?? (defaultRun ? 'reports' : undefined);
  // The fix loop: the checks, the seed and the id offset from the last report (rerun.ts).
  if (flag('rerun-failed') && settings.has('only'))
    throw new UsageError(`--rerun-failed and ${settings.get('only')!.from} both choose the checks: give one`);
  const rerun =
    action === 'run' && flag('rerun-failed')
      ? rerunFrom(
          lastReportPath({ lastReport: string('last-report'), json: string('json'), reports }),
          flag('strict'),
          catalog.map((c) => c.id),
        )
      : undefined;
  const token = string('token');
  const maxFailures = flag('fail-fast')
    ? 1
    : settings.has('max-failures')
      ? number('max-failures', 0, 1, 1_000_000)
      : undefined;
  return {
    action,
    command,
    targets,
    reference: flag('reference') || defaultRun,
    prism: flag('prism') || defaultRun,
    divergences: string('divergences') ?? PRISM_DIVERGENCES_PATH,
    reports,
    html: string('html'),
    json: string('json'),
    junit: string('junit'),
    har: string('har'),
    token: token || PLACEHOLDER_TOKEN,
    tokenFrom: token ? settings.get('token')!.from : undefined,
    credentials: parseCredentials(settings.get('credential')),
    headers: parseHeaders(settings.get('header')),
    restrictsTokens: flag('invalid-token'),
    seed: number('seed', rerun?.seed ?? Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31 - 1),
    idOffset: number('id-offset', rerun?.idOffset ?? 0, 0, 2 ** 31 - 1),
    cases: number('cases', 50, 1, 100_000),
    timeoutMs: number('timeout', 10_000, 1, 600_000),
    concurrency: number('concurrency', 4, 1, 64),
    rateLimit: settings.has('rate-limit') ? number('rate-limit', 0, 1, 10_000) : undefined,
    waitForMs: settings.has('wait-for') ? number('wait-for', 0, 0, 3600) * 1000 : undefined,
    maxFailures,
    only: rerun ? rerun.only : parseOnly(settings.get('only')),
    inferences: parseInferences(settings.get('no-infer')),
    strict: flag('strict'),
    spec: string('spec') ?? OPENAPI_PATH,
    color: flag('no-color') ? false : undefined,
    configFile,
    ...(rerun ? { rerun: { from: rerun.from, note: rerun.note, ...(rerun.lint ? { lint: rerun.lint } : {}) } } : {}),
    // Shorter values ("50" from ${CASES}) are no secrets, and redacting them would garble every report;
    // nor is a target's URL, which every report names (credentials in a URL are refused: values.ts).
    secrets: secrets.filter(
      (value) =>
        value.length >= FRAGMENT &&
        !targets.some(
          (t) => t.url === value.replace(/\/+$/, '') || t.url === value.replace(/^[^=:/]+=/, '').replace(/\/+$/, ''),
        ),
    ),
  };
}
