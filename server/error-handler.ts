// How an error reaches the client: every error a route, a hook or Fastify
// itself raises is answered with the specification's Error record, from the
// table of errors.ts.
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from './errors.js';
import { STORE_RETRY_AFTER_SECONDS } from './limits.js';
import { StoreUnavailableError } from './store.js';

/** Sends `error` as its Error record, with its headers. */
export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8').send(error.body);
}

/**
 * Answers every error a route, a hook or Fastify itself raises with an Error
 * record: ours as they are, Fastify's client errors as 400, 413 or 415, and
 * anything else as a bare 500 (logged, never shown).
 */
export function answerErrorsAsRecords(app: FastifyInstance, bodyLimit: number): void {
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
