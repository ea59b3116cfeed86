// `plantstore-conformance compat`'s arguments, after the run's conventions
// (args.ts, options.ts): one table gives every option its flag, its
// environment variable and its help; a flag wins over the environment; an
// empty variable counts as unset; an unknown option gets "did you mean".
import { fromEnvironment, int, readFlags, UsageError } from './values.js';
import { optionLines, runOption, type OptionSpec } from './options.js';
import { DEFAULT_DOCUMENT } from '../compat/revision.js';

/** How long a whole comparison may take by default, in seconds: a run that proves changes takes seconds to a minute. */
export const DEFAULT_COMPAT_DEADLINE_SECONDS = 600;

export const COMPAT_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'base',
    type: 'string',
    env: 'PLANTSTORE_COMPAT_BASE',
    value: 'OLD',
    help: `the old document: a file, or a git revision (origin/main reads origin/main:${DEFAULT_DOCUMENT}; REV:path another file of it). Required`,
  },
  {
    name: 'head',
    type: 'string',
    env: 'PLANTSTORE_COMPAT_HEAD',
    value: 'NEW',
    help: `the new document, a file or a git revision as --base (default: ${DEFAULT_DOCUMENT} in the current directory)`,
  },
  { name: 'json', type: 'string', env: 'PLANTSTORE_COMPAT_JSON', value: 'FILE', help: 'write the JSON report to FILE' },
  {
    name: 'markdown',
    type: 'string',
    env: 'PLANTSTORE_COMPAT_MARKDOWN',
    value: 'FILE',
    help: 'write the report as Markdown (a pull-request comment, a job summary) to FILE',
  },
  {
    name: 'rules-only',
    type: 'boolean',
    env: 'PLANTSTORE_COMPAT_RULES_ONLY',
    help: 'classify the changes by the rules alone: start no server and run no check',
  },
  runOption('seed'),
  {
    name: 'cases',
    type: 'string',
    env: 'PLANTSTORE_CASES',
    value: 'N',
    help: 'generated cases per property check (default 20)',
  },
  {
    name: 'timeout',
    type: 'string',
    env: 'PLANTSTORE_TIMEOUT',
    value: 'MS',
    help: 'deadline of each exchange in milliseconds (default 10000)',
  },
  {
    name: 'deadline',
    type: 'string',
    env: 'PLANTSTORE_COMPAT_DEADLINE',
    value: 'SECONDS',
    help: `deadline of the whole comparison, which runs in a worker thread ended at it, however busy (default ${DEFAULT_COMPAT_DEADLINE_SECONDS}; exit 2 past it)`,
  },
  runOption('no-color'),
  runOption('help'),
];

export interface CompatCliOptions {
  action: 'compat' | 'help';
  base: { value: string; from: string } | undefined;
  head: { value: string; from: string };
  json: string | undefined;
  markdown: string | undefined;
  rulesOnly: boolean;
  seed: number;
  cases: number;
  timeoutMs: number;
  /** The whole comparison's deadline (--deadline), in ms. */
  deadlineMs: number;
  color: false | undefined;
}

export function parseCompatArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): CompatCliOptions {
  const flags = readFlags(
    argv,
    COMPAT_OPTIONS,
    (word) => `unexpected argument ${JSON.stringify(word)}: give the documents with --base OLD and --head NEW`,
    ' for compat',
  );
  const given = (name: string) => {
    const o = COMPAT_OPTIONS.find((x) => x.name === name)!;
    return flags[name] !== undefined ? { value: flags[name], from: `--${name}` } : fromEnvironment(o, env);
  };
  const text = (name: string) => {
    const g = given(name);
    return g === undefined ? undefined : { value: String(g.value), from: g.from };
  };
  const number = (name: string, fallback: number, min: number, max: number) => {
    const g = text(name);
    return int(g?.from ?? `--${name}`, g?.value, fallback, min, max);
  };
  const action = flags.help ? 'help' : 'compat';
  const base = text('base');
  if (action === 'compat' && base === undefined)
    throw new UsageError(
      'compat needs --base OLD: the old document, a file or a git revision (e.g. --base origin/main)',
    );
  return {
    action,
    base,
    head: text('head') ?? { value: DEFAULT_DOCUMENT, from: 'the default --head' },
    json: text('json')?.value,
    markdown: text('markdown')?.value,
    rulesOnly: given('rules-only')?.value === true,
    seed: number('seed', Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31 - 1),
    cases: number('cases', 20, 1, 100_000),
    timeoutMs: number('timeout', 10_000, 1, 600_000),
    deadlineMs: number('deadline', DEFAULT_COMPAT_DEADLINE_SECONDS, 1, 86_400) * 1000,
    color: given('no-color')?.value === true ? false : undefined,
  };
}

export function compatHelpText(): string {
  const out = [
    'Usage: plantstore-conformance compat --base OLD [--head NEW] [options]',
    '',
    'Says which changes from the OLD OpenAPI document to the NEW one break existing',
    'clients or existing servers, and proves each by running it: the checks',
    'derived from OLD against the reference server serving NEW (what existing',
    'clients meet), and the checks derived from NEW against the reference serving',
    'OLD (what existing servers do to new clients). Every change is listed with',
    'its JSON pointer, before and after, the side(s) it breaks and its source.',
    '',
    'Options:',
    ...optionLines(COMPAT_OPTIONS),
  ];
  out.push(
    '',
    'Exit codes: 0 compatible, 1 a change breaks existing clients or servers (as a failing',
    'check or an example shows, or as the rules say where execution is not possible),',
    '2 nothing can be said (a document that cannot be read, bad arguments).',
    '',
  );
  return out.join('\n');
}
