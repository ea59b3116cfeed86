// Every operation the server serves is one pipeline of stages: the same
// list, in the same order (docs/server.md's order of checks), whatever the
// operation; a stage that does not apply to it (no credentials to check, no
// body, no parameters, no stub) has nothing to run. The route is made of the
// list (routeOptionsOf), so the list is the order.
// Hooks take callbacks rather than being async: no promise per request on the hot path.
import type {
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
  preParsingHookHandler,
  preValidationHookHandler,
  RouteHandlerMethod,
} from 'fastify';
import { rejectUnreadableBody, requireMediaType } from './body.js';
import { ApiError } from './errors.js';
import type { MaybePromise } from '../store/store.js';
import { answerCanBeDelivered } from './wire.js';

/** The stub's stages of a pipeline (server/stub/ makes them); each absent without the stub. */
export interface StubStages {
  /** A malformed or unanswerable Prefer header is a 400, before the body is read. */
  prefer?: onRequestHookHandler;
  /** The configured delay, once the body is read. */
  delay?: preValidationHookHandler;
  /** The fault the request's Prefer or the schedule asks for, once the body is JSON. */
  fault?: preHandlerHookHandler;
}

/**
 * What an operation does once its request passed the stages before: the
 * schema step makes its input of the request (the body judged by its
 * schema, the parameters read), the store step does the work (what the
 * store answers), the answer step sends it. The store step answers at once
 * when the store does, so the in-memory store's hot path makes no promise.
 */
export interface OperationHandler<Input, Result> {
  schema(request: FastifyRequest): Input;
  store(input: Input, reply: FastifyReply): MaybePromise<Result>;
  answer(input: Input, result: Result, reply: FastifyReply): FastifyReply;
}

export interface PipelineOptions<Input, Result> {
  /** Checks the credentials (security/check.ts); undefined when the operation requires none (`security: []`). */
  credentials: onRequestHookHandler | undefined;
  /** Reads and checks the parameters (operations/parameters.ts); undefined when the operation declares none. */
  parameters: onRequestHookHandler | undefined;
  /** The media types the request body may have; undefined when the operation declares no body. */
  requestMediaTypes: readonly string[] | undefined;
  /** Whether the body is JSON (the stage JSON syntax applies). */
  jsonBody: boolean;
  /** Largest request body in bytes (413 beyond). */
  bodyLimit: number;
  /** The stub's stages, when buildApp was given the stub. */
  stub: StubStages | undefined;
  handler: OperationHandler<Input, Result>;
}

/**
 * A stage: its name, as the order of checks of docs/server.md names it, and
 * where it runs in Fastify's request lifecycle (PHASES). A stage with no
 * `run` does not apply to the operation (or is the stub's, without the stub).
 */
export type Stage<Input = unknown, Result = unknown> = { name: string; stubOnly?: true } & (
  | { phase: 'onRequest'; run: onRequestHookHandler | undefined }
  | { phase: 'preParsing'; run: preParsingHookHandler | undefined }
  // The body parser (body.ts) stops at the route's body limit as it reads the body.
  | { phase: 'parsing'; bodyLimit: number }
  | { phase: 'preValidation'; run: preValidationHookHandler | undefined }
  | { phase: 'preHandler'; run: preHandlerHookHandler | undefined }
  | HandlerStage<Input, Result>
);

/** The handler's three steps: the schema makes the input of the request, the store does the work, the answer sends it. */
type HandlerStage<Input, Result> =
  | { phase: 'handler'; name: 'schema'; run: (request: FastifyRequest) => Input }
  | { phase: 'handler'; name: 'store'; run: (input: Input, reply: FastifyReply) => MaybePromise<Result> }
  | { phase: 'handler'; name: 'answer'; run: (input: Input, result: Result, reply: FastifyReply) => FastifyReply };

/** Fastify's request lifecycle, in the order it runs a route's hooks, the body parser between them. */
export const PHASES = ['onRequest', 'preParsing', 'parsing', 'preValidation', 'preHandler', 'handler'] as const;

/**
 * Every stage of an operation, in the order of checks of docs/server.md (a
 * test compares the two): what a request meets, first to last.
 */
export function pipeline<Input, Result>(options: PipelineOptions<Input, Result>): ReadonlyArray<Stage<Input, Result>> {
  const { credentials, parameters, requestMediaTypes, jsonBody, bodyLimit, stub, handler } = options;
  const withBody = requestMediaTypes !== undefined;
  return [
    // Credentials first: a request without them is answered before its body is read.
    { name: 'credentials', phase: 'onRequest', run: credentials },
    { name: 'Prefer', stubOnly: true, phase: 'onRequest', run: stub?.prefer },
    { name: 'parameters', phase: 'onRequest', run: parameters },
    { name: 'content type', phase: 'preParsing', run: withBody ? requireMediaType(requestMediaTypes) : undefined },
    { name: 'size', phase: 'parsing', bodyLimit },
    { name: 'delay', stubOnly: true, phase: 'preValidation', run: stub?.delay },
    { name: 'JSON syntax', phase: 'preValidation', run: withBody && jsonBody ? rejectUnreadableBody : undefined },
    { name: 'fault', stubOnly: true, phase: 'preHandler', run: stub?.fault },
    { name: 'schema', phase: 'handler', run: (request) => handler.schema(request) },
    {
      name: 'store',
      phase: 'handler',
      run: (input, reply) => {
        // RFC 9112 §9.6: nothing is done for an answer that cannot reach its client (wire.ts).
        if (!answerCanBeDelivered(reply))
          throw new ApiError(
            'MALFORMED_REQUEST',
            'Request not processed: the connection closes after an earlier answer.',
          );
        return handler.store(input, reply);
      },
    },
    { name: 'answer', phase: 'handler', run: (input, result, reply) => handler.answer(input, result, reply) },
  ];
}

/**
 * The route options that run `stages` in their order: each hook in its
 * phase, the handler's steps in the handler. Throws when a stage runs in a
 * phase before the one of the stage above it, as the list would then not
 * be the order.
 */
export function routeOptionsOf<Input, Result>(stages: ReadonlyArray<Stage<Input, Result>>) {
  const onRequest: onRequestHookHandler[] = [];
  const preParsing: preParsingHookHandler[] = [];
  const preValidation: preValidationHookHandler[] = [];
  const preHandler: preHandlerHookHandler[] = [];
  let bodyLimit: number | undefined;
  const steps: Array<HandlerStage<Input, Result>> = [];
  let phase = 0;
  for (const stage of stages) {
    const at = PHASES.indexOf(stage.phase);
    if (at < phase)
      throw new Error(
        `the pipeline's stage ${stage.name} runs in ${stage.phase}, before the stage above it (${PHASES[phase]})`,
      );
    phase = at;
    // A stage that does not apply has nothing to run.
    switch (stage.phase) {
      case 'onRequest':
        if (stage.run) onRequest.push(stage.run);
        break;
      case 'preParsing':
        if (stage.run) preParsing.push(stage.run);
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
    throw new Error(
      `the pipeline's handler steps are schema, store and answer, in this order; declared: ${steps.map(({ name }) => name).join(', ')}`,
    );
  }
  const [toInput, keep, send] = [schema.run, store.run, answer.run];
  // A plain function: Fastify hands what it throws to the error handler.
  const handler: RouteHandlerMethod = (request, reply) => {
    const input = toInput(request);
    const result = keep(input, reply);
    // The in-memory store answers at once: no promise on its hot path.
    if (!(result instanceof Promise)) return send(input, result, reply);
    return result.then((settled) => send(input, settled, reply));
  };
  return { onRequest, preParsing, bodyLimit, preValidation, preHandler, handler };
}
