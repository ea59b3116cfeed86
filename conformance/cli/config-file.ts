// The configuration file: plantstore.conformance.json, .yaml or .yml in the
// working directory, or the file --config (PLANTSTORE_CONFIG) names. Its keys
// are the long option names (target, token, rate-limit, …); every string in
// it may hold ${VAR} (the environment variable VAR; an unset one is an
// error), ${VAR:-default} (the default when VAR is unset or empty) and $$
// (a dollar sign). args.ts reads the values and gives them the lowest
// precedence: flags, then the environment, then this file. Whoever reads
// the file decides which variables ${VAR} may read (the CLI: its whole
// environment; the GitHub Action: only those its `config-variables` input
// names, so a file from a pull request cannot copy a CI secret into a
// request or a report), and every value substituted counts as a secret,
// redacted by value in every report.
import { StartError } from '../../lib/start-error.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

export const CONFIG_FILE_NAMES = [
  'plantstore.conformance.json',
  'plantstore.conformance.yaml',
  'plantstore.conformance.yml',
] as const;

export class ConfigFileError extends StartError {
  override readonly name = 'ConfigFileError';
  constructor(message: string) {
    super('PLANTSTORE_CONFIG_FILE', message);
  }
}

/** The configuration file of the working directory, or undefined; two of them is an error (which one wins would be a guess). */
export function findConfigFile(cwd: string): string | undefined {
  const present = CONFIG_FILE_NAMES.map((name) => join(cwd, name)).filter((file) => existsSync(file));
  if (present.length > 1)
    throw new ConfigFileError(
      `${present.map((f) => f.slice(cwd.length + 1)).join(' and ')} are both here: keep one, or name one with --config`,
    );
  return present[0];
}

const requireFromHere = createRequire(import.meta.url);

export interface ConfigFile {
  /** The file's top-level mapping, with ${VAR} substituted in every string. */
  values: Record<string, unknown>;
  /** Every value a ${VAR} was replaced with: secrets to redact in every report. */
  substituted: string[];
}

/**
 * The file's options, with ${VAR} read from `env`. `restricted`: `env`
 * holds only the variables the file may read, and any other is an error
 * that names it (else an unset one is).
 */
export function readConfigFile(file: string, env: NodeJS.ProcessEnv, restricted = false): ConfigFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigFileError(`cannot read the configuration file ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = file.endsWith('.json') ? JSON.parse(text) : (requireFromHere('yaml') as typeof Yaml).parse(text);
  } catch (err) {
    throw new ConfigFileError(
      `${file} is not ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(err as Error).message.split('\n')[0]}`,
    );
  }
  if (parsed === null || parsed === undefined) return { values: {}, substituted: [] };
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ConfigFileError(`${file}: the file holds a mapping of option names to values (target: …, token: …)`);
  const values: Record<string, unknown> = {};
  const substituted: string[] = [];
  for (const [key, value] of Object.entries(parsed))
    values[key] = substitute(value, env, `${file}: ${key}`, substituted, restricted);
  return { values, substituted };
}

const REFERENCE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** `value` with ${VAR}, ${VAR:-default} and $$ replaced in every string it holds; each value a VAR gave is pushed on `substituted`. */
export function substitute(
  value: unknown,
  env: NodeJS.ProcessEnv,
  where: string,
  substituted: string[] = [],
  restricted = false,
): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (whole, name: string | undefined, fallback: string | undefined) => {
      if (whole === '$$') return '$';
      if (restricted && !Object.hasOwn(env, name!))
        throw new ConfigFileError(
          `${where}: \${${name}} is not a variable this run may read (the GitHub Action's \`config-variables\` input names those a configuration file may use)`,
        );
      const set = Object.hasOwn(env, name!) ? env[name!] : undefined;
      if (set !== undefined && set !== '') {
        substituted.push(set);
        return set;
      }
      if (fallback !== undefined) return fallback;
      if (set === '') return '';
      throw new ConfigFileError(
        `${where}: \${${name}} is not set in the environment (write \${${name}:-default} for a default)`,
      );
    });
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, env, where, substituted, restricted));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, substitute(v, env, where, substituted, restricted)]),
    );
  return value;
}
