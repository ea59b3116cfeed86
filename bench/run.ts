// `npm run bench`: throughput and latency, start-up, memory and the
// conformance harness's speed, for the reference server against two anchors
// measured in the same run: the floor (floor.ts, the least a correct
// implementation must do) and a Prism mock (what users would otherwise run).
// Prints tables to stdout and writes reports/bench.json (shape: BenchReport
// in report.ts, documented in the README).
//
//   npm run bench              the full run (several minutes)
//   npm run bench -- --quick   a smoke run of a few seconds per part
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { measureHarness } from './harness.js';
import pg from 'pg';
import { runLoad } from './load.js';
import { buildReport, OPERATIONS, renderReport, type MemoryFigures, type Operation, type Settings } from './report.js';
import { plantsForDeletes, runOperation, type OperationPlan, type RoundsContext } from './rounds.js';
import {
  floorPostgresServer,
  fastifyBareServer,
  floorServer,
  prismServer,
  PROJECT_ROOT,
  referenceServer,
  startServer,
  stopServer,
  type RunningServer,
  type ServerKind,
} from './servers.js';
import type { RoundResult } from './stats.js';
import { residentBytes, sleep } from '../lib/process.js';
import { findPostgres, startCluster, type Cluster } from '../tools/postgres-cluster.js';

const TOKEN = 'bench-token';

function parseArgs(argv: readonly string[]): Settings & { out: string } {
  const quick = argv.includes('--quick');
  const settings: Settings & { out: string } = quick
    ? {
        quick,
        rounds: 2,
        roundSeconds: 1,
        warmupSeconds: 0.5,
        connections: 50,
        startupRuns: 2,
        plantsForMemory: 20_000,
        deletesPerRound: 5_000,
        out: '',
      }
    : {
        quick,
        rounds: 5,
        roundSeconds: 5,
        warmupSeconds: 2,
        connections: 50,
        startupRuns: 5,
        plantsForMemory: 1_000_000,
        deletesPerRound: 40_000,
        out: '',
      };
  settings.out = join(PROJECT_ROOT, 'reports', 'bench.json');
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    const number = Number(value);
    switch (argv[i]) {
      case '--quick':
        break;
      case '--rounds':
        if (!Number.isInteger(number) || number < 1 || number > 50) usage('--rounds takes a whole number from 1 to 50');
        settings.rounds = number;
        i++;
        break;
      case '--seconds':
        if (!(number > 0 && number <= 120)) usage('--seconds takes a number of seconds from 0 to 120');
        settings.roundSeconds = number;
        i++;
        break;
      case '--out':
        if (value === undefined) usage('--out takes a file name');
        settings.out = value;
        i++;
        break;
      default:
        usage(`unknown argument ${JSON.stringify(argv[i])}`);
    }
  }
  return settings;
}

function usage(problem: string): never {
  process.stderr.write(
    `bench: ${problem}\nusage: npm run bench -- [--quick] [--rounds N] [--seconds S] [--out FILE]\n`,
  );
  process.exit(2);
}

function log(text: string): void {
  process.stderr.write(`bench: ${text}\n`);
}

const settings = parseArgs(process.argv.slice(2));
// The load rounds create a new plant per request, more than the default
// PLANTSTORE_MAX_PLANTS (1,000,000) at 50,000 requests a second: past it
// every answer would be a 507, cheaper than a create. So the servers under
// load get caps no round reaches; the memory part (3.) runs the defaults.
const UNCAPPED = {
  PLANTSTORE_MAX_PLANTS: String(Number.MAX_SAFE_INTEGER),
  PLANTSTORE_MAX_BYTES: String(Number.MAX_SAFE_INTEGER),
};
// The documents served. The reference serves the starter document (create,
// list, delete); the starter declares no read, so the read's rounds serve
// crud.yaml, the starter with its item's operations. reference-orders serves
// a document of two resources (plants, and orders that name a plant), to show
// that a document with more than one resource pays nothing for the others:
// its plants' create, read and list (it declares no delete of a plant).
const STARTER = 'test/fixtures/operations/starter.yaml';
const WITH_READ = 'test/fixtures/operations/crud.yaml';
const MULTI_RESOURCE = 'test/fixtures/documents/orders.yaml';
const uncapped = (kind: ServerKind) =>
  kind.name.startsWith('reference') || kind.name === 'floor-postgres' ? UNCAPPED : {};
/** Plants stored before the read's rounds (read in turn), and before the list's (its first page read). */
const READ_PLANTS = 10_000;
const LIST_PLANTS = 1_000;
/** The list's page: 100 plants. */
const PAGE_SIZE = 100;
const reference = referenceServer('reference', TOKEN, { PLANTSTORE_SPEC: STARTER });
const referenceWarn = referenceServer('reference-warn', TOKEN, { PLANTSTORE_SPEC: STARTER, LOG_LEVEL: 'warn' });
const referenceRead = referenceServer('reference', TOKEN, { PLANTSTORE_SPEC: WITH_READ });
const referenceReadWarn = referenceServer('reference-warn', TOKEN, { PLANTSTORE_SPEC: WITH_READ, LOG_LEVEL: 'warn' });
const referenceOrders = referenceServer('reference-orders', TOKEN, { PLANTSTORE_SPEC: MULTI_RESOURCE });
const floor = floorServer(TOKEN);
const fastifyBare = fastifyBareServer(TOKEN);
const prism = prismServer();
// reference-postgres: the reference with its plants in PostgreSQL (a
// throwaway cluster on loopback, as the tests use), against floor-postgres,
// the same SQL without our stages, each on a database of its own; both left
// out, with the reason, where PostgreSQL is not installed.
const postgres = findPostgres();
let cluster: Cluster | undefined;
if ('missing' in postgres) log(`reference-postgres: not measured: ${postgres.missing}`);
else cluster = await startCluster(postgres);
let floorDatabaseUrl: string | undefined;
if (cluster) {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('CREATE DATABASE bench_floor');
  await admin.end();
  floorDatabaseUrl = cluster.url.replace(/\/postgres$/, '/bench_floor');
}
const referencePostgres =
  cluster &&
  referenceServer('reference-postgres', TOKEN, { PLANTSTORE_SPEC: STARTER, PLANTSTORE_DATABASE_URL: cluster.url });
const floorPostgres = floorDatabaseUrl && floorPostgresServer(TOKEN, floorDatabaseUrl);
const requests: Record<Operation, string> = {
  create: 'POST /plants, a new id per request',
  read: `GET /plants/{id} of ${READ_PLANTS.toLocaleString('en-US')} stored, in turn (the reference serving crud.yaml: the starter declares no read)`,
  list: `GET /plants?limit=${PAGE_SIZE} of ${LIST_PLANTS.toLocaleString('en-US')} stored`,
  delete: `DELETE /plants/{id}, each of a stored plant, ${settings.deletesPerRound.toLocaleString('en-US')} a round`,
};
const plans: Record<Operation, OperationPlan> = {
  create: {
    request: 'create',
    servers: [
      reference,
      referenceWarn,
      referenceOrders,
      ...(referencePostgres && floorPostgres ? [referencePostgres, floorPostgres] : []),
      fastifyBare,
      floor,
      prism,
    ],
    stored: 0,
    success: '200',
    env: uncapped,
  },
  read: {
    request: 'read',
    servers: [referenceRead, referenceReadWarn, referenceOrders, floor],
    stored: READ_PLANTS,
    success: '200',
    env: uncapped,
  },
  list: {
    request: 'list',
    servers: [reference, referenceWarn, referenceOrders, floor],
    stored: LIST_PLANTS,
    pageSize: PAGE_SIZE,
    success: '200',
    env: uncapped,
  },
  delete: {
    request: 'delete',
    servers: [reference, referenceWarn, floor],
    stored: plantsForDeletes(settings),
    success: '204',
    env: uncapped,
  },
};
// reference-shipped: what `npm start` serves with no PLANTSTORE_SPEC (the
// shipped document, parsed at build), for its start-up beside the starter's.
const startupServers: ServerKind[] = [
  reference,
  referenceServer('reference-shipped', TOKEN),
  ...(referencePostgres ? [referencePostgres] : []),
  fastifyBare,
  floor,
  prism,
];

const running: RunningServer[] = [];
async function start(kind: ServerKind, env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer(kind, { token: TOKEN, env });
  running.push(server);
  return server;
}
async function stop(server: RunningServer): Promise<void> {
  await stopServer(server);
  running.splice(running.indexOf(server), 1);
}
// Whatever happens, no server outlives the benchmark.
process.on('exit', () => running.forEach((server) => server.process.child.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void (cluster?.destroy() ?? Promise.resolve()).finally(() => process.exit(130)));

const began = Date.now();

// A server that dies under load is reported, with its stderr, not hidden
// behind a column of zeros.
const failures: string[] = [];
function noteExit(server: RunningServer, when: string): void {
  const exit = server.exit();
  if (exit === undefined || failures.some((f) => f.startsWith(`${server.kind.name} `))) return;
  const message = `${server.kind.name} ${exit} during ${when}${server.stderr().trim() ? `: ${server.stderr().trim().slice(0, 2_000)}` : ''}`;
  failures.push(message);
  log(message);
}

// 1. Start-up: spawn to first accepted request, the servers alternating run by run.
const startupMs: Record<string, number[]> = Object.fromEntries(startupServers.map((kind) => [kind.name, []]));
for (let run = 0; run < settings.startupRuns; run++) {
  for (const kind of startupServers) {
    const server = await start(kind);
    startupMs[kind.name]!.push(server.startupMs);
    await stop(server);
  }
}
log(`start-up measured (${settings.startupRuns} runs each)`);

// 2. Throughput and latency, one operation at a time (rounds.ts).
const memory: Record<string, MemoryFigures> = {};
const rounds: Partial<Record<Operation, Record<string, RoundResult[]>>> = {};
const context: RoundsContext = { settings, token: TOKEN, start, stop, noteExit, failures, log };
for (const operation of OPERATIONS) {
  rounds[operation] = await runOperation(plans[operation], {
    ...context,
    ...(operation === 'create' ? { memory } : {}),
  });
  log(`${operation} measured`);
}

// 3. Memory after storing many plants: a fresh server of each kind that
// stores plants (Prism stores none), driven as fast as it goes. The start-up
// probe stores the first plant, the load the rest; the count of 200s proves
// how many were stored.
for (const kind of [reference, floor]) {
  const server = await start(kind);
  let id = 0;
  const result = await runLoad({
    url: server.url,
    token: TOKEN,
    connections: settings.connections,
    amount: settings.plantsForMemory - 1,
    nextId: () => ++id,
  });
  noteExit(server, `the ${settings.plantsForMemory} plants`);
  await sleep(1_000);
  memory[kind.name] ??= {};
  memory[kind.name]!.afterPlantsBytes = residentBytes(server.process.pid);
  memory[kind.name]!.plantsStored = 1 + (result.statusCounts['200'] ?? 0);
  await stop(server);
  log(`${kind.name}: ${memory[kind.name]!.plantsStored} plants stored`);
}

await cluster?.destroy();

// 4. The conformance harness.
const harness = await measureHarness();

const report = buildReport({
  settings,
  command: settings.quick ? 'npm run bench -- --quick' : 'npm run bench',
  wallSeconds: (Date.now() - began) / 1000,
  requests,
  rounds,
  startupMs,
  memory,
  harness,
  failures,
});
process.stdout.write(renderReport(report) + '\n');
mkdirSync(dirname(settings.out), { recursive: true });
writeFileSync(settings.out, JSON.stringify(report, null, 2) + '\n');
process.stdout.write(`\nJSON: ${settings.out}\n`);
