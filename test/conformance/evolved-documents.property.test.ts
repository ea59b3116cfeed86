// The design holds in general, not only for the evolved documents of
// test/fixtures/: for documents drawn from a grammar of small schema changes
// (test/support/schema-grammar.ts: new Plant properties of any shape nested
// two levels, tighter bounds on name, tag and the id), the reference server
// serving each document passes the harness derived from it. A failure names
// the changes, the document's file and each check that did not pass.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { runTarget } from '../../conformance/run/runner.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { FUZZ_SEED } from '../../robustness/requests.js';
import { buildApp } from '../../server/app.js';
import { evolvedDocument } from '../support/schema-grammar.js';

const TOKEN = 'grammar-test-token';
/** Documents per run: each one is a server start and a whole catalog (a second or two). */
const DOCUMENTS = 12;
const dir = mkdtempSync(join(tmpdir(), 'plantstore-grammar-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('documents drawn from a grammar of small schema changes', { timeout: 600_000 }, () => {
  it(`the reference server passes the harness on each (${DOCUMENTS} documents, seed ${FUZZ_SEED})`, async () => {
    let drawn = 0;
    await fc.assert(
      fc.asyncProperty(evolvedDocument, async ({ changes, text }) => {
        const path = join(dir, `document-${++drawn}.yaml`);
        writeFileSync(path, text);
        const app = buildApp({ tokens: [TOKEN], specPath: path, logger: false });
        await app.listen({ port: 0, host: '127.0.0.1' });
        try {
          const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
          const result = await runTarget(
            { model: loadSpecModel(path), targets: [], seed: FUZZ_SEED, cases: 5, timeoutMs: 60_000 },
            { name: 'reference', url, token: TOKEN, role: 'target', informs: false, restrictsTokens: true },
          );
          const bad = result.results
            .filter((r) => r.outcome === 'fail' || r.outcome === 'error')
            .map((r) => `${r.id} ${r.outcome}: expected ${r.expected}; actual ${r.actual}`);
          assert.deepEqual(bad, [], `${path}\nchanges:\n  ${changes.join('\n  ')}`);
        } finally {
          await app.close();
        }
      }),
      { numRuns: DOCUMENTS, seed: FUZZ_SEED, endOnFailure: true, includeErrorInReport: true },
    );
  });
});
