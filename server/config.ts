// Reads the server's configuration from the environment, refusing bad values
// with a message that names the variable.
import { DEFAULT_JOURNAL_SIZE, MAX_DELAY_MS, MAX_JOURNAL_SIZE } from './admin.js';
import { DEFAULT_BODY_LIMIT, DEFAULT_MAX_PLANTS } from './app.js';

export interface ServerConfig {
  port: number;
  host: string;
  tokens: string[] | undefined;
  logLevel: string;
  bodyLimit: number;
  maxPlants: number;
}

/** The stub's settings (README, "Use as a stub in CI"). */
export interface StubConfig {
  /** PLANTSTORE_ADMIN: the stub controls under /__admin, the journal and Prefer. */
  admin: boolean;
  adminToken: string | undefined;
  journalSize: number;
  delayMs: number;
  /** PLANTSTORE_SEED_FILE: a JSON array of NewPlant records stored at start. */
  seedFile: string | undefined;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export class ConfigError extends Error {}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    port: integer(env, 'PORT', 4010, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    tokens: tokens(env.PLANTSTORE_TOKENS),
    logLevel: logLevel(env.LOG_LEVEL),
    bodyLimit: integer(env, 'PLANTSTORE_BODY_LIMIT', DEFAULT_BODY_LIMIT, 1, 2 ** 31 - 1),
    maxPlants: integer(env, 'PLANTSTORE_MAX_PLANTS', DEFAULT_MAX_PLANTS, 0, Number.MAX_SAFE_INTEGER),
  };
}

export function readStubConfig(env: NodeJS.ProcessEnv = process.env): StubConfig {
  return {
    admin: onOff(env, 'PLANTSTORE_ADMIN', true),
    adminToken: adminToken(env.PLANTSTORE_ADMIN_TOKEN),
    journalSize: integer(env, 'PLANTSTORE_JOURNAL_SIZE', DEFAULT_JOURNAL_SIZE, 0, MAX_JOURNAL_SIZE),
    delayMs: integer(env, 'PLANTSTORE_DELAY_MS', 0, 0, MAX_DELAY_MS),
    seedFile: env.PLANTSTORE_SEED_FILE?.trim() || undefined,
  };
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function tokens(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const list = raw.split(',').map((t) => t.trim()).filter((t) => t !== '');
  // RFC 6750 §2.1 b64token: a token outside this syntax could never be presented.
  const bad = list.find((t) => !/^[A-Za-z0-9\-._~+/]+=*$/.test(t));
  if (bad !== undefined) throw new ConfigError('PLANTSTORE_TOKENS holds a token outside RFC 6750 §2.1 b64token syntax (A-Z a-z 0-9 - . _ ~ + / then any =)');
  return list;
}

function logLevel(raw: string | undefined): string {
  const level = raw?.trim().toLowerCase() || 'info';
  if (!LOG_LEVELS.includes(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(raw)}`);
  return level;
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  throw new ConfigError(`${name} must be on or off, got ${JSON.stringify(env[name])}`);
}

function adminToken(raw: string | undefined): string | undefined {
  const token = raw?.trim();
  if (token === undefined || token === '') return undefined;
  if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) {
    throw new ConfigError('PLANTSTORE_ADMIN_TOKEN is outside RFC 6750 §2.1 b64token syntax (A-Z a-z 0-9 - . _ ~ + / then any =)');
  }
  return token;
}
