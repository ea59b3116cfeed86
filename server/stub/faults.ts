// The stub's faults on the operation's route, as two hook functions:
//
//   checkPrefer    onRequest, after the credentials: a malformed Prefer, or
//                  one asking for what cannot be answered, is a 400 before
//                  the body is read
//   injectFault    preHandler, once the body is read and is JSON: the step
//                  the request's Prefer asks for, or else the schedule's
//                  next step, is journaled and applied (a wait, then an
//                  error status, a failure on the wire, or the normal answer)
//
// Neither stores anything: only a step that ends in the normal answer
// ("normal", or a delay alone) lets the route's handler run, and
// lost-answer, which lets it store and then loses its answer (loseAnswer,
// from the stub's onSend hook).
//
// The failures on the wire, each what a client sees when a real server or
// the network fails (docs/stub.md, "Faults"):
//
//   reset           TCP RST before any answer
//   close           the connection closed (FIN) with no answer
//   close-mid-body  a 200's headers and half its body, then the connection closed
//   garbage         a 200 whose body is bytes that are not JSON, Content-Length exact
//   truncated       a 200 whose body is JSON cut short, Content-Length exact
//   hang            no answer until the client gives up (or MAX_HOLD_MS, or the server closes)
//   dribble         a 503 error (as the operation writes them) with Retry-After, chunked, `bytes` bytes every `intervalMs` ms
//   lost-answer     the request is handled as ever (a valid plant is stored); an answer
//                   that says it was (2xx) is lost: TCP RST instead, no byte of it sent
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import type { Authenticator } from '../security/auth.js';
import { errorAnswer } from '../http/error-handler.js';
import { ApiError, ERRORS } from '../http/errors.js';
import { MAX_HOLD_MS } from '../limits.js';
import {
  mulberry32,
  type FaultSchedule,
  type InjectedFault,
  type StepObject,
  type WireFault,
} from './fault-schedule.js';
import { busy, holderOf, type Hold, type HeldAnswers } from './hold.js';
import type { Journal, PendingEntry } from './journal.js';
import { preferenceApplied, sendForced, type CodeAnswers, type PreferenceResolver } from './prefer.js';

export interface FaultContext {
  resolvePrefer: PreferenceResolver;
  /** When set (PLANTSTORE_PREFER=admin), a Prefer that asks for a code, a fault or a delay needs the admin token in PREFER_AUTHORIZATION. */
  preferGuard: Authenticator | undefined;
  answers: CodeAnswers;
  schedule: FaultSchedule;
  held: HeldAnswers;
  journal: Journal;
  /** The journal's entries of requests not yet answered (shared with the delay and the journal's onSend hook). */
  pending: WeakMap<FastifyRequest, PendingEntry>;
  /** Requests whose answer is lost once the handler has stored what they ask (the fault lost-answer; read by the onSend hook). */
  losing: WeakSet<FastifyRequest>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The text the body faults cut: a Plant-shaped JSON object that says, to
 * whoever reads a raw capture, what happened. close-mid-body announces its
 * whole length and sends the first half; truncated sends the first half as
 * the whole body.
 */
export const FAULT_TEXT = Buffer.from(
  '{"name":"The stub cut this answer short on purpose (a fault): nothing was stored.","tag":"fault"}',
);
export const FAULT_HALF = FAULT_TEXT.subarray(0, FAULT_TEXT.length >> 1);
/**
 * The garbage fault's body: 64 bytes of a fixed pseudo-random sequence (the
 * same every time), starting with 0xFF, which is neither JSON nor UTF-8.
 */
export const GARBAGE = garbageBytes(64);
/**
 * The dribble's 503 says when to come back, as a server that is overloaded
 * does (RFC 9110 §10.2.3: Retry-After with a 503 says how long the service
 * is expected to be unavailable); one second, as the stub's other 503s.
 */
export const DRIBBLE_RETRY_AFTER_SECONDS = 1;
/** The dribble fault's error: its Error record is DRIBBLE_TEXT; an operation that declares its 503 otherwise gets that shape. */
const DRIBBLE = {
  status: ERRORS.STUB_DRIBBLE.status,
  error: ERRORS.STUB_DRIBBLE.error,
  message: ERRORS.STUB_DRIBBLE.message,
};
/** The dribble fault's answer as the Error record: a complete one, sent a few bytes at a time. */
export const DRIBBLE_TEXT = Buffer.from(JSON.stringify({ error: DRIBBLE.error, message: DRIBBLE.message }));

/** The header that carries the admin token for `Prefer` when PLANTSTORE_PREFER=admin: `Bearer <admin token>`, as the controls' Authorization. */
export const PREFER_AUTHORIZATION = 'plantstore-admin-authorization';

export function faultHooks({
  resolvePrefer,
  preferGuard,
  answers,
  schedule,
  held,
  journal,
  pending,
  losing,
}: FaultContext): {
  checkPrefer: onRequestHookHandler;
  injectFault: preHandlerHookHandler;
} {
  const checkPrefer: onRequestHookHandler = (request, _reply, done) => {
    if (request.headers.prefer === undefined) return done();
    try {
      const asked = resolvePrefer(request.headers.prefer);
      if (asked !== undefined && preferGuard !== undefined)
        checkPreferGuard(preferGuard, request.headers[PREFER_AUTHORIZATION]);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };

  /** The request's step is in the journal before anything happens to it, so a client that saw the failure finds it there. */
  const journalFault = (request: FastifyRequest, injected: InjectedFault): PendingEntry | undefined => {
    if (journal.capacity === 0) return undefined;
    const entry = pending.get(request); // journaled already when it waited out the configured delay
    if (entry !== undefined) {
      entry.injected(injected);
      return entry;
    }
    const recorded = journal.recordPending(request, injected);
    pending.set(request, recorded);
    return recorded;
  };

  const injectFault: preHandlerHookHandler = (request, reply, done) => {
    // The hot path: no Prefer and nothing scheduled costs these two checks.
    if (request.headers.prefer === undefined && schedule.size === 0) return done();
    // A request whose Prefer asks something of the stub gets that, and takes no step.
    const asked = request.headers.prefer === undefined ? undefined : resolvePrefer(request.headers.prefer); // checked on the request already: it does not throw
    const injected: InjectedFault | undefined =
      asked !== undefined ? { from: 'prefer', step: asked } : scheduled(schedule);
    if (injected === undefined) return done();
    const entry = journalFault(request, injected);
    const { step } = injected;
    if (step === 'normal') return done();
    request.log.info({ fault: injected }, 'stub: fault injected');
    const apply = () => applyStep(request, reply, done, step, injected, { answers, held, entry, losing });
    if (!step.delayMs) return apply();
    const hold = held.acquire(request.raw.socket, holderOf(request));
    if (typeof hold === 'string') return done(busy(held, hold, step.delayMs / 1000));
    // wait() resolves when the time is up or the hold ends early; it never rejects.
    void hold.wait(step.delayMs).then(() => {
      const gone = hold.ended === 'client-gone';
      if (gone) entry?.abandoned();
      hold.release();
      // A client gone during the wait gets nothing; the handler finds the answer cannot be delivered and stores nothing.
      if (gone && step.code === undefined && step.fault === undefined) return done();
      if (gone) return void reply.hijack();
      apply();
    });
  };
  return { checkPrefer, injectFault };
}

function checkPreferGuard(guard: Authenticator, credentials: string | string[] | undefined): void {
  try {
    guard.check(Array.isArray(credentials) ? credentials[0] : credentials);
  } catch {
    throw new ApiError('PREFER_FORBIDDEN');
  }
}

function scheduled(schedule: FaultSchedule): InjectedFault | undefined {
  const step = schedule.next();
  return step === undefined ? undefined : { from: 'schedule', step };
}

interface ApplyContext {
  answers: CodeAnswers;
  held: HeldAnswers;
  entry: PendingEntry | undefined;
  losing: WeakSet<FastifyRequest>;
}

type Done = (error?: Error) => void;

function applyStep(
  request: FastifyRequest,
  reply: FastifyReply,
  done: Done,
  step: StepObject,
  injected: InjectedFault,
  context: ApplyContext,
): void {
  if (step.code !== undefined) return void sendForced(reply, context.answers.answer(step, injected));
  // RFC 7240 §3: an answer that is sent says which preferences it honoured.
  // A lost answer is not sent; an answer lost-answer lets through (nothing
  // was stored: a retry's duplicate) did not honour it.
  if (injected.from === 'prefer' && step.fault !== 'lost-answer')
    reply.header('preference-applied', preferenceApplied(step));
  if (step.fault === undefined) return done(); // a delay alone: then the normal answer
  WIRE[step.fault](request, reply, done, step, context);
}

type WireAction = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: Done,
  step: StepObject,
  context: ApplyContext,
) => void;

const WIRE: Record<WireFault, WireAction> = {
  reset(request, reply) {
    reply.hijack();
    dropConnection(request, reply, 'reset');
  },
  close(request, reply) {
    reply.hijack();
    dropConnection(request, reply, 'close');
  },
  'close-mid-body'(request, reply, _done, _step, { entry }) {
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': FAULT_TEXT.length });
    entry?.answered(200);
    // Closed once the half is on its way: the client has the headers and fewer bytes than they announce.
    response.write(FAULT_HALF, () => dropConnection(request, reply, 'close-mid-body'));
  },
  garbage(_request, reply) {
    reply.code(200).type(JSON_TYPE).send(GARBAGE);
  },
  truncated(_request, reply) {
    reply.code(200).type(JSON_TYPE).send(FAULT_HALF);
  },
  hang(request, reply, done, _step, { held, entry }) {
    const hold = held.acquire(request.raw.socket, holderOf(request));
    if (typeof hold === 'string') return done(busy(held, hold, 1));
    reply.hijack();
    // Held until the client gives up (its connection closes), MAX_HOLD_MS
    // pass, or the server closes; then the connection is closed, unanswered.
    // wait() resolves when the time is up or the hold ends early; it never rejects.
    void hold.wait(MAX_HOLD_MS).then(() => {
      if (hold.ended === 'client-gone') entry?.abandoned();
      hold.release();
      dropConnection(request, reply, 'hang');
    });
  },
  'lost-answer'(request, _reply, done, _step, { losing }) {
    losing.add(request);
    done();
  },
  dribble(request, reply, done, step, { held }) {
    const hold = held.acquire(request.raw.socket, holderOf(request));
    if (typeof hold === 'string') return done(busy(held, hold, 1));
    // Written as the operation writes its 503s (error-handler.ts); a 503 declared with no content dribbles nothing.
    const answer = errorAnswer(reply, DRIBBLE);
    reply.code(DRIBBLE.status).header('retry-after', String(DRIBBLE_RETRY_AFTER_SECONDS));
    if (answer !== undefined) reply.type(answer.contentType);
    const text = answer === undefined ? Buffer.alloc(0) : Buffer.from(answer.text);
    reply.send(dribbled(text, step.bytes as number, step.intervalMs as number, hold));
  },
};

/**
 * Ends the connection without (the rest of) an answer: with a TCP RST for
 * `reset` and `lost-answer` (the client's read fails with ECONNRESET), else
 * closed (FIN).
 * app.inject() has no socket: there the response fails instead, naming the
 * fault, so that an injected request ends rather than hangs.
 */
function dropConnection(request: FastifyRequest, reply: FastifyReply, fault: WireFault): void {
  const { socket } = request.raw;
  if (socket instanceof Socket) {
    if (fault === 'reset' || fault === 'lost-answer') socket.resetAndDestroy();
    else socket.destroy();
    return;
  }
  const how = fault === 'reset' || fault === 'lost-answer' ? 'was reset' : 'closed';
  // Failed at once, not on the next tick as destroy(error) would: lost-answer
  // drops its answer from the onSend hook, which then lets the answer end.
  reply.raw.emit(
    'error',
    new Error(`the stub's fault ${fault}: the connection ${how} (app.inject() has no socket to fail)`),
  );
  reply.raw.destroy();
}

/**
 * The fault lost-answer, from the stub's onSend hook: an answer whose status
 * says the request was done (2xx: the plant is stored) is not sent, and the
 * connection is reset, as when a server or a proxy fails after the commit.
 * Whether the answer is lost is decided by its status, once the handler has
 * run: a request that stored nothing (a retry that meets its own duplicate,
 * a body that is not a NewPlant) is answered as ever. True when it lost it.
 */
export function loseAnswer(request: FastifyRequest, reply: FastifyReply, losing: WeakSet<FastifyRequest>): boolean {
  if (!losing.has(request) || reply.statusCode < 200 || reply.statusCode > 299) return false;
  request.log.info({ status: reply.statusCode }, 'stub: answer lost after the commit (fault lost-answer)');
  dropConnection(request, reply, 'lost-answer');
  return true;
}

/**
 * A body that is sent `bytes` bytes at a time, one chunk (of the chunked
 * transfer coding) every `intervalMs`: each push is one write, so one chunk.
 * Past MAX_HOLD_MS of waiting, or when the client is gone or the server
 * closing, the rest goes at once.
 */
function dribbled(text: Buffer, bytes: number, intervalMs: number, hold: Hold): Readable {
  let offset = 0;
  let waited = 0;
  const next = (stream: Readable) => {
    if (stream.destroyed) return;
    const end = hold.ended !== undefined || waited >= MAX_HOLD_MS ? text.length : Math.min(offset + bytes, text.length);
    stream.push(text.subarray(offset, end));
    offset = end;
  };
  return new Readable({
    read() {
      if (offset >= text.length) {
        hold.release();
        this.push(null);
      } else if (offset === 0) {
        next(this);
      } else {
        // wait() resolves when the time is up or the hold ends early; it never rejects.
        void hold.wait(intervalMs).then(() => {
          waited += intervalMs;
          next(this);
        });
      }
    },
    destroy(error, callback) {
      hold.release();
      callback(error);
    },
  });
}

/** `length` bytes of a fixed pseudo-random sequence (seed 0), the first 0xFF: never JSON, never UTF-8. */
function garbageBytes(length: number): Buffer {
  const draw = mulberry32(0);
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(draw() * 256);
  bytes[0] = 0xff;
  return bytes;
}
