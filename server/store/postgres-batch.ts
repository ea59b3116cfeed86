// Creates of one replica sent to PostgreSQL together, so that many share one
// commit. No timer: a create goes to the database at once while fewer than
// `inFlight` statements are running; the creates that arrive meanwhile wait
// for the next free place and go together, in one statement (one
// transaction), through plantstore_create_batch (postgres-schema.ts).
// Each create's answer is its own outcome, given after the statement has
// committed: a 200 is still committed. Under light load every create goes
// alone, as before.
import type pg from 'pg';
import type { CreateResult } from './store.js';

export interface PendingCreate {
  /** Its place (store.ts, Place). */
  resource: string;
  parent: string;
  id: string;
  json: string;
  bytes: number;
}

/** The creates of `batch`, run together; each one's outcome, in their order. */
export type RunBatch = (batch: readonly PendingCreate[]) => Promise<CreateResult[]>;

/** `create(entry)` resolves with that create's outcome, once the statement that carried it has committed. */
export function createBatcher(
  run: RunBatch,
  inFlight: number,
  maxBatch: number,
): (entry: PendingCreate) => Promise<CreateResult> {
  const queue: Array<{
    entry: PendingCreate;
    resolve: (result: CreateResult) => void;
    reject: (error: unknown) => void;
  }> = [];
  let running = 0;
  const next = (): void => {
    while (running < inFlight && queue.length > 0) {
      // At most one create of an id of a place per batch: a second waits for
      // a later batch, and so for the first's commit or rollback, as it would alone.
      const ids = new Set<string>();
      const taken: typeof queue = [];
      for (let i = 0; i < queue.length && taken.length < maxBatch;) {
        const { resource, parent, id } = queue[i]!.entry;
        const key = resource === '' && parent === '' ? id : `${resource}\u0000${parent}\u0000${id}`;
        if (ids.has(key)) i++;
        else {
          ids.add(key);
          taken.push(...queue.splice(i, 1));
        }
      }
      running++;
      run(taken.map(({ entry }) => entry))
        .then(
          (results) => taken.forEach(({ resolve }, i) => resolve(results[i]!)),
          (error: unknown) => taken.forEach(({ reject }) => reject(error)),
        )
        .finally(() => {
          running--;
          next();
        });
    }
  };
  return (entry) =>
    new Promise((resolve, reject) => {
      queue.push({ entry, resolve, reject });
      next();
    });
}

/** One statement: plantstore_create_batch (postgres-schema.ts), each create's outcome in the batch's order. */
export async function runBatch(
  pool: pg.Pool,
  batch: readonly PendingCreate[],
  caps: { maxPlants: number; maxBytes: number },
  fast: boolean,
): Promise<CreateResult[]> {
  const { rows } = await pool.query<{ results: CreateResult[] }>({
    // Named: the database parses and plans it once per connection.
    name: 'plantstore_create_batch',
    text: 'SELECT plantstore_create_batch($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6, $7, $8) AS results',
    values: [
      batch.map(({ resource }) => resource),
      batch.map(({ parent }) => parent),
      batch.map(({ id }) => id),
      batch.map(({ json }) => json),
      batch.map(({ bytes }) => bytes),
      caps.maxPlants,
      caps.maxBytes,
      fast,
    ],
  });
  return rows[0]!.results;
}
