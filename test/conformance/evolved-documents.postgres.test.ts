// The evolved documents of test/fixtures/ on the PostgreSQL store: the
// reference server (the real entry point) serving each document, its plants
// in a fresh database, passes the harness derived from that document, as it
// does on the in-memory store (evolved-documents.test.ts). What a plant
// keeps (every property Plant declares, as sent) goes through the row.
// `npm test` runs one document per check that reports a server ignoring the
// change, the last of each where evolved-documents.test.ts runs the first, so
// that the quick default serves twice as many documents between the two
// (test/support/matrix.ts); `npm run test:full`, in CI, runs them all.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { EVOLVED_DOCUMENTS, fixturePath } from '../support/fixtures.js';
import { failingResults, runReferenceOnPostgres } from '../support/harness-runs.js';
import { matrixLabel, matrixRows } from '../support/matrix.js';
import { POSTGRES_MISSING, useTestDatabases } from '../support/postgres.js';

const databases = useTestDatabases();

const ROWS = matrixRows(EVOLVED_DOCUMENTS, (doc) => `${doc.reportedBy} ${doc.outcome}`, 'last');

describe(
  `evolved documents on the PostgreSQL store, ${matrixLabel(ROWS.length, EVOLVED_DOCUMENTS.length)}`,
  { skip: POSTGRES_MISSING, timeout: 600_000 },
  () => {
    for (const doc of ROWS) {
      it(`${doc.file} (${doc.change}): the reference server on PostgreSQL passes`, async () => {
        const results = await runReferenceOnPostgres(databases, fixturePath(doc.file), 5);
        assert.deepEqual(failingResults(results), []);
        assert.equal(results.find((r) => r.id === doc.reportedBy)?.outcome, 'pass', `${doc.reportedBy} passes`);
      });
    }
  },
);
