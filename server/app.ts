// buildApp(options) returns the Plant Store as a Fastify app. It never
// listens: start.ts does that, and tests use app.inject().
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
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
const JSON_MAX_DEPTH = 64;

export interface AppOptions {
  /** Accepted bearer tokens; undefined accepts any well-formed token. */
  tokens?: readonly string[];
  /** Largest request body in bytes (413 beyond). */
  bodyLimit?: number;
  /** Most plants the default in-memory store keeps (507 beyond). */
  maxPlants?: number;
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

  const doc = loadOpenApi(options.specPath ?? OPENAPI_PATH);
  // The document declares exactly one operation; find it rather than name it.
  const [path, methods] = Object.entries(doc.paths)[0] ?? [];
  const method = Object.keys(methods ?? {})[0];
  if (!path || !method) throw new Error('spec: the document declares no operation');
  const contract = operationContract(doc, path, method);
  const allowed = contract.method.toUpperCase();

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit,
    exposeHeadRoutes: false,
    clientErrorHandler: answerClientError,
    // While closing, a request that arrives on an open connection is still
    // answered by the API (with Connection: close) rather than with Fastify's
    // own 503 body, which is not the specification's Error record.
    return503OnClosing: false,
  });
  app.decorate('plantStore', store);
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
    try {
      // RFC 8259 §8.1: JSON exchanged between systems MUST be UTF-8.
      text = UTF8.decode(buffer);
    } catch {
      return done(new ApiError('MALFORMED_JSON', 'Request body is not valid UTF-8 (RFC 8259 §8.1).'), undefined);
    }
    try {
      done(null, parseJson(text, { maxDepth: JSON_MAX_DEPTH }));
    } catch (error) {
      if (error instanceof JsonSyntaxError) return done(new ApiError('MALFORMED_JSON', error.message), undefined);
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

  app.setNotFoundHandler((request, reply) => {
    // Any other method on the operation's path, including methods Fastify
    // does not route (PROPFIND, ...): RFC 9110 §15.5.6 says a 405 response
    // MUST carry Allow with the supported methods.
    if (pathOf(request.url) === path) {
      return sendError(reply, new ApiError('METHOD_NOT_ALLOWED', undefined, { allow: allowed }));
    }
    return sendError(reply, new ApiError('NOT_FOUND'));
  });

  app.get(HEALTH_PATH, (_request, reply) => reply.send({ status: 'ok' }));

  app.route({
    method: allowed,
    url: path,
    // Credentials first: a request without them is answered before its body is read.
    onRequest: async (request) => {
      authenticator.check(request.headers.authorization);
      // Prefer (RFC 7240) is the stub's: checked after the credentials, before the body is read.
      if (stub !== undefined && request.headers.prefer !== undefined) stub.checkPrefer(request.headers.prefer);
    },
    preParsing: async (request, _reply, payload) => {
      if (hasBody(request) && !acceptableMediaType(request.headers['content-type'], contract.requestMediaTypes)) {
        throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
      }
      return payload;
    },
    handler: async (request, reply) => {
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
      const result = store.create(id, plant);
      if (result === 'exists') throw new ApiError('DUPLICATE_ID', `A plant with id ${id} already exists.`);
      if (result === 'full') throw new ApiError('STORE_FULL');
      return reply.code(200).send(plant);
    },
  });

  return app;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8').send(error.body);
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
  const body: ErrorBody = { error: entry.error, message: entry.message };
  const text = JSON.stringify(body);
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${entry.status} ${STATUS_CODES[entry.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy();
}
