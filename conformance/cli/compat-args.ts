// `plantstore-conformance compat`'s arguments, after the run's conventions
// (args.ts, options.ts): one table gives every option its flag, its
// environment variable and its help; a flag wins over the environment; an
// empty variable counts as unset; an unknown option gets "did you mean".
import { parseArgs } from 'node:util';
import { BOOLEAN_WORDS, int, UsageError } from './values.js';
import { wrap } from './options.js';
import { closest } from './suggest.js';
import { DEFAULT_DOCUMENT } from '../compat/revision.js';


/** How long a whole comparison may take by default, in seconds: a run that proves changes takes seconds to a minute. */
export const DEFAULT_COMPAT_DEADLINE_SECONDS = 600;

interface CompatOptionSpec {
  name: string;
  short?: string;
  type: 'string' | 'boolean';
  env?: string;
  value?: string;
  help: string;
}

export const COMPAT_OPTIONS: readonly CompatOptionSpec[] = [
  { name: 'base', type: 'string', env: 'PLANTSTORE_COMPAT_BASE', value: 'OLD', help: `the old document: a file, or a git revision (origin/main reads origin/main:${DEFAULT_DOCUMENT}; REV:path another file of it). Required` },
  { name: 'head', type: 'string', env: 'PLANTSTORE_COMPAT_HEAD', value: 'NEW', help: `the new document, a file or a git revision as --base (default: ${DEFAULT_DOCUMENT} in the current directory)` },
  { name: 'json', type: 'string', env: 'PLANTSTORE_COMPAT_JSON', value: 'FILE', help: 'write the JSON report to FILE' },
  { name: 'markdown', type: 'string', env: 'PLANTSTORE_COMPAT_MARKDOWN', value: 'FILE', help: 'write the report as Markdown (a pull-request comment, a job summary) to FILE' },
  { name: 'rules-only', type: 'boolean', env: 'PLANTSTORE_COMPAT_RULES_ONLY', help: 'classify the changes by the rules alone: start no server and run no check' },
  { name: 'seed', type: 'string', env: 'PLANTSTORE_SEED', value: 'N', help: 'seed of the generated cases (default: random; always printed)' },
  { name: 'cases', type: 'string', env: 'PLANTSTORE_CASES', value: 'N', help: 'generated cases per property check (default 20)' },
  { name: 'timeout', type: 'string', env: 'PLANTSTORE_TIMEOUT', value: 'MS', help: 'deadline of each exchange in milliseconds (default 10000)' },
  { name: 'deadline', type: 'string', env: 'PLANTSTORE_COMPAT_DEADLINE', value: 'SECONDS', help: `deadline of the whole comparison, which runs in a worker thread ended at it, however busy (default ${DEFAULT_COMPAT_DEADLINE_SECONDS}; exit 2 past it)` },
  { name: 'no-color', type: 'boolean', env: 'NO_COLOR', help: 'no colours in the output (also when the output is not a terminal)' },
  { name: 'help', short: 'h', type: 'boolean', help: 'show this help and exit' },
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
  const options = Object.fromEntries(COMPAT_OPTIONS.map((o) => [o.name, { type: o.type, ...(o.short ? { short: o.short } : {}) }]));
  let flags: Record<string, string | boolean | undefined>;
  try {
    flags = parseArgs({ args: argv, strict: true, allowPositionals: false, options }).values as Record<string, string | boolean | undefined>;
  } catch (err) {
    const e = err as Error & { code?: string };
    const word = /'([^']+)'/.exec(e.message)?.[1] ?? '';
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const near = word.startsWith('--') ? closest(word.split('=')[0]!, COMPAT_OPTIONS.map((o) => `--${o.name}`)) : undefined;
      throw new UsageError(`unknown option ${word}${near ? ` (did you mean ${near}?)` : ''} for compat`);
    }
    if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new UsageError(`unexpected argument ${JSON.stringify(word)}: give the documents with --base OLD and --head NEW`);
    throw new UsageError(e.message);
  }
  const given = (name: string): { value: string | boolean; from: string } | undefined => {
    const o = COMPAT_OPTIONS.find((x) => x.name === name)!;
    if (flags[name] !== undefined) return { value: flags[name]!, from: `--${name}` };
    const raw = o.env ? env[o.env] : undefined;
    if (raw === undefined || raw === '') return undefined;
    if (o.env === 'NO_COLOR') return { value: true, from: o.env };
    if (o.type === 'boolean') {
      const v = BOOLEAN_WORDS[raw.trim().toLowerCase()];
      if (v === undefined) throw new UsageError(`${o.env} is true or false (1 or 0, yes or no), not ${JSON.stringify(raw)}`);
      return { value: v, from: o.env! };
    }
    return { value: raw, from: o.env! };
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
  if (action === 'compat' && base === undefined) throw new UsageError('compat needs --base OLD: the old document, a file or a git revision (e.g. --base origin/main)');
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
  const column = 26;
  const out = [
    'Usage: plantstore-conformance compat --base OLD [--head NEW] [options]',
    '',
    'Says which changes from the OLD OpenAPI document to the NEW one break existing',
    'clients or existing servers, and proves each by running it: the checks',
    "derived from OLD against the reference server serving NEW (what existing",
    'clients meet), and the checks derived from NEW against the reference serving',
    'OLD (what existing servers do to new clients). Every change is listed with',
    'its JSON pointer, before and after, the side(s) it breaks and its source.',
    '',
    'Options:',
  ];
  for (const o of COMPAT_OPTIONS) {
    const flag = `  ${o.short ? `-${o.short}, ` : ''}--${o.name}${o.value ? ` ${o.value}` : ''}`;
    const help = wrap(`${o.help}${o.env ? ` [${o.env}]` : ''}`, 79, column);
    if (flag.length + 2 > column) out.push(flag, ...help.map((l) => `${' '.repeat(column)}${l}`));
    else out.push(`${flag.padEnd(column)}${help[0]}`, ...help.slice(1).map((l) => `${' '.repeat(column)}${l}`));
  }
  out.push('', 'Exit codes: 0 compatible, 1 a change breaks existing clients or servers, 2 the', 'command could not run (a document that cannot be read or served, bad arguments).', '');
  return out.join('\n');
}
