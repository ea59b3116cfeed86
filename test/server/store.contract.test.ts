// The PlantStore contract, on the in-memory store and on a real PostgreSQL
// (a throwaway cluster, test/support/postgres.ts): both answer the same to
// the same calls. Then what only a database store has: several stores
// (replicas) on one database, its schema, and the database going away.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openPostgresStore, redactDatabaseUrl } from '../../server/store/postgres-store.js';
import { PLANT_OVERHEAD_BYTES } from '../../server/limits.js';
import { plantBytes, StoreStartError, StoreUnavailableError } from '../../server/store/store.js';
import { POSTGRES_MISSING, sql } from '../support/postgres.js';
import { entry, text, useStoreKinds } from './store-kinds.js';
import { app, assertError, post } from './support.js';

const { databases, postgres, kinds } = useStoreKinds();

for (const [kind, make, options] of kinds) {
  describe(`the PlantStore contract: ${kind}`, options, () => {
    test('create stores a plant once; the id is the key, exact at both int64 ends', { timeout: 120_000 }, async () => {
      const store = await make();
      assert.equal(await store.create('9223372036854775807', text({ name: 'max' })), 'created');
      assert.equal(await store.create('-9223372036854775808', text({ name: 'min', tag: 't' })), 'created');
      assert.equal(await store.create('9007199254740993', text({ name: 'odd' })), 'created');
      assert.equal(
        await store.create('9007199254740992', text({ name: 'even' })),
        'created',
        'a neighbour beyond 2^53 is another plant',
      );
      assert.equal(await store.create('9223372036854775807', text({ name: 'again' })), 'exists');
      assert.deepEqual(await store.get('9223372036854775807'), { name: 'max' });
      assert.deepEqual(await store.get('-9223372036854775808'), { name: 'min', tag: 't' });
      assert.equal(await store.get('1'), undefined);
      assert.deepEqual(await store.usage(), {
        plants: 4,
        bytes:
          plantBytes('9223372036854775807', text({ name: 'max' })) +
          plantBytes('-9223372036854775808', text({ name: 'min', tag: 't' })) +
          plantBytes('9007199254740993', text({ name: 'odd' })) +
          plantBytes('9007199254740992', text({ name: 'even' })),
      });
      assert.deepEqual(await store.health(), { store: kind, ok: true });
    });

    test(
      'fields come back exactly: NUL, lone surrogates, astral characters, an empty tag',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        const plant = { name: 'a\u0000b\ud800c\udfff🌵', tag: '' };
        assert.equal(await store.create('1', text(plant)), 'created');
        assert.deepEqual(await store.get('1'), plant);
        assert.deepEqual((await store.list(0, 10, 1e9)).plants, [entry('1', plant)]);
      },
    );

    test(
      'a plant is its JSON text, kept and listed exactly: nested objects and arrays, integers beyond 2^53, numbers with every digit, members in the order given',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        const texts = [
          '{"care":{"water":{"amountMl":250.125,"everyDays":3}},"name":"Fern","stock":9223372036854775807}',
          '{"cuttings":[{"taken":"2026-03-01","length":12.50},{"length":0.1000000000000000000001,"ids":[9007199254740993,-0,1e400]}],"name":"Ivy"}',
          '{"name":"Palm","id":5.0,"note-1":"\\u0000 \\ud800 🌵 ж"}',
        ];
        for (const [i, json] of texts.entries()) assert.equal(await store.create(String(i + 1), json), 'created');
        assert.deepEqual(
          (await store.list(0, 10, 1e9)).plants,
          texts.map((json, i) => ({ id: String(i + 1), json })),
        );
        assert.deepEqual(await store.usage(), {
          plants: 3,
          bytes: texts.reduce((sum, json, i) => sum + plantBytes(String(i + 1), json), 0),
        });
        assert.deepEqual(await store.get('1'), {
          care: { water: { amountMl: 250.125, everyDays: 3 } },
          name: 'Fern',
          stock: 9223372036854775807n,
        });
      },
    );

    test(
      'a plant counts its JSON text as the in-memory store keeps it: a byte a character in latin1, two a code unit in UTF-16, escapes as written',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        const cases: Array<[string, string, number]> = [
          ['1', text({ name: 'Fern' }), 1 * '{"name":"Fern"}'.length],
          ['22', text({ name: 'caf\u00e9' }), 1 * '{"name":"café"}'.length],
          ['333', text({ name: '\u0001\u0002' }), 1 * '{"name":"\\u0001\\u0002"}'.length],
          ['9223372036854775807', text({ name: 'ж', tag: '\u0001' }), 2 * '{"name":"ж","tag":"\\u0001"}'.length],
          ['-5', text({ name: '🌵' }), 2 * '{"name":"🌵"}'.length],
        ];
        let total = 0;
        for (const [id, json, kept] of cases) {
          assert.equal(plantBytes(id, json), PLANT_OVERHEAD_BYTES + id.length + kept, json);
          assert.equal(await store.create(id, json), 'created');
          total += PLANT_OVERHEAD_BYTES + id.length + kept;
        }
        assert.deepEqual(await store.usage(), { plants: cases.length, bytes: total });
      },
    );

    test(
      'list answers a page: the plants after a seq in the order stored, at most a limit and a byte budget of them (one at least), and the after of the next page',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        const plants = Array.from({ length: 10 }, (_, i) =>
          entry(String(100 - i), { name: `plant ${i}`.padEnd(10 + 10 * i, '.') }),
        );
        assert.equal(await store.createAll(plants.slice(0, 4)), 'created');
        for (const { id, json } of plants.slice(4)) assert.equal(await store.create(id, json), 'created');
        const bytes = plants.map(({ id, json }) => plantBytes(id, json));
        // Whole pages of 3, by the limit.
        const seen: string[] = [];
        const afters: number[] = [];
        for (let after = 0; ;) {
          const page = await store.list(after, 3, 1e9);
          seen.push(...page.plants.map(({ id }) => id));
          assert.ok(page.plants.length === 3 || page.next === null);
          if (page.next === null) break;
          afters.push(page.next);
          after = page.next;
        }
        assert.deepEqual(
          seen,
          plants.map(({ id }) => id),
          'every plant once, in the order stored',
        );
        assert.deepEqual(
          afters,
          [...afters].sort((x, y) => x - y),
          'next rises',
        );
        // By the byte budget: as many as fit, the first always.
        const fitTwo = bytes[0]! + bytes[1]!;
        const byBytes = await store.list(0, 10, fitTwo);
        assert.deepEqual(byBytes.plants, plants.slice(0, 2));
        assert.equal(byBytes.next, (await store.list(0, 2, 1e9)).next, 'the after of the second plant');
        assert.deepEqual((await store.list(0, 10, fitTwo - 1)).plants, plants.slice(0, 1));
        assert.deepEqual(
          (await store.list(0, 10, 1)).plants,
          plants.slice(0, 1),
          'one plant at least, whatever its size',
        );
        assert.deepEqual(await store.list(afters.at(-1)!, 10, 1e9), { plants: plants.slice(9), next: null });
        assert.deepEqual(await store.list(Number.MAX_SAFE_INTEGER, 10, 1e9), { plants: [], next: null });
        // Seqs go on after a clear: an after from before it finds what is stored since.
        assert.equal(await store.clear(), 10);
        assert.equal(await store.create('7', text({ name: 'again' })), 'created');
        assert.deepEqual(await store.list(afters[1]!, 10, 1e9), {
          plants: [entry('7', { name: 'again' })],
          next: null,
        });
      },
    );

    test(
      'the count cap and the byte budget: full changes nothing, and a taken id is a duplicate even when full',
      { timeout: 120_000 },
      async () => {
        const byCount = await make(2);
        assert.equal(await byCount.create('1', text({ name: 'a' })), 'created');
        assert.equal(await byCount.create('2', text({ name: 'b' })), 'created');
        assert.equal(await byCount.create('3', text({ name: 'c' })), 'full');
        assert.equal(await byCount.create('1', text({ name: 'a' })), 'exists');
        assert.equal((await byCount.usage()).plants, 2);
        assert.equal(await byCount.get('3'), undefined);

        const fern = plantBytes('1', text({ name: 'Fern' }));
        const byBytes = await make(100, 2 * fern);
        assert.equal(await byBytes.create('1', text({ name: 'Fern' })), 'created');
        assert.equal(await byBytes.create('2', text({ name: 'Ferns' })), 'full', 'one character too many');
        assert.equal(await byBytes.create('2', text({ name: 'Fern' })), 'created', 'one that fits exactly');
        assert.deepEqual(await byBytes.usage(), { plants: 2, bytes: 2 * fern });
        assert.equal(await byBytes.clear(), 2);
        assert.deepEqual(await byBytes.usage(), { plants: 0, bytes: 0 });
        assert.equal(
          await byBytes.create('2', text({ name: 'Fern' })),
          'created',
          'a cleared store has its whole budget again',
        );
      },
    );

    test(
      'createAll stores every entry or none, the count cap and the byte budget included, and names the ids stored already',
      { timeout: 120_000 },
      async () => {
        const a = entry('1', { name: 'a' });
        const b = entry('2', { name: 'b', tag: 'x' });
        const c = entry('3', { name: 'c' });
        const store = await make(3);
        assert.equal(await store.create('2', b.json), 'created');
        assert.deepEqual(await store.createAll([a, b, c]), { taken: ['2'] });
        assert.deepEqual((await store.list(0, 10, 1e9)).plants, [b], 'nothing of the refused list was stored');
        assert.equal(
          await store.createAll([a, c, entry('4', { name: 'd' })]),
          'full',
          'three more pass the count cap of 3',
        );
        assert.deepEqual(await store.usage(), { plants: 1, bytes: plantBytes('2', b.json) });
        assert.equal(await store.createAll([c, a]), 'created');
        assert.deepEqual((await store.list(0, 10, 1e9)).plants, [b, c, a], 'listed in the order stored');
        assert.equal(await store.clear(), 3);
        assert.deepEqual(await store.list(0, 10, 1e9), { plants: [], next: null });

        const byBytes = await make(100, 2 * plantBytes('1', a.json));
        assert.equal(
          await byBytes.createAll([a, entry('3', { name: 'c' }), entry('4', { name: 'd' })]),
          'full',
          'three plants pass a budget of two',
        );
        assert.deepEqual(await byBytes.usage(), { plants: 0, bytes: 0 });
        assert.equal(await byBytes.createAll([a, entry('3', { name: 'c' })]), 'created', 'two fit exactly');
      },
    );
  });
}

describe('the PostgreSQL store', { skip: POSTGRES_MISSING }, () => {
  test(
    'two stores on one database (two replicas) are one store: one winner among 400 concurrent creates of one id, caps shared',
    { timeout: 120_000 },
    async () => {
      const url = await databases.fresh();
      const [left, right] = [await postgres(3, 1e9, url), await postgres(3, 1e9, url)];
      const results = await Promise.all(
        Array.from({ length: 400 }, async (_, i) =>
          (i % 2 === 0 ? left : right).create('4242', text({ name: `p${i}` })),
        ),
      );
      assert.equal(results.filter((r) => r === 'created').length, 1, 'exactly one create wins');
      assert.equal(results.filter((r) => r === 'exists').length, 399);
      assert.equal(await right.create('7', text({ name: 'b' })), 'created');
      assert.equal(
        await left.create('7', text({ name: 'again' })),
        'exists',
        'an id stored through one replica is taken for the other',
      );
      assert.equal(await left.create('8', text({ name: 'c' })), 'created');
      assert.equal(
        await right.create('9', text({ name: 'd' })),
        'full',
        'the count cap counts the plants of every replica',
      );
      assert.deepEqual(await sql(url, 'SELECT sum(plants)::int AS plants FROM plantstore_usage_shards'), [
        { plants: 3 },
      ]);
    },
  );

  test(
    'the schema: created once however many servers start at once, versioned, and a newer version is refused',
    { timeout: 120_000 },
    async () => {
      const url = await databases.fresh();
      await Promise.all(Array.from({ length: 4 }, () => postgres(10, 1e9, url)));
      assert.deepEqual(await sql(url, 'SELECT version FROM plantstore_schema'), [{ version: 3 }]);
      await sql(url, 'UPDATE plantstore_schema SET version = 4');
      await assert.rejects(
        postgres(10, 1e9, url),
        (error: unknown) =>
          error instanceof StoreStartError && /schema version 4, newer than this server's 3/.test(error.message),
      );
    },
  );

  test(
    'a database that cannot be reached at start: StoreStartError naming the URL without its password',
    { timeout: 120_000 },
    async () => {
      const url = `postgres://plants:s3cret-pw@127.0.0.1:1/plants`;
      await assert.rejects(openPostgresStore({ url, maxPlants: 1, maxBytes: 1 }), (error: unknown) => {
        assert.ok(error instanceof StoreStartError);
        assert.match(
          error.message,
          /^cannot use the database at postgres:\/\/plants:\*\*\*@127\.0\.0\.1:1\/plants: .*ECONNREFUSED/,
        );
        assert.doesNotMatch(error.message, /s3cret/);
        return true;
      });
      assert.equal(
        redactDatabaseUrl('postgresql://u@h/db?password=pw&sslmode=require'),
        'postgresql://u@h/db?password=***&sslmode=require',
      );
    },
  );

  test(
    'the database away: creates are refused as unavailable, /__health says so, and both recover when it is back',
    { timeout: 120_000 },
    async () => {
      const url = await databases.fresh();
      const store = await postgres(100, 1e9, url);
      const server = app({ store });
      const create = (id: number) => post(server, { id, name: 'Fern' });
      assert.equal((await create(1)).statusCode, 200);
      await databases.cluster().stopServer();
      try {
        await assert.rejects(async () => store.create('2', text({ name: 'x' })), StoreUnavailableError);
        const refused = assertError(await create(2), 503, 50302);
        assert.equal(refused.message, 'The plant store is unavailable: try again later.');
        assert.equal((await create(2)).headers['retry-after'], '1');
        const health = await server.inject({ method: 'GET', url: '/__health' });
        assert.equal(health.statusCode, 503);
        assert.equal(health.headers['retry-after'], '1');
        assert.equal(health.json().status, 'unavailable');
        assert.equal(health.json().store, 'postgresql');
        assert.equal(
          health.json().reason,
          'the store does not answer (the server log says why)',
          'no host or port of the database on an open endpoint',
        );
      } finally {
        await databases.cluster().startServer();
      }
      assert.equal((await create(2)).statusCode, 200, 'answers again once the database is back');
      assertError(await create(1), 400, 40004);
      assert.deepEqual((await server.inject({ method: 'GET', url: '/__health' })).json(), {
        status: 'ok',
        store: 'postgresql',
      });
      await server.close();
    },
  );
});
