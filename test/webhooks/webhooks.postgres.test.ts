// Webhooks on the PostgreSQL store, through the real entry point (what npm
// start and the image run), configured by the environment: the receiver
// finds the plant committed in the database when the webhook arrives, and a
// first answer 503 is retried.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { startEntry, type StartedEntry } from '../support/entry.js';
import { POSTGRES_MISSING, sql, useTestDatabases } from '../support/postgres.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { STARTER } from './helpers.js';

const databases = useTestDatabases();
const ADMIN = { authorization: 'Bearer webhook-admin' };
const running: Array<StartedEntry | Receiver> = [];
after(async () => {
  await Promise.all(running.map((started) => ('child' in started ? started.stop() : started.close())));
});

interface Attempt {
  kind: string;
  attempt: number;
  status: number | null;
  outcome: string | null;
  body: string;
}

/** The journal's delivery attempts once none is pending or in flight (polled, bounded: a minute). */
async function settled(url: string): Promise<Attempt[]> {
  for (let i = 0; i < 6000; i++) {
    const { pending } = (await (await fetch(`${url}/__admin/webhooks`, { headers: ADMIN })).json()) as {
      pending: number;
    };
    const { entries } = (await (await fetch(`${url}/__admin/journal`, { headers: ADMIN })).json()) as {
      entries: Attempt[];
    };
    const attempts = entries.filter((entry) => entry.kind === 'delivery');
    if (pending === 0 && attempts.every((entry) => entry.outcome !== null)) return attempts;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the deliveries never settled');
}

/** Polls until a connection of the server waits on a lock (bounded: a minute). */
async function untilWaitingOnLock(database: string): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    const [row] = await sql<{ waiting: string }>(
      database,
      "SELECT count(*) AS waiting FROM pg_stat_activity WHERE application_name = 'plantstore' AND wait_event_type = 'Lock'",
    );
    if (row!.waiting !== '0') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the create never waited on the lock');
}

describe('webhooks on PostgreSQL', { skip: POSTGRES_MISSING, timeout: 180_000 }, () => {
  test('the webhook reaches the receiver after the commit (the plant is in the database when it arrives), once, retried after a first 503', async () => {
    const database = await databases.fresh();
    const hook = await startReceiver({
      statuses: [503],
      inspect: async ({ body }) =>
        (
          await sql<{ plant: string }>(database, 'SELECT plant FROM plantstore_plants WHERE id = $1', [
            String(JSON.parse(body).id),
          ])
        ).map((row) => row.plant),
    });
    running.push(hook);
    const server = await startEntry({
      PLANTSTORE_DATABASE_URL: database,
      PLANTSTORE_SPEC: STARTER,
      PLANTSTORE_TOKENS: 'client',
      PLANTSTORE_ADMIN_TOKEN: 'webhook-admin',
      PLANTSTORE_WEBHOOK_URL: hook.url,
      PLANTSTORE_WEBHOOK_BACKOFF_MS: '0',
    });
    running.push(server);
    assert.ok(
      server.lines.some((line) =>
        line.includes('webhook \\"/plant/webhook\\" (POST) is sent after a plant is created'),
      ),
      'named at start-up',
    );
    // The create is held inside its transaction (the usage shards locked by
    // the test) until the database shows it waiting; a webhook sent before the
    // commit would reach the receiver then, and find no plant.
    const lock = new pg.Client({ connectionString: database });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('SELECT plants FROM plantstore_usage_shards FOR UPDATE');
    const answer = fetch(`${server.url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer client', 'content-type': 'application/json' },
      body: '{"id": 42, "name": "Fern", "tag": "shade"}',
    });
    await untilWaitingOnLock(database);
    await lock.query('COMMIT');
    await lock.end();
    assert.equal((await answer).status, 200);
    const [first, second] = await hook.until(2);
    assert.deepEqual(first!.seen, ['{"name":"Fern","tag":"shade"}'], 'committed when the first attempt arrived');
    assert.deepEqual(JSON.parse(second!.body), { id: 42, name: 'Fern', tag: 'shade' });
    assert.equal(second!.headers['webhook-id'], first!.headers['webhook-id']);
    const attempts = await settled(server.url);
    assert.deepEqual(
      attempts.map(({ attempt, status, outcome }) => [attempt, status, outcome]),
      [
        [1, 503, 'retry'],
        [2, 200, 'delivered'],
      ],
    );
    assert.equal(hook.received.length, 2, 'once delivered, not sent again');
  });

  test('a create refused by the database (a taken id) sends nothing', async () => {
    const database = await databases.fresh();
    const hook = await startReceiver();
    running.push(hook);
    const server = await startEntry({
      PLANTSTORE_DATABASE_URL: database,
      PLANTSTORE_SPEC: STARTER,
      PLANTSTORE_TOKENS: 'client',
      PLANTSTORE_ADMIN_TOKEN: 'webhook-admin',
      PLANTSTORE_WEBHOOK_URL: hook.url,
    });
    running.push(server);
    const create = (body: string) =>
      fetch(`${server.url}/plants`, {
        method: 'POST',
        headers: { authorization: 'Bearer client', 'content-type': 'application/json' },
        body,
      });
    assert.equal((await create('{"id": 1, "name": "Fern"}')).status, 200);
    assert.equal((await create('{"id": 1, "name": "Again"}')).status, 400);
    assert.equal((await create('{"id": 2, "name": "Last"}')).status, 200);
    const received = await hook.until(2);
    assert.deepEqual(
      received.map(({ body }) => JSON.parse(body)),
      [
        { id: 1, name: 'Fern' },
        { id: 2, name: 'Last' },
      ],
    );
    assert.equal((await settled(server.url)).length, 2);
  });
});
