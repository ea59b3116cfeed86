// Reads the server's configuration from the environment, refusing bad values
// with a message that names the variable.
import { B64TOKEN_SYNTAX, isB64Token } from '../lib/http-syntax.js';
import { StartError } from '../lib/start-error.js';
import {
  DEFAULT_POOL_SIZE,
  MAX_POOL_SIZE,
  DEFAULT_BODY_LIMIT,
  DEFAULT_HOST,
  DEFAULT_JOURNAL_BYTES,
  DEFAULT_JOURNAL_SIZE,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_PLANTS,
  MAX_BODY_LIMIT,
  MAX_DELAY_MS,
  MAX_JOURNAL_BYTES,
  MAX_JOURNAL_SIZE,
  MIN_JOURNAL_BYTES,
} from './limits.js';
import { ALL_INFERENCES, type Inference } from './operations/served.js';

export interface ServerConfig {
  port: number;
  host: string;
  tokens: string[] | undefined;
  /** PLANTSTORE_CREDENTIALS: the values each security scheme accepts, by the scheme's name (security/credentials.ts checks them against the document). */
  credentials: Map<string, string[]> | undefined;
  logLevel: string;
  /** LOG_FORMAT: json or pretty; unset, pretty at a terminal and JSON lines elsewhere (logging.ts logFormat). */
  logFormat: 'json' | 'pretty' | undefined;
  bodyLimit: number;
  maxPlants: number;
  maxBytes: number;
  /** PLANTSTORE_SPEC: the OpenAPI document to serve instead of the one built in. */
  specPath: string | undefined;
  /** PLANTSTORE_DATABASE_URL: a PostgreSQL database to keep the plants in; unset, they are kept in memory. */
  databaseUrl: string | undefined;
  /** PLANTSTORE_DATABASE_POOL: most connections to that database. */
  databasePool: number;
  /** PLANTSTORE_INFER: which of the document's implications the server acts on (docs/server.md, "Every operation"). */
  inference: Inference;
  /** PLANTSTORE_STRICT: refuse a document with a feature the server does not serve as it is written. */
  strict: boolean;
}

/** The stub's settings (docs/stub.md, "Stub configuration"). */
export interface StubConfig {
  /** PLANTSTORE_ADMIN: the stub's controls under /__admin, the journal and Prefer. */
  controls: boolean;
  /** PLANTSTORE_ADMIN_TOKEN: the token the controls require. */
  controlsToken: string | undefined;
  /** PLANTSTORE_ALLOWED_HOSTS: host names the controls answer without a token, besides loopback names and IP addresses; '*' any. */
  allowedHosts: string[] | '*';
  /** PLANTSTORE_PREFER=admin: a Prefer asking for a code, a fault or a delay needs the admin token. */
  preferNeedsControlsToken: boolean;
  journalSize: number;
  /** PLANTSTORE_JOURNAL_BYTES: the journal's byte budget. */
  journalBytes: number;
  delayMs: number;
  /** PLANTSTORE_PLANTS_FILE: a JSON array of NewPlant records stored at start, and the variable that named it. */
  plantsFile: { path: string; variable: string } | undefined;
  /** What start.ts logs at warn: variables that work but are on their way out. */
  warnings: string[];
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A variable the server cannot use, or settings wrong together: the message names the variable. */
export class ConfigError extends StartError {
  override readonly name = 'ConfigError';
  constructor(message: string) {
    super('PLANTSTORE_CONFIG', message);
  }
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    port: integer(env, 'PORT', 4010, 0, 65535),
    host: env.HOST?.trim() || DEFAULT_HOST,
    tokens: tokens(env.PLANTSTORE_TOKENS),
    credentials: credentials(env.PLANTSTORE_CREDENTIALS),
    logLevel: logLevel(env.LOG_LEVEL),
    logFormat: env.LOG_FORMAT?.trim() ? oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const, 'json') : undefined,
    bodyLimit: integer(env, 'PLANTSTORE_BODY_LIMIT', DEFAULT_BODY_LIMIT, 1, MAX_BODY_LIMIT),
    maxPlants: integer(env, 'PLANTSTORE_MAX_PLANTS', DEFAULT_MAX_PLANTS, 0, Number.MAX_SAFE_INTEGER),
    maxBytes: integer(env, 'PLANTSTORE_MAX_BYTES', DEFAULT_MAX_BYTES, 0, Number.MAX_SAFE_INTEGER),
    specPath: env.PLANTSTORE_SPEC?.trim() || undefined,
    databaseUrl: databaseUrl(env.PLANTSTORE_DATABASE_URL),
    databasePool: integer(env, 'PLANTSTORE_DATABASE_POOL', DEFAULT_POOL_SIZE, 1, MAX_POOL_SIZE),
    inference: inference(env.PLANTSTORE_INFER),
    strict: onOff(env, 'PLANTSTORE_STRICT', false),
  };
}

/** PLANTSTORE_INFER: a comma-separated list of the inferences to act on, `none` for none; unset, every one. */
function inference(raw: string | undefined): Inference {
  const text = raw?.trim().toLowerCase();
  if (text === undefined || text === '') return ALL_INFERENCES;
  const names = Object.keys(ALL_INFERENCES) as Array<keyof Inference>;
  const off = Object.fromEntries(names.map((name) => [name, false])) as unknown as Inference;
  if (text === 'none') return off;
  const chosen = text
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
  const unknown = chosen.filter((word) => !(names as string[]).includes(word));
  if (unknown.length > 0 || chosen.length === 0) {
    throw new ConfigError(
      `PLANTSTORE_INFER must be none, or a comma-separated list of ${names.join(', ')}; got ${JSON.stringify(raw)}`,
    );
  }
  return { ...off, ...Object.fromEntries(chosen.map((word) => [word, true])) };
}

export function readStubConfig(env: NodeJS.ProcessEnv = process.env): StubConfig {
  const warnings: string[] = [];
  return {
    controls: onOff(env, 'PLANTSTORE_ADMIN', true),
    controlsToken: controlsToken(env.PLANTSTORE_ADMIN_TOKEN),
    allowedHosts: allowedHosts(env.PLANTSTORE_ALLOWED_HOSTS),
    preferNeedsControlsToken: oneOf(env, 'PLANTSTORE_PREFER', ['open', 'admin'], 'open') === 'admin',
    journalSize: integer(env, 'PLANTSTORE_JOURNAL_SIZE', DEFAULT_JOURNAL_SIZE, 0, MAX_JOURNAL_SIZE),
    journalBytes: integer(env, 'PLANTSTORE_JOURNAL_BYTES', DEFAULT_JOURNAL_BYTES, MIN_JOURNAL_BYTES, MAX_JOURNAL_BYTES),
    delayMs: integer(env, 'PLANTSTORE_DELAY_MS', 0, 0, MAX_DELAY_MS),
    plantsFile: plantsFile(env, warnings),
    warnings,
  };
}

/** The whole number in the variable `name`, `fallback` when unset; a ConfigError naming it when outside min to max. */
export function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function tokens(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = raw
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  // Set but empty (a CI variable that expanded to nothing, or ","): a list
  // that refuses every client, or, read as unset, accepts anyone. Neither is
  // what was meant.
  if (list.length === 0) {
    throw new ConfigError(
      'PLANTSTORE_TOKENS is set but holds no token: list the accepted tokens, comma-separated, or unset it to accept any token',
    );
  }
  // RFC 6750 §2.1 b64token: a token outside this syntax could never be presented.
  if (!list.every(isB64Token))
    throw new ConfigError(`PLANTSTORE_TOKENS holds a token outside RFC 6750 §2.1 b64token syntax (${B64TOKEN_SYNTAX})`);
  return list;
}

/**
 * PLANTSTORE_CREDENTIALS: `scheme=value` pairs, comma-separated, a scheme
 * named as often as it has values (`basicAuth=alice:s3cret,plantKey=k1`).
 * Within a value, `\,` is a comma and `\\` a backslash. Messages name the
 * pair's place and scheme, never its value.
 */
function credentials(raw: string | undefined): Map<string, string[]> | undefined {
  if (raw === undefined) return undefined;
  const pairs: string[] = [];
  let current = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && (raw[i + 1] === ',' || raw[i + 1] === '\\')) current += raw[++i];
    else if (c === ',') {
      pairs.push(current);
      current = '';
    } else current += c;
  }
  pairs.push(current);
  const byScheme = new Map<string, string[]>();
  for (const [index, pair] of pairs.map((p) => p.trim()).entries()) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const scheme = equals === -1 ? '' : pair.slice(0, equals).trim();
    const value = equals === -1 ? '' : pair.slice(equals + 1).trim();
    if (scheme === '' || value === '')
      throw new ConfigError(
        `PLANTSTORE_CREDENTIALS: pair ${index + 1} is not scheme=value (the name of a security scheme of the document, then its credential)`,
      );
    byScheme.set(scheme, [...(byScheme.get(scheme) ?? []), value]);
  }
  if (byScheme.size === 0)
    throw new ConfigError(
      'PLANTSTORE_CREDENTIALS is set but holds no scheme=value pair: list the credentials, comma-separated, or unset it',
    );
  return byScheme;
}

/** A postgres:// or postgresql:// URL; messages never repeat it, as it may hold a password. */
function databaseUrl(raw: string | undefined): string | undefined {
  const url = raw?.trim();
  if (url === undefined || url === '') return undefined;
  let protocol: string | undefined;
  try {
    protocol = new URL(url).protocol;
  } catch {
    // not a URL: protocol stays undefined
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new ConfigError(
      'PLANTSTORE_DATABASE_URL must be a URL of the form postgres://user:password@host:port/database',
    );
  }
  return url;
}

function logLevel(raw: string | undefined): string {
  const level = raw?.trim().toLowerCase() || 'info';
  if (!LOG_LEVELS.includes(level))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(raw)}`);
  return level;
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  throw new ConfigError(`${name} must be on or off, got ${JSON.stringify(env[name])}`);
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${values.join(', ')}, got ${JSON.stringify(env[name])}`);
  return raw as T;
}

/** Host names, comma-separated (a port is not part of a name), or `*`. */
function allowedHosts(raw: string | undefined): string[] | '*' {
  const list = (raw ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== '');
  if (list.includes('*')) return '*';
  const bad = list.find((host) => !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/.test(host));
  if (bad !== undefined)
    throw new ConfigError(
      `PLANTSTORE_ALLOWED_HOSTS must list host names (without a port), comma-separated, or be *; got ${JSON.stringify(bad)}`,
    );
  return list;
}

function controlsToken(raw: string | undefined): string | undefined {
  const token = raw?.trim();
  if (token === undefined || token === '') return undefined;
  if (!isB64Token(token))
    throw new ConfigError(`PLANTSTORE_ADMIN_TOKEN is outside RFC 6750 §2.1 b64token syntax (${B64TOKEN_SYNTAX})`);
  return token;
}

/** PLANTSTORE_PLANTS_FILE, or PLANTSTORE_SEED_FILE, its former name, still read (with a warning). */
function plantsFile(env: NodeJS.ProcessEnv, warnings: string[]): StubConfig['plantsFile'] {
  const path = env.PLANTSTORE_PLANTS_FILE?.trim() || undefined;
  const former = env.PLANTSTORE_SEED_FILE?.trim() || undefined;
  if (former === undefined) return path === undefined ? undefined : { path, variable: 'PLANTSTORE_PLANTS_FILE' };
  if (path !== undefined && path !== former) {
    throw new ConfigError(
      'PLANTSTORE_PLANTS_FILE and PLANTSTORE_SEED_FILE (its former name) name different files: set PLANTSTORE_PLANTS_FILE only',
    );
  }
  warnings.push('PLANTSTORE_SEED_FILE is deprecated: set PLANTSTORE_PLANTS_FILE, its new name, instead');
  return path === undefined
    ? { path: former, variable: 'PLANTSTORE_SEED_FILE' }
    : { path, variable: 'PLANTSTORE_PLANTS_FILE' };
}

/**
 * Settings that are each valid but wrong together: an admin token that is
 * also an API token would let every API client reset the store and read the
 * journal, the separation PLANTSTORE_ADMIN_TOKEN exists for.
 */
export function checkTogether(config: ServerConfig, stub: StubConfig): void {
  if (stub.controlsToken !== undefined && config.tokens?.includes(stub.controlsToken)) {
    throw new ConfigError(
      'PLANTSTORE_ADMIN_TOKEN equals a token of PLANTSTORE_TOKENS: the controls token must differ from every API token',
    );
  }
  const named = [...(config.credentials ?? [])].find(([, values]) => values.includes(stub.controlsToken ?? ''));
  if (stub.controlsToken !== undefined && named !== undefined) {
    throw new ConfigError(
      `PLANTSTORE_ADMIN_TOKEN equals a credential of ${named[0]} in PLANTSTORE_CREDENTIALS: the controls token must differ from every API credential`,
    );
  }
  // A guard with no token would refuse every Prefer, or (read as unset) none: neither is what was meant.
  if (stub.preferNeedsControlsToken && stub.controlsToken === undefined) {
    throw new ConfigError(
      'PLANTSTORE_PREFER=admin needs PLANTSTORE_ADMIN_TOKEN: set the admin token that Prefer faults require',
    );
  }
}

/** What start.ts logs at warn because it is open to anyone who reaches the port, each with what to set instead. */
export function openSettings(_config: ServerConfig, stub: StubConfig): string[] {
  const open: string[] = [];
  // Which schemes accept any credential depends on the document: buildApp says (security/credentials.ts, app.credentialWarnings).
  if (stub.controls && stub.controlsToken === undefined) {
    open.push(
      'stub controls on at /__admin without a token: anyone who reaches the port can read the journal, change the store, schedule faults and name webhook receivers; ' +
        'set PLANTSTORE_ADMIN_TOKEN, or PLANTSTORE_ADMIN=off when the server is not a stub',
    );
  }
  return open;
}
