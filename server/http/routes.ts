// The routes: every operation the document declares, each made of its
// pipeline (pipeline.ts); the health check; and the answers for everything
// else (404, 405, a request without Host).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HTTP_METHODS } from '../../spec/openapi.js';
import { sendError } from './error-handler.js';
import type { ErrorShapes } from './error-shapes.js';
import { ApiError } from './errors.js';
import { STORE_RETRY_AFTER_SECONDS } from '../limits.js';
import { routePath } from '../operations/parameters.js';
import type { ServedOperation } from '../operations/served.js';
import { pipeline, routeOptionsOf, type StubStages } from './pipeline.js';
import type { CredentialStage } from '../security/check.js';
import type { OperationSecurity } from '../security/schemes.js';
import type { PlantStore } from '../store/store.js';
import type { DeclaredOperation } from '../stub/prefer.js';

/** Paths under this prefix are the server's own (health, the stub's controls), outside the API's paths. */
export const RESERVED_PREFIX = '/__';
export const HEALTH_PATH = `${RESERVED_PREFIX}health`;

export interface OperationRoutesOptions {
  /** An operation's stage `credentials` for its security (security/check.ts); undefined when it requires none. */
  credentials: (security: OperationSecurity) => CredentialStage | undefined;
  /** How an operation's errors are written (error-shapes.ts); the Error record when not given. */
  errorShapes?: (operation: ServedOperation) => ErrorShapes;
  /** Largest request body in bytes (413 beyond). */
  bodyLimit: number;
  /** The stub's stages for an operation, when buildApp was given the stub. */
  stub: ((operation: DeclaredOperation) => StubStages) | undefined;
}

/** The pipeline of one served operation. */
export function operationPipeline(
  operation: ServedOperation,
  { credentials, bodyLimit, stub }: OperationRoutesOptions,
  stage: CredentialStage | undefined = credentials(operation.security),
) {
  return pipeline({
    credentials: stage?.run,
    parameters: operation.parameters,
    requestMediaTypes: operation.body?.mediaTypes,
    jsonBody: operation.body?.json ?? false,
    bodyLimit,
    stub: stub?.({ ...operation, challenge: stage?.challenge }),
    handler: operation.handler,
  });
}

/** A route for each served operation, made of its pipeline and of nothing else. */
export function operationRoutes(
  app: FastifyInstance,
  operations: readonly ServedOperation[],
  options: OperationRoutesOptions,
): void {
  // Declared once, so that every request has the same shape (the stage `parameters` fills it in).
  app.decorateRequest('parameterValues', null);
  for (const operation of operations) {
    const stage = options.credentials(operation.security);
    // RFC 9110 §9.3.2: HEAD is GET without the content, wherever the document declares GET.
    app.route({
      method: operation.method,
      url: routePath(operation.path),
      exposeHeadRoute: operation.method === 'GET',
      // What the error writer reads of the operation (error-handler.ts).
      config: { errorShapes: options.errorShapes?.(operation), challenge: stage?.challenge },
      ...routeOptionsOf(operationPipeline(operation, options, stage)),
    });
  }
}

/** Paths a 404's message names at most. */
const NAMED_PATHS = 8;

/** The 404 of a path the document does not have: the message names the document's operation, or its paths. */
export function notFound(operations: ReadonlyArray<Pick<ServedOperation, 'method' | 'path'>>): ApiError {
  if (operations.length === 1)
    return new ApiError(
      'NOT_FOUND',
      `No such resource: the API has one operation, ${operations[0]!.method} ${operations[0]!.path}.`,
    );
  const paths = [...new Set(operations.map(({ path }) => path))];
  const named =
    paths.length <= NAMED_PATHS
      ? paths.join(', ')
      : `${paths.slice(0, NAMED_PATHS).join(', ')} and ${paths.length - NAMED_PATHS} more`;
  return new ApiError('NOT_FOUND', `No such resource: the API's paths are ${named}.`);
}

/**
 * The 405 of another method on a path the document has; RFC 9110 §15.5.6
 * says it MUST carry Allow with the supported methods.
 */
export function methodNotAllowed(path: string, methods: readonly string[]): ApiError {
  const allowed = methods.join(', ');
  return new ApiError('METHOD_NOT_ALLOWED', `Method not allowed: ${path} accepts ${allowed} only.`, { allow: allowed });
}

/** The methods the document declares on `path` (HEAD wherever GET is: RFC 9110 §9.3.2), in the order of OpenAPI's Path Item. */
export function methodsAt(operations: ReadonlyArray<Pick<ServedOperation, 'method' | 'path'>>, path: string): string[] {
  const declared = new Set(operations.filter((operation) => operation.path === path).map(({ method }) => method));
  if (declared.has('GET')) declared.add('HEAD');
  return HTTP_METHODS.map((method) => method.toUpperCase()).filter((method) => declared.has(method));
}

/**
 * 404 for unknown paths and 405 for another method on a path the document
 * has (one its templates stand for: `/plants/7`, not `/plants/abc` where the
 * id is an integer), answered before the body is read: otherwise a body sent
 * to an unknown route is parsed first and answered 400, 413 or 415.
 */
export function answerUnroutedRequests(
  app: FastifyInstance,
  operations: ReadonlyArray<Pick<ServedOperation, 'method' | 'path' | 'pathPattern'>>,
): void {
  const templates = operations.map(({ path, pathPattern }) => ({
    pattern: pathPattern,
    error: methodNotAllowed(path, methodsAt(operations, path)),
  }));
  const missing = notFound(operations);
  // Any other method on a declared path, including methods Fastify does not route (PROPFIND, ...).
  const routingError = (request: FastifyRequest): ApiError => {
    const path = pathOf(request.url);
    return templates.find(({ pattern }) => pattern.test(path))?.error ?? missing;
  };
  app.addHook('onRequest', (request, _reply, done) => {
    // RFC 9112 §3.2: a server MUST respond with 400 to an HTTP/1.1 request that lacks a Host header.
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      return done(
        new ApiError(
          'MALFORMED_REQUEST',
          'Malformed request: an HTTP/1.1 request must carry a Host header (RFC 9112 §3.2).',
        ),
      );
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
    return reply
      .code(503)
      .header('retry-after', String(STORE_RETRY_AFTER_SECONDS))
      .send({ status: 'unavailable', store: kind, reason: 'the store does not answer (the server log says why)' });
  });
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
