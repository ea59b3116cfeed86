// The CLI's arguments. One table (OPTIONS) gives every option its flag, its
// environment variable and its help; a value comes from the flag, else the
// environment variable, else the configuration file (config-file.ts), and
// each is checked the same way, the message naming where it came from.
import { StartError } from '../../lib/start-error.js';
import { parseArgs } from 'node:util';
import { OPENAPI_PATH } from '../../spec/openapi.js';
import { catalog } from '../checks/index.js';
import { ConfigFileError, findConfigFile, readConfigFile } from './config-file.js';
import { PRISM_DIVERGENCES_PATH } from '../run/differential/divergences.js';
import { closest, didYouMean } from './suggest.js';
import { PLACEHOLDER_TOKEN } from '../model/target.js';

export class UsageError extends StartError {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super('PLANTSTORE_USAGE', message);
  }
}

interface OptionSpec {
  name: string;
  short?: string;
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** The environment variable that sets it (none for the options that ask for something else than a run). */
  env?: string;
  /** How a multiple option's values are written in its environment variable. */
  envSeparator?: 'space' | 'newline';
  /** The value's name in the help. */
  value?: string;
  help: string;
}

/** Every option, in the order --help lists them. */
export const OPTIONS: readonly OptionSpec[] = [
  { name: 'target', type: 'string', multiple: true, env: 'PLANTSTORE_TARGET', envSeparator: 'space', value: '[NAME=]URL', help: "a target's base URL, which may carry a path prefix; NAME= names its column (repeatable; in the environment, separated by spaces)" },
  { name: 'token', type: 'string', env: 'PLANTSTORE_TOKEN', value: 'TOKEN', help: 'the bearer token the targets accept (default: a well-formed placeholder, for targets that accept any)' },
  { name: 'header', short: 'H', type: 'string', multiple: true, env: 'PLANTSTORE_HEADER', envSeparator: 'newline', value: '"NAME: VALUE"', help: 'a header sent with every request to the targets, e.g. an API gateway\'s x-api-key (repeatable; in the environment, one per line); reports show its value as <redacted> when its name looks secret' },
  { name: 'wait-for', type: 'string', env: 'PLANTSTORE_WAIT_FOR', value: 'SECONDS', help: 'wait up to SECONDS for each target to answer at all before checking it (a server still starting)' },
  { name: 'reference', type: 'boolean', env: 'PLANTSTORE_REFERENCE', help: "start the project's own server on a free loopback port and check it" },
  { name: 'prism', type: 'boolean', env: 'PLANTSTORE_PRISM', help: 'start a Prism 5.14.2 mock of the document on a free loopback port and check it; its column informs and never fails the run by itself' },
  { name: 'divergences', type: 'string', env: 'PLANTSTORE_DIVERGENCES', value: 'FILE', help: "the Prism mock's expected divergences (default: conformance/differential/divergences/prism.json)" },
  { name: 'invalid-token', type: 'boolean', env: 'PLANTSTORE_INVALID_TOKEN', help: 'the targets accept only some tokens: a random token they accept is then a failure of PS-AUTH-006, not a skip' },
  { name: 'seed', type: 'string', env: 'PLANTSTORE_SEED', value: 'N', help: 'seed of the generated cases (default: random; always printed)' },
  { name: 'cases', type: 'string', env: 'PLANTSTORE_CASES', value: 'N', help: 'generated cases per property check (default 50)' },
  { name: 'timeout', type: 'string', env: 'PLANTSTORE_TIMEOUT', value: 'MS', help: 'deadline of each exchange in milliseconds, from connecting to the last byte of the answer (default 10000)' },
  { name: 'concurrency', type: 'string', env: 'PLANTSTORE_CONCURRENCY', value: 'N', help: 'checks in flight per target (default 4)' },
  { name: 'rate-limit', type: 'string', env: 'PLANTSTORE_RATE_LIMIT', value: 'N', help: 'at most N requests per second to each target; a 429 or 503 with Retry-After is waited out and retried either way' },
  { name: 'only', type: 'string', env: 'PLANTSTORE_ONLY', value: 'IDS', help: 'run only these checks (comma-separated IDs; --list shows them)' },
  { name: 'strict', type: 'boolean', env: 'PLANTSTORE_STRICT', help: 'count non-strict outcomes as failures' },
  { name: 'max-failures', type: 'string', env: 'PLANTSTORE_MAX_FAILURES', value: 'N', help: 'stop starting checks once N have failed; the checks not run are skip' },
  { name: 'fail-fast', type: 'boolean', env: 'PLANTSTORE_FAIL_FAST', help: 'stop at the first failure (--max-failures 1)' },
  { name: 'json', type: 'string', env: 'PLANTSTORE_JSON', value: 'FILE', help: 'write the JSON report to FILE' },
  { name: 'junit', type: 'string', env: 'PLANTSTORE_JUNIT', value: 'FILE', help: 'write a JUnit XML report to FILE' },
  { name: 'html', type: 'string', env: 'PLANTSTORE_HTML', value: 'FILE', help: 'write a self-contained HTML report to FILE' },
  { name: 'har', type: 'string', env: 'PLANTSTORE_HAR', value: 'FILE', help: "write every exchange with the targets to FILE as HAR 1.2 (a browser's network panel opens it), credentials redacted" },
  { name: 'reports', type: 'string', env: 'PLANTSTORE_REPORTS', value: 'DIR', help: 'write conformance.json, conformance.junit.xml and conformance.html to DIR (the default run: reports)' },
  { name: 'spec', type: 'string', env: 'PLANTSTORE_SPEC', value: 'FILE', help: 'the OpenAPI document (default: spec/openapi.yaml); the reference server serves it too and Prism mocks it' },
  { name: 'no-color', type: 'boolean', env: 'NO_COLOR', help: 'no colours in the output (also when the output is not a terminal)' },
  { name: 'config', type: 'string', env: 'PLANTSTORE_CONFIG', value: 'FILE', help: 'read options from FILE (default: plantstore.conformance.json or .yaml in the working directory, if there is one)' },
  { name: 'list', type: 'boolean', help: 'list the checks (ID, level, source, title) and exit' },
  { name: 'help', short: 'h', type: 'boolean', help: 'show this help and exit' },
  { name: 'version', type: 'boolean', help: 'show the version and exit' },
];

/** The subcommands; `run` is the default. `compat` (conformance/compat/) parses its own options. */
export const COMMANDS = ['run', 'compat'] as const;
export type Command = (typeof COMMANDS)[number];

const INTRO = `Runs the Plant Store conformance checks (derived from the OpenAPI document)
against one or more targets side by side and reports per check: pass,
non-strict, fail, skip or error. Before the checks, it makes sure the run can
mean something (the target answers, the token is accepted, the base URL
reaches the operation) and otherwise says what to fix and exits 2.

Without --target, --reference or --prism (the default run): lint the spec,
run against the reference server and a Prism mock, print the matrix and
write reports/conformance.json, .junit.xml and .html.`;

const EPILOGUE = `Every option may also come from its environment variable (shown in
brackets) or from the configuration file, whose keys are the option names
(target, token, rate-limit, …) and whose strings may hold \${VAR}. A flag wins
over the environment, which wins over the file.

Exit codes: 0 no check failed, 1 a check failed, 2 the run could not mean
anything or could not finish (a configuration mistake, a target unreachable
or dead, a check ended in error).`;

export function wrap(text: string, width: number, indent: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width - indent) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** --help's text, from OPTIONS. */
export function helpText(): string {
  const column = 26;
  const out = ['Usage: plantstore-conformance [run] [options]', '       plantstore-conformance compat --base OLD [--head NEW] (compat --help)', '       plantstore-conformance --list | --help | --version', '', INTRO, '', 'Options:'];
  for (const o of OPTIONS) {
    const flag = `  ${o.short ? `-${o.short}, ` : ''}--${o.name}${o.value ? ` ${o.value}` : ''}`;
    const help = wrap(`${o.help}${o.env ? ` [${o.env}]` : ''}`, 79, column);
    if (flag.length + 2 > column) out.push(flag, ...help.map((l) => `${' '.repeat(column)}${l}`));
    else out.push(`${flag.padEnd(column)}${help[0]}`, ...help.slice(1).map((l) => `${' '.repeat(column)}${l}`));
  }
  out.push('', EPILOGUE, '');
  return out.join('\n');
}

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
  /** Headers sent with every request to the --targets (-H), in the order given. */
  headers: Array<[name: string, value: string]>;
  /** The --targets accept only some tokens (--invalid-token). */
  restrictsTokens: boolean;
  /** The random seed of the generated cases. */
  seed: number;
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
  strict: boolean;
  spec: string;
  /** False when colours are turned off (--no-color, NO_COLOR); undefined: colours when the output is a terminal. */
  color: false | undefined;
  /** The configuration file read, if any. */
  configFile: string | undefined;
}

export function int(from: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`${from} must be an integer from ${min} to ${max}, not ${JSON.stringify(value)}`);
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

/** A value as one source gave it, and how a message names that source (`--timeout`, `PLANTSTORE_TIMEOUT`, `timeout in FILE`). */
interface Given {
  value: string | boolean | string[];
  from: string;
}

/** Names the harness reserves for the targets it starts. */
const RESERVED_NAMES = ['reference', 'prism'];
/** A target's name: what its column is called in every report. */
const TARGET_NAME = /^[A-Za-z][A-Za-z0-9._-]{0,31}$/;

function parseTargets(given: Given | undefined): Array<{ name: string; url: string }> {
  const raws = (given?.value as string[] | undefined) ?? [];
  const targets = raws.map((raw, i) => {
    const named = /^([^=:/]+)=(.*)$/s.exec(raw);
    const rawUrl = named ? named[2]! : raw;
    // Messages quote the URL without anything between "//" and "@": that may be a password.
    const shown = JSON.stringify(withoutUserInformation(rawUrl));
    if (named && !TARGET_NAME.test(named[1]!)) throw new UsageError(`${given!.from} ${JSON.stringify(named[1])}=…: a target's name is a letter then letters, digits, ".", "_" or "-" (at most 32)`);
    if (named && RESERVED_NAMES.includes(named[1]!)) throw new UsageError(`${given!.from} ${named[1]}=…: "${named[1]}" names the target --${named[1]} starts; choose another name`);
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new UsageError(`${given!.from} ${shown} is not a URL (write it as http://host:port/prefix, or NAME=http://…)`);
    }
    // A password on the command line ends up in shell history, process lists
    // and the reports' target URL; the harness sends bearer tokens only.
    if (url.username !== '' || url.password !== '') {
      throw new UsageError(`${given!.from} ${shown}: a URL with user information (user:password@) is refused; give the bearer token with --token or PLANTSTORE_TOKEN`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${given!.from} ${shown}: only http and https URLs`);
    if (url.search || url.hash) throw new UsageError(`${given!.from} ${shown}: a base URL has no query or fragment`);
    return { name: named ? named[1]! : raws.length === 1 ? 'target' : `target-${i + 1}`, url: url.href.replace(/\/+$/, '') };
  });
  const names = targets.map((t) => t.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new UsageError(`${given!.from}: two targets are named ${twice}`);
  return targets;
}

/** RFC 9110 §5.1: field-name = token. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Fields the checks set themselves, or the HTTP client does: a header of the user's would change what the checks test. */
const HEADERS_THE_HARNESS_SETS = ['authorization', 'content-type', 'content-length', 'transfer-encoding', 'host', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade', 'expect', 'proxy-connection'];

function parseHeaders(given: Given | undefined): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const raw of (given?.value as string[] | undefined) ?? []) {
    const colon = raw.indexOf(':');
    const name = colon === -1 ? raw.trim() : raw.slice(0, colon).trim();
    const value = colon === -1 ? '' : raw.slice(colon + 1).trim();
    if (colon === -1 || !FIELD_NAME.test(name)) throw new UsageError(`${given!.from} ${JSON.stringify(raw)}: a header is written "Name: value", e.g. -H "x-api-key: $API_KEY"`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) throw new UsageError(`${given!.from} ${name}: a header value cannot hold control characters (a line break would start another header)`);
    const lower = name.toLowerCase();
    if (lower === 'authorization') throw new UsageError(`${given!.from} ${name}: the checks send their own Authorization; give the bearer token with --token or PLANTSTORE_TOKEN`);
    if (HEADERS_THE_HARNESS_SETS.includes(lower)) throw new UsageError(`${given!.from} ${name}: the checks or the HTTP client set ${name} themselves`);
    if (out.some(([n]) => n.toLowerCase() === lower)) throw new UsageError(`${given!.from} ${name}: given twice`);
    out.push([name, value]);
  }
  return out;
}

function parseOnly(given: Given | undefined): string[] | undefined {
  if (given === undefined) return undefined;
  const ids = String(given.value).split(',').map((s) => s.trim()).filter(Boolean);
  const known = catalog.map((c) => c.id);
  for (const id of ids) {
    if (!known.includes(id)) throw new UsageError(`${given.from}: no check ${id}${didYouMean(id, known)}; --list shows every check`);
  }
  return ids;
}

export const BOOLEAN_WORDS: Record<string, boolean> = { '1': true, true: true, yes: true, on: true, '0': false, false: false, no: false, off: false };

/** A value from the environment, as its option takes it; undefined when the variable is unset or empty. */
function fromEnvironment(o: OptionSpec, env: NodeJS.ProcessEnv): Given | undefined {
  const raw = o.env === undefined ? undefined : env[o.env];
  if (raw === undefined || raw === '') return undefined;
  const from = o.env!;
  // NO_COLOR's convention: set to anything, colours are off (https://no-color.org).
  if (o.env === 'NO_COLOR') return { value: true, from };
  if (o.type === 'boolean') {
    const value = BOOLEAN_WORDS[raw.trim().toLowerCase()];
    if (value === undefined) throw new UsageError(`${from} is true or false (1 or 0, yes or no), not ${JSON.stringify(raw)}`);
    return { value, from };
  }
  if (o.multiple) {
    const parts = (o.envSeparator === 'newline' ? raw.split(/\r?\n/) : raw.split(/\s+/)).map((s) => s.trim()).filter(Boolean);
    return parts.length === 0 ? undefined : { value: parts, from };
  }
  return { value: raw, from };
}

/** A value from the configuration file, as its option takes it. */
function fromFile(o: OptionSpec, value: unknown, file: string): Given | undefined {
  const from = `${o.name} in ${file}`;
  if (value === null || value === undefined) return undefined;
  if (o.type === 'boolean') {
    const flag = typeof value === 'boolean' ? value : BOOLEAN_WORDS[String(value).trim().toLowerCase()];
    if (flag === undefined) throw new UsageError(`${from} is true or false, not ${JSON.stringify(value)}`);
    return { value: flag, from };
  }
  if (o.multiple) {
    // A list, one value, or (target, header) a mapping of names to values.
    let items: unknown[];
    if (Array.isArray(value)) items = value;
    else if (typeof value === 'object') items = Object.entries(value as Record<string, unknown>).map(([k, v]) => (o.name === 'header' ? `${k}: ${String(v)}` : `${k}=${String(v)}`));
    else items = [value];
    if (items.some((item) => typeof item !== 'string' && typeof item !== 'number')) throw new UsageError(`${from}: a list of strings${o.name === 'target' ? ', or a mapping of names to URLs' : o.name === 'header' ? ', or a mapping of names to values' : ''}`);
    return { value: items.map(String), from };
  }
  if (typeof value !== 'string' && typeof value !== 'number') throw new UsageError(`${from} is a ${typeof value === 'object' ? (Array.isArray(value) ? 'list' : 'mapping') : typeof value}; it takes one value`);
  return { value: String(value), from };
}

/** The arguments' first word when it names a command; the rest of the arguments. */
function splitCommand(argv: string[]): { command: Command; rest: string[] } {
  const first = argv[0];
  if (first !== undefined && !first.startsWith('-')) {
    if ((COMMANDS as readonly string[]).includes(first)) return { command: first as Command, rest: argv.slice(1) };
    const hint = /^https?:\/\//i.test(first) ? ` (a URL is given with --target ${first})` : didYouMean(first, COMMANDS);
    throw new UsageError(`unknown command ${JSON.stringify(first)}${hint}; the commands are: ${COMMANDS.join(', ')} (the default)`);
  }
  return { command: 'run', rest: argv };
}

/** The flags as parseArgs reads them; an unknown one gets a suggestion. */
function readFlags(argv: string[]): Record<string, string | boolean | string[] | undefined> {
  const options = Object.fromEntries(OPTIONS.map((o) => [o.name, { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) }]));
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options }).values as Record<string, string | boolean | string[] | undefined>;
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const flag = /'([^']+)'/.exec(e.message)?.[1] ?? '';
      const long = OPTIONS.map((o) => `--${o.name}`);
      const near = flag.startsWith('--') ? closest(flag.split('=')[0]!, long) : undefined;
      throw new UsageError(`unknown option ${flag}${near ? ` (did you mean ${near}?)` : ''}`);
    }
    if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      const word = /'([^']+)'/.exec(e.message)?.[1] ?? '';
      throw new UsageError(`unexpected argument ${JSON.stringify(word)}${/^https?:\/\//i.test(word) ? ` (a URL is given with --target ${word})` : ''}`);
    }
    throw new UsageError(e.message);
  }
}

/**
 * The CLI's options from its arguments, the environment and the
 * configuration file (flags win over the environment, which wins over the
 * file); throws UsageError when they make no sense.
 */
export function parseCliArgs(argv: string[], env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): CliOptions {
  const { command, rest } = splitCommand(argv);
  const flags = readFlags(rest);
  const action = flags.help ? 'help' : flags.version ? 'version' : flags.list ? 'list' : 'run';

  let configFile: string | undefined;
  let file: Record<string, unknown> = {};
  try {
    configFile = (flags.config as string | undefined) ?? (env.PLANTSTORE_CONFIG || undefined) ?? (action === 'run' ? findConfigFile(cwd) : undefined);
    if (configFile !== undefined) file = readConfigFile(configFile, env);
  } catch (err) {
    if (err instanceof ConfigFileError) throw new UsageError(err.message);
    throw err;
  }
  const inFile = OPTIONS.filter((o) => o.env !== undefined && o.name !== 'config');
  for (const key of Object.keys(file)) {
    if (!inFile.some((o) => o.name === key)) throw new UsageError(`${configFile}: no option ${JSON.stringify(key)}${didYouMean(key, inFile.map((o) => o.name))}`);
  }

  const settings = new Map<string, Given>();
  for (const o of OPTIONS) {
    const flag = flags[o.name];
    const given: Given | undefined =
      flag !== undefined ? { value: flag, from: `--${o.name}` } : (fromEnvironment(o, env) ?? (configFile !== undefined && o.name in file ? fromFile(o, file[o.name], configFile) : undefined));
    if (given !== undefined) settings.set(o.name, given);
  }
  const string = (name: string) => settings.get(name)?.value as string | undefined;
  const flag = (name: string) => settings.get(name)?.value === true;
  const number = (name: string, fallback: number, min: number, max: number) => int(settings.get(name)?.from ?? `--${name}`, string(name), fallback, min, max);

  const targets = parseTargets(settings.get('target'));
  // The default run: no target named at all.
  const defaultRun = targets.length === 0 && !flag('reference') && !flag('prism');
  const token = string('token');
  const maxFailures = flag('fail-fast') ? 1 : settings.has('max-failures') ? number('max-failures', 0, 1, 1_000_000) : undefined;
  return {
    action,
    command,
    targets,
    reference: flag('reference') || defaultRun,
    prism: flag('prism') || defaultRun,
    divergences: string('divergences') ?? PRISM_DIVERGENCES_PATH,
    reports: string('reports') ?? (defaultRun ? 'reports' : undefined),
    html: string('html'),
    json: string('json'),
    junit: string('junit'),
    har: string('har'),
    token: token || PLACEHOLDER_TOKEN,
    tokenFrom: token ? settings.get('token')!.from : undefined,
    headers: parseHeaders(settings.get('header')),
    restrictsTokens: flag('invalid-token'),
    seed: number('seed', Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31 - 1),
    cases: number('cases', 50, 1, 100_000),
    timeoutMs: number('timeout', 10_000, 1, 600_000),
    concurrency: number('concurrency', 4, 1, 64),
    rateLimit: settings.has('rate-limit') ? number('rate-limit', 0, 1, 10_000) : undefined,
    waitForMs: settings.has('wait-for') ? number('wait-for', 0, 0, 3600) * 1000 : undefined,
    maxFailures,
    only: parseOnly(settings.get('only')),
    strict: flag('strict'),
    spec: string('spec') ?? OPENAPI_PATH,
    color: flag('no-color') ? false : undefined,
    configFile,
  };
}

/** --list: every check with its ID, level and source, then its title. */
export function listChecks(ids?: string[]): string {
  const checks = catalog.filter((c) => !ids || ids.includes(c.id));
  const source = (c: (typeof catalog)[number]) => `${c.source.document}, ${c.source.section}`;
  const idWidth = Math.max(...checks.map((c) => c.id.length));
  const sourceWidth = Math.min(60, Math.max(...checks.map((c) => source(c).length)));
  const lines = [`${'ID'.padEnd(idWidth)}  LEVEL   ${'SOURCE'.padEnd(sourceWidth)}  TITLE`];
  for (const c of checks) lines.push(`${c.id.padEnd(idWidth)}  ${c.level.padEnd(6)}  ${source(c).padEnd(sourceWidth)}  ${c.title}`);
  return `${lines.join('\n')}\n`;
}
