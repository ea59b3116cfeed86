// fast-check generators of hostile requests for the Plant Store, and the
// statuses each one may get. Shared by the fuzz tests (npm test) and the long
// fuzz script (npm run fuzz:long), so both run the same properties. A request
// is put together here from a head (request-heads.ts) and a body
// (request-bodies.ts); the settings every run shares are in fuzz-settings.ts.
import fc from 'fast-check';
import type { AnswerExpectation } from './answers.js';
import { FUZZ_BODY_LIMIT } from './fuzz-settings.js';
import { authorizationArb, contentTypeArb, headerText, methodArb, pathArb, type PathKind } from './request-heads.js';
import { bodyArb } from './request-bodies.js';

export { FUZZ_BODY_LIMIT, FUZZ_SEED, FUZZ_TOKEN } from './fuzz-settings.js';

/** A request as app.inject() takes it. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: Buffer;
  /** What the generator meant; decides the acceptable statuses. */
  intent: Intent;
}

interface Intent {
  path: PathKind;
  auth: 'valid' | 'invalid';
  contentType: 'json' | 'other';
  /** The body is a NewPlant that must be stored (fresh id), with what must be echoed. */
  plant?: { name: string; tag?: string };
  /** Content-Length header deliberately differs from the body's size. */
  lengthMismatch: boolean;
}

/**
 * Requests over every header the API reads and every body shape of request-bodies.ts.
 * `freshId` hands out ids never used before, so a valid NewPlant must be stored.
 */
export function fuzzRequestArb(freshId: () => bigint): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: methodArb,
      path: pathArb,
      authorization: authorizationArb,
      contentType: contentTypeArb,
      body: fc.option(bodyArb(freshId), { nil: undefined, freq: 10 }),
      contentLength: fc.oneof(
        { weight: 9, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom('0', '1', '-1', 'abc', '1e3', '99999999999999999999', ' 5', '0x10') },
      ),
      extraHeaders: fc.dictionary(
        fc.constantFrom(
          'x-forwarded-for',
          'accept',
          'accept-encoding',
          'expect',
          'connection',
          'te',
          'x-http-method-override',
          'cookie',
          'origin',
        ),
        headerText(40),
        { maxKeys: 2 },
      ),
    })
    .map(({ method, path, authorization, contentType, body, contentLength, extraHeaders }) => {
      const headers: Record<string, string> = { ...extraHeaders };
      if (authorization.value !== undefined) headers.authorization = authorization.value;
      if (contentType.value !== undefined) headers['content-type'] = contentType.value;
      let lengthMismatch = false;
      if (contentLength !== undefined) {
        headers['content-length'] = contentLength;
        lengthMismatch = contentLength !== String(body?.bytes.length ?? 0);
      }
      const intent: Intent = {
        path: path.kind,
        auth: authorization.valid ? 'valid' : 'invalid',
        contentType: contentType.json ? 'json' : 'other',
        lengthMismatch,
      };
      if (body?.plant) intent.plant = body.plant;
      const request: FuzzRequest = { method, url: path.url, headers, intent };
      if (body !== undefined) request.payload = body.bytes;
      return request;
    });
}

const ANY_DOCUMENTED_BUT_SERVER_ERRORS = new Set([200, 400, 401, 404, 405, 408, 413, 415, 431]);

/**
 * The statuses a request may get, following the order of checks (docs/server.md):
 * routing (404, 405), credentials (401), content type (415), size (413),
 * JSON and schema (400), then the store.
 */
export function expectationFor(request: FuzzRequest, bodyLimit = FUZZ_BODY_LIMIT): AnswerExpectation {
  const expectation = statusesFor(request, bodyLimit);
  if (request.intent.path === 'health' && request.method === 'GET') expectation.health = true;
  if (request.method === 'HEAD') expectation.head = true;
  return expectation;
}

function statusesFor(request: FuzzRequest, bodyLimit: number): AnswerExpectation {
  const { intent } = request;
  const only = (...statuses: number[]): AnswerExpectation => ({ statuses: new Set(statuses) });
  if (intent.path === 'odd' || intent.lengthMismatch) return { statuses: ANY_DOCUMENTED_BUT_SERVER_ERRORS };
  if (intent.path === 'other') return only(404);
  // GET /__health answers {"status":"ok",…}; a body sent with it is still parsed.
  if (intent.path === 'health') return request.method === 'GET' ? only(200, 400, 413, 415) : only(404);
  if (request.method !== 'POST') return only(405);
  if (intent.auth === 'invalid') return only(401);
  const size = request.payload?.length ?? 0;
  // No body: 400 (body required); a Content-Type that is not even a media
  // type is refused by the framework first, with 415.
  if (size === 0)
    return request.headers['content-type'] !== undefined && intent.contentType !== 'json' ? only(400, 415) : only(400);
  if (intent.contentType !== 'json') return only(415);
  if (size > bodyLimit) return only(413);
  if (intent.plant) return { statuses: new Set([200]), plant: intent.plant };
  return only(200, 400);
}

/** Hands out int64 ids in order from a start, none twice. */
export function idSequence(start: bigint): () => bigint {
  let next = start;
  return () => next++;
}
