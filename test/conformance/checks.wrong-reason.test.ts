// Proof both ways (issue 22): every check is run against a fake server that
// breaks its rule for a reason other than the obvious one, and must not pass
// it (WRONG_REASON_MUTANTS); and every non-strict grade of the audit is run
// against a correct server that makes exactly the allowed choice, and must
// not fail it (ALLOWED_CHOICES; those whose run checks.mutants.test.ts makes
// run there). Every row runs one after the other; those whose fake holds
// creates for seconds first.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { NON_STRICT } from '../support/fake-resource-breaks.js';
import { SECURED_ALLOWED, SECURED_BREAKS } from '../support/fake-secured-breaks.js';
import { DOC_ALLOWED, DOC_BREAKS } from '../support/doc-mutants.js';
import { catalog } from '../../conformance/checks/index.js';
import type { TargetResult } from '../../conformance/run/result.js';
import { runTarget } from '../../conformance/run/runner.js';
import { loadSpecModel, type SpecModel } from '../../conformance/model/spec-model.js';
import { startFake } from '../support/fake-server.js';
import { fixturePath } from '../support/fixtures.js';
import {
  ALLOWED_CHOICES,
  holds,
  runAsMutant,
  WRONG_REASON_MUTANTS,
  type AllowedChoiceRow,
  type FakeRow,
  type WrongReasonRow,
} from '../support/mutants.js';
import { failingResults, runResourceFake } from '../support/harness-runs.js';
import { RESOURCE_ALLOWED, RESOURCE_CHECKS, RESOURCE_WRONG_REASON } from '../support/resource-mutants.js';

const TOKEN = 'wrong-reason-test-token';
const models = new Map<string, SpecModel>();
const modelOf = (document?: string): SpecModel => {
  const key = document ?? '';
  if (!models.has(key)) models.set(key, document ? loadSpecModel(fixturePath(document)) : loadSpecModel());
  return models.get(key)!;
};
const aggregates = new Set(catalog.filter((c) => c.kind === 'aggregate').map((c) => c.id));

/** The result of the row's check against a fake server with the row's options (the whole catalog for an aggregate check, which grades every exchange of the run). */
async function runRow(row: FakeRow, restrictsTokens = true): Promise<TargetResult['results'][number]> {
  const fake = await startFake({ tokens: [TOKEN], ...row.fake });
  try {
    const r = await runTarget(
      {
        model: modelOf(row.document),
        targets: [],
        seed: 20240611,
        cases: 30,
        timeoutMs: 10_000,
        only: aggregates.has(row.check) ? undefined : [row.check],
      },
      { name: 'fake', url: fake.url, token: TOKEN, role: 'target', informs: false, restrictsTokens },
    );
    const result = r.results.find((x) => x.id === row.check);
    assert.ok(result, `${row.check} ran`);
    return result;
  } finally {
    await fake.close();
  }
}

/** The switches of a row, for its test's name. */
function switches(row: FakeRow): string {
  return (
    Object.entries(row.fake)
      .map(([k, v]) => (v === true ? k : k === 'preStored' ? 'preStored: earlier runs' : `${k}: ${String(v)}`))
      .join(' + ') || 'baseline'
  );
}

describe('the tables of wrong-reason mutants and allowed choices', { timeout: 300_000 }, () => {
  it('give every check of the catalog at least one wrong-reason mutant', () => {
    // Those of every security scheme and error media type run in any-scheme.test.ts, those of what any document
    // declares in documents.test.ts, both on the fakes of test/fixtures/documents/.
    const covered = new Set(
      [...WRONG_REASON_MUTANTS, ...RESOURCE_WRONG_REASON, ...SECURED_BREAKS, ...DOC_BREAKS].map((r) => r.check),
    );
    assert.deepEqual(
      catalog.map((c) => c.id).filter((id) => !covered.has(id)),
      [],
    );
  });

  it('name only checks of the catalog, with an outcome the policy allows', () => {
    const ids = new Set(catalog.map((c) => c.id));
    for (const row of [
      ...WRONG_REASON_MUTANTS,
      ...ALLOWED_CHOICES,
      ...RESOURCE_WRONG_REASON,
      ...RESOURCE_ALLOWED,
      ...SECURED_BREAKS,
      ...SECURED_ALLOWED,
      ...DOC_BREAKS,
      ...DOC_ALLOWED,
    ])
      assert.ok(ids.has(row.check), `${row.check} is in the catalog`);
    for (const row of [...RESOURCE_WRONG_REASON, ...RESOURCE_ALLOWED])
      assert.ok(
        RESOURCE_CHECKS.includes(row.check),
        `${row.check}: a check of every operation or of the plant resource`,
      );
    for (const row of WRONG_REASON_MUTANTS) {
      assert.notEqual(row.expected, 'pass', `${row.check}: a wrong-reason mutant is never passed`);
      assert.notEqual(row.expected, 'error', `${row.check}: a mutant is graded, not an error`);
      if (row.expected === 'skip') assert.ok(row.reason, `${row.check}: a skip says why the check cannot tell`);
    }
    for (const row of ALLOWED_CHOICES)
      if (row.expected === 'skip') assert.ok(row.reason, `${row.check}: a skip says why`);
  });

  it('give every check that grades non-strict at least one allowed choice', () => {
    // The checks whose grading (docs/checks.md, audit) lets a departure be non-strict.
    const lenient = catalog.filter((c) => /non-strict/.test(c.grading)).map((c) => c.id);
    // The checks of every operation and of the plant resource show theirs on the fakes of test/fixtures/operations/ (operations.test.ts).
    const covered = new Set([
      ...ALLOWED_CHOICES.filter((r) => r.expected === 'non-strict').map((r) => r.check),
      ...NON_STRICT.map(([, , check]) => check),
      ...SECURED_ALLOWED.filter((r) => r.expected === 'non-strict').map((r) => r.check),
      ...DOC_ALLOWED.filter((r) => r.expected === 'non-strict').map((r) => r.check),
    ]);
    // PS-IDENT-002's non-strict (two creates of one body answered 2xx, not both 201, naming one item) is shown on
    // find-or-create.yaml, whose create declares 200 for a plant already stored (doc-mutants.ts, findsStored).
    assert.deepEqual(
      lenient.filter((id) => !covered.has(id)),
      [],
    );
  });
});

/** A wrong-reason mutant's test: never a pass. */
function wrongReasonTest(row: WrongReasonRow): void {
  it(`${row.check} ${row.expected}: ${switches(row)} (${row.why})`, async () => {
    const result = await runRow(row);
    assert.equal(result.outcome, row.expected, `${row.check} against ${switches(row)}: ${result.actual}`);
    if (row.reason) assert.match(result.actual ?? '', row.reason, `${row.check}: the skip says why`);
    if (row.expected === 'fail')
      assert.ok(result.expected && result.actual, `${row.check}: a failure says what was expected and what came back`);
  });
}

/** An allowed choice's test: never a failure. */
function allowedChoiceTest(row: AllowedChoiceRow): void {
  it(`${row.check} ${row.expected}: ${row.choice} (${row.source})`, async () => {
    const result = await runRow(row, row.restrictsTokens ?? true);
    assert.equal(result.outcome, row.expected, `${row.check} against ${switches(row)}: ${result.actual}`);
    if (row.reason) assert.match(result.actual ?? '', row.reason, `${row.check}: the skip says why`);
  });
}

// The allowed choices whose run checks.mutants.test.ts makes, and whose outcome it asserts (the same fake, checks,
// seed and cases: runAsMutant in test/support/mutants.ts), are not run twice.
const ALLOWED_HERE = ALLOWED_CHOICES.filter((row) => !runAsMutant(row));
const ALLOWED_AS_MUTANTS = ALLOWED_CHOICES.length - ALLOWED_HERE.length;

// A fake that holds creates (HOLDING) makes its run mostly wait: those rows come first, then the others, every row
// one after the other (side by side, a run computing beside a held create would make its verdict depend on the
// scheduler; npm test is bound by CPU, not by this file's waits).
describe('every row, the rows whose fake holds creates first', { timeout: 300_000 }, () => {
  describe('the rows whose fake holds creates, one after the other', () => {
    for (const row of WRONG_REASON_MUTANTS.filter(holds)) wrongReasonTest(row);
    for (const row of ALLOWED_HERE.filter(holds)) allowedChoiceTest(row);
  });

  describe('every other row, one table after the other', () => {
    describe('each check against a mutant that breaks its rule for another reason: never a pass', () => {
      for (const row of WRONG_REASON_MUTANTS.filter((r) => !holds(r))) wrongReasonTest(row);
    });

    describe(`each non-strict grade against a correct server that makes the allowed choice: never a failure (${ALLOWED_AS_MUTANTS} run as mutants by checks.mutants.test.ts)`, () => {
      for (const row of ALLOWED_HERE.filter((r) => !holds(r))) allowedChoiceTest(row);
    });

    describe(
      'each check of every operation and of the plant resource against a mutant of the multi-operation fake: a failure, for its own rule only',
      { timeout: 300_000 },
      () => {
        for (const row of RESOURCE_WRONG_REASON) {
          it(`${row.check} fails ${row.fixture} with ${row.breaks.join(' + ')}, for its rule (${row.why})`, async () => {
            const results = await runResourceFake(row.fixture, row.breaks);
            const result = results.find((x) => x.id === row.check)!;
            assert.equal(result.outcome, row.expected, `${row.check}: ${result.actual ?? ''}`);
            assert.match(result.cause ?? '', row.cause, `${row.check}: the cause names the rule broken`);
            assert.ok(
              result.expected && result.actual,
              `${row.check}: a failure says what was expected and what came back`,
            );
            assert.deepEqual(
              failingResults(results).filter((f) => !f.startsWith(`${row.check} `)),
              [],
              'no other check fails it: it breaks this rule only',
            );
          });
        }
      },
    );

    describe(
      'each check of every operation and of the plant resource against an allowed choice: never a failure',
      { timeout: 300_000 },
      () => {
        for (const row of RESOURCE_ALLOWED) {
          it(`${row.check} ${row.expected}: ${row.fixture} with ${row.breaks.join(' + ')}, ${row.choice} (${row.source})`, async () => {
            const results = await runResourceFake(row.fixture, row.breaks);
            const result = results.find((x) => x.id === row.check)!;
            assert.equal(result.outcome, row.expected, `${row.check}: ${result.actual ?? ''}`);
            assert.deepEqual(failingResults(results), [], 'no check fails an allowed choice');
          });
        }
      },
    );
  });
});
