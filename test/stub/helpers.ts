// Shared by the stub's tests: an app with the controls on, and requests to it.
import { execFile, spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../server/app.js';
import type { JournalEntry } from '../../server/stub/journal.js';

export const TOKEN = 'client-token';
export const AUTH = { authorization: `Bearer ${TOKEN}` };
export const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };

export function stubApp(options: AppOptions = {}): FastifyInstance {
  return buildApp({ tokens: [TOKEN], stub: {}, ...options });
}

export async function createPlant(app: FastifyInstance, plant: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/plants',
    headers: { ...JSON_AUTH, ...headers },
    payload: JSON.stringify(plant),
  });
}

/** The app listening on a free loopback port, and its base URL. */
export async function listening(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** POST /__admin/faults with `body` as written, whatever it answers: for the tests of what it takes and refuses. */
export function postFaults(app: FastifyInstance, body: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/__admin/faults',
    headers: { 'content-type': 'application/json', ...headers },
    payload: body,
  });
}

/** The stub's scheduled steps: POST /__admin/faults, which must succeed. */
export async function schedule(app: FastifyInstance, steps: unknown[]): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: '/__admin/faults',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(steps),
  });
  if (res.statusCode !== 200) throw new Error(`POST /__admin/faults answered ${res.statusCode}: ${res.body}`);
}

/** The journal's entries (the first page), oldest first. */
export async function journalEntries(app: FastifyInstance): Promise<JournalEntry[]> {
  return (await app.inject({ method: 'GET', url: '/__admin/journal' })).json().entries;
}

/** Stored plants' ids, as the controls list them. */
export async function storedIds(app: FastifyInstance): Promise<string[]> {
  return (await app.inject({ method: 'GET', url: '/__admin/plants' }))
    .json()
    .plants.map((plant: { id: string }) => plant.id);
}

/** Why curl cannot be run here, or undefined when it can (tests that use it skip, saying so). */
export const curlMissing: string | undefined = (() => {
  const probe = spawnSync('curl', ['--version'], { encoding: 'utf8' });
  return probe.error !== undefined || probe.status !== 0
    ? `curl is not on this machine (${probe.error?.message ?? `exit ${probe.status}`})`
    : undefined;
})();

export interface CurlResult {
  /** curl's exit code (0, or its error number: 18, 28, 52, 56, ...). */
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** Runs curl with `args` (bounded: killed after a minute, which no test here comes near). */
export function curl(args: string[]): Promise<CurlResult> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', ...args], { encoding: 'buffer', timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : (error as { code?: unknown }).code;
      if (typeof code !== 'number') return reject(error ?? new Error('curl: no exit code'));
      resolve({ code, stdout, stderr: stderr.toString('utf8') });
    });
  });
}

/** curl's arguments for POST /plants with the client token and `plant` as the body. */
export function curlCreate(base: string, plant: unknown, headers: Record<string, string> = {}): string[] {
  const args = [
    '-X',
    'POST',
    `${base}/plants`,
    '-H',
    `authorization: Bearer ${TOKEN}`,
    '-H',
    'content-type: application/json',
    '--data-binary',
    JSON.stringify(plant),
  ];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  return args;
}
