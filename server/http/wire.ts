// Answers on the raw socket, for what Node's HTTP server handles before
// Fastify sees a request (or instead of it), and the one question about the
// connection that a route must ask before it stores anything.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { recordOf } from './error-handler.js';
import type { ErrorShapes } from './error-shapes.js';
import { ApiError } from './errors.js';

type SocketWithResponse = Socket & { _httpMessage?: ServerResponse | null };

/**
 * Makes Node's HTTP server answer what it would otherwise refuse or drop
 * without a word, as the API would: `methodNotAllowed` is the operation's
 * 405 (routes.ts), which a CONNECT gets.
 */
export function answerOnTheWire(app: FastifyInstance, methodNotAllowed: ApiError): void {
  // RFC 9110 §10.1.1: a server MAY answer 417 to an expectation other than
  // 100-continue; Node does so with an empty body. We ignore the expectation
  // and answer the request as usual instead.
  app.server.on('checkExpectation', (request, response) => app.server.emit('request', request, response));
  // CONNECT asks for a tunnel (RFC 9110 §9.3.6); Node hands it to a 'connect'
  // listener and, without one, drops the connection unanswered.
  app.server.on('connect', (_request, socket: Socket) => answerRaw(socket, methodNotAllowed, app.errorShapes));
}

/**
 * Fastify's clientErrorHandler: answers requests that Node's HTTP parser
 * refused before Fastify saw them (malformed request lines or headers,
 * headers too large, timeouts) with the specification's Error record instead
 * of a bare status line.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'HEADERS_TOO_LARGE'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'REQUEST_TIMEOUT'
        : 'MALFORMED_HTTP';
  // Its code and reason only: the error also carries `rawPacket`, the request's bytes, credentials included.
  this.log.debug({ err: { type: error.name, code: error.code, message: error.message } }, 'client error');
  answerRaw(socket, new ApiError(code), this.errorShapes);
}

/**
 * False when this answer could never reach the client: the connection is
 * closed or closes after an earlier answer (a 413 announces `Connection:
 * close`), so a request pipelined behind it must not be processed, or its
 * plant would be stored and the client never told. RFC 9112 §9.6: a server
 * that sends "close" "MUST NOT process any further requests received on that
 * connection".
 */
export function answerCanBeDelivered(reply: FastifyReply): boolean {
  const socket = reply.raw.req.socket as SocketWithResponse;
  if (socket.destroyed || socket.writableEnded) return false;
  const earlier = socket._httpMessage;
  if (!earlier || earlier === reply.raw) return true;
  return !/\bclose\b/i.test(String(earlier.getHeader('connection') ?? ''));
}

/**
 * Writes an Error answer straight to a socket Fastify no longer serves, then
 * closes it. Complete requests pipelined before the broken one are answered
 * first, in order (RFC 9112 §9.3.2): writing at once would cut their answers
 * off, after their plants were stored.
 */
function answerRaw(socket: Socket, error: ApiError, shapes: ErrorShapes): void {
  const pending = (socket as SocketWithResponse)._httpMessage;
  if (pending && !pending.writableFinished && pending.req?.complete && !socket.destroyed) {
    pending.once('close', () => setImmediate(() => answerRaw(socket, error, shapes)));
    return;
  }
  if (socket.writable && !pending?.headersSent) writeRawError(socket, error, shapes);
  socket.destroy();
}

/** `allow` as `Allow`, `retry-after` as `Retry-After`: as the other header names here are written. */
const headerName = (name: string) => name.replace(/(^|-)[a-z]/g, (start) => start.toUpperCase());

/** The error in the shape the document's operations agree on for its status (error-shapes.ts), else the Error record. */
function writeRawError(socket: Socket, error: ApiError, shapes: ErrorShapes): void {
  const { status, headers } = error;
  // No request was read: no path for a problem's instance.
  const answer = shapes.of(status).answer(recordOf(error), undefined);
  const text = answer?.text ?? '';
  const contentType = answer === undefined ? '' : `Content-Type: ${answer.contentType}\r\n`;
  const extraHeaders = Object.entries(headers)
    .map(([name, value]) => `${headerName(name)}: ${value}\r\n`)
    .join('');
  socket.write(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${contentType}${extraHeaders}` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
