// The items of one place (store.ts, Place) in the PostgreSQL store: each
// statement names the place, so that the primary key (resource, parent, id)
// decides the duplicate rule and the (resource, parent, seq) index the
// pages. postgres-store.ts opens the pool and gives the tools every place
// shares: the guard that turns a database's failure into a 503, the
// transaction that runs the slow way after the fast one, the count on the
// usage shards, and the batcher of creates.
import type pg from 'pg';
import type { PendingCreate } from './postgres-batch.js';
import { listPage } from './postgres-list.js';
import {
  plantBytes,
  type CreateAllResult,
  type CreateResult,
  type ItemStore,
  type Place,
  type UpdateResult,
} from './store.js';

/** What every place of one PostgreSQL store shares. */
export interface PostgresTools {
  pool: pg.Pool;
  caps: { maxPlants: number; maxBytes: number };
  /** Runs `work` with the database's failures turned into StoreUnavailableError (503, Retry-After). */
  guarded: <T>(work: () => Promise<T>) => Promise<T>;
  /** `work` inside one transaction, committed when it answers `keep`; run again the slow way where the fast way found its shard's slice spent. */
  transaction: <T>(
    work: (client: pg.PoolClient, fast: boolean) => Promise<{ keep: boolean; outcome: T }>,
  ) => Promise<T>;
  /** Counts a change on `id`'s shard within the caps (plantstore_count); whether it fit. */
  count: (client: pg.PoolClient, fast: boolean, id: string, plants: number, bytes: number) => Promise<boolean>;
  /** A create, sent with the others that arrive while the pool is busy (postgres-batch.ts). */
  batched: (entry: PendingCreate) => Promise<CreateResult>;
}

/** The items of one place. */
export function placedItems(tools: PostgresTools, { resource, parent }: Place): ItemStore {
  const { pool, guarded, transaction, count, batched } = tools;
  const { maxPlants, maxBytes } = tools.caps;
  /** A remove judged by `check` first: the row locked, judged, then removed, in one transaction. */
  const removeChecked = async (id: string, check: (json: string) => void): Promise<string | undefined> => {
    // What `check` throws is the caller's refusal, not the database's failure: kept apart, thrown as it is.
    let refusal: { error: unknown } | undefined;
    const outcome = await transaction<string | undefined>(async (client) => {
      const { rows } = await client.query<{ plant: string; bytes: string }>(
        'SELECT plant, bytes FROM plantstore_plants WHERE resource = $1 AND parent = $2 AND id = $3 FOR UPDATE',
        [resource, parent, id],
      );
      if (rows[0] === undefined) return { keep: false, outcome: undefined };
      try {
        check(rows[0].plant);
      } catch (error) {
        refusal = { error };
        return { keep: false, outcome: undefined };
      }
      await client.query('DELETE FROM plantstore_plants WHERE resource = $1 AND parent = $2 AND id = $3', [
        resource,
        parent,
        id,
      ]);
      await client.query('SELECT plantstore_count(plantstore_shard($1), -1, $2, $3, $4, false)', [
        id,
        -Number(rows[0].bytes),
        maxPlants,
        maxBytes,
      ]);
      return { keep: true, outcome: rows[0].plant };
    });
    if (refusal !== undefined) throw refusal.error;
    return outcome;
  };
  return {
    create: (id, json) => guarded(() => batched({ resource, parent, id, json, bytes: plantBytes(id, json, parent) })),

    createAll: (entries) =>
      transaction<CreateAllResult>(async (client, fast) => {
        const ids = entries.map(({ id }) => id);
        const sizes = entries.map(({ id, json }) => plantBytes(id, json, parent));
        const inserted = await client.query<{ id: string }>(
          `INSERT INTO plantstore_plants (resource, parent, id, plant, bytes)
         SELECT $1, $2, id, plant, bytes FROM unnest($3::text[], $4::text[], $5::bigint[]) WITH ORDINALITY AS list (id, plant, bytes, position)
         ORDER BY position
         ON CONFLICT (resource, parent, id) DO NOTHING
         RETURNING id`,
          [resource, parent, ids, entries.map(({ json }) => json), sizes],
        );
        if (inserted.rows.length !== entries.length) {
          // The ids this insert did not store were stored before it.
          const stored = new Set(inserted.rows.map((row) => row.id));
          return { keep: false, outcome: { taken: ids.filter((id) => !stored.has(id)) } };
        }
        const more = sizes.reduce((sum, size) => sum + size, 0);
        // All counted on the first id's shard: only the shards' sum means anything.
        const fits = await count(client, fast, ids[0] ?? '0', entries.length, more);
        return fits ? { keep: true, outcome: 'created' } : { keep: false, outcome: 'full' };
      }),

    read: (id) =>
      guarded(async () => {
        const { rows } = await pool.query<{ plant: string }>({
          name: 'plantstore_read',
          text: 'SELECT plant FROM plantstore_plants WHERE resource = $1 AND parent = $2 AND id = $3',
          values: [resource, parent, id],
        });
        return rows[0]?.plant;
      }),

    async update(id, change) {
      // What `change` throws is the caller's refusal, not the database's failure: kept apart, thrown as it is.
      let refusal: { error: unknown } | undefined;
      const outcome = await transaction<UpdateResult>(async (client, fast) => {
        // The row's lock first, then the usage shards', as every write takes them: no deadlock.
        const { rows } = await client.query<{ plant: string; bytes: string }>(
          'SELECT plant, bytes FROM plantstore_plants WHERE resource = $1 AND parent = $2 AND id = $3 FOR UPDATE',
          [resource, parent, id],
        );
        if (rows[0] === undefined) return { keep: false, outcome: 'missing' };
        let json: string;
        try {
          json = change(rows[0].plant);
        } catch (error) {
          refusal = { error };
          return { keep: false, outcome: 'missing' };
        }
        const size = plantBytes(id, json, parent);
        const grows = size - Number(rows[0].bytes);
        if (!(await count(client, fast, id, 0, grows))) return { keep: false, outcome: 'full' };
        await client.query(
          'UPDATE plantstore_plants SET plant = $4, bytes = $5 WHERE resource = $1 AND parent = $2 AND id = $3',
          [resource, parent, id, json, size],
        );
        return { keep: true, outcome: { updated: json } };
      });
      if (refusal !== undefined) throw refusal.error;
      return outcome;
    },

    async remove(id, check) {
      if (check !== undefined) return removeChecked(id, check);
      return guarded(async () => {
        // One statement: the row goes and its shard gives its bytes back, or neither.
        const { rows } = await pool.query<{ plant: string }>({
          name: 'plantstore_remove',
          text: `WITH gone AS (DELETE FROM plantstore_plants WHERE resource = $1 AND parent = $2 AND id = $3 RETURNING plant, bytes)
               SELECT plant, plantstore_count(plantstore_shard($3), -1, -bytes, $4, $5, false) FROM gone`,
          values: [resource, parent, id, maxPlants, maxBytes],
        });
        return rows[0]?.plant;
      });
    },

    list: (after, limit, pageBytes, options = {}) =>
      guarded(() => listPage(pool, { resource, parent, after, limit, maxBytes: pageBytes, ...options })),

    count: () =>
      guarded(async () => {
        // The place's entries of the (resource, parent, seq) index: the one read that grows with the place.
        const { rows } = await pool.query<{ count: string }>({
          name: 'plantstore_count_place',
          text: 'SELECT count(*) AS count FROM plantstore_plants WHERE resource = $1 AND parent = $2',
          values: [resource, parent],
        });
        return Number(rows[0]!.count);
      }),
  };
}
