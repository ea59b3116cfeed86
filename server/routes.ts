// The routes: the operation the document declares, as one pipeline of
// stages; the health check; and the answers for everything else (404, 405,
// a request without Host).
// Hooks take callbacks rather than being async: no promise per request on the hot path.
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
  preParsingHookHandler,
  preValidationHookHandler,
  RouteHandlerMethod,
} from 'fastify';
import type { Authenticator } from './auth.js';
import { readBody, rejectUnreadableBody, requireMediaType } from './body.js';
import type { CreateRule, PlantToStore } from './create.js';
import { sendError } from './error-handler.js';
import { ApiError } from './errors.js';
import { STORE_RETRY_AFTER_SECONDS } from './limits.js';
import type { MaybePromise, PlantStore } from './store.js';
import type { OperationContract } from './validation.js';
import { answerCanBeDelivered } from './wire.js';

/** Paths under this prefix are the server's own (health, the stub's controls), outside the API's paths. */
export const RESERVED_PREFIX = '/__';
export const HEALTH_PATH = `${RESERVED_PREFIX}health`;

// ---------------------------------------------------------------------------
// The create operation: one pipeline.

/** The stub's stages of the create pipeline (server/stub/ makes them); each absent without the stub. */
export interface StubStages {
  /** A malformed or unanswerable Prefer header is a 400, before the body is read. */
  prefer?: onRequestHookHandler;
  /** The configured delay, once the body is read. */
  delay?: preValidationHookHandler;
  /** The fault the request's Prefer or the schedule asks for, once the body is JSON. */
  fault?: preHandlerHookHandler;
}

export interface CreatePipelineOptions {
  contract: OperationContract;
  authenticator: Authenticator;
  rule: CreateRule;
  /** Largest request body in bytes (413 beyond). */
  bodyLimit: number;
  /** The stub's stages, when buildApp was given the stub. */
  stub?: StubStages | undefined;
}

/**
 * A stage of the create pipeline: its name, as the order of checks of
 * docs/server.md names it, and where it runs in Fastify's request lifecycle
 * (PHASES). A stage of the stub has no `run` without the stub.
 */
export type Stage = { name: string; stubOnly?: true } & (
  | { phase: 'onRequest'; run: onRequestHookHandler | undefined }
  | { phase: 'preParsing'; run: preParsingHookHandler }
  // The body parser (body.ts) stops at the route's body limit as it reads the body.
  | { phase: 'parsing'; bodyLimit: number }
  | { phase: 'preValidation'; run: preValidationHookHandler | undefined }
  | { phase: 'preHandler'; run: preHandlerHookHandler | undefined }
  | HandlerStage
);

/** The handler's three steps: the schema makes the plant to store of the body, the store keeps it, the answer sends it. */
type HandlerStage =
  | { phase: 'handler'; name: 'schema'; run: (request: FastifyRequest) => PlantToStore }
  | { phase: 'handler'; name: 'store'; run: (plant: PlantToStore, reply: FastifyReply) => MaybePromise<void> }
  | { phase: 'handler'; name: 'answer'; run: (plant: PlantToStore, reply: FastifyReply) => FastifyReply };

/** Fastify's request lifecycle, in the order it runs a route's hooks, the body parser between them. */
export const PHASES = ['onRequest', 'preParsing', 'parsing', 'preValidation', 'preHandler', 'handler'] as const;

/**
 * Every stage of the create operation, in the order of checks of
 * docs/server.md (a test compares the two): what a request meets, first to
 * last. The route is made of this list and of nothing else (createRoute), so
 * it is the order: no stage is added to the route elsewhere.
 */
export function createPipeline({ contract, authenticator, rule, bodyLimit, stub }: CreatePipelineOptions): readonly Stage[] {
  return [
    // Credentials first: a request without them is answered before its body is read.
    { name: 'credentials', phase: 'onRequest', run: checkCredentials(authenticator) },
    { name: 'Prefer', stubOnly: true, phase: 'onRequest', run: stub?.prefer },
    { name: 'content type', phase: 'preParsing', run: requireMediaType(contract.requestMediaTypes) },
    { name: 'size', phase: 'parsing', bodyLimit },
    { name: 'delay', stubOnly: true, phase: 'preValidation', run: stub?.delay },
    { name: 'JSON syntax', phase: 'preValidation', run: rejectUnreadableBody },
    { name: 'fault', stubOnly: true, phase: 'preHandler', run: stub?.fault },
    {
      name: 'schema',
      phase: 'handler',
      run: (request) => {
        const body = readBody(request); // JSON: the stage JSON syntax let it through
        return rule.fromBody(body?.value, body);
      },
    },
    {
      name: 'store',
      phase: 'handler',
      run: (plant, reply) => {
        // RFC 9112 §9.6: nothing is stored for an answer that cannot reach its client (wire.ts).
        if (!answerCanBeDelivered(reply)) throw new ApiError('MALFORMED_REQUEST', 'Request not processed: the connection closes after an earlier answer.');
        return rule.store(plant);
      },
    },
    { name: 'answer', phase: 'handler', run: answerPlant },
  ];
}

/** The create operation's route, made of its pipeline. */
export function createRoute(app: FastifyInstance, options: CreatePipelineOptions): void {
  const { contract } = options;
  app.route({ method: contract.method.toUpperCase(), url: contract.path, ...routeOptionsOf(createPipeline(options)) });
}

/**
 * The route options that run `stages` in their order: each hook in its
 * phase, the handler's steps in the handler. Throws when a stage runs in a
 * phase before the one of the stage above it, as the list would then not
 * be the order.
 */
export function routeOptionsOf(stages: readonly Stage[]) {
  const onRequest: onRequestHookHandler[] = [];
  const preParsing: preParsingHookHandler[] = [];
  const preValidation: preValidationHookHandler[] = [];
  const preHandler: preHandlerHookHandler[] = [];
  let bodyLimit: number | undefined;
  const steps: HandlerStage[] = [];
  let phase = 0;
  for (const stage of stages) {
    const at = PHASES.indexOf(stage.phase);
    if (at < phase) throw new Error(`the create pipeline's stage ${stage.name} runs in ${stage.phase}, before the stage above it (${PHASES[phase]})`);
    phase = at;
    // A stage of the stub without the stub has nothing to run.
    switch (stage.phase) {
      case 'onRequest':
        if (stage.run) onRequest.push(stage.run);
        break;
      case 'preParsing':
        preParsing.push(stage.run);
        break;
      case 'parsing':
        bodyLimit = stage.bodyLimit;
        break;
      case 'preValidation':
        if (stage.run) preValidation.push(stage.run);
        break;
      case 'preHandler':
        if (stage.run) preHandler.push(stage.run);
        break;
      case 'handler':
        steps.push(stage);
    }
  }
  const [schema, store, answer] = steps;
  if (steps.length !== 3 || schema?.name !== 'schema' || store?.name !== 'store' || answer?.name !== 'answer') {
    throw new Error(`the create pipeline's handler steps are schema, store and answer, in this order; declared: ${steps.map(({ name }) => name).join(', ')}`);
  }
  const [toPlant, keep, send] = [schema.run, store.run, answer.run];
  // A plain function: Fastify hands what it throws to the error handler.
  const handler: RouteHandlerMethod = (request, reply) => {
    const plant = toPlant(request);
    const stored = keep(plant, reply);
    // The in-memory store answers at once: no promise on its hot path.
    if (stored === undefined) return send(plant, reply);
    return stored.then(() => send(plant, reply));
  };
  return { onRequest, preParsing, bodyLimit, preValidation, preHandler, handler };
}

function checkCredentials(authenticator: Authenticator): onRequestHookHandler {
  return (request, _reply, next) => {
    try {
      authenticator.check(request.headers.authorization);
    } catch (error) {
      return next(error as Error);
    }
    next();
  };
}

/** 200 with the Plant, whose JSON text the create rule made once for the store and the answer. */
function answerPlant(plant: PlantToStore, reply: FastifyReply): FastifyReply {
  return reply.code(200).type('application/json; charset=utf-8').send(plant.json);
}

// ---------------------------------------------------------------------------
// Everything else.

/** The 404 of a path the document does not have: the message names the operation the document declares. */
export function notFound(contract: OperationContract): ApiError {
  return new ApiError('NOT_FOUND', `No such resource: the API has one operation, ${contract.method.toUpperCase()} ${contract.path}.`);
}

/**
 * The 405 of another method on the operation's path; RFC 9110 §15.5.6 says
 * it MUST carry Allow with the supported methods.
 */
export function methodNotAllowed(contract: OperationContract): ApiError {
  const allowed = contract.method.toUpperCase();
  return new ApiError('METHOD_NOT_ALLOWED', `Method not allowed: ${contract.path} accepts ${allowed} only.`, { allow: allowed });
}

/**
 * 404 for unknown paths and 405 for another method on the operation's path,
 * answered before the body is read: otherwise a body sent to an unknown route
 * is parsed first and answered 400, 413 or 415.
 */
export function answerUnroutedRequests(app: FastifyInstance, contract: OperationContract): void {
  // Any other method on the operation's path, including methods Fastify does not route (PROPFIND, ...).
  const routingError = (request: FastifyRequest): ApiError => (pathOf(request.url) === contract.path ? methodNotAllowed(contract) : notFound(contract));
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

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
