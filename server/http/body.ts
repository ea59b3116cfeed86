// Request bodies: every body goes through one parser (exact JSON, json.ts).
// The create operation's pipeline (routes.ts) takes three of its stages
// from here: the content type (requireMediaType, before the body is read),
// the size (the parser stops at the route's body limit) and the JSON syntax
// (rejectUnreadableBody, once it is read); its handler, and the stub's
// controls, then read the body with readBody. The request carries:
//
//   request.rawBody     the bytes as received (the stub's journal keeps them)
//   request.body        the parsed JSON value; undefined for an empty body
//   request.parsedBody  that value with the text it was parsed from, and its
//                       top-level object's member names in the order
//                       written: what the create rule keeps of a plant is as
//                       sent (create.ts); null when there was none
//   request.bodyError   why the bytes are not JSON (400), or null; only this
//                       module reads it
//
// A body that is not JSON is not an error of the parser: an error passed to
// the parser's done() makes Fastify close the connection (in case body bytes
// are left unread), and requests pipelined behind this fully read one would
// be processed with their answers never sent. So the parser records the
// error, and the route that needs the body raises it (rejectUnreadableBody,
// or readBody).
import type { FastifyInstance, FastifyRequest, preParsingHookHandler, preValidationHookHandler } from 'fastify';
import { parseMediaType } from '../../lib/http-syntax.js';
import { ApiError } from './errors.js';
import { JsonSyntaxError, parseJson, type JsonValue } from '../json/json.js';
import type { SentJson } from '../operations/stored-plant.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body as received; null when it was not read (answered before, or no body). */
    rawBody: Buffer | null;
    /** Why the body could not be read as JSON; null when it could, or was not read. */
    bodyError: ApiError | null;
    /** The body as parsed, with its text; null when there was none. */
    parsedBody: ParsedBody | null;
  }
}

/** A JSON body: its value, and the text it was parsed from (a SentJson, as the create rule keeps values as sent). */
export interface ParsedBody extends SentJson {
  value: JsonValue;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Replaces Fastify's body parsers with ours, for every media type (routes check the type first). */
export function installBodyParser(app: FastifyInstance, bodyLimit: number): void {
  app.decorateRequest('rawBody', null);
  app.decorateRequest('bodyError', null);
  app.decorateRequest('parsedBody', null);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (request, raw, done) => {
    const buffer = raw as Buffer;
    request.rawBody = buffer;
    if (buffer.length === 0) return done(null, undefined);
    let text: string;
    try {
      // RFC 8259 §8.1: JSON exchanged between systems MUST be UTF-8.
      text = UTF8.decode(buffer);
    } catch {
      request.bodyError = new ApiError('MALFORMED_JSON', 'Request body is not valid UTF-8 (RFC 8259 §8.1).');
      return done(null, undefined);
    }
    try {
      const topLevelNames: string[] = [];
      const value = parseJson(text, { topLevelNames });
      request.parsedBody = { value, text, topLevelNames };
      done(null, value);
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) return done(error as Error, undefined);
      request.bodyError = new ApiError('MALFORMED_JSON', error.message);
      done(null, undefined);
    }
  });
}

/** A route's preValidation hook: a body that is not JSON is answered 400 before anything else looks at the request. */
export const rejectUnreadableBody: preValidationHookHandler = (request, _reply, done) => {
  done(request.bodyError ?? undefined);
};

/** The body of a request, parsed (undefined when there was none, or it was empty); throws the 400 when it is not JSON. */
export function readBody(request: FastifyRequest): ParsedBody | undefined {
  if (request.bodyError !== null) throw request.bodyError;
  return request.parsedBody ?? undefined;
}

/** A route's preParsing hook: a body of a media type the operation does not accept is answered 415 before it is read. */
export function requireMediaType(accepted: readonly string[]): preParsingHookHandler {
  // The table's message names application/json; an operation that takes another type names its own.
  const detail =
    accepted.length === 1 && accepted[0] === 'application/json'
      ? undefined
      : `Unsupported media type: send Content-Type: ${accepted.join(' or ')} (UTF-8).`;
  return (request, _reply, payload, done) => {
    if (hasBody(request) && !acceptableMediaType(request.headers['content-type'], accepted)) {
      return done(new ApiError('UNSUPPORTED_MEDIA_TYPE', detail), payload);
    }
    done(null, payload);
  };
}

/** True when Content-Type names JSON, whatever its parameters (the stub's controls ask no more). */
export function isJsonMediaType(header: string | undefined): boolean {
  return parseMediaType(header)?.essence === 'application/json';
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
  const mediaType = parseMediaType(header);
  if (mediaType === undefined || !accepted.includes(mediaType.essence)) return false;
  const charset = mediaType.parameters.get('charset');
  return charset === undefined || charset.toLowerCase() === 'utf-8';
}
