// The server's log: pino JSON lines on standard output, one per request at
// info; at a terminal (or LOG_FORMAT=pretty) the same lines as pino-pretty
// writes them for a person (logFormat). Written asynchronously and in batches: lines are gathered and handed
// to the log file once they hold BUFFER_BYTES, or after FLUSH_INTERVAL_MS,
// instead of one blocking write per line. Nothing is lost while standard
// output takes it: on SIGTERM/SIGINT the server waits for the log to be
// written before it exits, whatever is gathered at another exit is written
// synchronously, and the start-up lines (the listening address) at once.
//
// The request line is built here by hand (requestLineWriter). A line cost
// 3.9 µs of CPU through pino's serializers into sonic-boom, 3.1 µs built by
// hand into sonic-boom, 1.1 µs built by hand and gathered here
// (bench/log-line.ts).
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { write as fsWrite, writeSync } from 'node:fs';
import pino, { type DestinationStream, type Logger } from 'pino';
import { createRequire } from 'node:module';
import { MAX_LEARNT_LOG_SECRETS } from './limits.js';
import { MIN_SECRET_LENGTH, redactTarget, valueRedactor } from './redact.js';

export interface ServerLog {
  logger: Logger;
  /** Query parameters whose values the log's URLs never show, besides those named like a credential: the document's API keys (start.ts, once the document is read). */
  redactParameters(names: readonly string[]): void;
  /** Writes what is gathered now: synchronously, unless a write is in flight, which then takes it next. Safe to call at any time, and twice. */
  flush(): void;
  /** Writes everything gathered and resolves once it is written (or the file refused it): then the file may be closed. */
  close(): Promise<void>;
}

/**
 * The request as the log shows it (docs/server.md: method, URL, host, remote
 * address and port); the URL with the value of every token-like query
 * parameter, and of the document's API keys, redacted, as the stub's journal
 * shows it (redact.ts): a log is read by more people than the tokens are meant for.
 */
function requestFields(request: FastifyRequest, keyParameters: readonly string[]): Record<string, unknown> {
  return {
    method: request.method,
    url: redactTarget(request.url, keyParameters),
    host: request.headers.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Bytes gathered before a write: a write per line would cost a system call
 * per request under load, and each asynchronous write a wake-up of a
 * worker thread and of the event loop (64 KiB measured cheaper
 * per request than 8 KiB; larger batches cost more in garbage collection).
 * FLUSH_INTERVAL_MS bounds how long a line waits when traffic is light.
 * Asynchronous, so a slow reader of standard output (a full pipe) never
 * stalls the answers.
 */
const BUFFER_BYTES = 64 * 1024;
const FLUSH_INTERVAL_MS = 200;

/** Redacted request targets kept for the next lines (LineBatches.redactedTarget): at most 256 of at most 512 characters, so 256 KiB or so. */
const TARGETS_KEPT = 256;
const LONGEST_TARGET_KEPT = 512;

/** How long a write waits before it tries again a pipe that is full (EAGAIN), and how often a synchronous flush tries. */
const FULL_PIPE_RETRY_MS = 10;
const FULL_PIPE_SYNC_ATTEMPTS = 100;

/**
 * The log's file descriptor, written asynchronously, one write in flight at
 * a time, the pending text gathered into the next. Not sonic-boom, pino's
 * own destination: its flushSync (4.2.1) retries a write that fails with
 * EBADF or EPIPE every 100 ms for ever, so a server whose standard output
 * was closed (a reader that went away) would never exit, and a test that
 * closed its log file hung. Here a write that fails for any reason but
 * EAGAIN (a full non-blocking pipe, tried again shortly) gives the log up:
 * its lines are lost, the server goes on.
 */
class LogFile {
  private pending: Buffer[] = [];
  private writing = false;
  private broken = false;
  private drainWaiters: Array<() => void> = [];

  constructor(private readonly fd: number) {}

  write(text: string): void {
    if (this.broken) return;
    this.pending.push(Buffer.from(text, 'utf8'));
    if (!this.writing) this.next();
  }

  /** Resolves once everything handed over is written, or given up. */
  drained(): Promise<void> {
    return this.writing ? new Promise((resolve) => this.drainWaiters.push(resolve)) : Promise.resolve();
  }

  /**
   * Writes what is pending now, synchronously, when no write is in flight
   * (else the write in flight takes it next, in order). `atExit`: write it
   * even then, since the process will not wait for the write in flight.
   */
  flushSync(atExit = false): void {
    if (this.broken || this.pending.length === 0 || (this.writing && !atExit)) return;
    const text = Buffer.concat(this.pending);
    this.pending = [];
    let at = 0;
    let attempts = 0;
    while (at < text.length) {
      try {
        at += writeSync(this.fd, text, at, text.length - at);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN' && ++attempts < FULL_PIPE_SYNC_ATTEMPTS) {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, FULL_PIPE_RETRY_MS);
          continue;
        }
        return this.giveUp();
      }
    }
  }

  private next(): void {
    if (this.pending.length === 0) {
      this.writing = false;
      for (const resolve of this.drainWaiters.splice(0)) resolve();
      return;
    }
    const text = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.writing = true;
    fsWrite(this.fd, text, 0, text.length, null, (error, written) => {
      if (error) {
        if (error.code !== 'EAGAIN') return this.giveUp();
        this.pending.unshift(text);
        return void setTimeout(() => this.next(), FULL_PIPE_RETRY_MS).unref();
      }
      if (written < text.length) this.pending.unshift(text.subarray(written));
      this.next();
    });
  }

  private giveUp(): void {
    this.broken = true;
    this.pending = [];
    this.writing = false;
    for (const resolve of this.drainWaiters.splice(0)) resolve();
  }
}

/**
 * Lines gathered here and handed to the log file a batch at a time: a
 * write per line would cost a system call per request, and measuring the
 * UTF-8 length of a growing buffer at every line (as sonic-boom does) cost
 * more than making the line.
 */
class LineBatches implements DestinationStream {
  private lines: string[] = [];
  /** Characters gathered, which are bytes for the ASCII lines pino and the request line write. */
  private bytes = 0;
  private readonly timer: NodeJS.Timeout;
  /** Each line's secrets out (redact.ts valueRedactor): whatever logged them, a URL, a header, an error's message. */
  private redact: (line: string) => string;
  /** Values learnt while the server runs (redactAlso), the oldest first. */
  private readonly learnt = new Set<string>();
  /** The document's query API keys, redacted from the URLs by name (redact.ts redactTarget). */
  private keys: readonly string[] = [];
  /**
   * The request lines' targets with a query, redacted (redactTarget), by
   * target: a client asks for the same pages again and again, and
   * redacting a query (splitting it, decoding and testing each name) cost
   * a third of the line. At most TARGETS_KEPT, then cleared; none longer than LONGEST_TARGET_KEPT.
   */
  private readonly redactedTargets = new Map<string, string>();

  constructor(
    readonly file: LogFile,
    /** The server's secrets, known at start. */
    private readonly secrets: readonly string[],
    /** pino-pretty's formatter, for a person at a terminal; undefined: JSON lines. */
    private readonly pretty?: (line: string) => string,
  ) {
    this.redact = valueRedactor(secrets);
    this.timer = setInterval(() => this.handOver(), FLUSH_INTERVAL_MS).unref();
  }

  get keyParameters(): readonly string[] {
    return this.keys;
  }

  set keyParameters(names: readonly string[]) {
    this.keys = names;
    this.redactedTargets.clear();
  }

  /** `target` as the request line shows it: redactTarget's answer, kept for the next line with the same target. */
  redactedTarget(target: string): string {
    // An origin-form target without a query is shown as it is (redactTarget's first test): nothing to keep.
    if (target.charCodeAt(0) === 0x2f && target.indexOf('?') === -1) return target;
    if (target.length > LONGEST_TARGET_KEPT) return redactTarget(target, this.keys);
    let redacted = this.redactedTargets.get(target);
    if (redacted === undefined) {
      redacted = redactTarget(target, this.keys);
      if (this.redactedTargets.size >= TARGETS_KEPT) this.redactedTargets.clear();
      this.redactedTargets.set(target, redacted);
    }
    return redacted;
  }

  /** Redacts these values too from now on (a webhook receiver's credentials), keeping the last MAX_LEARNT_LOG_SECRETS learnt. */
  redactAlso(values: readonly string[]): void {
    const fresh = values.filter((value) => value.length >= MIN_SECRET_LENGTH && !this.learnt.has(value));
    if (fresh.length === 0) return;
    for (const value of fresh) this.learnt.add(value);
    for (const value of this.learnt) {
      if (this.learnt.size <= MAX_LEARNT_LOG_SECRETS) break;
      this.learnt.delete(value);
    }
    this.redact = valueRedactor([...this.secrets, ...this.learnt]);
  }

  write(line: string): void {
    line = this.redact(line);
    // Redacted again once pretty: it writes a string that JSON escaped as it is.
    if (this.pretty) line = this.redact(this.pretty(line));
    this.lines.push(line);
    this.bytes += line.length;
    if (this.bytes >= BUFFER_BYTES) this.handOver();
  }

  flushSync(atExit = false): void {
    this.handOver();
    this.file.flushSync(atExit);
  }

  /** Hands over what is gathered and resolves once the file has written everything; no more periodic hand-overs. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.handOver();
    await this.file.drained();
  }

  private handOver(): void {
    if (this.lines.length === 0) return;
    this.file.write(this.lines.join(''));
    this.lines = [];
    this.bytes = 0;
  }
}

/**
 * For a logger writing to a destination createServerLog made: its lines
 * redact `values` too from now on (redact.ts valueRedactor). Any other
 * logger (a test's, pino's own) is left as it is.
 */
export function redactInLog(logger: FastifyBaseLogger, values: readonly string[]): void {
  const destination = internals(logger)[pino.symbols.streamSym];
  if (destination instanceof LineBatches && values.length > 0) destination.redactAlso(values);
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
  const base = (internals(logger)[pino.symbols.chindingsSym] as string | undefined) ?? '';
  return (request, reply) => {
    if (!logger.isLevelEnabled('info')) return;
    const req = `"method":${JSON.stringify(request.method)},"url":${JSON.stringify(destination.redactedTarget(request.url))}${member('host', request.headers.host)}${member('remoteAddress', request.ip)}${member('remotePort', request.socket?.remotePort)}`;
    destination.write(
      `${head}${Date.now()}${base}${member('reqId', request.id)},"req":{${req}},"res":{"statusCode":${reply.statusCode}}${member('responseTime', reply.elapsedTime)},"msg":"request completed"}\n`,
    );
  };
}

/**
 * An error as the log shows it: pino's serializer, less `rawPacket`, the
 * bytes of a request Node's parser refused (a bearer token included, as a
 * list of numbers that no search for the token finds).
 */
function errorFields(error: Error): Record<string, unknown> {
  const { rawPacket: _rawPacket, ...fields } = pino.stdSerializers.err(error) as Record<string, unknown>;
  return fields;
}

export type LogFormat = 'json' | 'pretty';

/**
 * How the log is written: as LOG_FORMAT says (config.ts), else pretty for a
 * person when standard output is a terminal, JSON lines for a program (a
 * pipe, a file, a container's log driver, CI).
 */
export function logFormat(isTTY: boolean, configured: LogFormat | undefined): LogFormat {
  return configured ?? (isTTY ? 'pretty' : 'json');
}

/**
 * pino-pretty's formatter, in this process rather than as a transport in a
 * worker thread: the lines stay in LineBatches, so they are redacted, and
 * written at exit and on SIGTERM, as the JSON lines are. Loaded from
 * node_modules when asked for (createRequire, which the server's bundle
 * does not follow): a server logging JSON lines does not load it.
 */
function prettyLines(colorize: boolean): (line: string) => string {
  const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  const format = prettyFactory({ colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  return (line) => format(line);
}

/** The server's log on `fd`; `secrets` never appear in it (valueRedactor), in either format. */
export function createServerLog(
  level: string,
  fd = 1,
  secrets: readonly string[] = [],
  format: LogFormat = 'json',
  colorize = false,
): ServerLog {
  const batches = new LineBatches(new LogFile(fd), secrets, format === 'pretty' ? prettyLines(colorize) : undefined);
  const logger = pino(
    {
      level,
      serializers: {
        req: (request: FastifyRequest) => requestFields(request, batches.keyParameters),
        res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
        err: errorFields,
      },
    },
    batches,
  );
  const atExit = () => batches.flushSync(true);
  process.once('exit', atExit);
  return {
    logger,
    redactParameters: (names) => void (batches.keyParameters = names),
    flush: () => batches.flushSync(),
    async close() {
      process.removeListener('exit', atExit);
      await batches.close();
    },
  };
}
