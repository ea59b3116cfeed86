// The checks of every operation (PS-OP-*) and of the plant resource's state
// (PS-STATE-004 to 008), both ways, on each document of
// test/fixtures/operations/: the correct fake (fake-resource.ts) is failed
// by none; each fake that breaks one rule of an operation other than create
// is failed by the check for that rule; fakes that make another allowed
// choice are failed by none.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { runTarget } from '../../conformance/run/runner.js';
import type { TargetResult } from '../../conformance/run/result.js';
import { startResourceFake } from '../support/fake-resource.js';
import { ALLOWED, BREAKS, NON_STRICT, type Break } from '../support/fake-resource-breaks.js';

const TOKEN = 'operations-test-token';
const CHECKS = [
  'PS-OP-001',
  'PS-OP-002',
  'PS-OP-003',
  'PS-OP-004',
  'PS-STATE-004',
  'PS-STATE-005',
  'PS-STATE-006',
  'PS-STATE-007',
  'PS-STATE-008',
];
const FIXTURES = ['starter', 'crud', 'paged', 'links', 'open-operation', 'unmapped'];

async function run(fixture: string, breaks: Break[] = [], only = CHECKS): Promise<TargetResult> {
  const fake = await startResourceFake(fixture, TOKEN, breaks);
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
    .map((x) => `${x.id} ${x.outcome}: ${x.actual}`);

describe(
  'every operation and the plant resource, on the documents of test/fixtures/operations/',
  { timeout: 600_000 },
  () => {
    for (const fixture of FIXTURES) {
      it(`${fixture}: the correct fake is failed by no check, and every operation is reached`, async () => {
        const r = await run(fixture);
        assert.deepEqual(failed(r), []);
        const op1 = r.results.find((x) => x.id === 'PS-OP-001')!;
        assert.equal(op1.outcome, 'pass');
        for (const o of op1.operations ?? []) assert.equal(o.outcome, 'pass', `${o.operation}: ${o.detail ?? ''}`);
      });
    }
    for (const [fixture, broken, check] of BREAKS) {
      it(`${fixture}: ${broken} is failed by ${check}`, async () => {
        const r = await run(fixture, [broken], [check]);
        const x = r.results[0]!;
        assert.equal(x.outcome, 'fail', `${x.id}: ${x.actual ?? ''}`);
      });
    }
    for (const [fixture, choice, check] of NON_STRICT) {
      it(`${fixture}: ${choice}, an allowed choice, is non-strict for ${check}, not fail`, async () => {
        const x = (await run(fixture, [choice], [check])).results[0]!;
        assert.equal(x.outcome, 'non-strict', `${x.id}: ${x.actual ?? ''}`);
      });
    }
    for (const [fixture, choice] of ALLOWED) {
      it(`${fixture}: ${choice}, an allowed choice, is failed by no check`, async () => {
        assert.deepEqual(failed(await run(fixture, [choice])), []);
      });
    }
  },
);
