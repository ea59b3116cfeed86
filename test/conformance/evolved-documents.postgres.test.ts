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
import { after, describe, it } from 'node:test';
import { runTarget } from '../../conformance/run/runner.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { startEntry } from '../support/entry.js';
import { EVOLVED_DOCUMENTS, fixturePath } from '../support/fixtures.js';
import { matrixLabel, matrixRows } from '../support/matrix.js';
import { POSTGRES_MISSING, useTestDatabases } from '../support/postgres.js';

const databases = useTestDatabases();
const TOKEN = 'evolved-postgres-token';

const ROWS = matrixRows(EVOLVED_DOCUMENTS, (doc) => `${doc.reportedBy} ${doc.outcome}`, 'last');

describe(
  `evolved documents on the PostgreSQL store, ${matrixLabel(ROWS.length, EVOLVED_DOCUMENTS.length)}`,
  { skip: POSTGRES_MISSING, timeout: 600_000 },
  () => {
    const stops: Array<() => Promise<unknown>> = [];
    after(async () => {
      await Promise.all(stops.map((stop) => stop()));
    });

    for (const doc of ROWS) {
      it(`${doc.file} (${doc.change}): the reference server on PostgreSQL passes`, async () => {
        const spec = fixturePath(doc.file);
        const server = await startEntry({
          PLANTSTORE_SPEC: spec,
          PLANTSTORE_DATABASE_URL: await databases.fresh(),
          PLANTSTORE_TOKENS: TOKEN,
          LOG_LEVEL: 'info',
        });
        stops.push(() => server.stop());
        try {
          const result = await runTarget(
            { model: loadSpecModel(spec), targets: [], seed: 5, cases: 5, timeoutMs: 60_000 },
            { name: 'postgres', url: server.url, token: TOKEN, role: 'target', informs: false, restrictsTokens: true },
          );
          const bad = result.results
            .filter((r) => r.outcome === 'fail' || r.outcome === 'error')
            .map((r) => `${r.id} ${r.outcome}: ${r.expected} / ${r.actual}`);
          assert.deepEqual(bad, []);
          assert.equal(
            result.results.find((r) => r.id === doc.reportedBy)?.outcome,
            'pass',
            `${doc.reportedBy} passes`,
          );
        } finally {
          await server.stop();
        }
      });
    }
  },
);
