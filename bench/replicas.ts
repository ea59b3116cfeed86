// `npm run bench:replicas`: what a second replica adds on PostgreSQL. Creates
// per second through one reference server and through two on one database
// (the same 50 connections, split 25 and 25), against the in-memory floor,
// in interleaved rounds; with `--before DIR`, the same for another build
// (DIR: a checkout of it with `dist/` built, e.g. main), each build on its
// own database of one throwaway cluster. While each database round runs,
// pg_stat_activity is sampled: what the servers' connections wait on.
//
//   npm run bench:replicas -- [--rounds N] [--seconds S] [--before DIR] [--build NAME=DIR]... [--commit-delay US]
//
// --build adds another build under NAME, as --before adds one named before.
// --commit-delay adds rounds of two replicas of this build with PostgreSQL's
// commit_delay set to US microseconds (commit_siblings 5): group commit.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { runLoad } from './load.js';
import {
  floorServer,
  HOST,
  PROJECT_ROOT,
  startServer,
  stopServer,
  type RunningServer,
  type ServerKind,
} from './servers.js';
import { fixed, formatTable, median, type RoundResult } from './stats.js';
import { sleep } from '../lib/process.js';
import { findPostgres, startCluster } from '../tools/postgres-cluster.js';

const TOKEN = 'bench-token';
const CONNECTIONS = 50;
const UNCAPPED = {
  PLANTSTORE_MAX_PLANTS: String(Number.MAX_SAFE_INTEGER),
  PLANTSTORE_MAX_BYTES: String(Number.MAX_SAFE_INTEGER),
};

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at === -1 ? undefined : argv[at + 1];
};
const rounds = Number(option('--rounds') ?? 5);
const seconds = Number(option('--seconds') ?? 5);
const before = option('--before');
const commitDelay = option('--commit-delay');

const binaries = findPostgres();
if ('missing' in binaries) {
  console.log(`not measured: ${binaries.missing}`);
  process.exit(0);
}
const cluster = await startCluster(binaries);
const admin = new pg.Client({ connectionString: cluster.url });
await admin.connect();

/** A reference build (its checkout's root) on its own database. */
async function build(name: string, root: string): Promise<{ name: string; servers: RunningServer[] }> {
  await admin.query(`CREATE DATABASE bench_${name}`);
  const kind: ServerKind = {
    name,
    command: () => ({ file: process.execPath, args: [join(root, 'dist/server/start.bundle.mjs')] }),
    env: {
      HOST,
      PLANTSTORE_TOKENS: TOKEN,
      LOG_LEVEL: 'warn',
      PLANTSTORE_DATABASE_URL: cluster.url.replace(/\/postgres$/, `/bench_${name}`),
      ...UNCAPPED,
    },
  };
  return { name, servers: [await startServer(kind, { token: TOKEN }), await startServer(kind, { token: TOKEN })] };
}

const running: RunningServer[] = [];
let nextId = 1;
const others = argv.flatMap((arg, i) => (arg === '--build' ? [argv[i + 1]!.split('=') as [string, string]] : []));
if (before !== undefined) others.push(['before', before]);
const builds = [await build('after', PROJECT_ROOT)];
for (const [name, root] of others) builds.push(await build(name, resolve(root)));
for (const { servers } of builds) running.push(...servers);
const floor = await startServer(floorServer(TOKEN), { token: TOKEN });
running.push(floor);

type Config = { name: string; targets: RunningServer[]; commitDelay?: string };
const configs: Config[] = [
  ...builds.flatMap(({ name, servers }) => [
    { name: `${name}: 1 replica`, targets: [servers[0]!] },
    { name: `${name}: 2 replicas`, targets: servers },
  ]),
  ...(commitDelay === undefined
    ? []
    : [{ name: `after: 2 replicas, commit_delay ${commitDelay}`, targets: builds[0]!.servers, commitDelay }]),
  { name: 'floor (in memory)', targets: [floor] },
];

/** Samples what the servers' connections are doing every 20 ms until `done`; counts by wait event ("CPU" where none). */
async function sampleWaits(done: Promise<unknown>, into: Map<string, number>): Promise<void> {
  let finished = false;
  void done.finally(() => (finished = true));
  while (!finished) {
    const { rows } = await admin.query<{ wait: string }>(
      `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait FROM pg_stat_activity WHERE application_name = 'plantstore' AND state = 'active'`,
    );
    for (const { wait } of rows) into.set(wait, (into.get(wait) ?? 0) + 1);
    into.set('(samples)', (into.get('(samples)') ?? 0) + 1);
    await sleep(20);
  }
}

/** One round: the connections split over the targets, all loaded at once; the total creates per second. */
async function round(config: Config, durationSeconds: number, waits?: Map<string, number>): Promise<number> {
  if (config.commitDelay !== undefined) {
    await admin.query(`ALTER SYSTEM SET commit_delay = ${Number(config.commitDelay)}`);
    await admin.query('ALTER SYSTEM SET commit_siblings = 5');
    await admin.query('SELECT pg_reload_conf()');
  }
  const share = CONNECTIONS / config.targets.length;
  const load = Promise.all(
    config.targets.map((target) =>
      runLoad({ url: target.url, token: TOKEN, connections: share, durationSeconds, nextId: () => nextId++ }),
    ),
  );
  if (waits !== undefined && config.name !== 'floor (in memory)') await sampleWaits(load, waits);
  const results: RoundResult[] = await load;
  if (config.commitDelay !== undefined) {
    await admin.query('ALTER SYSTEM RESET commit_delay');
    await admin.query('ALTER SYSTEM RESET commit_siblings');
    await admin.query('SELECT pg_reload_conf()');
  }
  const bad = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  if (bad > 0)
    throw new Error(
      `${config.name}: ${bad} answers were not 200: ${JSON.stringify(results.map((r) => r.statusCounts))}`,
    );
  return results.reduce((sum, r) => sum + r.requestsPerSecond, 0);
}

const perRound = new Map<string, number[]>(configs.map((c) => [c.name, []]));
const waits = new Map<string, Map<string, number>>(configs.map((c) => [c.name, new Map()]));
try {
  for (const config of configs) await round(config, 2); // warm-up
  for (let r = 0; r < rounds; r++) {
    // The first configuration rotates each round, so none always runs first.
    for (let i = 0; i < configs.length; i++) {
      const config = configs[(i + r) % configs.length]!;
      perRound.get(config.name)!.push(await round(config, seconds, waits.get(config.name)));
    }
    console.error(`round ${r + 1} of ${rounds} done`);
  }
} finally {
  await Promise.all(running.map((server) => stopServer(server)));
  await admin.end();
  await cluster.destroy();
}

const spread = (values: number[]) => `${fixed(Math.min(...values), 0)}–${fixed(Math.max(...values), 0)}`;
console.log(
  formatTable([
    ['configuration', ...Array.from({ length: rounds }, (_, i) => `r${i + 1}`), 'median creates/s', 'min–max'],
    ...configs.map(({ name }) => [
      name,
      ...perRound.get(name)!.map((v) => fixed(v, 0)),
      fixed(median(perRound.get(name)!), 0),
      spread(perRound.get(name)!),
    ]),
  ]),
);
const ratio = (top: string, bottom: string) => perRound.get(top)!.map((v, i) => v / perRound.get(bottom)![i]!);
const ratios: Record<string, number[]> = {};
for (const { name } of builds) {
  ratios[`${name}: 2 replicas / 1 replica`] = ratio(`${name}: 2 replicas`, `${name}: 1 replica`);
  ratios[`${name}: 1 replica / floor`] = ratio(`${name}: 1 replica`, 'floor (in memory)');
}
if (commitDelay !== undefined)
  ratios[`after: commit_delay ${commitDelay} / none, 2 replicas`] = ratio(
    `after: 2 replicas, commit_delay ${commitDelay}`,
    'after: 2 replicas',
  );
console.log(
  `\n${formatTable([['ratio (per round)', 'median', 'min–max'], ...Object.entries(ratios).map(([name, values]) => [name, fixed(median(values), 2), `${fixed(Math.min(...values), 2)}–${fixed(Math.max(...values), 2)}`])])}`,
);
const waitRows = [...waits.entries()].filter(([, counts]) => counts.size > 0);
for (const [name, counts] of waitRows) {
  const samples = counts.get('(samples)') ?? 1;
  const top = [...counts.entries()]
    .filter(([wait]) => wait !== '(samples)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5);
  console.log(
    `\n${name}: connections per sample, by what they wait on (${samples} samples): ${top.map(([wait, n]) => `${wait} ${fixed(n / samples, 2)}`).join(', ')}`,
  );
}
const out = join(PROJECT_ROOT, 'reports', 'bench-replicas.json');
mkdirSync(join(PROJECT_ROOT, 'reports'), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ rounds, seconds, connections: CONNECTIONS, perRound: Object.fromEntries(perRound), ratios, waits: Object.fromEntries([...waits].map(([k, v]) => [k, Object.fromEntries(v)])) }, null, 2)}\n`,
);
console.log(`\nwritten: ${out}`);
