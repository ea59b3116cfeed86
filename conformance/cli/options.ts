// Every option of the run command in one table (OPTIONS): its flag, its
// environment variable and its help, from which --help is written. It
// imports nothing, so that --help loads no more than it shows (list.ts has
// --list, which loads the catalog).

export interface OptionSpec {
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

/** An option as the table writes it: its environment variable PLANTSTORE_ and its name in capitals (rate-limit: PLANTSTORE_RATE_LIMIT) unless it names another, or none (null). */
type OptionRow = Omit<OptionSpec, 'env'> & { env?: string | null };

const ROWS: OptionRow[] = [
  {
    name: 'target',
    type: 'string',
    multiple: true,
    envSeparator: 'space',
    value: '[NAME=]URL',
    help: "a target's base URL, which may carry a path prefix; NAME= names its column (repeatable; in the environment, separated by spaces)",
  },
  {
    name: 'token',
    type: 'string',
    value: 'TOKEN',
    help: 'the bearer token the targets accept, for every bearer scheme of the document (http bearer, oauth2, openIdConnect) that --credential does not name (default: a well-formed placeholder, for targets that accept any)',
  },
  {
    name: 'credential',
    type: 'string',
    multiple: true,
    envSeparator: 'newline',
    value: 'SCHEME=VALUE',
    help: "a credential for the document's security scheme SCHEME (its name under components.securitySchemes): an API key, USER:PASSWORD for HTTP Basic, a token for a bearer, oauth2 or openIdConnect scheme (--token is the default of every bearer scheme); the harness puts it where the scheme says (header, query, cookie) (repeatable; in the environment, one per line); redacted in every report",
  },
  {
    name: 'header',
    short: 'H',
    type: 'string',
    multiple: true,
    envSeparator: 'newline',
    value: '"NAME: VALUE"',
    help: "a header sent with every request to the targets, e.g. an API gateway's x-api-key (repeatable; in the environment, one per line); reports show its value as <redacted> when its name looks secret",
  },
  {
    name: 'wait-for',
    type: 'string',
    value: 'SECONDS',
    help: 'wait up to SECONDS for each target to answer at all before checking it (a server still starting)',
  },
  { name: 'reference', type: 'boolean', help: "start the project's own server on a free loopback port and check it" },
  {
    name: 'prism',
    type: 'boolean',
    help: 'start a Prism 5.14.2 mock of the document on a free loopback port and check it; its column informs and never fails the run by itself',
  },
  {
    name: 'divergences',
    type: 'string',
    value: 'FILE',
    help: "the Prism mock's expected divergences (default: conformance/differential/divergences/prism.json)",
  },
  {
    name: 'invalid-token',
    type: 'boolean',
    help: 'the targets accept only some tokens and credentials: a random token or credential they accept is then a failure (PS-AUTH-006, PS-OP-007), not a skip',
  },
  { name: 'seed', type: 'string', value: 'N', help: 'seed of the generated cases (default: random; always printed)' },
  {
    name: 'id-offset',
    type: 'string',
    value: 'N',
    help: 'with the seed, decides the plant ids sent (default 0): a rerun with one --seed against the same long-lived target gives another N; the run prints it',
  },
  { name: 'cases', type: 'string', value: 'N', help: 'generated cases per property check (default 50)' },
  {
    name: 'timeout',
    type: 'string',
    value: 'MS',
    help: 'deadline of each exchange in milliseconds, from connecting to the last byte of the answer (default 10000)',
  },
  { name: 'concurrency', type: 'string', value: 'N', help: 'checks in flight per target (default 4)' },
  {
    name: 'rate-limit',
    type: 'string',
    value: 'N',
    help: 'at most N requests per second to each target; a 429 or 503 with Retry-After is waited out and retried either way',
  },
  {
    name: 'only',
    type: 'string',
    value: 'IDS',
    help: 'run only these checks (comma-separated IDs; --list shows them)',
  },
  {
    name: 'no-infer',
    type: 'string',
    value: 'LIST',
    help: 'switch off inferences the checks rest on (comma-separated: resource, read-back, listed, delete, update, limit, filter, identity, location, reference, nested, pages, sort, idempotency; docs/checks.md says what each infers); a check that rests on one is then skip',
  },
  {
    name: 'rerun-failed',
    type: 'boolean',
    help: "run only the checks that failed or errored in the last JSON report (every check when none did), with that report's seed and a fresh id offset",
  },
  {
    name: 'last-report',
    type: 'string',
    value: 'FILE',
    help: 'the JSON report --rerun-failed reads (default: the --json FILE, else conformance.json in the --reports DIR, else reports/conformance.json)',
  },
  { name: 'strict', type: 'boolean', help: 'count non-strict outcomes as failures' },
  {
    name: 'max-failures',
    type: 'string',
    value: 'N',
    help: 'stop starting checks once N have failed; the checks not run are skip',
  },
  { name: 'fail-fast', type: 'boolean', help: 'stop at the first failure (--max-failures 1)' },
  { name: 'json', type: 'string', value: 'FILE', help: 'write the JSON report to FILE' },
  { name: 'junit', type: 'string', value: 'FILE', help: 'write a JUnit XML report to FILE' },
  { name: 'html', type: 'string', value: 'FILE', help: 'write a self-contained HTML report to FILE' },
  {
    name: 'har',
    type: 'string',
    value: 'FILE',
    help: "write every exchange with the targets to FILE as HAR 1.2 (a browser's network panel opens it), credentials redacted",
  },
  {
    name: 'reports',
    type: 'string',
    value: 'DIR',
    help: 'write conformance.json, conformance.junit.xml and conformance.html to DIR (the default run: reports)',
  },
  {
    name: 'spec',
    type: 'string',
    value: 'FILE',
    help: 'the OpenAPI document (default: spec/openapi.yaml); the reference server serves it too and Prism mocks it',
  },
  {
    name: 'no-color',
    type: 'boolean',
    env: 'NO_COLOR',
    help: 'no colours in the output (also when the output is not a terminal)',
  },
  {
    name: 'config',
    type: 'string',
    value: 'FILE',
    help: 'read options from FILE (default: plantstore.conformance.json or .yaml in the working directory, if there is one)',
  },
  { name: 'list', env: null, type: 'boolean', help: 'list the checks (ID, level, source, title) and exit' },
  { name: 'help', short: 'h', env: null, type: 'boolean', help: 'show this help and exit' },
  { name: 'version', env: null, type: 'boolean', help: 'show the version and exit' },
];

/** Every option, in the order --help lists them. */
export const OPTIONS: readonly OptionSpec[] = ROWS.map(({ env, ...o }) =>
  env === null ? o : { ...o, env: env ?? `PLANTSTORE_${o.name.toUpperCase().replace(/-/g, '_')}` },
);

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
over the environment, which wins over the file. PLANTSTORE_CACHE_DIR names
where the lint's findings are kept (default ~/.cache/plantstore; off keeps
nothing).

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

/** The lines of a help's option list: each flag, its value's name, its help wrapped at 79 columns and its environment variable. */
export function optionLines(options: readonly OptionSpec[]): string[] {
  const column = 26;
  const out: string[] = [];
  for (const o of options) {
    const flag = `  ${o.short ? `-${o.short}, ` : ''}--${o.name}${o.value ? ` ${o.value}` : ''}`;
    const help = wrap(`${o.help}${o.env ? ` [${o.env}]` : ''}`, 79, column);
    if (flag.length + 2 > column) out.push(flag, ...help.map((l) => `${' '.repeat(column)}${l}`));
    else out.push(`${flag.padEnd(column)}${help[0]}`, ...help.slice(1).map((l) => `${' '.repeat(column)}${l}`));
  }
  return out;
}

/** The run's option, by its name (for a command that takes it as the run does). */
export function runOption(name: string): OptionSpec {
  const o = OPTIONS.find((x) => x.name === name);
  if (!o) throw new Error(`no option --${name}`);
  return o;
}

/** --help's text, from OPTIONS. */
export function helpText(): string {
  const out = [
    'Usage: plantstore-conformance [run] [options]',
    '       plantstore-conformance compat --base OLD [--head NEW] (compat --help)',
    '       plantstore-conformance --list | --help | --version',
    '',
    INTRO,
    '',
    'Options:',
    ...optionLines(OPTIONS),
  ];
  out.push('', EPILOGUE, '');
  return out.join('\n');
}
