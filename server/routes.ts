// The routes: the operation the document declares, the health check, and
// the answers for everything else (404, 405, a request without Host).
// Hooks take callbacks rather than being async: no promise per request on the hot path.
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from './auth.js';
import { jsonBody, rejectUnreadableBody, requireMediaType, sentBody } from './body.js';
import type { CreateRule } from './create.js';
import { ApiError, sendError } from './errors.js';
import { STORE_RETRY_AFTER_SECONDS } from './limits.js';
import type { PlantStore } from './store.js';
import type { OperationContract } from './validation.js';
import { answerCanBeDelivered } from './wire.js';

/** Paths under this prefix are the server's own (health, the stub's controls), outside the API's paths. */
export const RESERVED_PREFIX = '/__';
export const HEALTH_PATH = `${RESERVED_PREFIX}health`;

/**
 * 404 for unknown paths and 405 for another method on the operation's path,
 * answered before the body is read: otherwise a body sent to an unknown route
 * is parsed first and answered 400, 413 or 415.
 */
export function answerUnroutedRequests(app: FastifyInstance, contract: OperationContract): void {
  const allowed = contract.method.toUpperCase();
  // Any other method on the operation's path, including methods Fastify
  // does not route (PROPFIND, ...): RFC 9110 §15.5.6 says a 405 response
  // MUST carry Allow with the supported methods.
  const routingError = (request: FastifyRequest): ApiError =>
    pathOf(request.url) === contract.path ? new ApiError('METHOD_NOT_ALLOWED', undefined, { allow: allowed }) : new ApiError('NOT_FOUND');
  app.addHook('onRequest', (request, _reply, done) => {
    // RFC 9112 §3.2: a server MUST respond with 400 to an HTTP/1.1 request that lacks a Host header.
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      return done(new ApiError('MALFORMED_REQUEST', 'Malformed request: an HTTP/1.1 request must carry a Host header (RFC 9112 §3.2).'));
    }
    done(request.is404 ? routingError(request) : undefined);
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, routingError(request)));
}

/**
 * GET /__health: 200 {"status":"ok","store":…} while the store answers;
 * 503 {"status":"unavailable","store":…,"reason":…} with Retry-After while
 * it does not (its database is unreachable), so a load balancer or an
 * orchestrator takes the replica out until it is back.
 */
export function healthRoute(app: FastifyInstance, store: PlantStore): void {
  app.get(HEALTH_PATH, async (request, reply) => {
    const { store: kind, ok, reason } = await store.health();
    if (ok) return { status: 'ok', store: kind };
    // The driver's reason names hosts and ports: the log gets it, not whoever reaches the open endpoint.
    request.log.warn({ reason }, 'health: the store does not answer');
    return reply.code(503).header('retry-after', String(STORE_RETRY_AFTER_SECONDS)).send({ status: 'unavailable', store: kind, reason: 'the store does not answer (the server log says why)' });
  });
}

export interface OperationRouteOptions {
  contract: OperationContract;
  authenticator: Authenticator;
  rule: CreateRule;
}

/**
 * The operation's route, in the order of checks of docs/server.md:
 * credentials, content type, size, JSON syntax, schema, store. A plugin, so
 * that plugins registered before it (the stub) can add their hooks to it.
 */
export const operationRoute: FastifyPluginCallback<OperationRouteOptions> = (app, { contract, authenticator, rule }, done) => {
  app.route({
    method: contract.method.toUpperCase(),
    url: contract.path,
    // Credentials first: a request without them is answered before its body is read.
    onRequest: (request, _reply, next) => {
      try {
        authenticator.check(request.headers.authorization);
      } catch (error) {
        return next(error as Error);
      }
      next();
    },
    preParsing: requireMediaType(contract.requestMediaTypes),
    preValidation: rejectUnreadableBody,
    // A plain function: Fastify hands what it throws to the error handler.
    handler: (request, reply) => {
      const entry = rule.fromBody(jsonBody(request), sentBody(request));
      if (!answerCanBeDelivered(reply)) throw new ApiError('MALFORMED_REQUEST', 'Request not processed: the connection closes after an earlier answer.');
      const stored = rule.store(entry);
      // The in-memory store answers at once: no promise on its hot path.
      if (stored === undefined) return answerPlant(reply, entry.json);
      return stored.then(() => answerPlant(reply, entry.json));
    },
  });
  done();
};

/** 200 with the Plant, whose JSON text the create rule made once for the store and the answer. */
function answerPlant(reply: FastifyReply, json: string): FastifyReply {
  return reply.code(200).type('application/json; charset=utf-8').send(json);
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
