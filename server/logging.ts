// The server's log: pino JSON lines on standard output, one per request at
// info. Written asynchronously and in batches: a line joins a buffer that is
// written once it holds BUFFER_BYTES, or after FLUSH_INTERVAL_MS, instead of
// one blocking write per line. Nothing is lost: the buffer is flushed
// synchronously on exit, normal or after SIGTERM/SIGINT, and the start-up
// lines (the listening address) are flushed at once.
import type { FastifyReply, FastifyRequest } from 'fastify';
import pino, { type Logger } from 'pino';

export interface ServerLog {
  logger: Logger;
  /** Writes what is buffered, synchronously; safe to call at any time, and twice. */
  flush(): void;
}

/** The request as the log shows it (docs/server.md: method, URL, host, remote address and port). */
function requestFields(request: FastifyRequest): Record<string, unknown> {
  return { method: request.method, url: request.url, host: request.headers.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}

/**
 * Bytes gathered before a write: a write per line would cost a system call
 * per request under load. FLUSH_INTERVAL_MS bounds how long a line waits
 * when traffic is light. Asynchronous, so a slow reader of standard output
 * (a full pipe) never stalls the answers. (sonic-boom refuses a buffer of
 * 16 KiB or more.)
 */
const BUFFER_BYTES = 8 * 1024;
const FLUSH_INTERVAL_MS = 200;

export function createServerLog(level: string, fd = 1): ServerLog {
  const destination = pino.destination({ dest: fd, sync: false, minLength: BUFFER_BYTES, periodicFlush: FLUSH_INTERVAL_MS });
  const logger = pino(
    {
      level,
      serializers: {
        req: requestFields,
        res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
  const flush = () => {
    try {
      destination.flushSync();
    } catch {
      // Nothing buffered, or the destination is closed: nothing to lose.
    }
  };
  process.once('exit', flush);
  return { logger, flush };
}
