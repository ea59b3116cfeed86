// The stub: what a client team's tests need when the server stands in for
// the real Plant Store in CI. buildApp makes it only when asked to; without
// it the hot path carries no hook of the stub at all. It is two things:
//
// a Fastify plugin, which adds routes of its own and changes none of the others:
//   the controls    JSON endpoints under /__admin (controls.ts, webhook-controls.ts)
//   the journal     the most recent API requests (journal.ts), an onSend hook,
//                   and the webhooks' delivery attempts (journal-deliveries.ts)
//
// and three stages of every operation's pipeline, which buildApp hands to
// each operation's route (pipeline.ts puts each in its place):
//   Prefer          a malformed or unanswerable `Prefer` is a 400 (faults.ts, prefer.ts)
//   delay           authenticated requests to the API wait, 0 to MAX_DELAY_MS
//   fault           `Prefer: code=, fault=, delay=` (the operation's own
//                   declared answers) and the schedule of POST /__admin/faults,
//                   one schedule for every operation (faults.ts, fault-schedule.ts, prefer.ts)
//
// The delay and the faults hold answers back within one bound (hold.ts).
// Initial plants (initial-plants.ts) are read by start.ts and stored by
// buildApp, with or without the plugin.
import type { FastifyPluginCallback, FastifyRequest, preValidationHookHandler } from 'fastify';
import { createAuthenticator } from '../security/auth.js';
import type { CreateRule } from '../operations/create.js';
import {
  DEFAULT_JOURNAL_BYTES,
  DEFAULT_JOURNAL_SIZE,
  MAX_DELAY_MS,
  MAX_WAITING_ANSWERS,
  MAX_WAITING_PER_CREDENTIAL,
} from '../limits.js';
import type { StubStages } from '../http/pipeline.js';
import { RESERVED_PREFIX } from '../http/routes.js';
import type { CredentialNames } from '../redact.js';
import type { PlantStore } from '../store/store.js';
import type { OperationContract } from '../http/validation.js';
import type { Deliveries } from '../webhooks/index.js';
import { registerControls, type DelaySetting } from './controls.js';
import { FaultSchedule } from './fault-schedule.js';
import { faultHooks, loseAnswer } from './faults.js';
import { busy, defaultSleep, HeldAnswers, holderOf, type Sleep } from './hold.js';
import { Journal, type PendingEntry } from './journal.js';
import { codeAnswers, preferenceResolver, type DeclaredOperation } from './prefer.js';
import { controlWebhooks } from './webhook-controls.js';

export type { Sleep } from './hold.js';

export interface StubOptions {
  /** The controls, the journal, Prefer and the faults; default true. */
  controls?: boolean;
  /** When set, the controls require `Authorization: Bearer <controlsToken>`. */
  controlsToken?: string;
  /** Host names the controls answer while they have no token, besides loopback names and IP addresses; '*' any (controls-guard.ts). */
  allowedHosts?: readonly string[] | '*';
  /** A Prefer that asks for a code, a fault or a delay needs the controls' token (PLANTSTORE_PREFER=admin); requires controlsToken. */
  preferNeedsControlsToken?: boolean;
  /** Most entries the journal keeps (requests and webhook delivery attempts; the oldest go first); 0 keeps none. */
  journalSize?: number;
  /** Most bytes the journal's entries take together (the oldest go first); DEFAULT_JOURNAL_BYTES unless given. */
  journalBytes?: number;
  /** Milliseconds an authenticated request to the operation waits before it is handled, 0 to MAX_DELAY_MS. */
  delayMs?: number;
  /** Most answers held at once (waiting out a delay, a hang, a dribble; 503 past it); MAX_WAITING_ANSWERS unless given. */
  maxWaiting?: number;
  /** Most of them one credential holds at once; MAX_WAITING_PER_CREDENTIAL (at most maxWaiting) unless given. */
  maxWaitingPerCredential?: number;
  /** Replaces the timer behind the delay and the faults (tests observe the waits without waiting). */
  sleep?: Sleep;
}

/** What the stub works on, from buildApp. */
export interface StubContext {
  contract: OperationContract;
  store: PlantStore;
  rule: CreateRule;
  /** The server's secrets (its tokens, ...): the journal never shows them, wherever they appear. */
  secrets?: readonly string[];
  /** The document's API keys' names: the journal redacts what they carry by name (redact.ts). */
  credentialNames?: CredentialNames;
  /** The webhooks' deliveries, when the app sends webhooks: the controls name their receivers and schedule their faults, the journal records their attempts. */
  deliveries?: Deliveries | undefined;
}

/** The stub, as buildApp uses it: a plugin, and the stages it adds to each operation's pipeline. */
export interface Stub {
  /**
   * The controls under /__admin, the journal, and the end of every held
   * answer when the server closes, for `app.register()`; in any order
   * beside the routes, as it changes none of them.
   */
  plugin: FastifyPluginCallback;
  /** Its stages of an operation's pipeline, which pipeline.ts puts in their places: Prefer answers what the operation declares. */
  stagesFor: (operation: DeclaredOperation) => StubStages;
}

/** The stub, for buildApp; throws a RangeError for a delay out of bounds, or a Prefer guard without a token. */
export function stub(options: StubOptions, context: StubContext): Stub {
  const controls = options.controls ?? true;
  if (options.preferNeedsControlsToken && options.controlsToken === undefined)
    throw new RangeError('preferNeedsControlsToken needs a controlsToken');
  const startDelayMs = checkedDelay(options.delayMs ?? 0);
  const delay: DelaySetting = { ms: startDelayMs };
  // With the controls off and no delay: nothing at all, so the hot path carries none of the stub.
  if (!controls && delay.ms === 0) return { plugin: asPlugin((_app, _options, done) => done()), stagesFor: () => ({}) };
  const journal = new Journal(
    controls ? (options.journalSize ?? DEFAULT_JOURNAL_SIZE) : 0,
    options.journalBytes ?? DEFAULT_JOURNAL_BYTES,
    context.secrets ?? [],
    context.credentialNames,
  );
  // Held answers end early when the server closes, so that `docker stop`
  // answers the requests in flight at once instead of waiting out their
  // delay, and a hang holds no shutdown.
  const closing = new AbortController();
  const maxWaiting = options.maxWaiting ?? MAX_WAITING_ANSWERS;
  const share = Math.min(maxWaiting, options.maxWaitingPerCredential ?? MAX_WAITING_PER_CREDENTIAL);
  const held = new HeldAnswers(maxWaiting, share, closing.signal, options.sleep ?? defaultSleep);
  const pending = new WeakMap<FastifyRequest, PendingEntry>();
  const losing = new WeakSet<FastifyRequest>();
  const delayStage = delayHook({ delay, held, journal, pending });
  // The create operation's answers check a scheduled step's example (the controls).
  const answers = controls ? codeAnswers(context.contract) : undefined;
  const schedule = new FaultSchedule();
  const preferGuard =
    options.preferNeedsControlsToken && options.controlsToken !== undefined
      ? createAuthenticator([options.controlsToken])
      : undefined;
  const stagesFor = (operation: DeclaredOperation): StubStages => {
    if (!controls) return { delay: delayStage };
    const own = codeAnswers(operation);
    const { checkPrefer, injectFault } = faultHooks({
      resolvePrefer: preferenceResolver(operation, own),
      preferGuard,
      answers: own,
      schedule,
      held,
      journal,
      pending,
      losing,
    });
    return { prefer: checkPrefer, delay: delayStage, fault: injectFault };
  };
  const plugin: FastifyPluginCallback = (app, _options, done) => {
    app.addHook('preClose', (next) => {
      closing.abort();
      next();
    });
    // The journal records a request before its answer leaves, so a test that
    // has its answer always finds the request in the journal. Paths under
    // RESERVED_PREFIX (health, the controls) are not journaled. An answer
    // the fault lost-answer loses leaves its entry's status null: none was sent.
    app.addHook('onSend', (request, reply, payload, next) => {
      if (request.url.startsWith(RESERVED_PREFIX)) return next(null, payload);
      if (loseAnswer(request, reply, losing)) return next(null, payload);
      if (journal.capacity === 0) return next(null, payload);
      const entry = pending.get(request);
      if (entry !== undefined) entry.answered(reply.statusCode);
      else journal.record(request, reply.statusCode);
      next(null, payload);
    });
    if (answers !== undefined) {
      const webhooks =
        context.deliveries === undefined
          ? undefined
          : controlWebhooks(context.deliveries, (info, fault) => journal.recordDelivery(info, fault));
      registerControls(app, {
        token: options.controlsToken,
        allowedHosts: options.allowedHosts ?? [],
        journal,
        delay,
        startDelayMs,
        faults: { schedule, checkExample: answers.checkExample },
        webhooks,
        ...context,
      });
    }
    done();
  };
  return { plugin: asPlugin(plugin), stagesFor };
}

/**
 * As fastify-plugin does: the hooks apply to every route of the app that
 * registers the plugin (the journal sees every request), not only to the
 * plugin's own.
 */
function asPlugin(plugin: FastifyPluginCallback): FastifyPluginCallback {
  return Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: 'plantstore-stub',
  });
}

interface DelayContext {
  delay: DelaySetting;
  held: HeldAnswers;
  journal: Journal;
  pending: WeakMap<FastifyRequest, PendingEntry>;
}

/**
 * The delay, the create pipeline's stage `delay`: after the credentials (a
 * 401 is never delayed) and once the body is read, before anything is
 * decided or stored. A client that gives up during the wait
 * closes its connection, which ends the wait; the handler then finds the
 * answer cannot be delivered and stores nothing (wire.ts,
 * answerCanBeDelivered), so no plant is created that its client never saw.
 * The request is journaled as it starts to wait, with status null; a
 * request whose client goes away during the wait stays so, `abandoned`.
 */
function delayHook({ delay, held, journal, pending }: DelayContext): preValidationHookHandler {
  return (request, _reply, done) => {
    if (delay.ms === 0) return done();
    const hold = held.acquire(request.raw.socket, holderOf(request));
    if (typeof hold === 'string') return done(busy(held, hold, delay.ms / 1000, `its delay of ${delay.ms} ms`));
    const entry = journal.capacity > 0 ? journal.recordPending(request) : undefined;
    if (entry !== undefined) pending.set(request, entry);
    // Ends early when the server closes or the client is gone: either way, go on.
    // wait() resolves when the time is up or the hold ends early; it never rejects.
    void hold.wait(delay.ms).then(() => {
      // A client gone during the wait is sent nothing: its entry says so, not the status the server makes of it.
      if (hold.ended === 'client-gone') entry?.abandoned();
      hold.release();
      done();
    });
  };
}

function checkedDelay(ms: number): number {
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_DELAY_MS)
    throw new RangeError(`delayMs must be a whole number from 0 to ${MAX_DELAY_MS}`);
  return ms;
}
