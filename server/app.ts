// buildApp(options) returns the Plant Store as a Fastify app. It never
// listens: start.ts does that, and tests use app.inject().
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { loadOpenApi, OPENAPI_PATH } from '../spec/openapi.js';
import { installStub, seedStore, sendPreferred, type SeedPlants, type StubOptions } from './admin.js';
import { createAuthenticator } from './auth.js';
import { ApiError, ERRORS, type ErrorBody } from './errors.js';
import { JsonSyntaxError, parseJson, type JsonObject, type JsonValue } from './json.js';
import { createMemoryStore, type PlantStore, type StoredPlant } from './store.js';
import { operationContract } from './validation.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const DEFAULT_MAX_PLANTS = 1_000_000;
export const HEALTH_PATH = '/__health';
/**
 * Milliseconds a client has to send a whole request, headers and body
 * (Fastify's default is no limit): past it the client gets 408 and the
 * connection is closed, so a body that never completes holds no socket forever.
 */
export const DEFAULT_REQUEST_TIMEOUT = 30_000;
const JSON_MAX_DEPTH = 64;

export interface AppOptions {
  /** Accepted bearer tokens; undefined accepts any well-formed token. */
  tokens?: readonly string[];
  /** Largest request body in bytes (413 beyond). */
  bodyLimit?: number;
  /** Most plants the default in-memory store keeps (507 beyond). */
  maxPlants?: number;
  /** Milliseconds to receive a whole request (408 beyond). */
  requestTimeout?: number;
  /** A store of your own; replaces the in-memory one. */
  store?: PlantStore;
  /** Fastify's logger option: false (default), true, or pino options. */
  logger?: FastifyServerOptions['logger'];
  /** The OpenAPI document the API is derived from. */
  specPath?: string;
  /** The stub's test controls, journal, Prefer and delay (admin.ts); none when absent. */
  stub?: StubOptions;
  /** Plants stored before the first request; a bad seed throws SeedError. */
  seed?: SeedPlants;
}

declare module 'fastify' {
  interface FastifyInstance {
    plantStore: PlantStore;
  }
}

export function buildApp(options: AppOptions = {}): FastifyInstance {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const store = options.store ?? createMemoryStore(options.maxPlants ?? DEFAULT_MAX_PLANTS);
  const authenticator = createAuthenticator(options.tokens);
  const requestTimeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;

  const doc = loadOpenApi(options.specPath ?? OPENAPI_PATH);
  // The document declares exactly one operation; find it rather than name it.
  const [path, methods] = Object.entries(doc.paths)[0] ?? [];
  const method = Object.keys(methods ?? {})[0];
  if (!path || !method) throw new Error('spec: the document declares no operation');
  const contract = operationContract(doc, path, method);
  const allowed = contract.method.toUpperCase();

  const app = Fastify({
    logger: options.logger ?? false,
    logController: new OneLinePerRequest(),
    bodyLimit,
    exposeHeadRoutes: false,
    clientErrorHandler: answerClientError,
    // While closing, a request that arrives on an open connection is still
    // answered by the API (with Connection: close) rather than with Fastify's
    // own 503 body, which is not the specification's Error record.
    return503OnClosing: false,
    requestTimeout,
    // Node checks the timeouts every connectionsCheckingInterval (30 s by
    // default, which would let a request live up to twice its timeout).
    // requireHostHeader: the Host check is ours (below), so its 400 carries an Error record.
    http: { headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(1000, requestTimeout), requireHostHeader: false },
    // The router's own errors (a request target with bad percent-encoding,
    // FST_ERR_BAD_URL) would otherwise get Fastify's body, not an Error record.
    frameworkErrors: (_error, _request, reply) =>
      sendError(reply, new ApiError('MALFORMED_REQUEST', 'Malformed request: the request target is not a valid URI (RFC 3986).')),
  });
  app.decorate('plantStore', store);
  // RFC 9110 §10.1.1: a server MAY answer 417 to an expectation other than
  // 100-continue; Node does so with an empty body. We ignore the expectation
  // and answer the request as usual instead.
  app.server.on('checkExpectation', (request, response) => app.server.emit('request', request, response));
  // CONNECT asks for a tunnel (RFC 9110 §9.3.6); Node hands it to a 'connect'
  // listener and, without one, drops the connection unanswered.
  app.server.on('connect', (_request, socket: Socket) => answerRaw(socket, ERRORS.METHOD_NOT_ALLOWED, `Allow: ${allowed}\r\n`));
  // Before any route, so that the stub's hooks apply to all of them.
  const stub = installStub(app, options.stub, { store, doc, path, method, contract });
  if (options.seed !== undefined) seedStore({ store, doc, path, method, contract }, options.seed);

  // Every body goes through our own parser (see json.ts); media types are
  // checked before the body is read, in the route's preParsing hook.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (request, raw, done) => {
    const buffer = raw as Buffer;
    if (stub?.keepsBodies) stub.keepBody(request, buffer);
    if (buffer.length === 0) return done(null, undefined);
    let text: string;
    // A body that is not JSON is handed on as its ApiError and thrown by the
    // handler: an error passed to done() makes Fastify close the connection
    // (in case body bytes are left unread), and requests pipelined behind this
    // fully read one would be processed with their answers never sent.
    try {
      // RFC 8259 §8.1: JSON exchanged between systems MUST be UTF-8.
      text = UTF8.decode(buffer);
    } catch {
      return done(null, new ApiError('MALFORMED_JSON', 'Request body is not valid UTF-8 (RFC 8259 §8.1).'));
    }
    try {
      done(null, parseJson(text, { maxDepth: JSON_MAX_DEPTH }));
    } catch (error) {
      if (error instanceof JsonSyntaxError) return done(null, new ApiError('MALFORMED_JSON', error.message));
      done(error as Error, undefined);
    }
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error instanceof ApiError) return sendError(reply, error);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(reply, new ApiError('PAYLOAD_TOO_LARGE', `Request body is too large: the limit is ${bodyLimit} bytes.`));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return sendError(reply, new ApiError('UNSUPPORTED_MEDIA_TYPE'));
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      // Fastify's own client errors (a body shorter than its Content-Length,
      // an aborted upload): their messages name the problem and hold no internals.
      request.log.info({ err: error }, 'malformed request');
      return sendError(reply, new ApiError('MALFORMED_REQUEST', `Malformed request: ${error.message}`));
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendError(reply, new ApiError('INTERNAL'));
  });

  // Any other method on the operation's path, including methods Fastify
  // does not route (PROPFIND, ...): RFC 9110 §15.5.6 says a 405 response
  // MUST carry Allow with the supported methods.
  const routingError = (request: FastifyRequest): ApiError =>
    pathOf(request.url) === path ? new ApiError('METHOD_NOT_ALLOWED', undefined, { allow: allowed }) : new ApiError('NOT_FOUND');
  // 404 and 405 are answered before the body is read: otherwise a body sent
  // to an unknown route is parsed first and answered 400, 413 or 415.
  // Hooks take callbacks rather than being async: no promise per request on the hot path.
  app.addHook('onRequest', (request, _reply, done) => {
    // RFC 9112 §3.2: a server MUST respond with 400 to an HTTP/1.1 request that lacks a Host header.
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      return done(new ApiError('MALFORMED_REQUEST', 'Malformed request: an HTTP/1.1 request must carry a Host header (RFC 9112 §3.2).'));
    }
    done(request.is404 ? routingError(request) : undefined);
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, routingError(request)));

  app.get(HEALTH_PATH, (_request, reply) => reply.send({ status: 'ok' }));

  app.route({
    method: allowed,
    url: path,
    // Credentials first: a request without them is answered before its body is read.
    onRequest: (request, _reply, done) => {
      try {
        authenticator.check(request.headers.authorization);
        // Prefer (RFC 7240) is the stub's: checked after the credentials, before the body is read.
        if (stub !== undefined && request.headers.prefer !== undefined) stub.checkPrefer(request.headers.prefer);
      } catch (error) {
        return done(error as Error);
      }
      done();
    },
    preParsing: (request, _reply, payload, done) => {
      if (hasBody(request) && !acceptableMediaType(request.headers['content-type'], contract.requestMediaTypes)) {
        return done(new ApiError('UNSUPPORTED_MEDIA_TYPE'), payload);
      }
      done(null, payload);
    },
    // A plain function: Fastify hands what it throws to the error handler.
    handler: (request, reply) => {
      // Content type, size and JSON errors win over a Prefer header.
      if (request.body instanceof ApiError) throw request.body;
      if (stub !== undefined && request.headers.prefer !== undefined) {
        // The body has been read (and is in the journal); the store is left alone.
        const answer = stub.preferredAnswer(request.headers.prefer);
        if (answer !== undefined) return sendPreferred(reply, answer);
      }
      const body = request.body as JsonValue | undefined;
      if (body === undefined) throw new ApiError('BODY_REQUIRED');
      const violations = contract.validateRequestBody(body);
      if (violations.length > 0) {
        throw new ApiError('INVALID_NEW_PLANT', `Request body is not a valid NewPlant: ${violations.join('; ')}.`);
      }
      const newPlant = body as JsonObject;
      // Only the fields of Plant are kept and echoed; other properties are accepted and dropped.
      const plant: StoredPlant = { name: newPlant.name as string };
      if (newPlant.tag !== undefined) plant.tag = newPlant.tag as string;
      const id = String(newPlant.id as number | bigint);
      if (!answerCanBeDelivered(reply)) throw new ApiError('MALFORMED_REQUEST', 'Request not processed: the connection closes after an earlier answer.');
      const result = store.create(id, plant);
      if (result === 'exists') throw new ApiError('DUPLICATE_ID', `A plant with id ${id} already exists.`);
      if (result === 'full') throw new ApiError('STORE_FULL');
      return reply.code(200).send(plant);
    },
  });

  return app;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Fastify logs two info lines per request, "incoming request" and "request
 * completed". This logs one, when the answer is sent, carrying what both
 * carried (the request's method, url, host and remote address, the status,
 * the response time): half the log volume, which is most of the cost of
 * logging at info under load. Errors are logged as Fastify logs them.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8').send(error.body);
}

/**
 * False when this answer could never reach the client: the connection is
 * closed or closes after an earlier answer (a 413 announces `Connection:
 * close`), so a request pipelined behind it must not be processed, or its
 * plant would be stored and the client never told. RFC 9112 §9.6: a server
 * that sends "close" "MUST NOT process any further requests received on that
 * connection".
 */
function answerCanBeDelivered(reply: FastifyReply): boolean {
  const socket = reply.raw.req.socket as Socket & { _httpMessage?: ServerResponse | null };
  if (socket.destroyed || socket.writableEnded) return false;
  const earlier = socket._httpMessage;
  if (!earlier || earlier === reply.raw) return true;
  return !/\bclose\b/i.test(String(earlier.getHeader('connection') ?? ''));
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * RFC 9110 §8.3.1: type and subtype are case-insensitive; parameters may
 * follow. RFC 8259 §11 defines no charset parameter for application/json,
 * and §8.1 requires UTF-8, so a charset other than utf-8 is refused.
 */
function acceptableMediaType(header: string | undefined, accepted: readonly string[]): boolean {
  if (header === undefined) return false;
  const [essence = '', ...parameters] = header.split(';');
  if (!accepted.includes(essence.trim().toLowerCase())) return false;
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() === 'charset' && value.trim().replace(/^"|"$/g, '').toLowerCase() !== 'utf-8') return false;
  }
  return true;
}

/**
 * Answers requests that Node's HTTP parser refused before Fastify saw them
 * (malformed request lines or headers, headers too large, timeouts) with the
 * specification's Error record instead of a bare status line.
 */
function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const entry =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ERRORS.HEADERS_TOO_LARGE
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ERRORS.REQUEST_TIMEOUT
        : ERRORS.MALFORMED_HTTP;
  this.log.debug({ err: error }, 'client error');
  answerRaw(socket, entry);
}

/**
 * Writes an Error answer straight to a socket Fastify no longer serves, then
 * closes it. Complete requests pipelined before the broken one are answered
 * first, in order (RFC 9112 §9.3.2): writing at once would cut their answers
 * off, after their plants were stored.
 */
function answerRaw(socket: Socket, entry: { status: number; error: number; message: string }, extraHeaders = ''): void {
  const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (pending && !pending.writableFinished && pending.req?.complete && !socket.destroyed) {
    pending.once('close', () => setImmediate(() => answerRaw(socket, entry, extraHeaders)));
    return;
  }
  if (socket.writable && !pending?.headersSent) writeRawError(socket, entry, extraHeaders);
  socket.destroy();
}

function writeRawError(socket: Socket, entry: { status: number; error: number; message: string }, extraHeaders: string): void {
  const body: ErrorBody = { error: entry.error, message: entry.message };
  const text = JSON.stringify(body);
  socket.write(
    `HTTP/1.1 ${entry.status} ${STATUS_CODES[entry.status]}\r\nContent-Type: application/json; charset=utf-8\r\n${extraHeaders}` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
