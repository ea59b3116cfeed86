// Each option's value checked as the option takes it, wherever it came from
// (a flag, an environment variable, the configuration file): a message that
// makes no sense to the run is a UsageError naming where the value came from.
import { parseArgs } from 'node:util';
import { StartError } from '../../lib/start-error.js';
import { catalog } from '../checks/index.js';
import { INFERENCES, type Inference } from '../checks/types.js';
import type { OptionSpec } from './options.js';
import { closest, didYouMean } from './suggest.js';

export class UsageError extends StartError {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super('PLANTSTORE_USAGE', message);
  }
}

/**
 * The flags of `argv` as parseArgs reads them by `options`; an unknown one
 * gets a suggestion (and `context` after it), a word that is no flag the
 * message `positional` gives it.
 */
export function readFlags(
  argv: string[],
  options: readonly OptionSpec[],
  positional: (word: string) => string,
  context = '',
): Record<string, string | boolean | string[] | undefined> {
  const spec = Object.fromEntries(
    options.map((o) => [
      o.name,
      { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) },
    ]),
  );
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options: spec }).values as Record<
      string,
      string | boolean | string[] | undefined
    >;
  } catch (err) {
    const e = err as Error & { code?: string };
    const word = /'([^']+)'/.exec(e.message)?.[1] ?? '';
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const near = word.startsWith('--')
        ? closest(
            word.split('=')[0]!,
            options.map((o) => `--${o.name}`),
          )
        : undefined;
      throw new UsageError(`unknown option ${word}${near ? ` (did you mean ${near}?)` : ''}${context}`);
    }
    if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new UsageError(positional(word));
    throw new UsageError(e.message);
  }
}

export function int(from: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new UsageError(`${from} must be an integer from ${min} to ${max}, not ${JSON.stringify(value)}`);
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
export interface Given {
  value: string | boolean | string[];
  from: string;
}

/** Names the harness reserves for the targets it starts. */
const RESERVED_NAMES = ['reference', 'prism'];
/** A target's name: what its column is called in every report. */
const TARGET_NAME = /^[A-Za-z][A-Za-z0-9._-]{0,31}$/;

export function parseTargets(given: Given | undefined): Array<{ name: string; url: string }> {
  const raws = (given?.value as string[] | undefined) ?? [];
  const targets = raws.map((raw, i) => {
    const named = /^([^=:/]+)=(.*)$/s.exec(raw);
    const rawUrl = named ? named[2]! : raw;
    // Messages quote the URL without anything between "//" and "@": that may be a password.
    const shown = JSON.stringify(withoutUserInformation(rawUrl));
    if (named && !TARGET_NAME.test(named[1]!))
      throw new UsageError(
        `${given!.from} ${JSON.stringify(named[1])}=…: a target's name is a letter then letters, digits, ".", "_" or "-" (at most 32)`,
      );
    if (named && RESERVED_NAMES.includes(named[1]!))
      throw new UsageError(
        `${given!.from} ${named[1]}=…: "${named[1]}" names the target --${named[1]} starts; choose another name`,
      );
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new UsageError(
        `${given!.from} ${shown} is not a URL (write it as http://host:port/prefix, or NAME=http://…)`,
      );
    }
    // A password on the command line ends up in shell history, process lists
    // and the reports' target URL; the harness sends bearer tokens only.
    if (url.username !== '' || url.password !== '') {
      throw new UsageError(
        `${given!.from} ${shown}: a URL with user information (user:password@) is refused; give the bearer token with --token or PLANTSTORE_TOKEN, HTTP Basic credentials with --credential SCHEME=USER:PASSWORD`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError(`${given!.from} ${shown}: only http and https URLs`);
    if (url.search || url.hash) throw new UsageError(`${given!.from} ${shown}: a base URL has no query or fragment`);
    return {
      name: named ? named[1]! : raws.length === 1 ? 'target' : `target-${i + 1}`,
      url: url.href.replace(/\/+$/, ''),
    };
  });
  const names = targets.map((t) => t.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new UsageError(`${given!.from}: two targets are named ${twice}`);
  return targets;
}

/** RFC 9110 §5.1: field-name = token. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Fields the checks set themselves, or the HTTP client does: a header of the user's would change what the checks test. */
const HEADERS_THE_HARNESS_SETS = [
  'authorization',
  'content-type',
  'content-length',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-connection',
];

export function parseHeaders(given: Given | undefined): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const raw of (given?.value as string[] | undefined) ?? []) {
    const colon = raw.indexOf(':');
    const name = colon === -1 ? raw.trim() : raw.slice(0, colon).trim();
    const value = colon === -1 ? '' : raw.slice(colon + 1).trim();
    if (colon === -1 || !FIELD_NAME.test(name))
      throw new UsageError(
        `${given!.from} ${JSON.stringify(raw)}: a header is written "Name: value", e.g. -H "x-api-key: $API_KEY"`,
      );

    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value))
      throw new UsageError(
        `${given!.from} ${name}: a header value cannot hold control characters (a line break would start another header)`,
      );
    const lower = name.toLowerCase();
    if (lower === 'authorization')
      throw new UsageError(
        `${given!.from} ${name}: the checks send their own Authorization; give the bearer token with --token or PLANTSTORE_TOKEN, other credentials with --credential SCHEME=VALUE`,
      );
    if (HEADERS_THE_HARNESS_SETS.includes(lower))
      throw new UsageError(`${given!.from} ${name}: the checks or the HTTP client set ${name} themselves`);
    if (out.some(([n]) => n.toLowerCase() === lower)) throw new UsageError(`${given!.from} ${name}: given twice`);
    out.push([name, value]);
  }
  return out;
}

export function parseOnly(given: Given | undefined): string[] | undefined {
  if (given === undefined) return undefined;
  const ids = String(given.value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const known = catalog.map((c) => c.id);
  for (const id of ids) {
    if (!known.includes(id))
      throw new UsageError(`${given.from}: no check ${id}${didYouMean(id, known)}; --list shows every check`);
  }
  return ids;
}

/** The inferences left on once --no-infer has switched some off. */
export function parseInferences(given: Given | undefined): Inference[] {
  if (given === undefined) return [...INFERENCES];
  const off = String(given.value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of off) {
    if (!(INFERENCES as readonly string[]).includes(name))
      throw new UsageError(
        `${given.from}: no inference ${name}${didYouMean(name, [...INFERENCES])}; the inferences: ${INFERENCES.join(', ')}`,
      );
  }
  return INFERENCES.filter((i) => !off.includes(i));
}

export const BOOLEAN_WORDS: Record<string, boolean> = {
  '1': true,
  true: true,
  yes: true,
  on: true,
  '0': false,
  false: false,
  no: false,
  off: false,
};

/** A value from the environment, as its option takes it; undefined when the variable is unset or empty. */
export function fromEnvironment(o: OptionSpec, env: NodeJS.ProcessEnv): Given | undefined {
  const raw = o.env === undefined ? undefined : env[o.env];
  if (raw === undefined || raw === '') return undefined;
  const from = o.env!;
  // NO_COLOR's convention: set to anything, colours are off (https://no-color.org).
  if (o.env === 'NO_COLOR') return { value: true, from };
  if (o.type === 'boolean') {
    const value = BOOLEAN_WORDS[raw.trim().toLowerCase()];
    if (value === undefined)
      throw new UsageError(`${from} is true or false (1 or 0, yes or no), not ${JSON.stringify(raw)}`);
    return { value, from };
  }
  if (o.multiple) {
    const parts = (o.envSeparator === 'newline' ? raw.split(/\r?\n/) : raw.split(/\s+/))
      .map((s) => s.trim())
      .filter(Boolean);
    return parts.length === 0 ? undefined : { value: parts, from };
  }
  return { value: raw, from };
}

/** A value from the configuration file, as its option takes it. */
export function fromFile(o: OptionSpec, value: unknown, file: string): Given | undefined {
  const from = `${o.name} in ${file}`;
  if (value === null || value === undefined) return undefined;
  if (o.type === 'boolean') {
    const flag =
      typeof value === 'boolean'
        ? value
        : BOOLEAN_WORDS[(typeof value === 'string' ? value : JSON.stringify(value)).trim().toLowerCase()];
    if (flag === undefined) throw new UsageError(`${from} is true or false, not ${JSON.stringify(value)}`);
    return { value: flag, from };
  }
  if (o.multiple) {
    // A list, one value, or (target, header, credential) a mapping of names to values.
    let items: unknown[];
    if (Array.isArray(value)) items = value;
    else if (typeof value === 'object')
      items = Object.entries(value as Record<string, unknown>).map(([k, v]) =>
        o.name === 'header' ? `${k}: ${String(v)}` : `${k}=${String(v)}`,
      );
    else items = [value];
    if (items.some((item) => typeof item !== 'string' && typeof item !== 'number'))
      throw new UsageError(
        `${from}: a list of strings${o.name === 'target' ? ', or a mapping of names to URLs' : o.name === 'header' ? ', or a mapping of names to values' : o.name === 'credential' ? ', or a mapping of scheme names to credentials' : ''}`,
      );
    return { value: items.map(String), from };
  }
  if (typeof value !== 'string' && typeof value !== 'number')
    throw new UsageError(
      `${from} is a ${typeof value === 'object' ? (Array.isArray(value) ? 'list' : 'mapping') : typeof value}; it takes one value`,
    );
  return { value: String(value), from };
}
