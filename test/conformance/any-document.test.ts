// No crash on a valid document (issue 42, item 6): the whole catalog, run
// against a target that answers every request as if it had worked, on every
// OpenAPI document of test/fixtures/ (the evolved ones, the operations',
// the webhooks', the documents a team would write next): no check ends in
// a harness error, and each run says something (a check graded, not every
// one skipped); what the harness cannot model is a skip with its reason.
// `npm test` runs every document except the evolved ones (one change each to
// the starter document), of which it runs one per check that grades the
// change (test/support/fixtures.ts: the check that reports a server ignoring
// it, and so runs the changed part of the document); `npm run test:full`, in
// CI, runs every document (test/support/matrix.ts).
import { strict as assert } from 'node:assert';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { runTarget } from '../../conformance/run/runner.js';
import { loadSpecModel, type SpecModel } from '../../conformance/model/spec-model.js';
import { DocumentError } from '../../spec/openapi.js';
import { EVOLVED_DOCUMENTS, fixturePath } from '../support/fixtures.js';
import { matrixLabel, matrixRows } from '../support/matrix.js';
import { startPermissiveTarget } from '../support/permissive-target.js';

const root = fixturePath('');

/** Every YAML file under test/fixtures/, with its path relative to it. */
function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return name.endsWith('.yaml') ? [path] : [];
  });
}

/** The files that are OpenAPI documents (compat/pairs.yaml lists edits, not a document). */
function documents(): Array<{ name: string; model: SpecModel }> {
  return yamlFiles(root).flatMap((path) => {
    try {
      return [{ name: relative(root, path), model: loadSpecModel(path) }];
    } catch (err) {
      if (err instanceof DocumentError && relative(root, path).startsWith('compat/')) return [];
      throw err;
    }
  });
}

const all = documents();
const changeGradedBy = new Map(EVOLVED_DOCUMENTS.map((doc) => [doc.file, `evolved, graded by ${doc.reportedBy}`]));
// The last evolved document of each check, where evolved-documents.test.ts takes the first: between them the
// quick default runs the harness on more of them. Every other document is a row of its own.
const rows = matrixRows(all, ({ name }) => changeGradedBy.get(name) ?? name, 'last');

describe(
  `no crash on a valid document, ${matrixLabel(rows.length, all.length)}`,
  { concurrency: 2, timeout: 600_000 },
  () => {
    it('reads every OpenAPI document of test/fixtures/', () => {
      assert.ok(all.length >= 50, `${all.length} documents`);
    });
    for (const { name, model } of rows) {
      it(`${name}: every check runs or says why not, none ends in a harness error`, async () => {
        const target = await startPermissiveTarget();
        try {
          const r = await runTarget(
            { model, targets: [], seed: 11, cases: 2, timeoutMs: 10_000 },
            {
              name: 'permissive',
              url: target.url,
              token: 'any-document-token',
              role: 'target',
              informs: false,
              restrictsTokens: false,
            },
          );
          const crashed = r.results.filter((x) => /harness error/.test(x.actual ?? ''));
          assert.deepEqual(
            crashed.map((x) => `${x.id}: ${x.actual ?? ''}`),
            [],
          );
          assert.ok(
            r.results.some((x) => x.outcome !== 'skip' && x.outcome !== 'error'),
            'something is said of the target',
          );
          for (const x of r.results.filter((c) => c.outcome === 'skip'))
            assert.ok((x.actual ?? '').length > 0, `${x.id} says why it skips`);
        } finally {
          await target.close();
        }
      });
    }
  },
);
