// Answers on the raw socket, for what Node's HTTP server handles before
// Fastify sees a request (or instead of it), and the one question about the
// connection that a route must ask before it stores anything.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ERRORS, type ErrorBody } from './errors.js';

type ErrorEntry = { status: number; error: number; message: string };
type SocketWithResponse = Socket & { _httpMessage?: ServerResponse | null };

/**
 * Makes Node's HTTP server answer what it would otherwise refuse or drop
 * without a word, as the API would: `allow` is the operation's method.
 */
export function answerOnTheWire(app: FastifyInstance, allow: string): void {
  // RFC 9110 §10.1.1: a server MAY answer 417 to an expectation other than
  // 100-continue; Node does so with an empty body. We ignore the expectation
  // and answer the request as usual instead.
  app.server.on('checkExpectation', (request, response) => app.server.emit('request', request, response));
  // CONNECT asks for a tunnel (RFC 9110 §9.3.6); Node hands it to a 'connect'
  // listener and, without one, drops the connection unanswered.
  app.server.on('connect', (_request, socket: Socket) => answerRaw(socket, ERRORS.METHOD_NOT_ALLOWED, `Allow: ${allow}\r\n`));
}

/**
 * Fastify's clientErrorHandler: answers requests that Node's HTTP parser
 * refused before Fastify saw them (malformed request lines or headers,
 * headers too large, timeouts) with the specification's Error record instead
 * of a bare status line.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
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
function answerRaw(socket: Socket, entry: ErrorEntry, extraHeaders = ''): void {
  const pending = (socket as SocketWithResponse)._httpMessage;
  if (pending && !pending.writableFinished && pending.req?.complete && !socket.destroyed) {
    pending.once('close', () => setImmediate(() => answerRaw(socket, entry, extraHeaders)));
    return;
  }
  if (socket.writable && !pending?.headersSent) writeRawError(socket, entry, extraHeaders);
  socket.destroy();
}

function writeRawError(socket: Socket, entry: ErrorEntry, extraHeaders: string): void {
  const body: ErrorBody = { error: entry.error, message: entry.message };
  const text = JSON.stringify(body);
  socket.write(
    `HTTP/1.1 ${entry.status} ${STATUS_CODES[entry.status]}\r\nContent-Type: application/json; charset=utf-8\r\n${extraHeaders}` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
