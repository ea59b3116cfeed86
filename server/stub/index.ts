// The stub: what a client team's tests need when the server stands in for
// the real Plant Store in CI, as one Fastify plugin that owns its hooks and
// routes. buildApp registers it only when asked to; without it the hot path
// carries no hook of the stub at all.
//
//   the controls    JSON endpoints under /__admin (controls.ts)
//   the journal     the most recent API requests (journal.ts)
//   the delay       authenticated requests to the operation wait, 0 to MAX_DELAY_MS
//   Prefer          `Prefer: code=NNN` on the operation (prefer.ts)
//
// Initial plants (initial-plants.ts) are read by start.ts and stored by
// buildApp, with or without the plugin.
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { FastifyPluginCallback, FastifyRequest, onRequestHookHandler, preHandlerHookHandler, preValidationHookHandler, RouteOptions } from 'fastify';
import type { CreateRule } from '../create.js';
import { ApiError } from '../errors.js';
import { DEFAULT_JOURNAL_BYTES, DEFAULT_JOURNAL_SIZE, MAX_DELAY_MS, MAX_WAITING_ANSWERS } from '../limits.js';
import { RESERVED_PREFIX } from '../routes.js';
import type { PlantStore } from '../store.js';
import type { OperationContract } from '../validation.js';
import { registerControls, type DelaySetting } from './controls.js';
import { Journal, type PendingEntry } from './journal.js';
import { preferenceResolver, sendPreferred } from './prefer.js';

/** Waits `ms` milliseconds, or less when `signal` aborts (the server is closing). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface StubOptions {
  /** The controls, the journal and `Prefer: code=`; default true. */
  controls?: boolean;
  /** When set, the controls require `Authorization: Bearer <controlsToken>`. */
  controlsToken?: string;
  /** Most requests the journal keeps (the oldest go first); 0 keeps none. */
  journalSize?: number;
  /** Most bytes the journal's entries take together (the oldest go first); DEFAULT_JOURNAL_BYTES unless given. */
  journalBytes?: number;
  /** Milliseconds an authenticated request to the operation waits before it is handled, 0 to MAX_DELAY_MS. */
  delayMs?: number;
  /** Most answers waiting out the delay at once (503 past it); MAX_WAITING_ANSWERS unless given. */
  maxWaiting?: number;
  /** Replaces the timer behind the delay (tests observe the delay without waiting). */
  sleep?: Sleep;
}

/** What the stub works on, from buildApp. */
export interface StubContext {
  contract: OperationContract;
  store: PlantStore;
  rule: CreateRule;
}

/**
 * The stub as a plugin for `app.register()`. Register it before the
 * operation's route: it adds its Prefer hooks to that route as it is
 * declared. Throws a RangeError for a delay out of bounds.
 */
export function stub(options: StubOptions, context: StubContext): FastifyPluginCallback {
  const controls = options.controls ?? true;
  const sleep = options.sleep ?? defaultSleep;
  const delay: DelaySetting = { ms: checkedDelay(options.delayMs ?? 0) };
  const plugin: FastifyPluginCallback = (app, _options, done) => {
    if (!controls && delay.ms === 0) return done();
    const journal = new Journal(controls ? (options.journalSize ?? DEFAULT_JOURNAL_SIZE) : 0, options.journalBytes ?? DEFAULT_JOURNAL_BYTES);
    // Delays end early when the server closes, so that `docker stop` answers
    // the requests in flight at once instead of waiting out their delay.
    const closing = new AbortController();
    app.addHook('preClose', (next) => {
      closing.abort();
      next();
    });
    const pending = new WeakMap<FastifyRequest, PendingEntry>();
    // The journal records a request before its answer leaves, so a test that
    // has its answer always finds the request in the journal. Paths under
    // RESERVED_PREFIX (health, the controls) are not journaled.
    app.addHook('onSend', (request, reply, payload, next) => {
      if (request.url.startsWith(RESERVED_PREFIX) || journal.capacity === 0) return next(null, payload);
      const entry = pending.get(request);
      if (entry !== undefined) entry.answered(reply.statusCode);
      else journal.record(request, reply.statusCode);
      next(null, payload);
    });
    const waitOutDelay = delayHook({ delay, closing: closing.signal, sleep, maxWaiting: options.maxWaiting ?? MAX_WAITING_ANSWERS, journal, pending });
    app.addHook('onRoute', onTheOperation(context.contract, { preValidation: waitOutDelay }));
    if (controls) {
      registerControls(app, { token: options.controlsToken, journal, delay, ...context });
      app.addHook('onRoute', preferOnTheOperation(context.contract));
    }
    done();
  };
  // As fastify-plugin does: the hooks apply to the routes of the app that
  // registers the plugin, not only to the plugin's own.
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: 'plantstore-stub' });
}

/**
 * An onRoute hook that adds Prefer to the operation's route: checked right
 * after the credentials, before the body is read (a malformed or undeclared
 * preference is a 400); answered once the body has been read and is in the
 * journal, and after its content type, size and JSON errors, which win. The
 * store is left alone.
 */
function preferOnTheOperation(contract: OperationContract): (route: RouteOptions) => void {
  const resolve = preferenceResolver(contract);
  const checkPrefer: onRequestHookHandler = (request, _reply, done) => {
    if (request.headers.prefer === undefined) return done();
    try {
      resolve(request.headers.prefer);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
  const answerPreferred: preHandlerHookHandler = (request, reply, done) => {
    if (request.headers.prefer === undefined) return done();
    const answer = resolve(request.headers.prefer); // checked on the request already: it does not throw
    if (answer === undefined) return done();
    sendPreferred(reply, answer); // answered: the route's handler does not run
  };
  return onTheOperation(contract, { onRequest: checkPrefer, preHandler: answerPreferred });
}

interface DelayContext {
  delay: DelaySetting;
  /** Aborts every wait: the server is closing. */
  closing: AbortSignal;
  sleep: Sleep;
  maxWaiting: number;
  journal: Journal;
  pending: WeakMap<FastifyRequest, PendingEntry>;
}

/**
 * The delay, as the operation's first preValidation hook: after the
 * credentials (a 401 is never delayed) and once the body is read, before
 * anything is decided or stored. A client that gives up during the wait
 * closes its connection, which ends the wait; the handler then finds the
 * answer cannot be delivered and stores nothing (wire.ts,
 * answerCanBeDelivered), so no plant is created that its client never saw.
 * The request is journaled as it starts to wait, with status null.
 */
function delayHook({ delay, closing, sleep, maxWaiting, journal, pending }: DelayContext): preValidationHookHandler {
  let waiting = 0;
  return (request, _reply, done) => {
    if (delay.ms === 0) return done();
    if (waiting >= maxWaiting) {
      return done(new ApiError('STUB_BUSY', `${maxWaiting} answers are waiting out the stub's delay of ${delay.ms} ms, the most it holds at once: try again later.`, { 'retry-after': String(Math.ceil(delay.ms / 1000)) }));
    }
    waiting++;
    if (journal.capacity > 0) pending.set(request, journal.recordPending(request));
    const socket = request.raw.socket;
    const clientGone = new AbortController();
    const onClose = () => clientGone.abort();
    socket.once('close', onClose);
    const resume = () => {
      waiting--;
      socket.off('close', onClose);
      done();
    };
    // Rejected when aborted (closing, or the client gone): either way, go on.
    sleep(delay.ms, AbortSignal.any([closing, clientGone.signal])).then(resume, resume);
  };
}

type OperationHooks = Partial<Pick<RouteOptions, 'onRequest' | 'preValidation' | 'preHandler'>>;

/**
 * An onRoute hook that adds `hooks` to the operation's route as it is
 * declared: onRequest and preHandler hooks after the route's own, the
 * preValidation hook before them.
 */
function onTheOperation(contract: OperationContract, hooks: OperationHooks): (route: RouteOptions) => void {
  const method = contract.method.toUpperCase();
  return (route) => {
    if (route.url !== contract.path || ![route.method].flat().includes(method)) return;
    if (hooks.onRequest) route.onRequest = [...hooksOf(route.onRequest), ...hooksOf(hooks.onRequest)];
    if (hooks.preValidation) route.preValidation = [...hooksOf(hooks.preValidation), ...hooksOf(route.preValidation)];
    if (hooks.preHandler) route.preHandler = [...hooksOf(route.preHandler), ...hooksOf(hooks.preHandler)];
  };
}

function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

function checkedDelay(ms: number): number {
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_DELAY_MS) throw new RangeError(`delayMs must be a whole number from 0 to ${MAX_DELAY_MS}`);
  return ms;
}

const defaultSleep: Sleep = (ms, signal) => sleepFor(ms, undefined, { signal });
