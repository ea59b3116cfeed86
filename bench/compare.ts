// A short comparison of server builds on a machine that is not quiet: the
// servers' start-up (spawn to the first 200) in alternating runs, then load
// rounds alternating between them, all up at once. Reports the server's CPU
// time per request (all its threads, and its main thread alone: the rest is
// garbage collection and libuv's workers), which moves far less than req/s
// when other jobs share the cores.
//
//   node dist/bench/compare.js [--rounds N] [--seconds S] [--startup-runs N] [--request create|read|list] [--spec FILE] SERVER...
//   SERVER: NAME=FILE[:KEY=VALUE[,KEY=VALUE…]]  a server entry point run by node
//           (relative to the project root), with extra environment;
//           floor | fastify-bare                the anchors of `npm run bench`
//
// e.g. before=OTHER_CHECKOUT/dist/server/start.bundle.mjs after=dist/server/start.bundle.mjs
//      after-warn=dist/server/start.bundle.mjs:LOG_LEVEL=warn floor
//
// --request read or list measures GET /plants/{id} or GET /plants?limit=100 (LIST_PAGE)
// instead of the create, after SEEDED_PLANTS creates into each server; give
// those servers a document that declares them (--spec, their
// PLANTSTORE_SPEC: test/fixtures/operations/crud.yaml); the floor serves
// them too (floor.ts), fastify-bare creates only.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCpuSeconds } from '../lib/process.js';
import { runLoad } from './load.js';
import {
  fastifyBareServer,
  floorServer,
  referenceServer,
  startServer,
  stopServer,
  type RunningServer,
  type ServerKind,
} from './servers.js';
import { fixed, formatTable, median } from './stats.js';

const TOKEN = 'bench-token';

export interface CompareSettings {
  rounds: number;
  roundSeconds: number;
  startupRuns: number;
  servers: ServerKind[];
  request: 'create' | 'read' | 'list';
}

/** The list's page, as `npm run bench` asks for it. */
export const LIST_PAGE = 100;

/** Plants each server stores before rounds of reads or lists. */
export const SEEDED_PLANTS = 10_000;

/** The settings of a command line; throws an Error naming what is wrong. */
export function parseCompareArgs(argv: readonly string[]): CompareSettings {
  const settings: CompareSettings = { rounds: 5, roundSeconds: 3, startupRuns: 7, servers: [], request: 'create' };
  let spec: string | undefined;
  const whole = (flag: string, value: string | undefined, max: number): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1 || number > max)
      throw new Error(`${flag} takes a whole number from 1 to ${max}`);
    return number;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--rounds') settings.rounds = whole(arg, argv[++i], 50);
    else if (arg === '--seconds') settings.roundSeconds = whole(arg, argv[++i], 60);
    else if (arg === '--startup-runs') settings.startupRuns = whole(arg, argv[++i], 50);
    else if (arg === '--request') {
      const kind = argv[++i];
      if (kind !== 'create' && kind !== 'read' && kind !== 'list')
        throw new Error('--request takes create, read or list');
      settings.request = kind;
    } else if (arg === '--spec') {
      spec = argv[++i];
      if (spec === undefined || spec === '') throw new Error('--spec takes a file');
    } else settings.servers.push(serverOf(arg));
  }
  if (settings.servers.length === 0) throw new Error('name at least one server');
  if (spec !== undefined)
    for (const kind of settings.servers) if (!isAnchor(kind)) kind.env.PLANTSTORE_SPEC ??= resolve(spec);
  if (settings.request !== 'create' && settings.servers.some((kind) => kind.name === 'fastify-bare'))
    throw new Error(
      `fastify-bare creates only: --request ${settings.request} compares builds of the server and the floor`,
    );
  const names = settings.servers.map((kind) => kind.name);
  if (new Set(names).size !== names.length) throw new Error(`each server needs a name of its own: ${names.join(', ')}`);
  return settings;
}

function isAnchor(kind: ServerKind): boolean {
  return kind.name === 'floor' || kind.name === 'fastify-bare';
}

function serverOf(spec: string): ServerKind {
  if (spec === 'floor') return floorServer(TOKEN);
  if (spec === 'fastify-bare') return fastifyBareServer(TOKEN);
  const match = /^([\w.-]+)=([^:]+)(?::(.*))?$/.exec(spec);
  if (!match) throw new Error(`${JSON.stringify(spec)} is not NAME=FILE[:KEY=VALUE,…], floor or fastify-bare`);
  const [, name, file, settings = ''] = match;
  const env: Record<string, string> = {};
  for (const pair of settings.split(',').filter((text) => text !== '')) {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`${JSON.stringify(pair)} in ${JSON.stringify(spec)} is not KEY=VALUE`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return { ...referenceServer(name!, TOKEN, env), command: () => ({ file: process.execPath, args: [file!] }) };
}

/** CPU seconds of the process's main thread (its thread id is the process id). */
function mainThreadCpuSeconds(pid: number): number | undefined {
  try {
    return parseCpuSeconds(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

interface Measured {
  startupMs: number[];
  cpuUs: number[];
  mainThreadCpuUs: number[];
  requestsPerSecond: number[];
  non2xx: number;
}

async function compare(settings: CompareSettings): Promise<Record<string, Measured>> {
  const measured: Record<string, Measured> = {};
  for (const kind of settings.servers)
    measured[kind.name] = { startupMs: [], cpuUs: [], mainThreadCpuUs: [], requestsPerSecond: [], non2xx: 0 };
  for (let run = 0; run < settings.startupRuns; run++) {
    for (const kind of settings.servers) {
      const server = await startServer(kind, { token: TOKEN });
      measured[kind.name]!.startupMs.push(server.startupMs);
      await stopServer(server);
    }
  }
  const servers: RunningServer[] = [];
  try {
    for (const kind of settings.servers) servers.push(await startServer(kind, { token: TOKEN }));
    let id = 0;
    const nextId = () => ++id;
    if (settings.request !== 'create')
      for (const server of servers) {
        // The same ids 1 to SEEDED_PLANTS in each server, for the reads.
        let seed = 0;
        await runLoad({ url: server.url, token: TOKEN, connections: 50, amount: SEEDED_PLANTS, nextId: () => ++seed });
      }
    const request = settings.request;
    for (const server of servers)
      await runLoad({
        url: server.url,
        token: TOKEN,
        connections: 50,
        durationSeconds: 1,
        nextId,
        request,
        stored: SEEDED_PLANTS,
        pageSize: LIST_PAGE,
      });
    for (let round = 0; round < settings.rounds; round++) {
      // The first server rotates each round, as in `npm run bench`.
      for (let i = 0; i < servers.length; i++) {
        const server = servers[(i + round) % servers.length]!;
        const pid = server.process.pid;
        const mainBefore = mainThreadCpuSeconds(pid);
        const result = await runLoad({
          url: server.url,
          token: TOKEN,
          connections: 50,
          durationSeconds: settings.roundSeconds,
          nextId,
          serverPid: pid,
          request,
          stored: SEEDED_PLANTS,
          pageSize: LIST_PAGE,
        });
        const mainAfter = mainThreadCpuSeconds(pid);
        const into = measured[server.kind.name]!;
        into.requestsPerSecond.push(result.requestsPerSecond);
        into.non2xx += result.non2xx;
        if (result.serverCpuUsPerRequest !== undefined) into.cpuUs.push(result.serverCpuUsPerRequest);
        if (mainBefore !== undefined && mainAfter !== undefined && result.responses > 0)
          into.mainThreadCpuUs.push(((mainAfter - mainBefore) * 1e6) / result.responses);
      }
    }
  } finally {
    for (const server of servers) await stopServer(server);
  }
  return measured;
}

export function renderComparison(measured: Record<string, Measured>): string {
  const rounds = (values: number[], decimals: number) => values.map((value) => fixed(value, decimals)).join(' ');
  const rows = Object.entries(measured).map(([name, m]) => [
    name,
    fixed(median(m.startupMs), 0),
    rounds(m.startupMs, 0),
    fixed(median(m.cpuUs), 1),
    rounds(m.cpuUs, 1),
    fixed(median(m.mainThreadCpuUs), 1),
    fixed(median(m.requestsPerSecond), 0),
    String(m.non2xx),
  ]);
  return formatTable([
    [
      'server',
      'start-up ms (median)',
      'runs',
      'CPU µs/req (median)',
      'rounds',
      'main thread µs/req',
      'req/s (median)',
      'non-2xx',
    ],
    ...rows,
  ]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let settings: CompareSettings;
  try {
    settings = parseCompareArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(
      `compare: ${(error as Error).message}\nusage: node dist/bench/compare.js [--rounds N] [--seconds S] [--startup-runs N] [--request create|read|list] [--spec FILE] NAME=FILE[:KEY=VALUE,…] | floor | fastify-bare ...\n`,
    );
    process.exit(2);
  }
  process.stdout.write(`${renderComparison(await compare(settings))}\n`);
}
