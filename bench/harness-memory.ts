// The harness's memory against a target that answers 1 MiB to every request
// (the most the harness reads of an answer, conformance/run/http.ts): the peak
// resident set size of a whole CLI run, every report written, measured in
// the CLI's own process (bench/max-rss.ts, preloaded). When the harness
// kept every exchange's body it grew with the run (623 MiB for 221
// requests); it keeps only what its verdicts need, and holds large bodies
// off the V8 heap (conformance/run/http.ts), so it stays near its fixed costs
// (about 175 MiB against small answers). test/conformance/harness-memory.test.ts
// holds it under a cap. It prints the HAR's size too: each body kept to its
// first 64 KiB (conformance/report/har.ts), where it once held every byte.
//
//   npm run build && node dist/bench/harness-memory.js
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_BODY } from '../conformance/run/http.js';
import { runProcess } from '../lib/process.js';

const CLI = fileURLToPath(new URL('../conformance/cli/main.js', import.meta.url));
const PRELOAD = new URL('./max-rss.js', import.meta.url).href;
/** The line the preload writes at exit. */
const MAX_RSS_LINE = /^max-rss-kib (\d+)$/m;

/** A fixed seed: every run sends the same cases. */
export const MEMORY_SEED = 1;

export interface LargeAnswerTarget {
  url: string;
  /** Requests it answered. */
  requests(): number;
  close(): Promise<void>;
}

/** A target on 127.0.0.1 that answers every request 200 with `bytes` bytes that are not UTF-8 (0xff), after reading the request. */
export async function startLargeAnswerTarget(bytes = MAX_BODY): Promise<LargeAnswerTarget> {
  const body = Buffer.alloc(bytes, 0xff);
  let requests = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests++;
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface HarnessMemory {
  /** Peak resident set size of the CLI's process, in bytes. */
  maxRssBytes: number;
  exitCode: number | null;
  /** Requests the target answered during the run. */
  requests: number;
  /** Size of the HAR file the run wrote, in bytes. */
  harBytes: number;
  command: string;
}

/** One whole CLI run (JSON, JUnit, HTML and HAR reports written) against a target answering `bytes` to every request; its peak RSS. */
export async function measureHarnessMemory(bytes = MAX_BODY, timeoutMs = 300_000): Promise<HarnessMemory> {
  const target = await startLargeAnswerTarget(bytes);
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-harness-memory-'));
  try {
    const args = [
      '--import',
      PRELOAD,
      CLI,
      '--target',
      target.url,
      '--token',
      'memory-token',
      '--seed',
      String(MEMORY_SEED),
      '--reports',
      dir,
      '--har',
      join(dir, 'run.har'),
    ];
    const ran = await runProcess({
      file: process.execPath,
      args,
      env: { NO_COLOR: '1' },
      stdout: 'ignore',
      timeoutMs,
      name: 'the harness',
    });
    const match = MAX_RSS_LINE.exec(ran.stderr);
    if (!match)
      throw new Error(
        `the harness did not report its peak RSS (exit ${ran.code ?? ran.signal}): ${ran.stderr.slice(-2000)}`,
      );
    const harBytes = statSync(join(dir, 'run.har')).size;
    return {
      maxRssBytes: Number(match[1]) * 1024,
      exitCode: ran.code,
      requests: target.requests(),
      harBytes,
      command: `plantstore-conformance --target URL --seed ${MEMORY_SEED} --reports DIR --har FILE`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await target.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const m = await measureHarnessMemory();
  process.stdout.write(
    `${m.command}\nagainst a target answering ${MAX_BODY / 1024 / 1024} MiB to each of ${m.requests} requests: exit ${m.exitCode}, peak RSS ${(m.maxRssBytes / 1024 / 1024).toFixed(0)} MiB, HAR ${(m.harBytes / 1024 / 1024).toFixed(1)} MiB\n`,
  );
}
