// How soon the command line says something useful (issue 36, item 4; issue
// 45, item 5): spawn to the first line written (stdout or stderr) and to the
// exit, for `--help` and for two one-line diagnoses (a target that refuses
// the placeholder token, a URL where nothing listens); spawn to the first
// check line (`running N checks`) and to the exit of a run against a small
// plant store, with the shipped document and with a document of its own
// (`--spec`, which is linted); and the fix loop: a rerun of five checks
// (`--only` before, `--rerun-failed` after, from a report the after build
// wrote) with each. Two builds of the harness side by
// side in one run (--before DIST --after DIST), runs alternating, and
// `node -e 0` as the floor of every spawn. Prints medians and the ratios
// after / before from the same run; asserts nothing.
//
//   node dist/bench/first-line.js --before ../main/dist --after dist --runs 7
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomInt } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './stats.js';

interface Timing {
  firstLineMs: number;
  exitMs: number;
}

/** Spawn to the first full line on either stream (or the first that matches `line`), and to the exit. */
function time(args: string[], line?: RegExp): Promise<Timing> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    let firstLineMs = Number.NaN;
    let seen = '';
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', PLANTSTORE_TOKEN: '' },
    });
    const watch = (chunk: Buffer) => {
      if (!Number.isNaN(firstLineMs)) return;
      seen += chunk.toString('utf8');
      const lines = seen.split('\n').slice(0, -1);
      if (line ? lines.some((l) => line.test(l)) : lines.length > 0) firstLineMs = performance.now() - t0;
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

/** A small plant store: 401 with a Bearer challenge without credentials, the plant back for a create with any token, 400 for a body that is not one. */
function plantStore(): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const answer = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(value));
      };
      if (!/^bearer \S+$/i.test(req.headers.authorization ?? ''))
        return answer(401, { error: 40101, message: 'no token' }, { 'www-authenticate': 'Bearer realm="plants"' });
      if (req.url !== '/plants') return answer(404, { error: 40401, message: 'not found' });
      if (req.method !== 'POST') return answer(405, { error: 40501, message: 'no' }, { allow: 'POST' });
      try {
        const p = JSON.parse(body) as { id?: unknown; name?: unknown; tag?: unknown };
        if (typeof p.name !== 'string' || typeof p.id !== 'number') throw new Error('not a NewPlant');
        return answer(200, { name: p.name, ...(typeof p.tag === 'string' ? { tag: p.tag } : {}) });
      } catch {
        return answer(400, { error: 40001, message: 'not a NewPlant' });
      }
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
const store = await plantStore();
const plants = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
// The fix loop: five checks failed last time (a report that says so), rerun by each build its own way.
const scratch = mkdtempSync(join(tmpdir(), 'first-line-'));
const FIVE = ['PS-ACCEPT-001', 'PS-REJECT-002', 'PS-AUTH-001', 'PS-HTTP-001', 'PS-STATE-001'];
const last = join(scratch, 'last.json');
const ownSpec = join(scratch, 'openapi.yaml');
copyFileSync(join(builds.after, '..', 'spec', 'openapi.yaml'), ownSpec);
// The last report as the after build writes it (its lint and what it linted included), its five checks marked failed.
await time([
  join(builds.after, 'conformance/cli/main.js'),
  ...['--target', plants, '--spec', ownSpec, '--only', FIVE.join(','), '--seed', '1', '--json', last],
]);
const report = JSON.parse(readFileSync(last, 'utf8')) as { targets: Array<{ results: Array<{ outcome: string }> }> };
for (const r of report.targets[0]!.results) r.outcome = 'fail';
writeFileSync(last, JSON.stringify(report));
const rerun = (build: 'before' | 'after', extra: string[] = []) =>
  build === 'before'
    ? [
        '--target',
        plants,
        ...extra,
        '--only',
        FIVE.join(','),
        '--seed',
        '1',
        '--id-offset',
        String(randomInt(1, 2 ** 31 - 1)),
      ]
    : ['--target', plants, ...extra, '--rerun-failed', '--last-report', last];
/** Each command: its arguments per build, and the line its first-line time waits for. */
const commands: Record<string, { args: (build: 'before' | 'after') => string[]; line?: RegExp }> = {
  '--help': { args: () => ['--help'] },
  'token refused': { args: () => ['--target', refusing, '--seed', '1'] },
  unreachable: { args: () => ['--target', unreachable, '--seed', '1'] },
  'first check line, every check': {
    args: () => ['--target', plants, '--seed', '1', '--id-offset', String(randomInt(1, 2 ** 31 - 1))],
    line: /running \d+ checks/,
  },
  'every check, own --spec': {
    args: () => [
      '--target',
      plants,
      '--spec',
      ownSpec,
      '--seed',
      '1',
      '--id-offset',
      String(randomInt(1, 2 ** 31 - 1)),
    ],
    line: /running \d+ checks/,
  },
  'rerun of 5 failed checks': { args: (build) => rerun(build), line: /running \d+ checks/ },
  'rerun of 5, own --spec': { args: (build) => rerun(build, ['--spec', ownSpec]), line: /running \d+ checks/ },
};
const samples = new Map<string, Timing[]>();
const add = (key: string, t: Timing) => samples.set(key, [...(samples.get(key) ?? []), t]);
for (let i = 0; i < runs; i++) {
  add('node -e 0', await time(['-e', '0']));
  for (const [name, { args, line }] of Object.entries(commands)) {
    // Alternate which build goes first, so neither always meets a warmer cache.
    const order = i % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    for (const build of order)
      add(`${name} ${build}`, await time([join(builds[build], 'conformance/cli/main.js'), ...args(build)], line));
  }
}
target.close();
store.close();
rmSync(scratch, { recursive: true, force: true });

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
