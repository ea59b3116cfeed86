// The catalog itself: stable unique IDs, sources and requirements, a mutant
// for every check, and every status and schema of the document exercised.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { catalog } from '../../conformance/checks/index.js';
import type { Exchange } from '../../conformance/http.js';
import { runTarget } from '../../conformance/runner.js';
import { loadSpecModel } from '../../conformance/spec-model.js';
import { startFake } from '../support/fake-server.js';
import { MUTANTS } from '../support/mutants.js';

// Frozen: a check may be added at the end of its group, never renumbered or reused.
const FROZEN_IDS = [
  'PS-ACCEPT-001', 'PS-ACCEPT-002', 'PS-ACCEPT-003', 'PS-ACCEPT-004', 'PS-ACCEPT-005', 'PS-ACCEPT-006',
  'PS-ACCEPT-007', 'PS-ACCEPT-008', 'PS-ACCEPT-009', 'PS-ACCEPT-010', 'PS-ACCEPT-011', 'PS-ACCEPT-012',
  'PS-JSON-001', 'PS-JSON-002', 'PS-JSON-003',
  'PS-REJECT-001', 'PS-REJECT-002', 'PS-REJECT-003', 'PS-REJECT-004', 'PS-REJECT-005', 'PS-REJECT-006',
  'PS-REJECT-007', 'PS-REJECT-008', 'PS-REJECT-009', 'PS-REJECT-010', 'PS-REJECT-011', 'PS-REJECT-012',
  'PS-ROBUST-001', 'PS-ROBUST-002', 'PS-ROBUST-003', 'PS-ROBUST-004',
  'PS-AUTH-001', 'PS-AUTH-002', 'PS-AUTH-003', 'PS-AUTH-004', 'PS-AUTH-005', 'PS-AUTH-006', 'PS-AUTH-007', 'PS-AUTH-008',
  'PS-HTTP-001', 'PS-HTTP-002', 'PS-HTTP-003', 'PS-HTTP-004', 'PS-HTTP-005', 'PS-HTTP-006',
  'PS-STATE-001', 'PS-STATE-002', 'PS-STATE-003',
  'PS-GEN-001', 'PS-GEN-002',
  'PS-DOC-001', 'PS-DOC-002',
  'PS-RESP-001', 'PS-RESP-002', 'PS-RESP-003', 'PS-RESP-004',
];

describe('the catalog', () => {
  it('has unique IDs that match the frozen list', () => {
    const ids = catalog.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length, 'IDs are unique');
    assert.deepEqual(ids, FROZEN_IDS);
  });

  it('gives every check a title, a level, a source and a quoted requirement', () => {
    for (const c of catalog) {
      assert.match(c.id, /^PS-[A-Z]+-\d{3}$/);
      assert.ok(c.title.length > 10, c.id);
      assert.ok(c.level === 'MUST' || c.level === 'SHOULD', c.id);
      assert.ok(c.source.document && c.source.section, `${c.id} has a source`);
      if (c.source.document.startsWith('RFC')) assert.match(c.source.url ?? '', /^https:\/\/www\.rfc-editor\.org\/rfc\/rfc\d+#section-/, c.id);
      assert.ok(c.requirement.length > 20, `${c.id} quotes its requirement`);
    }
  });

  it('has a mutant for every check in the mutation table', () => {
    const covered = new Set(MUTANTS.map(([id]) => id));
    assert.deepEqual(catalog.map((c) => c.id).filter((id) => !covered.has(id)), []);
    for (const [id] of MUTANTS) assert.ok(catalog.some((c) => c.id === id), `${id} is in the catalog`);
  });

  it('exercises every declared status and every schema of the document', async () => {
    const model = loadSpecModel();
    const fake = await startFake({ tokens: ['t'] });
    const seen = new Map<number, Exchange>();
    try {
      await runTarget(
        { model, targets: [], seed: 1, cases: 5, timeoutMs: 10_000, onExchange: (ex) => ex.response && seen.set(ex.response.status, ex) },
        { name: 'fake', url: fake.url, token: 't', role: 'target', informs: false, restrictsTokens: true },
      );
    } finally {
      await fake.close();
    }
    for (const op of model.operations) {
      for (const status of op.responses.keys()) assert.ok(seen.has(Number(status)), `status ${status} of ${op.operationId} was observed`);
    }
    // Every component schema is the request schema, a response schema, or part of one.
    const used = new Set<string>([model.create.requestSchemaName]);
    for (const r of model.create.responses.values()) if (r.schemaName) used.add(r.schemaName);
    const text = JSON.stringify(model.doc.components.schemas);
    for (const name of model.schemaNames) {
      assert.ok(used.has(name) || text.includes(`#/components/schemas/${name}"`), `schema ${name} is exercised`);
    }
  });
});
