// How an error reaches the client, the one writer of every error answer:
// ours (errors.ts), Fastify's, the stub's. Each is written in the media type
// and the schema the document declares for its status on the operation that
// answers it (error-shapes.ts: the route's config carries its shapes), else
// as the specification's Error record, application/json.
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { ErrorRecord } from './error-body.js';
import { ERROR_RECORDS, type ErrorAnswer, type ErrorShapes } from './error-shapes.js';
import { ApiError } from './errors.js';
import { STORE_RETRY_AFTER_SECONDS } from '../limits.js';
import { StoreUnavailableError } from '../store/store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How the operation's errors are written, by status (error-shapes.ts); absent on the server's own routes. */
    errorShapes?: ErrorShapes;
    /** WWW-Authenticate of the operation's 401 (security/check.ts), for a 401 the stub answers. */
    challenge?: string;
  }
  interface FastifyInstance {
    /** How errors no operation answers are written (an unknown path, a malformed request). */
    errorShapes: ErrorShapes;
  }
}

/** The record an ApiError says. */
export function recordOf(error: ApiError): ErrorRecord {
  return { status: error.status, error: error.body.error, message: error.body.message };
}

/**
 * The shapes that apply to `reply`: its operation's; for a request no route
 * takes (404, 405, a request without Host), those the document's operations
 * agree on; on the server's own routes (health, the stub's controls), which
 * are no operation of the document, the Error record.
 */
export function shapesOf(reply: FastifyReply): ErrorShapes {
  const own = reply.request.routeOptions.config.errorShapes;
  if (own !== undefined) return own;
  return reply.request.is404 ? (reply.server.errorShapes ?? ERROR_RECORDS) : ERROR_RECORDS;
}

/** The path of the request target (no query: it may carry a key), for a problem's `instance`. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The answer `record` gets on `reply`'s operation (or in `shapes`). */
export function errorAnswer(reply: FastifyReply, record: ErrorRecord, shapes = shapesOf(reply)): ErrorAnswer {
  return shapes.of(record.status).answer(record, pathOf(reply.request.url));
}

/** Sends `record` with its status and `headers`, in the shape its status has on the operation (or in `shapes`). */
export function sendRecord(
  reply: FastifyReply,
  record: ErrorRecord,
  headers: Readonly<Record<string, string>> = {},
  shapes = shapesOf(reply),
): FastifyReply {
  const answer = errorAnswer(reply, record, shapes);
  reply.code(record.status).headers(headers);
  if (answer === undefined) return reply.send();
  return reply.type(answer.contentType).send(answer.text);
}

/** Sends `error`, with its headers, in the shape its status has on the operation (or in `shapes`). */
export function sendError(reply: FastifyReply, error: ApiError, shapes = shapesOf(reply)): FastifyReply {
  return sendRecord(reply, recordOf(error), error.headers, shapes);
}

/**
 * Answers every error a route, a hook or Fastify itself raises: ours as
 * they are, Fastify's client errors as 400, 413 or 415, and anything else as
 * a bare 500 (logged, never shown).
 */
export function answerErrors(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof ApiError) return sendError(reply, error);
    if (error instanceof StoreUnavailableError) {
      // The database is away: nothing was stored, and the client may try again.
      request.log.warn({ reason: error.message }, 'store unavailable');
      return sendError(
        reply,
        new ApiError('STORE_UNAVAILABLE', undefined, { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) }),
      );
    }
    const { code, statusCode } = error as Partial<FastifyError>;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(
        reply,
        new ApiError('PAYLOAD_TOO_LARGE', `Request body is too large: the limit is ${bodyLimit} bytes.`),
      );
    }
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendError(reply, new ApiError('UNSUPPORTED_MEDIA_TYPE'));
    if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
      // Fastify's own client errors (a body shorter than its Content-Length,
      // an aborted upload): their messages name the problem and hold no internals.
      request.log.info({ err: error }, 'malformed request');
      return sendError(reply, new ApiError('MALFORMED_REQUEST', `Malformed request: ${error.message}`));
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendError(reply, new ApiError('INTERNAL'));
  });
}
