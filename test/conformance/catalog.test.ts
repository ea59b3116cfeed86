// The catalog itself: stable unique IDs, sources and requirements, a mutant
// for every check, and every status and schema of the document exercised.
import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { catalog, FAMILIES, type Check } from '../../conformance/checks/index.js';
import type { Exchange } from '../../conformance/checks/exchange.js';
import { runTarget } from '../../conformance/run/runner.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { startFake } from '../support/fake-server.js';
import { MUTANTS } from '../support/mutants.js';
import { BREAKS } from '../support/fake-resource-breaks.js';
import { DOC_BREAKS } from '../support/doc-mutants.js';
import { SECURED_BREAKS } from '../support/fake-secured-breaks.js';
import { FROZEN_IDS } from '../../scripts/checks-doc.js';

describe('the catalog', () => {
  it('has unique IDs that match the frozen list', () => {
    const ids = catalog.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length, 'IDs are unique');
    // Every ID ever published is still in the catalog, and the list holds every check (npm run docs:checks adds new IDs).
    assert.deepEqual(
      FROZEN_IDS.filter((id) => !ids.includes(id)),
      [],
      'a published ID is gone from the catalog: IDs are never removed or reused',
    );
    assert.deepEqual(
      ids.filter((id) => !FROZEN_IDS.includes(id)),
      [],
      'a new check: run `npm run docs:checks`, which adds its ID to conformance/checks/frozen-ids.json',
    );
    // Within a family, numbers run from 001 without a gap.
    for (const [family, checks] of Object.entries(FAMILIES)) {
      const numbers = checks.map((c) => Number(c.id.split('-')[2])).sort((a, b) => a - b);
      assert.deepEqual(
        numbers,
        numbers.map((_, i) => i + 1),
        `PS-${family}-* numbered from 001 without a gap`,
      );
    }
  });

  it("defines every check in a file named after its ID's family (PS-JSON-* in json.ts, PS-ROBUST-* in robust-*.ts)", async () => {
    const folder = new URL('../../conformance/checks/', import.meta.url);
    const files = readdirSync(folder).filter((name) => name.endsWith('.js'));
    for (const [family, checks] of Object.entries(FAMILIES)) {
      const name = family.toLowerCase();
      const own = files.filter((file) => file === `${name}.js` || file.startsWith(`${name}-`));
      const exported: Check[] = [];
      for (const file of own) {
        const module = (await import(new URL(file, folder).href)) as Record<string, unknown>;
        for (const value of Object.values(module))
          if (Array.isArray(value) && value.every((c) => typeof c === 'object' && c !== null && 'id' in c))
            exported.push(...(value as Check[]));
      }
      assert.deepEqual(
        [...new Set(exported.map((c) => c.id))].sort(),
        checks.map((c) => c.id).sort(),
        `${name}.ts or ${name}-*.ts define the PS-${family}-* checks`,
      );
      for (const c of checks) assert.ok(c.id.startsWith(`PS-${family}-`), `${c.id} is in ${name}.ts or ${name}-*.ts`);
    }
  });

  it('gives every check a title, a level, a source and a quoted requirement', () => {
    for (const c of catalog) {
      assert.match(c.id, /^PS-[A-Z]+-\d{3}$/);
      assert.ok(c.title.length > 10, c.id);
      assert.ok(c.level === 'MUST' || c.level === 'SHOULD', c.id);
      assert.ok(c.source.document && c.source.section, `${c.id} has a source`);
      if (c.source.document.startsWith('RFC'))
        assert.match(c.source.url ?? '', /^https:\/\/www\.rfc-editor\.org\/rfc\/rfc\d+#section-/, c.id);
      assert.ok(c.requirement.length > 20, `${c.id} quotes its requirement`);
    }
  });

  it('has a mutant for every check in the mutation table', () => {
    // The checks of other operations than create are proven on the fakes of test/fixtures/operations/ (operations.test.ts),
    // those of what any document declares on the fakes of test/fixtures/documents/ (documents.test.ts), and those of
    // every security scheme and error media type on the fakes of the same folder (any-scheme.test.ts).
    const covered = new Set([
      ...MUTANTS.map(([id]) => id),
      ...BREAKS.map(([, , id]) => id),
      ...DOC_BREAKS.map((r) => r.check),
      ...SECURED_BREAKS.map((row) => row.check),
    ]);
    assert.deepEqual(
      catalog.map((c) => c.id).filter((id) => !covered.has(id)),
      [],
    );
    for (const [id] of MUTANTS)
      assert.ok(
        catalog.some((c) => c.id === id),
        `${id} is in the catalog`,
      );
  });

  it('exercises every declared status and every schema of the document', async () => {
    const model = loadSpecModel();
    const fake = await startFake({ tokens: ['t'] });
    const seen = new Map<number, Exchange>();
    try {
      await runTarget(
        {
          model,
          targets: [],
          seed: 1,
          cases: 5,
          timeoutMs: 10_000,
          onExchange: (ex) => ex.response && seen.set(ex.response.status, ex),
        },
        { name: 'fake', url: fake.url, token: 't', role: 'target', informs: false, restrictsTokens: true },
      );
    } finally {
      await fake.close();
    }
    for (const op of model.operations) {
      for (const status of op.responses.keys())
        assert.ok(seen.has(Number(status)), `status ${status} of ${op.operationId} was observed`);
    }
    // Every component schema is the request schema, a response schema, or part of one.
    const used = new Set<string>([model.create!.requestSchemaName]);
    for (const r of model.create!.responses.values()) if (r.schemaName) used.add(r.schemaName);
    const text = JSON.stringify(model.doc.components.schemas);
    for (const name of model.schemaNames) {
      assert.ok(used.has(name) || text.includes(`#/components/schemas/${name}"`), `schema ${name} is exercised`);
    }
  });
});
