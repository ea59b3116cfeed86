// Every operation of the documents of test/fixtures/operations/ on the
// PostgreSQL store: the reference server (the real entry point) serving each
// document, its plants in a fresh database, is failed by no check of the
// harness derived from that document, and every operation is implemented
// (PS-OP-001), as on the in-memory store (reference.test.ts). The state
// checks (read back, listed, gone after DELETE, changed by PUT and PATCH)
// go through the database's rows.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { fixturePath } from '../support/fixtures.js';
import { failingResults, runReferenceOnPostgres } from '../support/harness-runs.js';
import { POSTGRES_MISSING, useTestDatabases } from '../support/postgres.js';

const databases = useTestDatabases();

describe('every operation on the PostgreSQL store', { skip: POSTGRES_MISSING, timeout: 600_000 }, () => {
  for (const fixture of ['starter', 'crud', 'paged', 'links', 'open-operation', 'unmapped']) {
    it(`${fixture}.yaml: the reference server on PostgreSQL is failed by no check, every operation reached`, async () => {
      const results = await runReferenceOnPostgres(databases, fixturePath(`operations/${fixture}.yaml`), 31);
      assert.deepEqual(failingResults(results), []);
      const implemented = results.find((r) => r.id === 'PS-OP-001')!;
      assert.ok(
        implemented.operations !== undefined && implemented.operations.length > 0,
        'PS-OP-001 reached the operations',
      );
      assert.deepEqual(
        implemented.operations.filter((o) => o.outcome !== 'pass'),
        [],
      );
    });
  }
});
