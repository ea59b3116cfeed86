// The stub: what a client team's tests need when the server stands in for
// the real Plant Store in CI, as one Fastify plugin that owns its hooks and
// routes. buildApp registers it only when asked to; without it the hot path
// carries no hook of the stub at all.
//
//   the controls    JSON endpoints under /__admin (controls.ts)
//   the journal     the most recent API requests (journal.ts)
//   the delay       every API answer waits, 0 to MAX_DELAY_MS
//   Prefer          `Prefer: code=NNN` on the operation (prefer.ts)
//
// Initial plants (initial-plants.ts) are read by start.ts and stored by
// buildApp, with or without the plugin.
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { FastifyPluginCallback, onRequestHookHandler, preHandlerHookHandler, RouteOptions } from 'fastify';
import type { CreateRule } from '../create.js';
import { DEFAULT_JOURNAL_SIZE, MAX_DELAY_MS } from '../limits.js';
import { RESERVED_PREFIX } from '../routes.js';
import type { PlantStore } from '../store.js';
import type { OperationContract } from '../validation.js';
import { registerControls, type DelaySetting } from './controls.js';
import { Journal } from './journal.js';
import { preferenceResolver, sendPreferred } from './prefer.js';

/** Waits `ms` milliseconds, or less when `signal` aborts (the server is closing). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface StubOptions {
  /** The controls, the journal and `Prefer: code=`; default true. */
  controls?: boolean;
  /** When set, the controls require `Authorization: Bearer <controlsToken>`. */
  controlsToken?: string;
  /** Most requests the journal keeps (a ring: the oldest go first); 0 keeps none. */
  journalSize?: number;
  /** Milliseconds every API answer waits before it is sent, 0 to MAX_DELAY_MS. */
  delayMs?: number;
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
    const journal = new Journal(controls ? (options.journalSize ?? DEFAULT_JOURNAL_SIZE) : 0);
    // Delays end early when the server closes, so that `docker stop` answers
    // the requests in flight at once instead of waiting out their delay.
    const closing = new AbortController();
    app.addHook('preClose', (next) => {
      closing.abort();
      next();
    });
    // One onSend hook does both: it runs before the answer leaves, so a test
    // that has its answer always finds the request in the journal. Paths
    // under RESERVED_PREFIX (health, the controls) are neither journaled nor delayed.
    app.addHook('onSend', (request, reply, payload, next) => {
      if (request.url.startsWith(RESERVED_PREFIX)) return next(null, payload);
      if (journal.capacity > 0) journal.record(request, reply.statusCode);
      if (delay.ms === 0) return next(null, payload);
      sleep(delay.ms, closing.signal).then(
        () => next(null, payload),
        () => next(null, payload), // aborted: the server is closing
      );
    });
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
  const method = contract.method.toUpperCase();
  return (route) => {
    if (route.url !== contract.path || ![route.method].flat().includes(method)) return;
    route.onRequest = [...hooksOf(route.onRequest), checkPrefer];
    route.preHandler = [...hooksOf(route.preHandler), answerPreferred];
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
