// A page of one place's items in the PostgreSQL store (ItemStore.list), in
// the order stored. Its work is bounded by the page whatever the table
// holds: the rows of the place after `after` in the (resource, parent, seq)
// index, as many as the page takes and one more (is there a next page?); an
// offset finds where the page starts in the index alone, reading no item; a
// filter reads rows in batches, at most `maxExamined` of them and one more,
// and judges each in the server, the database sending a row's text only
// while the page's byte budget for judging (`maxExaminedBytes`) holds it.
import type pg from 'pg';
import { plantBytes, type ListOptions, type PlantEntry, type PlantPage } from './store.js';

/** Rows a filtered page reads at a time. */
const MATCH_BATCH = 500;

export interface PageQuery extends ListOptions {
  resource: string;
  parent: string;
  after: number;
  limit: number;
  maxBytes: number;
}

export function listPage(pool: pg.Pool, query: PageQuery): Promise<PlantPage> {
  return query.match === undefined ? plainPage(pool, query) : matchedPage(pool, query, query.match);
}

/** A page: $1 after, $2 limit, $3 bytes, $4 skip, $5 resource, $6 parent. Exported for the test that counts the rows it reads. */
export const PAGE_SQL = `SELECT seq::text AS seq, id, CASE WHEN kept THEN plant END AS plant FROM (
    SELECT seq, id, plant, row_number() OVER w <= $2 AND (row_number() OVER w = 1 OR sum(bytes) OVER w <= $3) AS kept
    FROM (SELECT seq, id, plant, bytes FROM plantstore_plants
          WHERE resource = $5 AND parent = $6 AND seq > $1
            AND ($4 = 0 OR seq >= (SELECT seq FROM plantstore_plants WHERE resource = $5 AND parent = $6 AND seq > $1 ORDER BY seq OFFSET $4 LIMIT 1))
          ORDER BY seq LIMIT $2 + 1) AS following
    WINDOW w AS (ORDER BY seq)
  ) AS counted ORDER BY counted.seq`;

/**
 * A batch of a filtered page: $1 after, $2 rows, $3 the bytes the page may
 * still read, $4 whether the first row is read whatever its size (the page
 * has read none yet), $5 resource, $6 parent. A row past the bytes comes
 * without its text (null).
 */
export const SCAN_SQL = `SELECT seq::text AS seq, id, bytes::text AS bytes, CASE WHEN kept THEN plant END AS plant FROM (
    SELECT seq, id, plant, bytes, ($4::boolean AND row_number() OVER w = 1) OR sum(bytes) OVER w <= $3 AS kept
    FROM (SELECT seq, id, plant, bytes FROM plantstore_plants WHERE resource = $5 AND parent = $6 AND seq > $1 ORDER BY seq LIMIT $2) AS following
    WINDOW w AS (ORDER BY seq)
  ) AS counted ORDER BY counted.seq`;

async function plainPage(
  pool: pg.Pool,
  { resource, parent, after, limit, maxBytes, skip = 0 }: PageQuery,
): Promise<PlantPage> {
  // The plants after `after` (past the `skip` first, found in the seq index) up to the limit and
  // one more (is there a next page?), with their running byte count; a plant's text is sent only
  // when it is in the page.
  const { rows } = await pool.query<{ seq: string; id: string; plant: string | null }>({
    name: 'plantstore_list',
    text: PAGE_SQL,
    values: [after, limit, maxBytes, skip, resource, parent],
  });
  const plants: PlantEntry[] = [];
  let last = after;
  for (const row of rows) {
    if (row.plant === null) return { plants, next: last };
    plants.push({ id: row.id, json: row.plant });
    last = Number(row.seq);
  }
  return { plants, next: null };
}

async function matchedPage(
  pool: pg.Pool,
  {
    resource,
    parent,
    after,
    limit,
    maxBytes,
    skip = 0,
    maxExamined = Number.POSITIVE_INFINITY,
    maxExaminedBytes = Number.MAX_SAFE_INTEGER,
  }: PageQuery,
  match: (json: string) => boolean,
): Promise<PlantPage> {
  const plants: PlantEntry[] = [];
  let counted = 0;
  let skipped = 0;
  let examined = 0;
  let examinedBytes = 0;
  /** The seq of the last row the page took, skipped or judged: the next batch, and the next page, start after it. */
  let last = after;
  for (;;) {
    const size = Math.min(MATCH_BATCH, maxExamined - examined + 1);
    const { rows } = await pool.query<{ seq: string; id: string; bytes: string; plant: string | null }>({
      name: 'plantstore_scan',
      text: SCAN_SQL,
      values: [
        last,
        size,
        Math.max(0, Math.min(maxExaminedBytes, Number.MAX_SAFE_INTEGER) - examinedBytes),
        examined === 0,
        resource,
        parent,
      ],
    });
    for (const row of rows) {
      // Past the bytes the page may judge, the database sent no text: the page ends before that row.
      if (examined >= maxExamined || row.plant === null) return { plants, next: last };
      examined++;
      examinedBytes += Number(row.bytes);
      const seq = Number(row.seq);
      if (!match(row.plant)) {
        last = seq;
        continue;
      }
      if (skipped < skip) {
        skipped++;
        last = seq;
        continue;
      }
      if (plants.length >= limit) return { plants, next: last };
      const bytes = plantBytes(row.id, row.plant, parent);
      if (plants.length > 0 && counted + bytes > maxBytes) return { plants, next: last };
      counted += bytes;
      plants.push({ id: row.id, json: row.plant });
      last = seq;
    }
    if (rows.length < size) return { plants, next: null };
  }
}
