// The server's log: pino JSON lines on standard output, one per request at
// info. Written asynchronously: a line joins a buffer that is written while
// the request goes on (lines that arrive during a write go out together in
// the next), instead of one blocking write per line. Nothing is lost: the
// buffer is flushed synchronously on exit, normal or after SIGTERM/SIGINT.
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

export function createServerLog(level: string, fd = 1): ServerLog {
  const destination = pino.destination({ dest: fd, sync: false });
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
