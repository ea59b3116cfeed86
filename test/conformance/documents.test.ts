// The checks of what any document declares (issue 42), both ways, on each
// document of test/fixtures/documents/ the fake of fake-doc.ts serves: its
// correct fake is failed by no check of DOC_CHECKS, and passes the checks of
// its feature; each fake that breaks one rule of the feature is failed by
// the check for that rule, whose cause names it; each fake that makes an
// allowed choice is graded as the row says and failed by no check.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { catalog } from '../../conformance/checks/index.js';
import { runTarget } from '../../conformance/run/runner.js';
import type { TargetResult } from '../../conformance/run/result.js';
import { startDocFake } from '../support/fake-doc.js';
import type { DocBreak } from '../support/fake-doc-config.js';
import { DOC_ALLOWED, DOC_BREAKS, DOC_CHECKS, DOC_PASSES } from '../support/doc-mutants.js';

const TOKEN = 'documents-test-token';
const aggregates = new Set(catalog.filter((c) => c.kind === 'aggregate').map((c) => c.id));

async function run(fixture: string, breaks: DocBreak[], only: string[]): Promise<TargetResult> {
  const fake = await startDocFake(fixture, TOKEN, breaks);
  try {
    return await runTarget(
      { model: fake.model, targets: [], seed: 7, cases: 5, timeoutMs: 10_000, only },
      { name: 'fake', url: fake.url, token: TOKEN, role: 'target', informs: false, restrictsTokens: true },
    );
  } finally {
    await fake.close();
  }
}

const failed = (r: TargetResult) =>
  r.results
    .filter((x) => x.outcome === 'fail' || x.outcome === 'error')
    .map((x) => `${x.id} ${x.outcome}: ${x.cause ?? ''} ${x.actual ?? ''}`);

/** A check's result; an aggregate check grades the exchanges of every check of DOC_CHECKS. */
async function resultOf(fixture: string, breaks: DocBreak[], check: string) {
  const r = await run(fixture, breaks, aggregates.has(check) ? [...DOC_CHECKS, check] : [check]);
  const x = r.results.find((c) => c.id === check);
  assert.ok(x, `${check} ran`);
  return x;
}

describe('any document: the correct fake of each document of test/fixtures/documents/', { timeout: 600_000 }, () => {
  for (const [fixture, passes] of Object.entries(DOC_PASSES)) {
    it(`${fixture}: is failed by no check, and passes ${passes.join(', ')}`, async () => {
      const r = await run(fixture, [], DOC_CHECKS);
      assert.deepEqual(failed(r), []);
      for (const id of passes) {
        const x = r.results.find((c) => c.id === id)!;
        assert.equal(x.outcome, 'pass', `${id}: ${x.actual ?? ''}`);
      }
    });
  }
});

describe('any document: a fake that breaks one rule of its feature', { timeout: 600_000 }, () => {
  for (const row of DOC_BREAKS) {
    it(`${row.fixture}: ${row.breaks.join(', ')} (${row.why}) is failed by ${row.check}, naming the rule`, async () => {
      const x = await resultOf(row.fixture, row.breaks, row.check);
      assert.equal(x.outcome, 'fail', `${x.id}: ${x.actual ?? ''}`);
      assert.match(x.cause ?? '', row.cause);
      assert.ok(x.expected && x.actual, 'Expected and Actual are given');
    });
  }
});

describe('any document: a fake that makes an allowed choice', { timeout: 600_000 }, () => {
  for (const row of DOC_ALLOWED) {
    it(`${row.fixture}: ${row.choice} (${row.source}) is ${row.expected} for ${row.check}, and failed by no check`, async () => {
      const r = await run(row.fixture, row.breaks, [...new Set([...DOC_CHECKS, row.check])]);
      assert.deepEqual(failed(r), []);
      const x = r.results.find((c) => c.id === row.check)!;
      assert.equal(x.outcome, row.expected, `${x.id}: ${x.actual ?? ''}`);
      if (row.reason) assert.match(x.actual ?? '', row.reason, `${x.id}: graded for the choice the row makes`);
    });
  }
});
