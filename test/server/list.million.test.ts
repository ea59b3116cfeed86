// A list over a million plants answers a page with bounded work, on both
// stores; no time is measured, the work is counted: the plant texts the
// in-memory store reads for a page, and the rows PostgreSQL reads for the
// page's query (EXPLAIN ANALYZE of the store's own SQL, with the same
// values). The first page, one deep in the list, a filtered one that finds
// nothing, and an offset near the end: each reads about the page, not the
// store.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/app.js';
import { LIST_MAX_EXAMINED, PLANT_OVERHEAD_BYTES } from '../../server/limits.js';
import { PlantTexts } from '../../server/store/plant-texts.js';
import { PAGE_SQL, SCAN_SQL } from '../../server/store/postgres-list.js';
import { openPostgresStore } from '../../server/store/postgres-store.js';
import { POSTGRES_MISSING, useTestDatabases } from '../support/postgres.js';
import { AUTH, TOKEN } from './support.js';

const MILLION = 1_000_000;
const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/operations/${name}`, import.meta.url));
const databases = useTestDatabases();
/** Plant i: named p<i>, a fern every thousandth, else a palm. */
const plantText = (i: number) => `{"name":"p${i}","tag":"${i % 1000 === 0 ? 'fern' : 'palm'}"}`;

type Page = { items: Array<{ name: string }>; next: string | null };
async function page(app: FastifyInstance, query: string): Promise<Page> {
  const response = await app.inject({ method: 'GET', url: `/plants?${query}`, headers: AUTH });
  assert.equal(response.statusCode, 200, response.body);
  return response.json<Page>();
}
const names = (items: Array<{ name: string }>) => items.map(({ name }) => name);
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => `p${from + i}`);

/** The pages every store answers the same (paged.yaml: limit, cursor, tag). */
async function checkPages(app: FastifyInstance): Promise<void> {
  const first = await page(app, 'limit=50');
  assert.deepEqual(names(first.items), range(1, 50));
  assert.equal(first.next, '50');
  const deep = await page(app, 'limit=50&cursor=900000');
  assert.deepEqual(names(deep.items), range(900_001, 50));
  const ferns = await page(app, 'limit=5&tag=fern');
  assert.deepEqual(names(ferns.items), ['p1000', 'p2000', 'p3000', 'p4000', 'p5000']);
  const none = await page(app, 'limit=5&tag=cactus');
  assert.deepEqual(
    none,
    { items: [], next: String(LIST_MAX_EXAMINED) },
    'a filtered page ends after the plants it may judge, with its cursor',
  );
  const last = await page(app, 'limit=50&cursor=999990');
  assert.deepEqual(names(last.items), range(999_991, 10));
  assert.equal(last.next, null, 'the last page');
}

describe('a list over a million plants: memory', { timeout: 600_000 }, () => {
  test('a page reads the texts of its plants and one more; a filtered page at most the plants it may judge; an offset reads none it skips', async () => {
    const app = buildApp({ specPath: fixture('paged.yaml'), tokens: [TOKEN], maxPlants: MILLION, maxBytes: 1e9 });
    const store = app.plantStore;
    for (let i = 1; i <= MILLION; i++) assert.equal(store.create(String(i), plantText(i)), 'created');
    // Every text the store reads, counted where it reads them.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with its own `this`
    const text = PlantTexts.prototype.text;
    let reads = 0;
    PlantTexts.prototype.text = function counted(this: PlantTexts, index: number) {
      reads++;
      return text.call(this, index);
    };
    after(() => {
      PlantTexts.prototype.text = text;
    });
    const readsOf = async (query: string) => {
      reads = 0;
      await page(app, query);
      return reads;
    };
    await checkPages(app);
    assert.ok((await readsOf('limit=50')) <= 51);
    assert.ok((await readsOf('limit=50&cursor=900000')) <= 51);
    assert.ok(
      (await readsOf('limit=5&tag=fern')) <= 6000,
      'the plants up to the fifth fern, and on to the sixth (a page follows)',
    );
    assert.ok((await readsOf('limit=5&tag=cactus')) <= LIST_MAX_EXAMINED);
    const crud = buildApp({ specPath: fixture('crud.yaml'), tokens: [TOKEN], store });
    reads = 0;
    const near = await crud.inject({ method: 'GET', url: '/plants?limit=10&offset=999990', headers: AUTH });
    assert.deepEqual(names(near.json()), range(999_991, 10));
    assert.ok(reads <= 11, `an offset reads no text it skips: ${reads}`);
  });
});

describe('a list over a million plants: postgresql', { skip: POSTGRES_MISSING, timeout: 600_000 }, () => {
  test("a page's query reads its rows and one more; a filter's batch reads its rows; an offset reads no row it skips", async () => {
    const url = await databases.fresh();
    const store = await openPostgresStore({
      url,
      maxPlants: MILLION,
      maxBytes: 1e9,
      connectTimeoutMs: 60_000,
      statementTimeoutMs: 60_000,
    });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO plantstore_plants (id, plant, bytes)
         SELECT g, p, ${PLANT_OVERHEAD_BYTES} + length(g::text) + length(p)
         FROM (SELECT g, '{"name":"p' || g || '","tag":"' || CASE WHEN g % 1000 = 0 THEN 'fern' ELSE 'palm' END || '"}' AS p FROM generate_series(1, ${MILLION}) AS g) AS rows ORDER BY g`,
      );
      // Counted on shard 0, as the migration of an older database counts them; the next create cuts the slices.
      await client.query(
        'UPDATE plantstore_usage_shards SET plants = CASE WHEN shard = 0 THEN (SELECT count(*) FROM plantstore_plants) ELSE 0 END, bytes = CASE WHEN shard = 0 THEN (SELECT sum(bytes) FROM plantstore_plants) ELSE 0 END, max_plants = NULL',
      );
      // What autovacuum would do soon after such a load: the planner's statistics.
      await client.query('ANALYZE plantstore_plants');
      assert.equal((await store.usage()).plants, MILLION);
      assert.equal(await store.read('777'), plantText(777));
      const app = buildApp({ specPath: fixture('paged.yaml'), tokens: [TOKEN], store });
      await checkPages(app);
      const crud = buildApp({ specPath: fixture('crud.yaml'), tokens: [TOKEN], store });
      assert.deepEqual(
        names((await crud.inject({ method: 'GET', url: '/plants?limit=10&offset=999990', headers: AUTH })).json()),
        range(999_991, 10),
      );

      /** The rows each kind of scan of plantstore_plants reads for `sql` with `values`, by EXPLAIN ANALYZE. */
      const rowsRead = async (sql: string, values: unknown[]) => {
        await client.query('DEALLOCATE ALL');
        await client.query(`PREPARE counted AS ${sql}`);
        const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE counted(${values.map((v) => (typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : JSON.stringify(v))).join(', ')})`,
        );
        const read = { rows: 0, indexOnly: 0 };
        const visit = (node: PlanNode) => {
          if (node['Relation Name'] === 'plantstore_plants') {
            const count = (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 0);
            if (node['Node Type'] === 'Index Only Scan') read.indexOnly += count;
            else read.rows += count;
          }
          for (const child of node.Plans ?? []) visit(child);
        };
        visit(rows[0]!['QUERY PLAN'][0]!.Plan);
        return read;
      };
      assert.deepEqual(
        await rowsRead(PAGE_SQL, [0, 50, 4 * 1024 * 1024, 0, '', '']),
        { rows: 51, indexOnly: 0 },
        'the first page',
      );
      assert.deepEqual(
        await rowsRead(PAGE_SQL, [900_000, 50, 4 * 1024 * 1024, 0, '', '']),
        { rows: 51, indexOnly: 0 },
        'a page deep in the list',
      );
      assert.equal((await rowsRead(SCAN_SQL, [0, 500, 4 * 1024 * 1024, true, '', ''])).rows, 500, "a filter's batch");
      const offset = await rowsRead(PAGE_SQL, [0, 10, 4 * 1024 * 1024, 999_990, '', '']);
      assert.ok(offset.rows <= 11, `no row an offset skips is read: ${JSON.stringify(offset)}`);
    } finally {
      await client.end();
      await store.close();
    }
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}
