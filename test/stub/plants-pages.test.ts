// GET /__admin/plants a page at a time (?after=SEQ&limit=N, as the journal),
// on the in-memory store and on PostgreSQL: every plant exactly once in the
// order stored, each page bounded in plants and in bytes, and bad paging
// parameters refused.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_PLANTS_PAGE, MAX_PLANTS_PAGE, PLANTS_PAGE_BYTES } from '../../server/limits.js';
import { openPostgresStore } from '../../server/store/postgres-store.js';
import { plantBytes, type PlantStore } from '../../server/store/store.js';
import { POSTGRES_MISSING, useTestDatabases } from '../support/postgres.js';
import { stubApp } from './helpers.js';

const databases = useTestDatabases();

interface Page {
  plants: Array<{ id: string; name: string; tag?: string }>;
  next: number | null;
}

const stores: Array<[string, () => Promise<PlantStore | undefined>, { skip: string | false }]> = [
  ['memory', async () => undefined, { skip: false }],
  [
    'postgresql',
    async () => openPostgresStore({ url: await databases.fresh(), maxPlants: 1_000_000, maxBytes: 2 ** 40 }),
    { skip: POSTGRES_MISSING },
  ],
];

async function page(app: FastifyInstance, query = ''): Promise<{ page: Page; bytes: number; text: string }> {
  const res = await app.inject({ method: 'GET', url: `/__admin/plants${query}` });
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
  assert.match(String(res.headers['content-type']), /^application\/json/);
  return { page: res.json<Page>(), bytes: res.rawPayload.length, text: res.body };
}

/** Every page from the first, following `next`. */
async function allPages(
  app: FastifyInstance,
  limit?: number,
): Promise<Array<{ page: Page; bytes: number; text: string }>> {
  const pages = [];
  for (let after = 0; ;) {
    const got = await page(app, `?after=${after}${limit === undefined ? '' : `&limit=${limit}`}`);
    pages.push(got);
    if (got.page.next === null) return pages;
    assert.ok(got.page.next > after, 'next moves forward');
    after = got.page.next;
  }
}

/** POST /__admin/plants with a list (its JSON text when a string: ids beyond 2^53 written as digits). */
async function storeList(app: FastifyInstance, plants: unknown[] | string): Promise<void> {
  const payload = typeof plants === 'string' ? plants : JSON.stringify(plants);
  const res = await app.inject({
    method: 'POST',
    url: '/__admin/plants',
    headers: { 'content-type': 'application/json' },
    payload,
  });
  assert.equal(res.statusCode, 200, res.body.slice(0, 300));
}

for (const [kind, makeStore, options] of stores) {
  describe(`GET /__admin/plants in pages: ${kind}`, { ...options, timeout: 180_000 }, () => {
    test('pages go through every plant exactly once, in the order stored; next is the after of the following page, null on the last', async () => {
      const store = await makeStore();
      const app = stubApp({ ...(store ? { store } : {}), bodyLimit: 4 * 1024 * 1024 });
      try {
        const ids = Array.from({ length: 25 }, (_, i) =>
          i % 3 === 0 ? `${9223372036854775000n + BigInt(i)}` : String(1000 - i),
        );
        await storeList(
          app,
          `[${ids
            .slice(0, 20)
            .map((id) => `{"id":${id},"name":"p${id}"}`)
            .join(',')}]`,
        );
        for (const id of ids.slice(20)) {
          const res = await app.inject({
            method: 'POST',
            url: '/plants',
            headers: { authorization: 'Bearer client-token', 'content-type': 'application/json' },
            payload: `{"id":${id},"name":"p${id}","tag":"t"}`,
          });
          assert.equal(res.statusCode, 200);
        }
        const whole = await page(app);
        assert.equal(whole.page.next, null, `${ids.length} plants fit the default page of ${DEFAULT_PLANTS_PAGE}`);
        assert.deepEqual(
          whole.page.plants.map((p) => p.id),
          ids,
        );

        const pages = await allPages(app, 7);
        assert.deepEqual(
          pages.map(({ page: p }) => p.plants.length),
          [7, 7, 7, 4],
        );
        assert.deepEqual(
          pages.flatMap(({ page: p }) => p.plants.map((plant) => plant.id)),
          ids,
          'every plant once, in the order stored',
        );
        assert.deepEqual(
          pages.flatMap(({ page: p }) => p.plants),
          whole.page.plants,
        );

        // Polling with the last page's after finds the plants stored since.
        const last = pages.at(-2)!.page.next!;
        await storeList(app, [{ id: 1, name: 'newest' }]);
        assert.deepEqual(
          (await page(app, `?after=${last}&limit=7`)).page.plants.map((p) => p.id),
          [...ids.slice(21), '1'],
        );

        // A cleared store starts again; seqs go on, so an old after finds the new plants after it or none.
        await app.inject({ method: 'DELETE', url: '/__admin/plants' });
        await storeList(app, [{ id: 2, name: 'after the reset' }]);
        assert.deepEqual((await page(app)).page, { plants: [{ id: '2', name: 'after the reset' }], next: null });
        assert.deepEqual(
          (await page(app, `?after=${last}`)).page.plants.map((p) => p.id),
          ['2'],
        );
      } finally {
        await app.close();
        await store?.close();
      }
    });

    test(`each page holds at most ${PLANTS_PAGE_BYTES} bytes of plants as the byte budget counts them (one plant at least), so its answer is at most twice that`, async () => {
      const store = await makeStore();
      const app = stubApp({ ...(store ? { store } : {}), bodyLimit: 4 * 1024 * 1024 });
      try {
        // 12 plants of about 900 KB each as counted: ASCII, non-Latin (UTF-16) and control characters (escaped).
        const names = ['a'.repeat(900_000), '\u0436'.repeat(450_000), '\u0001'.repeat(150_000)];
        for (let i = 0; i < 12; i++) await storeList(app, [{ id: i + 1, name: names[i % 3]! }]);
        const pages = await allPages(app);
        assert.deepEqual(
          pages.flatMap(({ page: p }) => p.plants.map((plant) => plant.id)),
          Array.from({ length: 12 }, (_, i) => String(i + 1)),
        );
        assert.ok(pages.length >= 3, `${pages.length} pages for about 10.8 MB`);
        for (const [n, { page: p, bytes, text }] of pages.entries()) {
          const counted = p.plants.reduce(
            (sum, plant) => sum + plantBytes(plant.id, JSON.stringify({ name: plant.name })),
            0,
          );
          assert.ok(
            p.plants.length === 1 || counted <= PLANTS_PAGE_BYTES,
            `page ${n}: ${p.plants.length} plants counting ${counted} bytes`,
          );
          assert.ok(bytes <= 2 * Math.max(counted, PLANTS_PAGE_BYTES), `page ${n}: an answer of ${bytes} bytes`);
          assert.ok(!text.includes('"plants":[]') || p.next === null, 'no empty page before the last');
          for (const plant of p.plants)
            assert.equal(plant.name, names[(Number(plant.id) - 1) % 3], `plant ${plant.id} whole`);
        }
        // A single plant larger than a page is a page of its own.
        const one = await page(app, '?after=0&limit=1');
        assert.equal(one.page.plants.length, 1);
        assert.equal(one.page.next !== null, true);
      } finally {
        await app.close();
        await store?.close();
      }
    });

    test('paging parameters that are not whole numbers in range are 400 with the Error record, which says the form', async () => {
      const store = await makeStore();
      const app = stubApp(store ? { store } : {});
      try {
        for (const query of [
          '?after=-1',
          '?after=x',
          '?after=1.5',
          '?after=99999999999999999',
          '?limit=0',
          `?limit=${MAX_PLANTS_PAGE + 1}`,
          '?limit=',
          '?limit=1&limit=2',
          '?after=%31e2',
        ]) {
          const res = await app.inject({ method: 'GET', url: `/__admin/plants${query}` });
          assert.equal(res.statusCode, 400, query);
          assert.deepEqual(Object.keys(res.json()).sort(), ['error', 'message']);
          assert.equal(res.json().error, 40023, query);
          assert.equal(
            res.json().message,
            `Page the stored plants with ?after=SEQ&limit=N: SEQ a whole number (0 for the oldest), N from 1 to ${MAX_PLANTS_PAGE}.`,
          );
        }
        assert.deepEqual((await page(app, `?after=0&limit=${MAX_PLANTS_PAGE}`)).page, { plants: [], next: null });
      } finally {
        await app.close();
        await store?.close();
      }
    });
  });
}
