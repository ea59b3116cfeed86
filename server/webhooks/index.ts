// Webhooks (OpenAPI 3.1 `webhooks:`): the document's webhooks sent to the
// receivers the server is told about, after the event each describes has
// committed. buildApp makes them when asked to (start.ts always asks); they
// are a plugin that listens to the feed of committed changes
// (server/changes.ts), and the deliveries, which the stub's controls and
// journal see.
//
//   declarations.ts  the document's webhooks and the event each describes
//   deliveries.ts    the queue (in deliveries and bytes), the retries and their bounds, the shutdown
//   delivery.ts      what a delivery is, what the journal records of it, what it costs the queue
//   send.ts          one attempt on the wire
//   receivers.ts     what a receiver's URL may be
//   config.ts        the settings from the environment
import type { FastifyBaseLogger, FastifyPluginCallback } from 'fastify';
import { ConfigError } from '../config.js';
import type { PlantChanges, PlantChangeEvent } from '../changes.js';
import { WEBHOOK_DEFAULTS } from '../limits.js';
import { redactTarget } from '../redact.js';
import type { OperationContract } from '../http/validation.js';
import {
  CHANGES_OF,
  readWebhooks,
  type WebhookDeclaration,
  type WebhookResource,
  type WebhookTies,
} from './declarations.js';
import { Deliveries } from './deliveries.js';
import { receiverList } from './receivers.js';

export type { Deliveries } from './deliveries.js';

export interface WebhookOptions {
  /** The receivers at start (PLANTSTORE_WEBHOOK_URL): http(s) URLs; none by default. */
  receivers?: readonly string[];
  /** The switch (PLANTSTORE_WEBHOOK_EVENTS): webhook names tied to events instead of the inference. */
  ties?: WebhookTies | undefined;
  attempts?: number;
  backoffMs?: number;
  timeoutMs?: number;
  deadlineMs?: number;
  queueSize?: number;
  /** Most bytes the pending deliveries hold together (PLANTSTORE_WEBHOOK_QUEUE_BYTES). */
  queueBytes?: number;
  /** Milliseconds app.close() waits for pending deliveries before it drops them. */
  shutdownMs?: number;
  /** Replaces Math.random in the backoff's jitter (tests). */
  random?: () => number;
}

export interface WebhooksContext {
  contract: OperationContract;
  /** The document's resources, the plant resource first (the contract's alone when not given). */
  resources?: readonly WebhookResource[];
  changes: PlantChanges;
  log: FastifyBaseLogger;
}

export interface Webhooks {
  /** Listens to the committed changes, logs the webhooks at start, and drains the deliveries when the app closes. */
  plugin: FastifyPluginCallback;
  deliveries: Deliveries;
}

/** The webhooks of the document; throws a ConfigError for a tie naming no webhook, a ReceiverError for a bad receiver. */
export function webhooks(options: WebhookOptions, { contract, resources, changes, log }: WebhooksContext): Webhooks {
  const declarations = readWebhooks(
    contract.document,
    contract,
    options.ties,
    (message) => new ConfigError(message),
    resources,
  );
  const deliveries = new Deliveries(
    {
      attempts: options.attempts ?? WEBHOOK_DEFAULTS.attempts,
      backoffMs: options.backoffMs ?? WEBHOOK_DEFAULTS.backoffMs,
      timeoutMs: options.timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs,
      deadlineMs: options.deadlineMs ?? WEBHOOK_DEFAULTS.deadlineMs,
      queueSize: options.queueSize ?? WEBHOOK_DEFAULTS.queueSize,
      queueBytes: options.queueBytes ?? WEBHOOK_DEFAULTS.queueBytes,
    },
    declarations,
    receiverList(options.receivers ?? []),
    { log, random: options.random },
  );
  const shutdownMs = options.shutdownMs ?? WEBHOOK_DEFAULTS.shutdownMs;
  const plugin: FastifyPluginCallback = (app, _options, done) => {
    if (deliveries.listens) changes.subscribe(deliveries.dispatch);
    app.addHook('onReady', (ready) => {
      for (const { level, message } of startupLines(
        declarations,
        (change, resource) => changes.isTold(change, resource),
        deliveries.receivers,
      ))
        app.log[level](message);
      ready();
    });
    // Once closed, the deliveries take no more changes.
    app.addHook('onClose', async () => {
      await deliveries.drain(shutdownMs);
    });
    done();
  };
  return {
    plugin: Object.assign(plugin, {
      [Symbol.for('skip-override')]: true,
      [Symbol.for('fastify.display-name')]: 'plantstore-webhooks',
    }),
    deliveries,
  };
}

/** What the server says of its webhooks at start: each one, what it is sent for or why never, and where to. */
export function startupLines(
  declarations: readonly WebhookDeclaration[],
  told: (change: PlantChangeEvent, resource: string) => boolean,
  receivers: readonly string[],
): Array<{ level: 'info' | 'warn'; message: string }> {
  const lines: Array<{ level: 'info' | 'warn'; message: string }> = [];
  let sent = 0;
  for (const { name, method, event, reason, mediaType, resource } of declarations) {
    const noun = resource.noun;
    const webhook = `webhook ${JSON.stringify(name)} (${method})`;
    if (event === undefined) {
      lines.push({
        level: 'warn',
        message: `${webhook} is never sent: it is tied to no event (${reason}); PLANTSTORE_WEBHOOK_EVENTS ties a webhook to an event (docs/stub.md)`,
      });
    } else if (!CHANGES_OF[event].some((change) => told(change, resource.key))) {
      lines.push({
        level: 'warn',
        message: `${webhook} is never sent: it describes ${article(noun)} ${event} (${reason}), and the server serves no operation that does that`,
      });
    } else {
      sent++;
      lines.push({
        level: 'info',
        message: `${webhook} is sent after ${article(noun)} is ${event}, as ${mediaType} (${reason})`,
      });
    }
  }
  if (sent > 0) {
    lines.push({
      level: 'info',
      message:
        receivers.length === 0
          ? 'webhooks: no receiver yet: PLANTSTORE_WEBHOOK_URL or PUT /__admin/webhooks names one'
          : `webhooks: sent to ${receivers.map((url) => redactTarget(url)).join(', ')}`,
    });
  }
  return lines;
}

/** "a plant", "an order". */
function article(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}
