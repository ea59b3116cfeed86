// The server's log: pino JSON lines on standard output, one per request at
// info. Written asynchronously and in batches: lines are gathered and handed
// to the destination once they hold BUFFER_BYTES, or after
// FLUSH_INTERVAL_MS, instead of one blocking write per line. Nothing is
// lost: what is gathered is written synchronously on exit, normal or after
// SIGTERM/SIGINT, and the start-up lines (the listening address) at once.
//
// The request line is built here by hand (requestLineWriter). A line cost
// 3.9 µs of CPU through pino's serializers into sonic-boom, 3.1 µs built by
// hand into sonic-boom, 1.1 µs built by hand and gathered here
// (bench/log-line.ts).
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import { redactTarget } from './redact.js';

export interface ServerLog {
  logger: Logger;
  /** Writes what is buffered, synchronously; safe to call at any time, and twice. */
  flush(): void;
}

/**
 * The request as the log shows it (docs/server.md: method, URL, host, remote
 * address and port); the URL with the value of every token-like query
 * parameter redacted, as the stub's journal shows it (redact.ts): a log is
 * read by more people than the tokens are meant for.
 */
function requestFields(request: FastifyRequest): Record<string, unknown> {
  return { method: request.method, url: redactTarget(request.url), host: request.headers.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}

/**
 * Bytes gathered before a write: a write per line would cost a system call
 * per request under load, and each of sonic-boom's asynchronous writes a
 * wake-up of a worker thread and of the event loop (64 KiB measured cheaper
 * per request than 8 KiB; larger batches cost more in garbage collection).
 * FLUSH_INTERVAL_MS bounds how long a line waits when traffic is light.
 * Asynchronous, so a slow reader of standard output (a full pipe) never
 * stalls the answers.
 */
const BUFFER_BYTES = 64 * 1024;
const FLUSH_INTERVAL_MS = 200;

type SonicBoom = ReturnType<typeof pino.destination>;

/**
 * Lines gathered here and handed to sonic-boom (pino's asynchronous
 * destination) a batch at a time: sonic-boom measures the UTF-8 length of
 * its pending buffer at every write, which, line by line, cost more than
 * making the line.
 */
class LineBatches implements DestinationStream {
  private lines: string[] = [];
  /** Characters gathered, which are bytes for the ASCII lines pino and the request line write. */
  private bytes = 0;

  constructor(private readonly destination: SonicBoom) {
    setInterval(() => this.handOver(), FLUSH_INTERVAL_MS).unref();
  }

  write(line: string): void {
    this.lines.push(line);
    this.bytes += line.length;
    if (this.bytes >= BUFFER_BYTES) this.handOver();
  }

  flushSync(): void {
    this.handOver();
    this.destination.flushSync();
  }

  private handOver(): void {
    if (this.lines.length === 0) return;
    this.destination.write(this.lines.join(''));
    this.lines = [];
    this.bytes = 0;
  }
}

type RequestLineWriter = (request: FastifyRequest, reply: FastifyReply) => void;
const requestLineWriters = new WeakMap<object, RequestLineWriter | null>();

/**
 * For a logger writing to a destination createServerLog made (Fastify
 * logs through a child of the logger it is given), the writer of the
 * request line (app.ts, OneLinePerRequest); undefined for any other logger,
 * which logs the line through pino.
 */
export function requestLineWriter(logger: FastifyBaseLogger): RequestLineWriter | undefined {
  let writer = requestLineWriters.get(logger);
  if (writer === undefined) {
    const destination = internals(logger)[pino.symbols.streamSym];
    writer = destination instanceof LineBatches ? lineWriter(logger as Logger, destination) : null;
    requestLineWriters.set(logger, writer);
  }
  return writer ?? undefined;
}

/** What pino keeps under the symbols it exports for integrations (pino.symbols): a logger's destination, its bindings. */
function internals(logger: FastifyBaseLogger): Record<symbol, unknown> {
  return logger as unknown as Record<symbol, unknown>;
}

/** `,"name":value`, or nothing when the value is undefined (as pino leaves it out). */
function member(name: string, value: string | number | undefined): string {
  return value === undefined ? '' : `,"${name}":${JSON.stringify(value)}`;
}

/** What `logger` writes for logger.info({ reqId, req, res, responseTime }, 'request completed') with the serializers of createServerLog. */
function lineWriter(logger: Logger, destination: LineBatches): RequestLineWriter {
  const head = `{"level":${logger.levels.values.info},"time":`;
  // The logger's bindings (pid, hostname, and a child's own) as pino writes them: `,"pid":…,"hostname":…`.
  const base = String(internals(logger)[pino.symbols.chindingsSym] ?? '');
  return (request, reply) => {
    if (!logger.isLevelEnabled('info')) return;
    const req = `"method":${JSON.stringify(request.method)},"url":${JSON.stringify(redactTarget(request.url))}${member('host', request.headers.host)}${member('remoteAddress', request.ip)}${member('remotePort', request.socket?.remotePort)}`;
    destination.write(
      `${head}${Date.now()}${base}${member('reqId', request.id)},"req":{${req}},"res":{"statusCode":${reply.statusCode}}${member('responseTime', reply.elapsedTime)},"msg":"request completed"}\n`,
    );
  };
}

export function createServerLog(level: string, fd = 1): ServerLog {
  // minLength 0: sonic-boom writes a batch as soon as the previous write is done.
  const batches = new LineBatches(pino.destination({ dest: fd, sync: false, minLength: 0 }));
  const logger = pino(
    {
      level,
      serializers: {
        req: requestFields,
        res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    batches,
  );
  const flush = () => {
    try {
      batches.flushSync();
    } catch {
      // Nothing buffered, or the destination is closed: nothing to lose.
    }
  };
  process.once('exit', flush);
  return { logger, flush };
}
