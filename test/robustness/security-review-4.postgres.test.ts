// The fourth security review's medium 2 (issue 41) on the PostgreSQL store: a
// filtered list page read every row of its batch whole, so 40 plants of a
// megabyte came over the connection and were parsed for one 40-byte GET. The
// bytes of plant text the store receives are counted, never timed. Failed on
// the build the review read, and passes now.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { buildApp } from '../../server/app.js';
import { LIST_MAX_EXAMINED_BYTES } from '../../server/limits.js';
import { openPostgresStore } from '../../server/store/postgres-store.js';
import { fixturePath } from '../support/fixtures.js';
import { POSTGRES_MISSING, useTestDatabases } from '../support/postgres.js';
import { filteredPages, MEGABYTE_TAG_PLANTS } from '../support/review-4.js';
import { TOKEN } from '../server/support.js';

const databases = useTestDatabases();

describe(
  'the fourth security review: a filtered list on PostgreSQL',
  { skip: POSTGRES_MISSING, timeout: 300_000 },
  () => {
    test('medium 2: a filtered page receives at most its byte budget of plant text (and one plant), ends with its cursor, and the pages after it find every match', async () => {
      const store = await openPostgresStore({
        url: await databases.fresh(),
        maxPlants: 1000,
        maxBytes: 1e9,
        connectTimeoutMs: 60_000,
        statementTimeoutMs: 60_000,
      });
      for (const [id, json] of MEGABYTE_TAG_PLANTS) assert.equal(await store.create(id, json), 'created');
      // Every plant text the store's queries bring back, counted as it arrives.
      // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with its own `this`
      const query = pg.Pool.prototype.query;
      let read = 0;
      const counted = async function (this: pg.Pool, ...args: unknown[]) {
        const result = (await (query as (...a: unknown[]) => Promise<pg.QueryResult>).apply(this, args)) as
          pg.QueryResult | undefined;
        for (const row of result?.rows ?? [])
          if (typeof (row as { plant?: unknown }).plant === 'string') read += (row as { plant: string }).plant.length;
        return result;
      };
      pg.Pool.prototype.query = counted as unknown as typeof query;
      const app = buildApp({ specPath: fixturePath('operations/paged.yaml'), tokens: [TOKEN], store });
      try {
        const pages = await filteredPages(app, () => {
          const bytes = read;
          read = 0;
          return bytes;
        });
        for (const page of pages)
          assert.ok(
            page.read <= LIST_MAX_EXAMINED_BYTES + 1_000_100,
            `a page received ${page.read} bytes of plants, past the budget of ${LIST_MAX_EXAMINED_BYTES} and one plant`,
          );
        assert.ok(pages.length > 1, 'the first page ended at the budget, with its cursor');
        assert.deepEqual(
          pages.flatMap((page) => page.names),
          ['the one match'],
          'and the pages after it found the one plant that matches',
        );
      } finally {
        pg.Pool.prototype.query = query;
        await app.close();
        await store.close();
      }
    });
  },
);
