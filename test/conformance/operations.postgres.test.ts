// Every operation of the documents of test/fixtures/operations/ on the
// PostgreSQL store: the reference server (the real entry point) serving each
// document, its plants in a fresh database, is failed by no check of the
// harness derived from that document, and every operation is implemented
// (PS-OP-001), as on the in-memory store (reference.test.ts). The state
// checks (read back, listed, gone after DELETE, changed by PUT and PATCH)
// go through the database's rows.
import { strict as assert } from 'node:assert';
import { after, describe, it } from 'node:test';
import { runTarget } from '../../conformance/run/runner.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { startEntry } from '../support/entry.js';
import { fixturePath } from '../support/fixtures.js';
import { POSTGRES_MISSING, useTestDatabases } from '../support/postgres.js';

const databases = useTestDatabases();
const TOKEN = 'operations-postgres-token';

describe('every operation on the PostgreSQL store', { skip: POSTGRES_MISSING, timeout: 600_000 }, () => {
  const stops: Array<() => Promise<unknown>> = [];
  after(async () => {
    await Promise.all(stops.map((stop) => stop()));
  });

  for (const fixture of ['starter', 'crud', 'paged', 'links', 'open-operation', 'unmapped']) {
    it(`${fixture}.yaml: the reference server on PostgreSQL is failed by no check, every operation reached`, async () => {
      const spec = fixturePath(`operations/${fixture}.yaml`);
      const server = await startEntry({
        PLANTSTORE_SPEC: spec,
        PLANTSTORE_DATABASE_URL: await databases.fresh(),
        PLANTSTORE_TOKENS: TOKEN,
        LOG_LEVEL: 'info',
      });
      stops.push(() => server.stop());
      try {
        const result = await runTarget(
          { model: loadSpecModel(spec), targets: [], seed: 31, cases: 5, timeoutMs: 60_000 },
          { name: 'postgres', url: server.url, token: TOKEN, role: 'target', informs: false, restrictsTokens: true },
        );
        const bad = result.results
          .filter((r) => r.outcome === 'fail' || r.outcome === 'error')
          .map((r) => `${r.id} ${r.outcome}: ${r.expected} / ${r.actual}`);
        assert.deepEqual(bad, []);
        const implemented = result.results.find((r) => r.id === 'PS-OP-001')!;
        assert.ok(
          implemented.operations !== undefined && implemented.operations.length > 0,
          'PS-OP-001 reached the operations',
        );
        assert.deepEqual(
          implemented.operations.filter((o) => o.outcome !== 'pass'),
          [],
        );
      } finally {
        await server.stop();
      }
    });
  }
});
