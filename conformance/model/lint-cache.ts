// The findings of a document's lint, kept on disk by everything they depend
// on, so that linting the same document again costs a file read instead of
// Spectral's second or more of CPU (five under load): a spec author
// rerunning the harness while fixing a server, a CI job running it per
// target, the project's own tests. Like a compiler's cache: a key that
// misses, a file that cannot be read or does not hold findings, a folder
// that cannot be written, each only means the lint runs. Nothing but the
// findings is kept (the document's text never is).
//
// PLANTSTORE_CACHE_DIR names the folder; `off` (or empty) keeps nothing.
// Default: $XDG_CACHE_HOME/plantstore, else ~/.cache/plantstore.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { SEVERITIES, type LintFinding } from './lint-finding.js';

const require = createRequire(import.meta.url);
const FORMAT = 1;
/** Spectral's packages that decide what a lint finds: the engine, the parsers, the built-in rulesets and functions. */
const SPECTRAL_PACKAGES = [
  '@stoplight/spectral-core',
  '@stoplight/spectral-parsers',
  '@stoplight/spectral-rulesets',
  '@stoplight/spectral-functions',
  '@stoplight/spectral-ruleset-bundler',
];

/** The cache's folder, or undefined when PLANTSTORE_CACHE_DIR switches it off. */
export function lintCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env.PLANTSTORE_CACHE_DIR;
  if (named !== undefined) return named === '' || named === 'off' ? undefined : named;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'plantstore');
}

/** The version of an installed package, found from its entry point (several of Spectral's export no package.json). */
function installedVersion(name: string): string {
  for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // Not this folder: look further up.
    }
  }
  throw new Error(`${name}: no package.json found`);
}

/**
 * What a lint's findings depend on, as one SHA-256: the document's bytes,
 * the ruleset's, the code that loads the ruleset and maps the findings
 * (the text of lint.js and ruleset.js), and Spectral's versions. Undefined
 * where the findings may depend on more than that: a document with a
 * `$ref` to anything but itself (Spectral would read the other file), or
 * an install where the code or Spectral's packages cannot be found (the
 * Action's bundle), or a file that cannot be read (the lint says why).
 */
export function lintKey(specPath: string, rulesetPath: string): string | undefined {
  try {
    const document = readFileSync(specPath);
    if (/\$ref["']?\s*:(?!\s*["']?#)/.test(document.toString('utf8'))) return undefined;
    const hash = createHash('sha256');
    const parts = [
      `plantstore lint cache ${FORMAT}`,
      readFileSync(new URL('./lint.js', import.meta.url)),
      readFileSync(new URL('./ruleset.js', import.meta.url)),
      ...SPECTRAL_PACKAGES.map((name) => `${name}@${installedVersion(name)}`),
      readFileSync(rulesetPath),
      document,
    ];
    for (const part of parts) hash.update(part).update('\0');
    return hash.digest('hex');
  } catch {
    return undefined;
  }
}

const isFinding = (value: unknown): value is LintFinding =>
  typeof value === 'object' &&
  value !== null &&
  ['code', 'message', 'path'].every((key) => typeof (value as Record<string, unknown>)[key] === 'string') &&
  (SEVERITIES as readonly unknown[]).includes((value as Record<string, unknown>).severity);

/** The findings kept under `key`, or undefined when none are (or the file holds anything else). */
export function keptFindings(dir: string, key: string): LintFinding[] | undefined {
  try {
    const kept = JSON.parse(readFileSync(join(dir, `lint-${key}.json`), 'utf8')) as {
      key?: unknown;
      findings?: unknown;
    };
    return kept.key === key && Array.isArray(kept.findings) && kept.findings.every(isFinding)
      ? kept.findings
      : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the findings under `key`: written beside, then renamed, so that a reader finds a whole file or none. Never throws. */
export function keepFindings(dir: string, key: string, findings: LintFinding[]): void {
  const file = join(dir, `lint-${key}.json`);
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(partial, JSON.stringify({ key, findings }), { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {
      // The folder cannot be used at all: nothing was written.
    }
  }
}
