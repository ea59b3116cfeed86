// tools/postgres-cluster.ts: a throwaway cluster that can be stopped and started with its data.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

test(
  'clusters started from one template folder: initdb runs once, and each copy is a cluster of its own',
  { skip: 'missing' in binaries ? binaries.missing : false, timeout: 120_000 },
  async () => {
    if ('missing' in binaries) return;
    const templates = join(mkdtempSync(join(tmpdir(), 'plantstore-templates-')), 'postgres');
    const [first, second] = [await startCluster(binaries, { templates }), await startCluster(binaries, { templates })];
    try {
      const kept = readdirSync(templates);
      assert.equal(kept.length, 1, `one template: ${kept.join(', ')}`);
      const madeAt = statSync(join(templates, kept[0]!, 'PG_VERSION')).mtimeMs;
      const query = async (url: string, sql: string) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return (await client.query(sql)).rows;
        } finally {
          await client.end();
        }
      };
      await query(first.url, 'CREATE TABLE only_in_first (n int)');
      assert.deepEqual(await query(second.url, "SELECT to_regclass('only_in_first') AS t"), [{ t: null }]);
      const third = await startCluster(binaries, { templates });
      try {
        assert.deepEqual(await query(third.url, "SELECT to_regclass('only_in_first') AS t"), [{ t: null }]);
      } finally {
        await third.destroy();
      }
      assert.equal(statSync(join(templates, kept[0]!, 'PG_VERSION')).mtimeMs, madeAt, 'the template is not made again');
    } finally {
      await Promise.all([first.destroy(), second.destroy()]);
      rmSync(join(templates, '..'), { recursive: true, force: true });
    }
  },
);
