// buildApp(options) returns the Plant Store as a Fastify app. It never
// listens: start.ts does that, and tests use app.inject(). It composes the
// pieces: the create operation's contract and every other operation from the
// OpenAPI document, the store and the create rule, the feed of committed
// changes, the wire, the body parser, the error records, the routes, and the
// stub and the webhooks when asked for.
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { operationsOf, readOpenApi } from '../spec/openapi.js';
import { childPointer } from '../spec/schema-keywords.js';
import { installBodyParser } from './http/body.js';
import { PlantChanges } from './changes.js';
import { answerErrors, sendError } from './http/error-handler.js';
import { ErrorShapeMaker, type ErrorShapes } from './http/error-shapes.js';
import { ApiError } from './http/errors.js';
import type { JsonValue } from './json/json.js';
import { requestLineWriter } from './logging.js';
import {
  DEFAULT_BODY_LIMIT,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_PLANTS,
  DEFAULT_REQUEST_TIMEOUT,
  TIMEOUT_CHECK_INTERVAL,
} from './limits.js';
import { createMemoryStore } from './store/memory-store.js';
import type { ItemKind } from './operations/item-kind.js';
import { findResources } from './operations/resources.js';
import { ALL_INFERENCES, servedOperations, type Inference } from './operations/served.js';
import { UnservedError, unservedLine } from './operations/served-notes.js';
import { answerUnroutedRequests, healthRoute, methodNotAllowed, methodsAt, operationRoutes } from './http/routes.js';
import { credentialStage } from './security/check.js';
import { schemeCredentials } from './security/credentials.js';
import { documentSchemes, keyNames, unsatisfiable } from './security/schemes.js';
import type { CredentialNames } from './redact.js';
import type { PlantStore } from './store/store.js';
import { InitialPlantsError, type InitialPlants } from './stub/initial-plants.js';
import { stub, type StubOptions } from './stub/index.js';
import { operationContract } from './http/validation.js';
import type { WebhookResource } from './webhooks/declarations.js';
import { webhooks, type WebhookOptions } from './webhooks/index.js';
import { answerClientError, answerOnTheWire } from './http/wire.js';

export interface AppOptions {
  /** Bearer tokens every bearer scheme (HTTP bearer, oauth2, openIdConnect) accepts; undefined accepts any well-formed token. */
  tokens?: readonly string[];
  /**
   * Accepted credentials by security scheme name (PLANTSTORE_CREDENTIALS):
   * tokens, `user-id:password` pairs, API keys. A scheme with none (and a
   * bearer scheme without `tokens`) accepts any well-formed credential.
   */
  credentials?: ReadonlyMap<string, readonly string[]>;
  /** Largest request body in bytes (413 beyond). */
  bodyLimit?: number;
  /** Most plants the default in-memory store keeps (507 beyond). */
  maxPlants?: number;
  /** Most bytes of plants the default in-memory store keeps, counted by plantBytes() (507 beyond). */
  maxBytes?: number;
  /** Milliseconds to receive a whole request (408 beyond). */
  requestTimeout?: number;
  /** A store of your own; replaces the in-memory one. */
  store?: PlantStore;
  /** Fastify's logger option: false (default), true, or pino options. */
  logger?: FastifyServerOptions['logger'];
  /**
   * A logger of your own (start.ts passes the asynchronous one of
   * logging.ts); replaces `logger`. Requests log through it directly, with
   * no child logger per request: the one request line carries the request id.
   */
  loggerInstance?: FastifyBaseLogger;
  /** The OpenAPI document the API is derived from (default spec/openapi.yaml); one the server cannot serve throws a DocumentError. */
  specPath?: string;
  /** The stub's controls, journal, Prefer and delay (stub/); none when absent. */
  stub?: StubOptions;
  /**
   * Values the stub's journal never shows, wherever they appear, besides the
   * API tokens and the controls' token (start.ts adds the database's password).
   */
  secrets?: readonly string[];
  /**
   * Which of the document's implications the server acts on (docs/server.md,
   * "Every operation"; PLANTSTORE_INFER): every one unless turned off here.
   */
  inference?: Partial<Inference>;
  /**
   * Plants stored before the first request, all or none; unusable ones make
   * app.ready() (and so listen() and inject()) reject with InitialPlantsError.
   * A list whose every id the store holds already (a shared database, a
   * restart) is left as it is.
   */
  initialPlants?: InitialPlants;
  /** The document's webhooks, sent to receivers after their events (webhooks/); none sent when absent. */
  webhooks?: WebhookOptions;
  /**
   * Refuse a document with a feature the server does not serve as it is
   * written (PLANTSTORE_STRICT=on): buildApp throws an UnservedError naming
   * each. Off, each is logged at start (app.unservedFeatures).
   */
  strict?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    plantStore: PlantStore;
    /** The changes of stored plants, told once committed (changes.ts): subscribe to act on them. */
    plantChanges: PlantChanges;
    /** What the document states that the server does not check (start.ts logs it). */
    documentWarnings: readonly string[];
    /** How each operation of the document is served, a line each (start.ts logs them). */
    operationNotes: readonly string[];
    /** What of the document the server does not serve as it is written, a line each (start.ts logs them at warn). */
    unservedFeatures: readonly string[];
    /** Security schemes that accept any credential, and settings that open nothing, each with what to set (start.ts logs them at warn). */
    credentialWarnings: readonly string[];
    /** The document's API keys' names: what they carry is redacted by name (the journal here; start.ts gives the log the query's). */
    credentialNames: CredentialNames;
  }
}

export function buildApp(options: AppOptions = {}): FastifyInstance {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const requestTimeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
  const { document, source } = readOpenApi(options.specPath);
  const inference = { ...ALL_INFERENCES, ...options.inference };
  const model = findResources(document, operationsOf(document), {
    inferResources: inference.resource,
    inferReferences: inference.reference,
  });
  // The plant resource's create: a DocumentError when the document has none.
  const contract = operationContract(document, source, model);
  const store =
    options.store ?? createMemoryStore(options.maxPlants ?? DEFAULT_MAX_PLANTS, options.maxBytes ?? DEFAULT_MAX_BYTES);
  // A listener's failure is the server's to log: the change committed whatever it does.
  const changes = new PlantChanges((error, change) =>
    app.log.error({ err: error, event: change.event, id: change.id }, 'a listener of committed changes failed'),
  );
  const {
    operations,
    plants: rule,
    kinds,
    unserved,
  } = servedOperations(document, {
    contract,
    model: model!,
    store,
    changes,
    inference,
    sharedStore: options.store !== undefined,
  });
  if (options.strict && unserved.length > 0) throw new UnservedError(unserved);
  // Every scheme's accepted credentials (security/), and each operation's stage that checks them.
  const schemes = documentSchemes(document);
  const used = new Set(
    operations.flatMap(({ security }) => security.alternatives.flat().map(({ scheme }) => scheme.name)),
  );
  const credentials = schemeCredentials(schemes, used, { tokens: options.tokens, credentials: options.credentials });
  const securityWarnings = operations.flatMap(({ method, path, security }) =>
    security.alternatives.flatMap((alternative) => {
      const why = unsatisfiable(alternative);
      return why === undefined
        ? []
        : [
            `${method} ${path}: its security requirement ${alternative.map(({ scheme }) => scheme.name).join(' and ')} is never met: ${why}`,
          ];
    }),
  );
  // How each operation writes its errors, and what no operation answers (error-shapes.ts).
  const shapeMaker = new ErrorShapeMaker(document, inference.errors);
  const shapes = new Map<object, ErrorShapes>(
    operations.map((operation) => [
      operation,
      shapeMaker.forOperation(operation.responses, {
        operation: `${operation.method} ${operation.path}`,
        pointer: childPointer('#/paths', operation.path, operation.method.toLowerCase()),
      }),
    ]),
  );

  const app = Fastify({
    ...(options.loggerInstance !== undefined
      ? { loggerInstance: options.loggerInstance, childLoggerFactory: (logger: FastifyBaseLogger) => logger }
      : { logger: options.logger ?? false }),
    logController: new OneLinePerRequest(),
    // No route declares a Fastify schema (the document's schemas are checked
    // by spec/), so Fastify needs no compilers: its default ones would load
    // Ajv and fast-json-stringify at every start for nothing.
    schemaController: { compilersFactory: { buildValidator: noFastifySchemas, buildSerializer: noFastifySchemas } },
    bodyLimit,
    // HEAD only where the document declares GET (routes.ts): not on the server's own paths.
    exposeHeadRoutes: false,
    clientErrorHandler: answerClientError,
    // While closing, a request that arrives on an open connection is still
    // answered by the API (with Connection: close) rather than with Fastify's
    // own 503 body, which is not the specification's Error record.
    return503OnClosing: false,
    requestTimeout,
    // requireHostHeader: the Host check is ours (routes.ts), so its 400 carries an Error record.
    http: {
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_INTERVAL, requestTimeout),
      requireHostHeader: false,
    },
    // The router's own errors (a request target with bad percent-encoding,
    // FST_ERR_BAD_URL) would otherwise get Fastify's body, not an Error record.
    frameworkErrors: (_error, _request, reply) => {
      // No route was found for it: written as the document's operations agree (error-shapes.ts).
      sendError(
        reply,
        new ApiError('MALFORMED_REQUEST', 'Malformed request: the request target is not a valid URI (RFC 3986).'),
        app.errorShapes,
      );
    },
  });
  app.decorate('plantStore', store);
  app.decorate('plantChanges', changes);
  app.decorate('errorShapes', shapeMaker.agreed([...shapes.values()]));
  const { initialPlants } = options;
  if (initialPlants !== undefined) {
    // A plugin, so that the store is filled before the server is ready: the first request finds the plants.
    app.register(async () => {
      const stored = await rule.storeAll(
        initialPlants.plants,
        initialPlants.source,
        (message) => new InitialPlantsError(message),
        {
          alreadyStored: 'skip',
          sent: initialPlants.text === undefined ? undefined : { text: initialPlants.text },
        },
      );
      if (stored === 0 && Array.isArray(initialPlants.plants) && initialPlants.plants.length > 0) {
        app.log.info(
          `${initialPlants.source}: every plant's id is stored already (a shared database, or a restart); the list was not stored again`,
        );
      }
    });
  }
  app.decorate('documentWarnings', [...contract.warnings, ...securityWarnings, ...shapeMaker.warnings]);
  app.decorate('credentialWarnings', credentials.warnings);
  const credentialNames = keyNames(schemes);
  app.decorate('credentialNames', credentialNames);
  app.decorate(
    'operationNotes',
    operations.map(({ method, path, note }) => `${method} ${path} ${note}`),
  );
  app.decorate('unservedFeatures', unserved.map(unservedLine));
  answerOnTheWire(app, methodNotAllowed(contract.path, methodsAt(operations, contract.path)));
  installBodyParser(app, bodyLimit);
  answerErrors(app, bodyLimit);
  answerUnroutedRequests(app, operations);
  healthRoute(app, store);
  // The webhooks are a plugin that listens to the committed changes; the stub's controls and journal see their deliveries.
  const theWebhooks =
    options.webhooks === undefined
      ? undefined
      : webhooks(options.webhooks, { contract, resources: webhookResources(kinds), changes, log: app.log });
  // The stub's controls and journal are a plugin; its stages of each operation go into that route's pipeline.
  const secrets = [
    ...credentials.secrets,
    ...(options.stub?.controlsToken === undefined ? [] : [options.stub.controlsToken]),
    ...(options.secrets ?? []),
  ];
  const theStub =
    options.stub === undefined
      ? undefined
      : stub(options.stub, { contract, store, rule, secrets, credentialNames, deliveries: theWebhooks?.deliveries });
  operationRoutes(app, operations, {
    credentials: (security) => credentialStage(security, (scheme) => credentials.accepted(scheme)),
    errorShapes: (operation) => shapes.get(operation)!,
    bodyLimit,
    stub: theStub?.stagesFor,
  });
  if (theWebhooks !== undefined) app.register(theWebhooks.plugin);
  if (theStub !== undefined) app.register(theStub.plugin);
  return app;
}

/** The compiler factory for schemas no route has; one that a route did declare is refused at start, not ignored. */
function noFastifySchemas(): () => never {
  return () => {
    throw new Error(
      'the server declares no Fastify route schema: the OpenAPI document is checked by spec/validator.ts',
    );
  };
}

/**
 * Fastify logs two info lines per request, "incoming request" and "request
 * completed". This logs one, when the answer is sent, carrying what both
 * carried (the request's method, url, host and remote address, the status,
 * the response time): half the log volume, which is most of the cost of
 * logging at info under load. The server's own logger (logging.ts) writes
 * that line by hand; any other logger gets it through pino. Errors are
 * logged as Fastify logs them.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    const writeLine = requestLineWriter(reply.log);
    if (writeLine) return writeLine(request, reply);
    reply.log.info(
      { reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime },
      'request completed',
    );
  }
}

/** The resources as the webhooks see them, the plant resource first. */
function webhookResources(kinds: ReadonlyMap<string, ItemKind>): WebhookResource[] {
  return [...kinds.values()]
    .sort((a, b) => Number(b.resource.key === '') - Number(a.resource.key === ''))
    .map(({ resource, shape, validateCreate }) => {
      const idMember = resource.id.property ?? 'id';
      return {
        key: resource.key,
        noun: resource.noun,
        createBody: resource.createBody && { value: resource.createBody.schema, pointer: resource.createBody.pointer },
        item: { value: resource.item.schema, pointer: resource.item.pointer },
        idMember,
        idKind: resource.id.kind,
        storesId: shape.keeps(idMember),
        validateCreate: (body) => validateCreate(body as JsonValue),
      };
    });
}
