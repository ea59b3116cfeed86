// How soon the command line says something useful (issue 36, item 4):
// spawn to the first line written (stdout or stderr) and to the exit, for
// `--help` and for two one-line diagnoses (a target that refuses the
// placeholder token, a URL where nothing listens), with two builds of the
// harness side by side in one run (--before DIST --after DIST), runs
// alternating, and `node -e 0` as the floor of every spawn. Prints medians
// and the ratios after / before from the same run; asserts nothing.
//
//   node dist/bench/first-line.js --before ../main/dist --after dist --runs 7
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './stats.js';

interface Timing {
  firstLineMs: number;
  exitMs: number;
}

/** Spawn to the first full line on either stream, and to the exit. */
function time(args: string[]): Promise<Timing> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    let firstLineMs = Number.NaN;
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', PLANTSTORE_TOKEN: '' },
    });
    const watch = (chunk: Buffer) => {
      if (Number.isNaN(firstLineMs) && chunk.includes(10)) firstLineMs = performance.now() - t0;
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.on('error', fail);
    child.on('close', () => done({ firstLineMs, exitMs: performance.now() - t0 }));
  });
}

/** A target that refuses every request with 401 and a Bearer challenge. */
function refusingTarget(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"', 'content-type': 'application/json' });
      res.end('{"code":401,"message":"invalid token"}');
    });
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

/** A loopback port where nothing listens (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  await new Promise((ok) => server.close(ok));
  return port;
}

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: 'dist' },
    runs: { type: 'string', default: '7' },
  },
});
if (!values.before) {
  process.stderr.write('usage: node dist/bench/first-line.js --before DIST --after DIST [--runs N]\n');
  process.exit(2);
}
const runs = Number(values.runs);
const builds = { before: resolve(values.before), after: resolve(values.after) };
const target = await refusingTarget();
const refusing = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
const unreachable = `http://127.0.0.1:${await closedPort()}`;
const commands: Record<string, string[]> = {
  '--help': ['--help'],
  'token refused': ['--target', refusing, '--seed', '1'],
  unreachable: ['--target', unreachable, '--seed', '1'],
};
const samples = new Map<string, Timing[]>();
const add = (key: string, t: Timing) => samples.set(key, [...(samples.get(key) ?? []), t]);
for (let i = 0; i < runs; i++) {
  add('node -e 0', await time(['-e', '0']));
  for (const [name, args] of Object.entries(commands)) {
    // Alternate which build goes first, so neither always meets a warmer cache.
    const order = i % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    for (const build of order)
      add(`${name} ${build}`, await time([join(builds[build], 'conformance/cli/main.js'), ...args]));
  }
}
target.close();

const med = (key: string, field: keyof Timing) => median(samples.get(key)!.map((t) => t[field]));
const ms = (n: number) => `${Math.round(n)} ms`;
process.stdout.write(`${runs} alternating runs; medians; node -e 0: ${ms(med('node -e 0', 'exitMs'))}\n\n`);
process.stdout.write(
  '| command | first line, before | after | after / before | exit, before | after | after / before |\n|---|---|---|---|---|---|---|\n',
);
for (const name of Object.keys(commands)) {
  const [fb, fa, eb, ea] = [
    med(`${name} before`, 'firstLineMs'),
    med(`${name} after`, 'firstLineMs'),
    med(`${name} before`, 'exitMs'),
    med(`${name} after`, 'exitMs'),
  ];
  process.stdout.write(
    `| \`${name}\` | ${ms(fb)} | ${ms(fa)} | ${(fa / fb).toFixed(2)}× | ${ms(eb)} | ${ms(ea)} | ${(ea / eb).toFixed(2)}× |\n`,
  );
}
