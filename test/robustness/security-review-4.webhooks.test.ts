// The fourth security review's findings on the webhooks (issue 41): medium 1
// (pending deliveries held their bodies with no byte bound), low 1 (a
// delivery waiting for a place in flight started past its deadline) and
// low 2 (the delivery log lines printed a receiver's URL whole). Each test
// failed on the build the review read, and passes now. What they wait for
// is an event (a receiver that holds every request, a journal entry), never
// a length of time; the counts are read from the controls and the journal.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError } from '../../server/config.js';
import { DEFAULT_WEBHOOK_QUEUE_BYTES, MAX_CONCURRENT_DELIVERIES } from '../../server/limits.js';
import { createServerLog } from '../../server/logging.js';
import { readWebhookConfig } from '../../server/webhooks/config.js';
import { createPlant } from '../stub/helpers.js';
import type { DeliveryEntry } from '../../server/stub/journal.js';
import { settledDeliveries, useReceivers, webhookApp } from '../webhooks/helpers.js';

const receiver = useReceivers();
const dir = mkdtempSync(join(tmpdir(), 'plantstore-review-4-'));
after(() => rmSync(dir, { recursive: true, force: true }));
/** The stub keeps every entry these tests make (a request and a delivery per create). */
const STUB = { stub: { journalSize: 1000 } };
/** A plant's name of a megabyte: the size of the review's plants. */
const MEGABYTE_NAME = 'n'.repeat(1_000_000);

/** Every delivery attempt of the journal, oldest first, page after page (a page holds 4 MiB of entries at most). */
async function deliveryEntries(app: ReturnType<typeof webhookApp>): Promise<DeliveryEntry[]> {
  const entries: DeliveryEntry[] = [];
  for (let after = 0; ;) {
    const page = (await app.inject({ method: 'GET', url: `/__admin/journal?limit=1000&after=${after}` })).json<{
      entries: Array<{ kind: string }>;
      next: number | null;
    }>();
    entries.push(...(page.entries.filter((entry) => entry.kind === 'delivery') as DeliveryEntry[]));
    if (page.next === null) return entries;
    after = page.next;
  }
}

/** Waits (bounded: a minute, which only a failing run reaches) until `ready` holds of the journal's delivery attempts. */
async function untilJournal(
  app: ReturnType<typeof webhookApp>,
  ready: (entries: DeliveryEntry[]) => boolean,
  what: string,
): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    if (ready(await deliveryEntries(app))) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${what} never happened: ${JSON.stringify(await deliveryEntries(app))}`);
}

describe('the fourth security review: webhooks', { timeout: 300_000 }, () => {
  test('medium 1: the pending deliveries are bounded in bytes: 100 plants of a megabyte to a receiver that holds every request keep at most the default budget; the others are dropped, journaled and logged', async () => {
    const hook = await receiver({ hold: true });
    const lines: string[] = [];
    const app = webhookApp(
      [hook.url],
      { timeoutMs: 60_000 },
      { ...STUB, logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } } },
    );
    try {
      for (let id = 1; id <= 100; id++)
        assert.equal((await createPlant(app, { id, name: MEGABYTE_NAME })).statusCode, 200, 'every create answered');
      // The last change becomes a delivery on the turn of the event loop it asked for, which comes before this one.
      await new Promise((resolve) => setImmediate(resolve));
      await hook.until(1);
      const view = (await app.inject({ method: 'GET', url: '/__admin/webhooks' })).json<{
        pending: number;
        pendingBytes: number;
        settings: { queueBytes: number };
      }>();
      assert.equal(view.settings.queueBytes, DEFAULT_WEBHOOK_QUEUE_BYTES);
      assert.ok(
        view.pending * 1_000_000 <= DEFAULT_WEBHOOK_QUEUE_BYTES,
        `${view.pending} deliveries of a megabyte pending, past a budget of ${DEFAULT_WEBHOOK_QUEUE_BYTES} bytes`,
      );
      assert.ok(view.pendingBytes <= DEFAULT_WEBHOOK_QUEUE_BYTES, `${view.pendingBytes} bytes pending`);
      const dropped = (await deliveryEntries(app)).filter((entry) => entry.outcome === 'dropped');
      assert.equal(dropped.length, 100 - view.pending, 'each delivery not pending was dropped, and journaled');
      assert.ok(dropped.every((entry) => entry.attempt === 0 && /bytes/.test(String(entry.error))));
      const logged = lines.filter((line) => /webhook: not sent: .*bytes/.test(line));
      assert.equal(logged.length, dropped.length, 'and logged');
      hook.release();
      await settledDeliveries(app);
      assert.equal(hook.received.length, view.pending, 'what was pending is delivered');
    } finally {
      await app.close();
    }
  });

  test('medium 1: PLANTSTORE_WEBHOOK_QUEUE_BYTES sets the budget, within its bounds', () => {
    assert.equal(readWebhookConfig({}).queueBytes, DEFAULT_WEBHOOK_QUEUE_BYTES);
    assert.equal(readWebhookConfig({ PLANTSTORE_WEBHOOK_QUEUE_BYTES: '2097152' }).queueBytes, 2_097_152);
    for (const value of ['1', '1073741825', 'lots'])
      assert.throws(
        () => readWebhookConfig({ PLANTSTORE_WEBHOOK_QUEUE_BYTES: value }),
        (error) => error instanceof ConfigError && /^PLANTSTORE_WEBHOOK_QUEUE_BYTES must be/.test(error.message),
        value,
      );
  });

  test('medium 1: a budget of its own: the deliveries that would pass it are dropped, the ones before it are sent', async () => {
    const hook = await receiver({ hold: true });
    const app = webhookApp([hook.url], { timeoutMs: 60_000, queueBytes: 3_500_000 }, STUB);
    try {
      for (let id = 1; id <= 6; id++) await createPlant(app, { id, name: MEGABYTE_NAME });
      await hook.until(3);
      hook.release();
      const entries = await settledDeliveries(app);
      assert.deepEqual(entries.map(({ outcome }) => outcome).sort(), [
        'delivered',
        'delivered',
        'delivered',
        'dropped',
        'dropped',
        'dropped',
      ]);
      assert.equal(hook.received.length, 3);
    } finally {
      await app.close();
    }
  });

  test('low 1: a delivery waiting for a place in flight is settled failed at its deadline, never attempted: the receiver holds the first 32, the 8 after them fail without an attempt', async () => {
    const hook = await receiver({ hold: true });
    // The held attempts never end on their own before the test does: only the deadline can settle the others.
    const app = webhookApp([hook.url], { deadlineMs: 1000, timeoutMs: 60_000, attempts: 1 }, STUB);
    try {
      const waiting = 8;
      for (let id = 1; id <= MAX_CONCURRENT_DELIVERIES + waiting; id++) await createPlant(app, { id, name: 'Fern' });
      await hook.until(MAX_CONCURRENT_DELIVERIES);
      await untilJournal(
        app,
        (entries) => entries.filter((entry) => entry.outcome === 'failed' && entry.attempt === 0).length === waiting,
        `the ${waiting} deliveries waiting for a place settled as failed at their deadline`,
      );
      const failed = (await deliveryEntries(app)).filter((entry) => entry.outcome === 'failed');
      assert.ok(failed.every((entry) => entry.status === null && /deadline/.test(String(entry.error))));
      hook.release();
      await settledDeliveries(app);
      assert.equal(hook.received.length, MAX_CONCURRENT_DELIVERIES, 'no attempt of a delivery past its deadline');
    } finally {
      await app.close();
    }
  });

  test("low 2: the log shows a receiver's URL with its credentials redacted, and their values never, wherever they appear", async () => {
    const token = 'rcv-token-5e1b9c3a7d40';
    const signature = 'rcv-sig-0c9d8e7f6a5b';
    const hook = await receiver();
    const file = join(dir, 'log.jsonl');
    const fd = openSync(file, 'w');
    const log = createServerLog('info', fd);
    const app = webhookApp([`${hook.url}?access_token=${token}`], {}, { loggerInstance: log.logger });
    try {
      await createPlant(app, { id: 1, name: 'Fern' });
      await hook.until(1);
      await settledDeliveries(app);
      const put = await app.inject({
        method: 'PUT',
        url: '/__admin/webhooks',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ receivers: [`${hook.url}?sig=${signature}`] }),
      });
      assert.equal(put.statusCode, 200, put.body);
      await createPlant(app, { id: 2, name: 'Fern' });
      await hook.until(2);
      await settledDeliveries(app);
      // The values where no name says they are credentials: a request's query.
      await app.inject({ method: 'GET', url: `/nowhere?q=${token}&r=${signature}` });
    } finally {
      await app.close();
      await log.close();
      closeSync(fd);
    }
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes(token), `the receiver's access_token is not in the log: ${text}`);
    assert.ok(!text.includes(signature), "the receiver's sig is not in the log");
    const delivered = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; receiver?: string })
      .filter((line) => line.msg === 'webhook: delivered');
    assert.deepEqual(
      delivered.map((line) => line.receiver),
      [`${hook.url}?access_token=<redacted>`, `${hook.url}?sig=<redacted>`],
    );
  });
});
