// Idempotency keys (the IETF httpapi draft "The Idempotency-Key HTTP Header
// Field"): where an operation declares an `Idempotency-Key` request header
// (an inference from its name, the switch `idempotency` of
// PLANTSTORE_INFER), the first success answer to a key is kept, and a
// request that carries the key again is answered:
//
//   the same request body      the first answer again (status, body, and the
//                              Location and ETag it carried): nothing is
//                              stored again (the draft, §2.6)
//   another request body       the operation's declared 422, else its 409,
//                              else its 400 (the draft: 422), nothing done
//   while the first is being   409 (the draft: the request is "outstanding")
//   answered
//
// A key belongs to the operation and to the credentials that sent it (two
// clients' keys never meet). Only success answers are kept: a refused
// request is done again when retried (it changed nothing). Keys are kept by
// this process, at most IDEMPOTENCY_MAX_KEYS of them and
// IDEMPOTENCY_MAX_BYTES of answers, for IDEMPOTENCY_RETENTION_MS each, the
// oldest going first (docs/security.md).
import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorCode } from '../http/errors.js';
import {
  IDEMPOTENCY_IN_FLIGHT_MS,
  IDEMPOTENCY_MAX_BYTES,
  IDEMPOTENCY_MAX_KEYS,
  IDEMPOTENCY_RETENTION_MS,
} from '../limits.js';
import type { OperationHandler } from '../http/pipeline.js';

/** The request header, as the draft names it. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** What a kept key holds: the request's fingerprint, and its first success answer (undefined while it is being answered). */
interface Kept {
  fingerprint: string;
  answer: { status: number; headers: Record<string, string>; body: string } | undefined;
  bytes: number;
  at: number;
}

/** Bytes a kept key costs besides its answer's body and headers. */
const KEY_OVERHEAD_BYTES = 256;
/** The answer's headers a replay carries again. */
const KEPT_HEADERS = ['content-type', 'location', 'etag'];

/** The keys of one server: bounded in count, bytes and age, the oldest going first. */
export class IdempotencyKeys {
  // A Map iterates in the order of insertion: its first entries are the oldest.
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;

  constructor(
    private readonly maxKeys = IDEMPOTENCY_MAX_KEYS,
    private readonly maxBytes = IDEMPOTENCY_MAX_BYTES,
    private readonly retentionMs = IDEMPOTENCY_RETENTION_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.kept.size;
  }

  find(key: string): Kept | undefined {
    const found = this.kept.get(key);
    const age = found === undefined ? 0 : this.now() - found.at;
    // A first request still unanswered after a minute was lost on its way (its answer never sent): a retry is done again.
    if (
      found !== undefined &&
      (age > this.retentionMs || (found.answer === undefined && age > IDEMPOTENCY_IN_FLIGHT_MS))
    ) {
      this.drop(key, found);
      return undefined;
    }
    return found;
  }

  /** The key is being answered. */
  start(key: string, fingerprint: string): void {
    this.put(key, { fingerprint, answer: undefined, bytes: KEY_OVERHEAD_BYTES + key.length, at: this.now() });
  }

  /** Its first success answer, kept (an answer larger than the whole budget is not: the key is let go). */
  finish(key: string, answer: NonNullable<Kept['answer']>): void {
    const started = this.kept.get(key);
    if (started === undefined) return;
    this.drop(key, started);
    const bytes = KEY_OVERHEAD_BYTES + key.length + answer.body.length + JSON.stringify(answer.headers).length;
    if (bytes <= this.maxBytes) this.put(key, { ...started, answer, bytes });
  }

  /** The key is let go: its request was refused, or failed. */
  abandon(key: string): void {
    const found = this.kept.get(key);
    if (found !== undefined && found.answer === undefined) this.drop(key, found);
  }

  private put(key: string, kept: Kept): void {
    this.kept.set(key, kept);
    this.bytes += kept.bytes;
    for (const [oldest, entry] of this.kept) {
      if (this.kept.size <= this.maxKeys && this.bytes <= this.maxBytes) break;
      this.drop(oldest, entry);
    }
  }

  private drop(key: string, kept: Kept): void {
    this.kept.delete(key);
    this.bytes -= kept.bytes;
  }
}

type Wrapped<Input> = { replay: NonNullable<Kept['answer']> } | { key: string | undefined; input: Input };

/**
 * `handler` with the operation's idempotency keys: `responses` are its
 * declared ones (the status of a key reused with another body), `operation`
 * names it (`POST /plants`).
 */
export function idempotentHandler<Input, Result>(
  handler: OperationHandler<Input, Result>,
  keys: IdempotencyKeys,
  operation: string,
  responses: Record<string, unknown>,
): OperationHandler<Wrapped<Input>, Result | undefined> {
  const reused: ErrorCode =
    '422' in responses
      ? 'IDEMPOTENCY_KEY_REUSED_UNPROCESSABLE'
      : '409' in responses
        ? 'IDEMPOTENCY_KEY_REUSED_CONFLICT'
        : '400' in responses
          ? 'IDEMPOTENCY_KEY_REUSED'
          : 'IDEMPOTENCY_KEY_REUSED_UNPROCESSABLE';
  return {
    schema(request) {
      const header = request.headers[IDEMPOTENCY_HEADER];
      if (typeof header !== 'string' || header === '') return { key: undefined, input: handler.schema(request) };
      const key = `${operation}\u0000${credentialOf(request)}\u0000${header}`;
      const fingerprint = fingerprintOf(request);
      const found = keys.find(key);
      if (found !== undefined) {
        if (found.fingerprint !== fingerprint)
          throw new ApiError(
            reused,
            'The idempotency key was used before with another request body (or path): send a new key for a new request.',
          );
        if (found.answer === undefined) throw new ApiError('IDEMPOTENCY_KEY_IN_FLIGHT');
        return { replay: found.answer };
      }
      keys.start(key, fingerprint);
      try {
        return { key, input: handler.schema(request) };
      } catch (error) {
        keys.abandon(key);
        throw error;
      }
    },
    store(wrapped, reply) {
      if ('replay' in wrapped) return undefined;
      if (wrapped.key === undefined) return handler.store(wrapped.input, reply);
      const key = wrapped.key;
      try {
        const result = handler.store(wrapped.input, reply);
        if (result instanceof Promise)
          return result.catch((error: unknown) => {
            keys.abandon(key);
            throw error;
          });
        return result;
      } catch (error) {
        keys.abandon(key);
        throw error;
      }
    },
    answer(wrapped, result, reply) {
      if ('replay' in wrapped) {
        const { status, headers, body } = wrapped.replay;
        return reply.code(status).headers(headers).send(body);
      }
      if (wrapped.key === undefined) return handler.answer(wrapped.input, result as Result, reply);
      keep(reply, keys, wrapped.key);
      return handler.answer(wrapped.input, result as Result, reply);
    },
  };
}

/** Keeps the answer the handler sends, where it is a success. */
function keep(reply: FastifyReply, keys: IdempotencyKeys, key: string): void {
  const send = reply.send.bind(reply);
  reply.send = (payload?: unknown) => {
    if (reply.statusCode >= 200 && reply.statusCode < 300) {
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      keys.finish(key, { status: reply.statusCode, headers, body: typeof payload === 'string' ? payload : '' });
    } else keys.abandon(key);
    return send(payload);
  };
}

/** The credentials a key belongs to: a digest of the Authorization header (and of the API key headers part B reads), never the value itself. */
function credentialOf(request: FastifyRequest): string {
  const authorization = request.headers.authorization;
  return authorization === undefined ? '' : hash('sha256', authorization, 'base64url');
}

/** The request's fingerprint: its path and body, digested. */
function fingerprintOf(request: FastifyRequest): string {
  const path = request.url.split('?')[0]!;
  const body = request.rawBody ?? Buffer.alloc(0);
  return hash('sha256', Buffer.concat([Buffer.from(`${path}\u0000`), body]), 'base64url');
}
