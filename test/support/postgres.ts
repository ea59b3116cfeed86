// One throwaway PostgreSQL cluster per test file (postgres-cluster.ts), and a
// fresh database in it per test, so that tests share the cluster's start-up
// and nothing else. A file skips its tests with the reason when the
// binaries are missing; `.ci/run` installs them, so CI always runs them.
import { join } from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';
import { findPostgres, startCluster, type Cluster } from '../../tools/postgres-cluster.js';

const binaries = findPostgres();

/** The reason the tests skip, or false when PostgreSQL is installed. */
export const POSTGRES_MISSING: string | false =
  'missing' in binaries ? `${binaries.missing}: the PostgreSQL tests skip` : false;

export interface TestDatabases {
  /** The cluster, to stop and start it. */
  cluster(): Cluster;
  /** A new, empty database; its URL. */
  fresh(): Promise<string>;
}

/** Starts the cluster before the file's tests and removes it after them. */
export function useTestDatabases(): TestDatabases {
  let cluster: Cluster | undefined;
  let count = 0;
  before(async () => {
    if ('missing' in binaries) return;
    // scripts/run-tests.mjs gives its files a folder for the run: the first cluster's initdb is copied from there.
    const runDir = process.env.PLANTSTORE_TEST_RUN_DIR;
    cluster = await startCluster(binaries, { templates: runDir ? join(runDir, 'postgres') : undefined });
  });
  after(async () => {
    await cluster?.destroy();
  });
  return {
    cluster() {
      if (cluster === undefined) throw new Error('no cluster: PostgreSQL is not installed');
      return cluster;
    },
    async fresh() {
      const name = `plantstore_test_${++count}`;
      const admin = new pg.Client({ connectionString: this.cluster().url });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return this.cluster().url.replace(/\/postgres$/, `/${name}`);
    },
  };
}

/** Runs one SQL statement on `url`, for a test's own look into the database. */
export async function sql<Row extends Record<string, unknown>>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}
