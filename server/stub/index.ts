// The stub: what a client team's tests need when the server stands in for
// the real Plant Store in CI, as one Fastify plugin that owns its hooks and
// routes. buildApp registers it only when asked to; without it the hot path
// carries no hook of the stub at all.
//
//   the controls    JSON endpoints under /__admin (controls.ts)
//   the journal     the most recent API requests (journal.ts)
//   the delay       authenticated requests to the operation wait, 0 to MAX_DELAY_MS
//   the faults      `Prefer: code=, fault=, delay=` and the schedule of
//                   POST /__admin/faults on the operation (faults.ts, fault-schedule.ts, prefer.ts)
//
// The delay and the faults hold answers back within one bound (hold.ts).
// Initial plants (initial-plants.ts) are read by start.ts and stored by
// buildApp, with or without the plugin.
import type { FastifyPluginCallback, FastifyRequest, preValidationHookHandler, RouteOptions } from 'fastify';
import type { CreateRule } from '../create.js';
import { ApiError } from '../errors.js';
import { DEFAULT_JOURNAL_BYTES, DEFAULT_JOURNAL_SIZE, MAX_DELAY_MS, MAX_WAITING_ANSWERS } from '../limits.js';
import { RESERVED_PREFIX } from '../routes.js';
import type { PlantStore } from '../store.js';
import type { OperationContract } from '../validation.js';
import { registerControls, type DelaySetting } from './controls.js';
import { FaultSchedule } from './fault-schedule.js';
import { faultHooks } from './faults.js';
import { defaultSleep, HeldAnswers, type Sleep } from './hold.js';
import { Journal, type PendingEntry } from './journal.js';
import { codeAnswers, preferenceResolver } from './prefer.js';

export type { Sleep } from './hold.js';

export interface StubOptions {
  /** The controls, the journal, Prefer and the faults; default true. */
  controls?: boolean;
  /** When set, the controls require `Authorization: Bearer <controlsToken>`. */
  controlsToken?: string;
  /** Most requests the journal keeps (the oldest go first); 0 keeps none. */
  journalSize?: number;
  /** Most bytes the journal's entries take together (the oldest go first); DEFAULT_JOURNAL_BYTES unless given. */
  journalBytes?: number;
  /** Milliseconds an authenticated request to the operation waits before it is handled, 0 to MAX_DELAY_MS. */
  delayMs?: number;
  /** Most answers held at once (waiting out a delay, a hang, a dribble; 503 past it); MAX_WAITING_ANSWERS unless given. */
  maxWaiting?: number;
  /** Replaces the timer behind the delay and the faults (tests observe the waits without waiting). */
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
 * operation's route: it adds its hooks to that route as it is declared.
 * Throws a RangeError for a delay out of bounds.
 */
export function stub(options: StubOptions, context: StubContext): FastifyPluginCallback {
  const controls = options.controls ?? true;
  const startDelayMs = checkedDelay(options.delayMs ?? 0);
  const delay: DelaySetting = { ms: startDelayMs };
  const plugin: FastifyPluginCallback = (app, _options, done) => {
    if (!controls && delay.ms === 0) return done();
    const journal = new Journal(controls ? (options.journalSize ?? DEFAULT_JOURNAL_SIZE) : 0, options.journalBytes ?? DEFAULT_JOURNAL_BYTES);
    // Held answers end early when the server closes, so that `docker stop`
    // answers the requests in flight at once instead of waiting out their
    // delay, and a hang holds no shutdown.
    const closing = new AbortController();
    app.addHook('preClose', (next) => {
      closing.abort();
      next();
    });
    const held = new HeldAnswers(options.maxWaiting ?? MAX_WAITING_ANSWERS, closing.signal, options.sleep ?? defaultSleep);
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
    app.addHook('onRoute', onTheOperation(context.contract, { preValidation: delayHook({ delay, held, journal, pending }) }));
    if (controls) {
      const answers = codeAnswers(context.contract);
      const schedule = new FaultSchedule();
      registerControls(app, { token: options.controlsToken, journal, delay, startDelayMs, faults: { schedule, checkExample: answers.checkExample }, ...context });
      const { checkPrefer, injectFault } = faultHooks({ resolvePrefer: preferenceResolver(context.contract, answers), answers, schedule, held, journal, pending });
      // Prefer is checked right after the credentials, before the body is read
      // (a malformed or unanswerable preference is a 400); the fault is applied
      // once the body has been read and is in the journal, and after its content
      // type, size and JSON errors, which win.
      app.addHook('onRoute', onTheOperation(context.contract, { onRequest: checkPrefer, preHandler: injectFault }));
    }
    done();
  };
  // As fastify-plugin does: the hooks apply to the routes of the app that
  // registers the plugin, not only to the plugin's own.
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: 'plantstore-stub' });
}

interface DelayContext {
  delay: DelaySetting;
  held: HeldAnswers;
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
function delayHook({ delay, held, journal, pending }: DelayContext): preValidationHookHandler {
  return (request, _reply, done) => {
    if (delay.ms === 0) return done();
    const hold = held.acquire(request.raw.socket);
    if (hold === undefined) {
      const message = `${held.max} answers are held by the stub (waiting out its delay of ${delay.ms} ms, hang and dribble faults), the most it holds at once: try again later.`;
      return done(new ApiError('STUB_BUSY', message, { 'retry-after': String(Math.ceil(delay.ms / 1000)) }));
    }
    if (journal.capacity > 0) pending.set(request, journal.recordPending(request));
    // Ends early when the server closes or the client is gone: either way, go on.
    hold.wait(delay.ms).then(() => {
      hold.release();
      done();
    });
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
