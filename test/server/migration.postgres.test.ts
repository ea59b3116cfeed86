// A database of the PostgreSQL store's schema version 2 (plants by a bigint
// id; test/fixtures/postgres/schema-v2.sql, as version 2 created it) is
// migrated by a server of version 3: its plants become the plant resource's
// top-level items, each read, listed and counted as before, its version 2
// functions gone (a version 2 server still running fails rather than write
// beside the places), and the caps exact from its usage.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { plantBytes } from '../../server/store/store.js';
import { fixturePath } from '../support/fixtures.js';
import { POSTGRES_MISSING, sql } from '../support/postgres.js';
import { text, useStoreKinds } from './store-kinds.js';

const { databases, postgres } = useStoreKinds();
const VERSION_2 = readFileSync(fixturePath('postgres/schema-v2.sql'), 'utf8');

describe('the schema of version 2, migrated', { skip: POSTGRES_MISSING, timeout: 300_000 }, () => {
  test("its plants are the plant resource's top-level items, read, listed and counted as before; its functions are gone; the caps stay exact", async () => {
    const url = await databases.fresh();
    await sql(url, VERSION_2);
    await sql(url, 'INSERT INTO plantstore_schema (version) VALUES (2)');
    const old = [
      { id: '9007199254740993', json: text({ name: 'big' }) },
      { id: '-5', json: text({ name: 'negative', tag: 't' }) },
      { id: '1', json: text({ name: 'one' }) },
    ];
    // Stored as version 2 stored them: its batch function, counting each on its shard within the caps.
    const [{ results }] = (await sql<{ results: string[] }>(
      url,
      'SELECT plantstore_create_batch($1::bigint[], $2::text[], $3::bigint[], 5, 1000000000, false) AS results',
      [old.map(({ id }) => id), old.map(({ json }) => json), old.map(({ id, json }) => plantBytes(id, json))],
    )) as [{ results: string[] }];
    assert.deepEqual(results, ['created', 'created', 'created']);

    const [left, right] = await Promise.all([postgres(5, 1e9, url), postgres(5, 1e9, url)]);
    assert.deepEqual(await sql(url, 'SELECT version FROM plantstore_schema'), [{ version: 3 }]);
    for (const { id, json } of old) assert.equal(await left.read(id), json, `plant ${id} reads back`);
    assert.deepEqual(
      (await right.list(0, 10, 1e9)).plants,
      [old[1], old[2], old[0]],
      'listed in the order version 2 stored them (its batch inserted in the order of the ids), each id its exact digits',
    );
    const bytes = old.reduce((sum, { id, json }) => sum + plantBytes(id, json), 0);
    assert.deepEqual(await left.usage(), { plants: 3, bytes }, 'the usage as version 2 counted it');
    assert.equal(await left.create('1', text({ name: 'again' })), 'exists', 'a stored id is still taken');
    assert.deepEqual(
      await sql(
        url,
        `SELECT to_regprocedure('plantstore_create_batch(bigint[], text[], bigint[], bigint, bigint, boolean)') IS NULL AS gone,
                to_regprocedure('plantstore_shard(bigint)') IS NULL AS shard_gone`,
      ),
      [{ gone: true, shard_gone: true }],
      "version 2's functions are gone",
    );
    assert.deepEqual(await sql(url, `SELECT DISTINCT resource, parent FROM plantstore_plants`), [
      { resource: '', parent: '' },
    ]);
    assert.equal(await right.create('2', text({ name: 'new' })), 'created');
    assert.equal(await left.create('3', text({ name: 'new' })), 'created');
    assert.equal(await right.create('4', text({ name: 'new' })), 'full', 'three kept and two new: the cap of 5');
    assert.notEqual(await left.remove('-5'), undefined, 'a migrated plant removed gives its room back');
    assert.equal(await right.create('4', text({ name: 'new' })), 'created');
    assert.equal((await left.usage()).plants, 5);
  });
});
