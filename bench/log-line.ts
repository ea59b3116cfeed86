// What one request line of the log costs the server's process (CPU time of
// all its threads, microseconds per line), written to /dev/null so that only
// the making and the handing over count: pino's line (its serializers) into
// sonic-boom as the server wrote it before 2026-11-23, the hand-built line
// into the same, the hand-built line gathered in batches (server/
// logging.ts), and the same with two secrets redacted by value from every
// line (what the server does now with PLANTSTORE_TOKENS and an admin token). `npm run build && node dist/bench/log-line.js`.
import { openSync } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { createServerLog, requestLineWriter } from '../server/logging.js';

const LINES = 200_000;
const devNull = () => openSync('/dev/null', 'w');

type WriteLine = (request: FastifyRequest, reply: FastifyReply) => void;

/** pino with the server's serializers, into sonic-boom gathering 8 KiB itself. */
function pinoIntoSonicBoom(): WriteLine {
  const destination = pino.destination({ dest: devNull(), sync: false, minLength: 8 * 1024, periodicFlush: 200 });
  const logger = pino(
    {
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: request.url,
          host: request.headers.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
        res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
      },
    },
    destination,
  );
  return (request, reply) =>
    logger.info({ reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
}

/** The server's writer and batches. */
function handBuilt(): WriteLine {
  return requestLineWriter(createServerLog('info', devNull()).logger)!;
}

/** The server's writer and batches, with two secrets (an API token, the admin token) redacted by value from every line. */
function handBuiltRedacted(): WriteLine {
  return requestLineWriter(
    createServerLog('info', devNull(), ['sk_live_4f9a0c2e7b1d', 'admin-token-of-the-stub']).logger,
  )!;
}

function handBuiltIntoSonicBoom(): WriteLine {
  const log = createServerLog('info', devNull());
  const destination = pino.destination({ dest: devNull(), sync: false, minLength: 8 * 1024, periodicFlush: 200 });
  // The line as the server makes it, handed to sonic-boom line by line.
  (log.logger as unknown as Record<symbol, { write(line: string): void }>)[pino.symbols.streamSym]!.write = (line) =>
    destination.write(line);
  return requestLineWriter(log.logger)!;
}

async function cpuMicrosecondsPerLine(write: WriteLine): Promise<number> {
  const socket = { remotePort: 41_296 };
  const started = process.cpuUsage();
  for (let i = 0; i < LINES; i++) {
    const request = {
      id: `req-${i}`,
      method: 'POST',
      url: '/plants',
      headers: { host: 'localhost:4010' },
      ip: '127.0.0.1',
      socket,
    } as unknown as FastifyRequest;
    write(request, { statusCode: 200, elapsedTime: 0.25 + i / 1e6 } as FastifyReply);
    // Let the asynchronous writes finish as they would between requests.
    if (i % 256 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / LINES;
}

const ways: Array<[string, () => WriteLine]> = [
  ['pino line into sonic-boom (before)', pinoIntoSonicBoom],
  ['hand-built line into sonic-boom', handBuiltIntoSonicBoom],
  ['hand-built line in batches', handBuilt],
  ['the same, two secrets redacted (now)', handBuiltRedacted],
];
const results = new Map<string, number[]>(ways.map(([name]) => [name, []]));
for (let round = 0; round < 3; round++) {
  for (const [name, make] of ways) results.get(name)!.push(await cpuMicrosecondsPerLine(make()));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
process.stdout.write('way                                   CPU µs per line (median of 3)\n');
for (const [name, values] of results)
  process.stdout.write(`${name.padEnd(38)}${median(values).toFixed(2).padStart(8)}\n`);
process.exit(0);
