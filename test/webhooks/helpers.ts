// Shared by the webhook tests: the starter document's app with a receiver,
// and waits for the deliveries to settle (bounded, by polling the stub's
// controls: what the tests wait for is an event, never a length of time).
import { after } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../server/app.js';
import type { DeliveryEntry } from '../../server/stub/journal.js';
import type { WebhookOptions } from '../../server/webhooks/index.js';
import { fixturePath } from '../support/fixtures.js';
import { TOKEN } from '../stub/helpers.js';
import { startReceiver, type Receiver, type ReceiverOptions } from '../support/webhook-receiver.js';

export const STARTER = fixturePath('operations/starter.yaml');
export const SEVERAL = fixturePath('webhooks/several.yaml');

/** A function that starts receivers, each closed after the file's tests. */
export function useReceivers(): (options?: ReceiverOptions) => Promise<Receiver> {
  const started: Receiver[] = [];
  after(async () => {
    await Promise.all(started.map((receiver) => receiver.close()));
  });
  return async (options) => {
    const receiver = await startReceiver(options);
    started.push(receiver);
    return receiver;
  };
}

/** The starter document served with the stub on, its webhooks sent to `receivers` with no backoff (tests wait for events, not time). */
export function webhookApp(
  receivers: string[],
  webhooks: WebhookOptions = {},
  options: AppOptions = {},
): FastifyInstance {
  return buildApp({
    specPath: STARTER,
    tokens: [TOKEN],
    stub: {},
    webhooks: { receivers, backoffMs: 0, ...webhooks },
    ...options,
  });
}

/** The journal's delivery attempts, oldest first. */
export async function deliveryEntries(
  app: FastifyInstance,
  headers: Record<string, string> = {},
): Promise<DeliveryEntry[]> {
  const page = (await app.inject({ method: 'GET', url: '/__admin/journal?limit=1000', headers })).json<{
    entries: Array<{ kind: string }>;
  }>();
  return page.entries.filter((entry) => entry.kind === 'delivery') as DeliveryEntry[];
}

/**
 * Waits until no delivery is pending and every journaled attempt has its
 * outcome; answers the attempts. Polls the controls (bounded: a minute,
 * which only a failing run reaches).
 */
export async function settledDeliveries(
  app: FastifyInstance,
  headers: Record<string, string> = {},
): Promise<DeliveryEntry[]> {
  for (let i = 0; i < 6000; i++) {
    const { pending } = (await app.inject({ method: 'GET', url: '/__admin/webhooks', headers })).json<{
      pending: number;
    }>();
    const entries = await deliveryEntries(app, headers);
    if (pending === 0 && entries.every((entry) => entry.outcome !== null)) return entries;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the deliveries never settled: ${JSON.stringify(await deliveryEntries(app, headers))}`);
}

/** Waits (bounded, a minute) until exactly `count` deliveries are pending. */
export async function untilPending(app: FastifyInstance, count: number): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    if ((await app.inject({ method: 'GET', url: '/__admin/webhooks' })).json().pending === count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${count} deliveries were never pending alone`);
}

/** Each attempt as [attempt, status, outcome]. */
export function attempts(entries: readonly DeliveryEntry[]): Array<[number, number | null, string | null]> {
  return entries.map((entry) => [entry.attempt, entry.status, entry.outcome]);
}
