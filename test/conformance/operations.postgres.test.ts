// Every operation of the documents of test/fixtures/operations/ on the
// PostgreSQL store: the reference server (the real entry point) serving each
// document, its plants in a fresh database, is failed by no check of the
// harness derived from that document, and every operation is implemented
// (PS-OP-001), as on the in-memory store (reference.test.ts). The state
// checks (read back, listed, gone after DELETE, changed by PUT and PATCH)
// go through the database's rows.
// A long matrix (test/support/matrix.ts): what a document asks of the
// store is crud.yaml's (every method on the collection and the item, limit
// and offset) or paged.yaml's (a cursor and a filter); the others add what
// the HTTP stages do (a webhook, links, public operations, stubbed ones),
// which reference.test.ts shows on every document with the memory store.
// `npm test` runs crud and paged; `npm run test:full` (CI) every document.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { fixturePath } from '../support/fixtures.js';
import { failingResults, runReferenceOnPostgres } from '../support/harness-runs.js';
import { matrixLabel, matrixRows } from '../support/matrix.js';
import { POSTGRES_MISSING, useTestDatabases } from '../support/postgres.js';

const databases = useTestDatabases();

const FIXTURES = ['crud', 'paged', 'starter', 'links', 'open-operation', 'unmapped'];
const ROWS = matrixRows(FIXTURES, (fixture) => (fixture === 'paged' ? 'a cursor and a filter' : 'every method'));

describe(
  `every operation on the PostgreSQL store, ${matrixLabel(ROWS.length, FIXTURES.length)}`,
  { skip: POSTGRES_MISSING, timeout: 600_000 },
  () => {
    for (const fixture of ROWS) {
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
  },
);
