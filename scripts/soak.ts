// Soak: runs the reference server (dist/server/start.js) as a child process,
// drives creates with new ids at full rate for a bounded time, samples the
// server's RSS from /proc, then sends SIGTERM under load and measures the exit.
//
//   npm run soak -- [--seconds 60] [--connections 32] [--max-plants N] [--sample 5]
//
// --max-plants sets PLANTSTORE_MAX_PLANTS, to watch 507s and flat memory once
// the store is full. Prints statuses, transport errors and RSS over time.
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { freePort, residentBytes, startProcess } from '../lib/process.js';
import { StatusTally } from '../robustness/answers.js';
import { driveCreates, type Outcome } from '../robustness/load.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    connections: { type: 'string', default: '32' },
    'max-plants': { type: 'string' },
    sample: { type: 'string', default: '5' },
  },
});
const seconds = positive('seconds', values.seconds);
const connections = positive('connections', values.connections);
const sampleSeconds = positive('sample', values.sample);
const maxPlants = values['max-plants'];

function positive(name: string, raw: string | undefined): number {
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) {
    console.error(`soak: --${name} must be a whole number of at least 1, got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return value;
}

const TOKEN = 'soak-token';
const START = fileURLToPath(new URL('../server/start.js', import.meta.url));

function rssMiB(pid: number): number {
  return (residentBytes(pid) ?? NaN) / 2 ** 20;
}

// The server logs at warn (no per-request lines), so it cannot tell us its
// port: we choose it, and wait for its health check to answer.
const port = await freePort();
const env: Record<string, string> = {
  PORT: String(port),
  HOST: '127.0.0.1',
  PLANTSTORE_TOKENS: TOKEN,
  LOG_LEVEL: 'warn',
};
if (maxPlants !== undefined) env.PLANTSTORE_MAX_PLANTS = maxPlants;
const pool = new Pool(`http://127.0.0.1:${port}`, { connections });
const server = await startProcess({
  file: process.execPath,
  args: [START],
  env,
  stdout: 'inherit',
  stderr: 'inherit',
  readyProbe: async () => {
    const response = await pool.request({ method: 'GET', path: '/__health' });
    await response.body.text();
    return response.statusCode === 200;
  },
  timeoutMs: 10_000,
  name: 'soak: the server',
});
const { pid } = server;
let exitedEarly = false;
let sigtermAt = 0;
let exitMs = NaN;
void server.exited.then(() => {
  // Not our SIGTERM: the server stopped (or was stopped from outside) during the run.
  if (sigtermAt === 0) exitedEarly = true;
});

console.log(
  `soak: ${seconds} s at full rate, ${connections} connections, ${connections * 2} concurrent requests, new id per request` +
    (maxPlants ? `, PLANTSTORE_MAX_PLANTS=${maxPlants}` : ', default store maximum'),
);
console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`);
console.log(`server pid ${pid}, RSS at start ${rssMiB(pid).toFixed(1)} MiB`);
console.log('   t(s)   requests    req/s   RSS(MiB)   statuses in the interval');

const total = new StatusTally();
let interval = new StatusTally();
let nextId = 0;
const started = Date.now();
const deadline = started + seconds * 1000;
let lastSample = { at: started, count: 0 };
const rssSamples: number[] = [];
const sampler = setInterval(() => {
  const now = Date.now();
  const rss = rssMiB(pid);
  if (Number.isFinite(rss)) rssSamples.push(rss); // NaN once the server is gone
  const rate = ((total.total - lastSample.count) * 1000) / (now - lastSample.at);
  console.log(
    `${((now - started) / 1000).toFixed(0).padStart(7)} ${String(total.total).padStart(10)} ${rate.toFixed(0).padStart(8)} ${rss.toFixed(1).padStart(10)}   ${interval.toString()}`,
  );
  lastSample = { at: now, count: total.total };
  interval = new StatusTally();
}, sampleSeconds * 1000);

const record = (outcome: Outcome): void => {
  const key = outcome.status ?? outcome.failure ?? 'no answer';
  total.add(key);
  interval.add(key);
  // The fault phase: SIGTERM while every connection has requests in flight.
  if (sigtermAt === 0 && Date.now() >= deadline) {
    sigtermAt = performance.now();
    // SIGTERM, and SIGKILL should the server not be gone within 30 s (then the soak fails).
    void server.stop(30_000).then(() => {
      exitMs = performance.now() - sigtermAt;
    });
  }
};

const outcomes = await driveCreates({
  pool,
  token: TOKEN,
  workers: connections * 2,
  next: () => String(++nextId),
  // Bounded: stop 10 s after the deadline whatever happens.
  stop: () => exitedEarly || Date.now() > deadline + 10_000,
  limit: Number.MAX_SAFE_INTEGER,
  onOutcome: record,
});
clearInterval(sampler);
const { code, signal } = await server.exited;
await pool.close();

const afterSigterm = outcomes.length;
const peak = Math.max(...rssSamples);
console.log(`\ntotal: ${total.total} requests in ${((Date.now() - started) / 1000).toFixed(1)} s: ${total.toString()}`);
console.log(
  `RSS: min ${Math.min(...rssSamples).toFixed(1)} MiB, peak ${peak.toFixed(1)} MiB, last ${rssSamples.at(-1)?.toFixed(1)} MiB over ${rssSamples.length} samples`,
);
console.log(
  `SIGTERM under load: exit code ${code}${signal ? ` (signal ${signal})` : ''} ${exitMs.toFixed(0)} ms after the signal; ${afterSigterm} requests in all`,
);
const unexpected = [...total.counts.keys()].filter(
  (k) => !['200', '507', 'ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'].includes(k),
);
if (exitedEarly)
  console.error(
    `soak: the server exited after ${((Date.now() - started) / 1000).toFixed(1)} s, before the run ended, with code ${code} signal ${signal}`,
  );
if (exitedEarly || code !== 0 || unexpected.length > 0) {
  console.error(`soak: FAILED (exit code ${code}, unexpected outcomes: ${unexpected.join(', ') || 'none'})`);
  process.exit(1);
}
