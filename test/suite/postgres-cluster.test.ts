// tools/postgres-cluster.ts: a throwaway cluster that can be stopped and started with its data.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { findPostgres, startCluster } from '../../tools/postgres-cluster.js';

const binaries = findPostgres();

test(
  'a throwaway cluster keeps its data across a stop and a start, and is removed at the end',
  { skip: 'missing' in binaries ? binaries.missing : false, timeout: 120_000 },
  async () => {
    if ('missing' in binaries) return;
    const cluster = await startCluster(binaries);
    try {
      const query = async (sql: string) => {
        const client = new pg.Client({ connectionString: cluster.url });
        await client.connect();
        try {
          return (await client.query(sql)).rows;
        } finally {
          await client.end();
        }
      };
      await query('CREATE TABLE t (n bigint)');
      await query('INSERT INTO t VALUES (9223372036854775807)');
      await cluster.stopServer();
      await assert.rejects(query('SELECT 1'));
      await cluster.startServer();
      assert.deepEqual(await query('SELECT n::text FROM t'), [{ n: '9223372036854775807' }]);
    } finally {
      await cluster.destroy();
    }
  },
);
