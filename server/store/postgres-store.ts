// The PostgreSQL store (PLANTSTORE_DATABASE_URL): the items of every
// resource outlive the process, and replicas sharing one database behave as
// one store. The duplicate rule is the table's primary key (place and id)
// and the caps are counted in the same transaction as the insert, on one of
// several rows (postgres-schema.ts, docs/replicas.md), so both hold however
// many replicas write at once.
import pg from 'pg';
import { DATABASE_CONNECT_TIMEOUT, DATABASE_STATEMENT_TIMEOUT, DEFAULT_POOL_SIZE } from '../limits.js';
import { createBatcher, runBatch } from './postgres-batch.js';
import { placedItems, type PostgresTools } from './postgres-items.js';
import { CREATE_FUNCTIONS, CREATE_TABLES, MIGRATE, SCHEMA_LOCK_KEY, SCHEMA_VERSION } from './postgres-schema.js';
import {
  plantFromJson,
  PLANTS,
  StoreStartError,
  StoreUnavailableError,
  type ItemStore,
  type Place,
  type PlantStore,
} from './store.js';

export interface PostgresStoreOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  maxPlants: number;
  maxBytes: number;
  /** Most connections to the database (the pool's bound). */
  poolSize?: number;
  /** Milliseconds to wait for a connection before a request is answered 503. */
  connectTimeoutMs?: number;
  /** Milliseconds a statement may take before a request is answered 503. */
  statementTimeoutMs?: number;
  /** Told of errors on idle connections (the database restarting), which would otherwise go unseen. */
  onIdleError?: (error: Error) => void;
}

/** `url` with its password replaced by `***`, for messages and logs; the input itself when it is not a URL. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) if (/pass/i.test(key)) parsed.searchParams.set(key, '***');
    return parsed.toString();
  } catch {
    return '(a value that is not a URL)';
  }
}

/**
 * Connects, creates the schema when it is missing, and answers the store.
 * Throws StoreStartError when the database cannot be reached or holds a
 * schema this build does not know.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PlantStore> {
  const shown = redactDatabaseUrl(options.url);
  const statementTimeoutMs = options.statementTimeoutMs ?? DATABASE_STATEMENT_TIMEOUT;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DATABASE_CONNECT_TIMEOUT,
    // Both sides: the server cancels a statement past it, the client stops waiting for a server that went silent.
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + 1000,
    idleTimeoutMillis: 30_000,
    application_name: 'plantstore',
  });
  // An idle connection that the database closes (a restart, a failover)
  // emits 'error' on the pool; unheard, it would end the process.
  pool.on('error', (error) => options.onIdleError?.(error));
  try {
    await createSchema(pool, options);
  } catch (error) {
    await pool.end().catch(() => {});
    if (error instanceof StoreStartError) throw error;
    throw new StoreStartError(`cannot use the database at ${shown}: ${reasonOf(error)}`);
  }
  return postgresStore(pool, options);
}

async function createSchema(pool: pg.Pool, { maxPlants, maxBytes }: PostgresStoreOptions): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    const present = await client.query<{ found: boolean }>(
      `SELECT to_regclass('plantstore_schema') IS NOT NULL AS found`,
    );
    if (present.rows[0]!.found) {
      const { rows } = await client.query<{ version: number }>('SELECT version FROM plantstore_schema');
      const found = rows[0]?.version;
      if (found !== undefined && found > SCHEMA_VERSION) {
        throw new StoreStartError(
          `the database holds the plant store's schema version ${found}, newer than this server's ${SCHEMA_VERSION}: run a newer server`,
        );
      }
    }
    // The tables, then an older schema brought to their shape, then what reads the new shape.
    await client.query(CREATE_TABLES);
    await client.query(MIGRATE);
    await client.query(CREATE_FUNCTIONS);
    // The slices cut from this server's caps now, not by its first create (which would roll back and run again).
    await client.query(
      'SELECT plantstore_cut(0, 0, 0, $1, $2) FROM plantstore_usage_shards WHERE shard = 0 AND (max_plants IS DISTINCT FROM $1 OR max_bytes IS DISTINCT FROM $2)',
      [maxPlants, maxBytes],
    );
    // Not newer (refused above): an older version was migrated to this one.
    await client.query(
      'INSERT INTO plantstore_schema (version) VALUES ($1) ON CONFLICT (singleton) DO UPDATE SET version = EXCLUDED.version',
      [SCHEMA_VERSION],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

function postgresStore(
  pool: pg.Pool,
  { maxPlants, maxBytes, poolSize = DEFAULT_POOL_SIZE }: PostgresStoreOptions,
): PlantStore {
  /** Runs `work` with the database's failures turned into StoreUnavailableError (503, Retry-After). */
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw new StoreUnavailableError(`the database does not answer: ${reasonOf(error)}`);
    }
  };
  /** `work` inside one transaction, on one connection: committed when it answers `keep`, else rolled back; run again the slow way (fastThenSlow). */
  const transaction = <T>(
    work: (client: pg.PoolClient, fast: boolean) => Promise<{ keep: boolean; outcome: T }>,
  ): Promise<T> => guarded(() => fastThenSlow((fast) => once(work, fast)));
  const once = async <T>(
    work: (client: pg.PoolClient, fast: boolean) => Promise<{ keep: boolean; outcome: T }>,
    fast: boolean,
  ): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { keep, outcome } = await work(client, fast);
      await client.query(keep ? 'COMMIT' : 'ROLLBACK');
      return outcome;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };

  /** Counts a change on `id`'s shard within the caps (plantstore_count); whether it fit. */
  const count = async (
    client: pg.PoolClient,
    fast: boolean,
    id: string,
    plants: number,
    bytes: number,
  ): Promise<boolean> => {
    const { rows } = await client.query<{ fits: boolean }>(
      'SELECT plantstore_count(plantstore_shard($1), $2, $3, $4, $5, $6) AS fits',
      [id, plants, bytes, maxPlants, maxBytes, fast],
    );
    return rows[0]!.fits;
  };

  // One statement per batch, as many at once as the pool holds connections (postgres-batch.ts).
  const batched = createBatcher(
    (batch) => fastThenSlow((fast) => runBatch(pool, batch, { maxPlants, maxBytes }, fast)),
    poolSize,
    CREATE_BATCH,
  );

  const tools: PostgresTools = { pool, caps: { maxPlants, maxBytes }, guarded, transaction, count, batched };
  const placed = (place: Place): ItemStore => placedItems(tools, place);

  const plants = placed(PLANTS);
  return {
    ...plants,
    items: (place) => (place.resource === '' && place.parent === '' ? plants : placed(place)),

    get: async (id) => {
      const json = await plants.read(id);
      return json === undefined ? undefined : plantFromJson(json);
    },

    removeUnder: (resource, parent) =>
      guarded(async () => {
        // The items under `parent` and below it (`/1`, `/1/…`): one range of the primary key, as its columns compare bytes.
        const { rows } = await pool.query<{ removed: string }>({
          name: 'plantstore_remove_under',
          text: `WITH gone AS (DELETE FROM plantstore_plants
                   WHERE resource = $1 AND (parent = $2 OR (parent >= $2 || '/' AND parent < $2 || '0'))
                   RETURNING id, bytes),
                 shards AS (SELECT plantstore_shard(id) AS shard, count(*) AS items, sum(bytes)::bigint AS bytes FROM gone GROUP BY 1)
                 SELECT coalesce(sum(items), 0)::text AS removed, bool_and(plantstore_count(shard, -items, -bytes, $3::bigint, $4::bigint, false)) AS counted FROM shards`,
          values: [resource, parent, maxPlants, maxBytes],
        });
        return Number(rows[0]!.removed);
      }),

    nextNumbers: (resource, amount) =>
      guarded(async () => {
        // One statement: the counter's row is locked until it commits, so no two callers get one number.
        const { rows } = await pool.query<{ first: string }>({
          name: 'plantstore_next_numbers',
          text: `INSERT INTO plantstore_counters AS counter (resource, next) VALUES ($1, 1 + $2::bigint)
                 ON CONFLICT (resource) DO UPDATE SET next = counter.next + $2::bigint
                 RETURNING (next - $2::bigint)::text AS first`,
          values: [resource, amount],
        });
        return Number(rows[0]!.first);
      }),

    clear: () =>
      transaction(async (client) => {
        // The items' table first, as every create locks it before the usage shards (in their order): no deadlock.
        await client.query('LOCK TABLE plantstore_plants IN ACCESS EXCLUSIVE MODE');
        await client.query('SELECT 1 FROM plantstore_usage_shards ORDER BY shard FOR UPDATE');
        const { rows } = await client.query<{ plants: string }>(
          'SELECT sum(plants) AS plants FROM plantstore_usage_shards',
        );
        await client.query('TRUNCATE plantstore_plants');
        // The slices stay: every count is within its slice, and the slices still add up to the caps.
        await client.query('UPDATE plantstore_usage_shards SET plants = 0, bytes = 0');
        return { keep: true, outcome: Number(rows[0]!.plants) };
      }),

    usage: () =>
      guarded(async () => {
        const { rows } = await pool.query<{ plants: string; bytes: string }>(
          'SELECT sum(plants) AS plants, sum(bytes) AS bytes FROM plantstore_usage_shards',
        );
        return { plants: Number(rows[0]!.plants), bytes: Number(rows[0]!.bytes) };
      }),

    async health() {
      try {
        // The store's own table, not just a connection: a database that lost the schema is not healthy either.
        await pool.query('SELECT plants FROM plantstore_usage_shards LIMIT 1');
        return { store: 'postgresql', ok: true };
      } catch (error) {
        return { store: 'postgresql', ok: false, reason: `the database does not answer: ${reasonOf(error)}` };
      }
    },

    close: () => pool.end(),
  };
}

/** Most creates one statement carries. */
const CREATE_BATCH = 100;

/** Raised by plantstore_count's fast way where the shard's slice is spent: the transaction is rolled back, to be run the slow way. */
const SLICE_SPENT = 'PSLOW';

/** `attempt` the fast way, then the slow way where the fast way found its usage shard's slice spent. */
async function fastThenSlow<T>(attempt: (fast: boolean) => Promise<T>): Promise<T> {
  try {
    return await attempt(true);
  } catch (error) {
    if ((error as { code?: string }).code !== SLICE_SPENT) throw error;
    return attempt(false);
  }
}

/** A database error's message, without the connection string (pg's messages never hold the password). */
function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: string }).code;
    return code !== undefined && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
