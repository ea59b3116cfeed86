// The caps of the PostgreSQL store counted on several rows (the usage
// shards, server/store/postgres-schema.ts): exact across replicas at the cap's
// edge, for the count and for the bytes, with each replica's own caps, after
// removes and updates racing creates, and on a database of the schema's
// version 1 (one usage row), which is migrated with its counts. And creates
// sent together while the pool is busy (server/store/postgres-batch.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openPostgresStore } from '../../server/store/postgres-store.js';
import { plantBytes, type PlantStore } from '../../server/store/store.js';
import { POSTGRES_MISSING, sql } from '../support/postgres.js';
import { text, useStoreKinds } from './store-kinds.js';
import { app, assertError, post } from './support.js';

const { databases, postgres } = useStoreKinds();

/** Two replicas: two stores (each its own pool of connections) on one database, each served by its own app. */
async function replicas(
  maxPlants: number,
  maxBytes: number,
): Promise<{ url: string; stores: PlantStore[]; apps: FastifyInstance[] }> {
  const url = await databases.fresh();
  const stores = [await postgres(maxPlants, maxBytes, url), await postgres(maxPlants, maxBytes, url)];
  return { url, stores, apps: stores.map((store) => app({ store })) };
}

/** Sends one create per id, all at once, alternating between the apps; the ids answered 200, after checking every other answer is the store-full error. */
async function createAll(apps: FastifyInstance[], ids: number[]): Promise<number[]> {
  const answers = await Promise.all(ids.map((id, i) => post(apps[i % apps.length]!, { id, name: 'Fern' })));
  const created: number[] = [];
  for (const [i, answer] of answers.entries()) {
    if (answer.statusCode === 200) created.push(ids[i]!);
    else assertError(answer, 507, 50701);
  }
  return created;
}

/** The database's own count of the plants, and what its usage shards add up to. */
async function counted(url: string): Promise<{ rows: number; bytes: number; shardPlants: number; shardBytes: number }> {
  const [row] = await sql<{ rows: number; bytes: number; shard_plants: number; shard_bytes: number }>(
    url,
    `SELECT (SELECT count(*)::int FROM plantstore_plants) AS rows, (SELECT coalesce(sum(bytes), 0)::int FROM plantstore_plants) AS bytes,
            (SELECT sum(plants)::int FROM plantstore_usage_shards) AS shard_plants, (SELECT sum(bytes)::int FROM plantstore_usage_shards) AS shard_bytes`,
  );
  return { rows: row!.rows, bytes: row!.bytes, shardPlants: row!.shard_plants, shardBytes: row!.shard_bytes };
}

async function storedIds(url: string): Promise<number[]> {
  return (await sql<{ id: string }>(url, 'SELECT id FROM plantstore_plants'))
    .map((row) => Number(row.id))
    .sort((a, b) => a - b);
}

const range = (from: number, count: number): number[] => Array.from({ length: count }, (_, i) => from + i);
const FERN_BYTES = plantBytes('1000', text({ name: 'Fern' }));

describe('the usage shards: caps exact across two replicas', { skip: POSTGRES_MISSING, timeout: 300_000 }, () => {
  test('the count cap: 400 concurrent creates at its edge, half through each replica, fill it exactly; every 200 is stored, every refusal is 507', async () => {
    const { url, apps, stores } = await replicas(250, 1e9);
    assert.deepEqual(await createAll(apps, range(10, 50)).then((ids) => ids.length), 50, 'below the cap, all fit');
    const created = await createAll(apps, range(1000, 400));
    assert.equal(created.length, 200, 'exactly the room left');
    const bytes = 50 * plantBytes('10', text({ name: 'Fern' })) + 200 * FERN_BYTES;
    assert.deepEqual(await counted(url), { rows: 250, bytes, shardPlants: 250, shardBytes: bytes });
    assert.deepEqual(
      await storedIds(url),
      [...range(10, 50), ...created.sort((a, b) => a - b)],
      'the plants stored are those answered 200',
    );

    // Removed plants give their room back to whichever replica creates next.
    for (const [i, id] of created.slice(0, 10).entries())
      assert.notEqual(await stores[i % 2]!.remove(String(id)), undefined);
    const again = await createAll(apps, range(5000, 400));
    assert.equal(again.length, 10, 'exactly the room the removes gave back');
    assert.equal((await counted(url)).rows, 250);
    assert.deepEqual(await stores[0]!.usage(), await stores[1]!.usage());
    assert.equal((await stores[1]!.usage()).plants, 250);
  });

  test('the bytes cap: 400 concurrent creates of equal plants fill a budget of 120 exactly', async () => {
    const { url, apps } = await replicas(1_000_000, 120 * FERN_BYTES);
    const created = await createAll(apps, range(1000, 400));
    assert.equal(created.length, 120);
    assert.deepEqual(await counted(url), {
      rows: 120,
      bytes: 120 * FERN_BYTES,
      shardPlants: 120,
      shardBytes: 120 * FERN_BYTES,
    });
    assert.deepEqual(
      await storedIds(url),
      created.sort((a, b) => a - b),
    );
  });

  test("each replica's own caps: one with a smaller cap refuses once the whole database holds it, whatever the other cut", async () => {
    const url = await databases.fresh();
    const [small, large] = [await postgres(5, 1e9, url), await postgres(1000, 1e9, url)];
    for (const id of range(1, 3)) assert.equal(await large.create(String(id), text({ name: 'p' })), 'created');
    assert.equal(await small.create('4', text({ name: 'p' })), 'created');
    assert.equal(await small.create('5', text({ name: 'p' })), 'created');
    assert.equal(await small.create('6', text({ name: 'p' })), 'full', 'five in the database, created through either');
    assert.equal(await large.create('6', text({ name: 'p' })), 'created', 'the larger cap still has room');
    assert.equal(await small.create('7', text({ name: 'p' })), 'full');
  });

  test('removes, updates and creates racing on two replicas near the caps: no deadlock, and the shards add up to the table', async () => {
    const { url, stores } = await replicas(150, 150 * (FERN_BYTES + 20));
    for (const id of range(1000, 100))
      assert.equal(await stores[id % 2]!.create(String(id), text({ name: 'Fern' })), 'created');
    const work = range(0, 300).map(async (i) => {
      const store = stores[i % 2]!;
      if (i % 3 === 0) return store.remove(String(1000 + (i % 100)));
      if (i % 3 === 1) return store.update(String(1000 + ((i * 7) % 100)), () => text({ name: `Fern, grown ${i}` }));
      return store.create(String(2000 + i), text({ name: 'Fern' }));
    });
    await Promise.all(work);
    const after = await counted(url);
    assert.equal(after.shardPlants, after.rows);
    assert.equal(after.shardBytes, after.bytes);
    assert.ok(after.rows <= 150 && after.bytes <= 150 * (FERN_BYTES + 20), `within the caps: ${JSON.stringify(after)}`);
  });

  test("a database of the schema's version 1 (one usage row) is migrated: version 3, the row's counts kept, the caps exact from them", async () => {
    const url = await databases.fresh();
    const old = [1, 2, 33].map((id) => ({ id, json: text({ name: `old ${id}` }) }));
    await sql(
      url,
      `CREATE TABLE plantstore_schema (singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton), version integer NOT NULL);
       INSERT INTO plantstore_schema (version) VALUES (1);
       CREATE TABLE plantstore_plants (id bigint PRIMARY KEY, seq bigint GENERATED ALWAYS AS IDENTITY, plant text NOT NULL, bytes bigint NOT NULL);
       CREATE TABLE plantstore_usage (singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton), plants bigint NOT NULL, bytes bigint NOT NULL);
       INSERT INTO plantstore_plants (id, plant, bytes) VALUES ${old.map(({ id, json }) => `(${id}, '${json}', ${plantBytes(String(id), json)})`).join(', ')};
       INSERT INTO plantstore_usage (plants, bytes) SELECT count(*), sum(bytes) FROM plantstore_plants;`,
    );
    const [left, right] = await Promise.all([postgres(5, 1e9, url), postgres(5, 1e9, url)]);
    assert.deepEqual(await sql(url, 'SELECT version FROM plantstore_schema'), [{ version: 3 }]);
    assert.deepEqual(await sql(url, `SELECT to_regclass('plantstore_usage') IS NULL AS gone`), [{ gone: true }]);
    const bytes = old.reduce((sum, { id, json }) => sum + plantBytes(String(id), json), 0);
    assert.deepEqual(await left.usage(), { plants: 3, bytes });
    assert.equal(await right.create('10', text({ name: 'new' })), 'created');
    assert.equal(await left.create('11', text({ name: 'new' })), 'created');
    assert.equal(await right.create('12', text({ name: 'new' })), 'full', 'three kept and two new: the cap of 5');
    assert.equal(await left.remove('33'), old[2]!.json, 'a migrated plant removed from its own shard');
    assert.equal(await right.create('12', text({ name: 'new' })), 'created');
    assert.equal(await left.create('13', text({ name: 'new' })), 'full');
    assert.deepEqual(await counted(url).then(({ rows, shardPlants }) => [rows, shardPlants]), [5, 5]);
  });

  test('creates sent together while the pool is busy: each its own outcome, counted in the order of their shards; a second create of an id waits for the first', async () => {
    const url = await databases.fresh();
    // One connection: the first create goes alone, the 28 distinct ids called while it runs go together in one statement, the second 5 and the second 25 after them.
    const store = await openPostgresStore({
      url,
      maxPlants: 20,
      maxBytes: 1e9,
      poolSize: 1,
      connectTimeoutMs: 60_000,
      statementTimeoutMs: 60_000,
    });
    try {
      const ids = [1, ...range(2, 14), 5, ...range(16, 14), 25];
      const names = ids.map((id, i) => `p${id}-${i}`);
      // The shard each id is counted on (plantstore_shard, a hash of its text).
      const shards = new Map(
        (
          await sql<{ id: string; shard: number }>(
            url,
            `SELECT id::text, plantstore_shard(id::text) AS shard FROM generate_series(1, 30) AS id`,
          )
        ).map(({ id, shard }) => [Number(id), shard]),
      );
      // The cap of 20 holds id 1 and the 19 of the batch (its distinct ids, 2 to 30) counted first: in the order of their shards, then of their place.
      const batch = range(2, 28).sort((a, b) => shards.get(a)! - shards.get(b)! || a - b);
      const kept = new Set([1, ...batch.slice(0, 19)]);
      const results = await Promise.all(ids.map(async (id, i) => store.create(String(id), text({ name: names[i]! }))));
      // A second 5 or 25 waits for the first's commit: taken where the cap kept the first; else (a refused create takes its row back) refused by the cap too.
      const again = new Set([15, 30]);
      assert.deepEqual(
        results,
        ids.map((id, i) => (kept.has(id) ? (again.has(i) ? 'exists' : 'created') : 'full')),
      );
      if (kept.has(5)) assert.equal(await store.read('5'), text({ name: names[4]! }), 'the first to arrive is stored');
      assert.deepEqual(
        await storedIds(url),
        [...kept].sort((a, b) => a - b),
      );
      assert.deepEqual(await counted(url).then(({ rows, shardPlants }) => [rows, shardPlants]), [20, 20]);
    } finally {
      await store.close();
    }
  });
});
