// Every check is proven able to fail: against the fake server's correct
// baseline it passes, and against a mutant that breaks exactly its rule it
// grades `fail` (or `non-strict`/`skip` where the grading policy says so).
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { catalog } from '../../conformance/checks/index.js';
import { DISRUPTIVE, type Outcome } from '../../conformance/checks/types.js';
import type { TargetResult } from '../../conformance/run/result.js';
import { runTarget } from '../../conformance/run/runner.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { startFake, type FakeServer } from '../support/fake-server.js';
import type { FakeOptions, Mutation } from '../support/fake-mutations.js';
import { checksRunAgainst, EARLIER_RUNS, HOLDING, MUTANTS } from '../support/mutants.js';

const TOKEN = 'mutant-test-token';
const model = loadSpecModel();

async function runAgainst(
  fake: FakeServer,
  only?: string[],
  restrictsTokens = true,
  idOffset = 0n,
): Promise<TargetResult> {
  return runTarget(
    { model, targets: [], seed: 20240611, idOffset, cases: 30, timeoutMs: 10_000, only },
    { name: 'fake', url: fake.url, token: TOKEN, role: 'target', informs: false, restrictsTokens },
  );
}

function outcomes(r: TargetResult): Record<string, string> {
  return Object.fromEntries(r.results.map((x) => [x.id, x.outcome]));
}

describe('the baseline fake server', () => {
  let fake: FakeServer;
  before(async () => {
    fake = await startFake({ tokens: [TOKEN] });
  });
  after(() => fake.close());

  it('passes every check, twice in a row against the same server (one seed, another id offset)', async () => {
    for (let i = 0; i < 2; i++) {
      // One seed sends the same ids again (--seed replays a run): a rerun against the same target gives another id offset.
      const r = await runAgainst(fake, undefined, true, BigInt(i));
      // The state checks of the plant resource skip where the document declares no list, read or delete (the seed's), saying why.
      const notPass = r.results
        .filter((x) => x.outcome !== 'pass' && !(x.outcome === 'skip' && x.ruledOut))
        .map((x) => `${x.id} ${x.outcome}: ${x.actual}`);
      assert.deepEqual(notPass, [], `run ${i + 1}`);
      assert.equal(r.results.length, catalog.length);
    }
  });

  it('sees that the target restricts tokens without being told (a random token refused), and runs the unknown-token check', async () => {
    const r = await runAgainst(fake, ['PS-AUTH-006'], false);
    assert.equal(r.results[0]!.outcome, 'pass');
    assert.equal(r.results[0]!.requests, 4, 'a random token and three near misses of the real one');
  });

  it('skips the unknown-token check, saying why, against a target that accepts any token', async () => {
    const open = await startFake();
    try {
      const r = await runAgainst(open, ['PS-AUTH-006'], false);
      assert.equal(r.results[0]!.outcome, 'skip');
      assert.match(r.results[0]!.actual ?? '', /accepts a random token/);
    } finally {
      await open.close();
    }
  });
});

const byMutant = new Map<Mutation, Array<[string, Outcome]>>();
for (const [id, mutant, outcome] of MUTANTS) byMutant.set(mutant, [...(byMutant.get(mutant) ?? []), [id, outcome]]);

/** The test of a mutant: each of its rows' checks grades it as the row says. */
function mutantTest(mutant: Mutation, rows: Array<[string, Outcome]>): void {
  it(`${mutant}: ${rows.map(([id, o]) => `${id} ${o}`).join(', ')}`, async () => {
    const fake = await startFake({ tokens: [TOKEN], [mutant]: true });
    try {
      // Aggregate checks grade the exchanges of the whole run.
      const r = await runAgainst(fake, checksRunAgainst(mutant));
      const got = outcomes(r);
      for (const [id, expected] of rows) {
        const result = r.results.find((x) => x.id === id)!;
        assert.equal(got[id], expected, `${id} against ${mutant}: ${result.actual}`);
        if (expected === 'fail') {
          assert.ok(result.expected && result.actual, `${id}: a failure says what was expected and what came back`);
          // A curl line, or a node -e line where curl cannot send the same bytes (a body in several chunks).
          assert.match(
            result.reproduce ?? '',
            /^((printf .* \| )?curl |node -e )/,
            `${id}: a failure has a line that reproduces it`,
          );
        }
      }
    } finally {
      await fake.close();
    }
  });
}

describe('each check against the mutant that breaks its rule', () => {
  for (const [mutant, rows] of byMutant) if (!HOLDING.includes(mutant)) mutantTest(mutant, rows);
});

// The runs that mostly wait (a mutant that holds a create; a deadline that a hung or a blocked target reaches,
// each reached only where the target never answers), together, one after the other like every run of this file:
// side by side they would take half the wall time, but npm test is bound by CPU, not by this file's waits, and a
// run computing beside a deadline would make the deadline's verdict depend on the scheduler.
describe('the runs that wait', { timeout: 300_000 }, () => {
  describe('the mutants that hold a create', () => {
    for (const [mutant, rows] of byMutant) if (HOLDING.includes(mutant)) mutantTest(mutant, rows);
  });

  describe('a target that hangs on a hostile input', () => {
    it('fails PS-ROBUST-001: no answer within the deadline is a hang, not a harness error', async () => {
      const fake = await startFake({ tokens: [TOKEN], hangOnDeepNesting: true });
      try {
        const r = await runTarget(
          // The hung bodies cost the deadline each; it is long enough that the others are answered within it on a loaded machine.
          { model, targets: [], seed: 1, cases: 5, timeoutMs: 5000, only: ['PS-ROBUST-001'] },
          { name: 'fake', url: fake.url, token: TOKEN, role: 'target', informs: false, restrictsTokens: true },
        );
        assert.equal(r.results[0]!.outcome, 'fail');
        assert.match(r.results[0]!.actual ?? '', /unclosed.*did not answer within 5 s/);
      } finally {
        await fake.close();
      }
    });
  });

  describe('a target that a hostile body blocks', { timeout: 300_000 }, () => {
    it('keeps every verdict reached before: the checks that may knock a target out run last, and the report names the request that stopped it', async () => {
      const fake = await startFake({ tokens: [TOKEN], darkAfterDeepNesting: true });
      try {
        const r = await runTarget(
          { model, targets: [], seed: 1, cases: 5, timeoutMs: 3000 },
          { name: 'fake', url: fake.url, token: TOKEN, role: 'target', informs: false, restrictsTokens: true },
        );
        // PS-ROBUST-002's body nested 10 000 deep is the first that blocks it.
        assert.equal(r.stoppedBy?.check, 'PS-ROBUST-002', JSON.stringify(r.stoppedBy));
        assert.match(r.stoppedBy.case ?? '', /nest/);
        const disruptive = new Set(catalog.filter((c) => DISRUPTIVE.has(c.stage ?? 'ordinary')).map((c) => c.id));
        const others = r.results.filter((x) => !disruptive.has(x.id));
        // Every other check, the aggregate ones included, has the verdict it has against the baseline: none is an error.
        assert.deepEqual(
          others
            .filter((x) => x.outcome === 'error' || x.outcome === 'fail')
            .map((x) => `${x.id} ${x.outcome}: ${x.actual}`),
          [],
        );
        assert.ok(others.filter((x) => x.outcome === 'pass').length > others.length / 2);
        // What ran after it: not run, and said so.
        for (const id of ['PS-ROBUST-004', 'PS-ROBUST-001'])
          assert.match(r.results.find((x) => x.id === id)!.actual ?? '', /^not run: /, id);
      } finally {
        await fake.close();
      }
    });
  });
});

describe('an invalid id read leniently onto a stored plant', { timeout: 300_000 }, () => {
  it("is proved by the refusal's own message: the duplicate answer names another id than the one sent", async () => {
    // Ids kept as doubles on a target that holds the int64 ends: one past them reads as a stored end.
    const fake = await startFake({ tokens: [TOKEN], doubleIds: true, preStored: EARLIER_RUNS });
    try {
      const r = await runAgainst(fake, ['PS-REJECT-004', 'PS-REJECT-005']);
      for (const [id, sent] of [
        ['PS-REJECT-004', '9223372036854775808'],
        ['PS-REJECT-005', '-9223372036854775809'],
      ] as const) {
        const result = r.results.find((x) => x.id === id)!;
        assert.equal(result.outcome, 'fail', id);
        assert.ok(
          result.cases?.some((c) => c.actual?.includes(`not ${sent} as sent`)),
          `${id}: ${JSON.stringify(result.cases)}`,
        );
      }
    } finally {
      await fake.close();
    }
  });
});

// Where the specification is silent, other correct servers decide otherwise:
// the harness may call their choices non-strict, never fail.
describe('correct servers that decide differently: no check fails', { timeout: 300_000 }, () => {
  const variants: Array<[string, FakeOptions]> = [
    [
      'GET /plants lists plants, DELETE /plants/{id} deletes one (operations the specification does not show)',
      { tokens: [TOKEN], extraOperations: true },
    ],
    ['any token accepted', {}],
    ['repeated ids accepted', { tokens: [TOKEN], duplicatesAccepted: true }],
    ['other methods answered 404', { tokens: [TOKEN], no405: true }],
    ['invalid bodies answered 422 with an Error body', { tokens: [TOKEN], status422: true }],
    // The allowed choices of ALLOWED_CHOICES (test/support/mutants.ts) that need no other document, over the whole catalog.
    ['the id echoed back (Plant allows properties it does not name)', { tokens: [TOKEN], echoId: true }],
    [
      'a long-lived target: 0, 1, 2 and the int64 ends stored by earlier runs',
      { tokens: [TOKEN], preStored: EARLIER_RUNS },
    ],
    [
      'a long-lived target whose duplicate answer does not name the id',
      { tokens: [TOKEN], preStored: EARLIER_RUNS, duplicateWithoutId: true },
    ],
    ['refused credentials answered 403 with the Bearer challenge', { tokens: [TOKEN], credentials403: true }],
    [
      'an empty or malformed token answered 400 invalid_request with the Bearer challenge',
      { tokens: [TOKEN], malformedToken400: true },
    ],
    ['another media type refused with 400 and an Error', { tokens: [TOKEN], unsupportedMediaType400: true }],
    ['undeclared error statuses answered application/problem+json', { tokens: [TOKEN], problemJsonUndeclared: true }],
    ['nesting beyond 1 000 refused with 400 and an Error', { tokens: [TOKEN], depthLimit: 400 }],
    ['a repeated id refused with 409', { tokens: [TOKEN], duplicate409: true }],
    ['an unsent tag echoed as ""', { tokens: [TOKEN], defaultTag: true }],
    [
      'a byte order mark ignored, a repeated member name read as its last value',
      { tokens: [TOKEN], stripBom: true, repeatedNameLastWins: true },
    ],
    ['bodies over 8 KiB answered 413', { tokens: [TOKEN], bodyLimit413: true }],
    ['NUL in a string refused with 400 and an Error (RFC 8259 §9 limits)', { tokens: [TOKEN], refuseNul: true }],
    ['405 with an Allow that omits POST', { tokens: [TOKEN], allowWithoutPost: true }],
  ];
  for (const [name, options] of variants) {
    it(name, async () => {
      const fake = await startFake(options);
      try {
        const r = await runAgainst(fake, undefined, false);
        const broken = r.results
          .filter((x) => x.outcome === 'fail' || x.outcome === 'error')
          .map((x) => `${x.id} ${x.outcome}: ${x.actual}`);
        assert.deepEqual(broken, []);
      } finally {
        await fake.close();
      }
    });
  }
});

// Verdicts stay data until a report renders them: what a failure is about
// comes as typed facts beside the prose (the JSON report carries them).
describe('the facts of a verdict', { timeout: 120_000 }, () => {
  const cases: Array<[Mutation, string, Record<string, unknown>]> = [
    ['status201', 'PS-ACCEPT-001', { status: 201 }],
    ['dropTag', 'PS-ACCEPT-001', { status: 200, pointer: '/tag', expectedValue: '"tropical"' }],
    ['noWwwAuthenticate', 'PS-AUTH-001', { status: 401, header: { name: 'www-authenticate', value: null } }],
    ['acceptMissingName', 'PS-REJECT-001', { status: 200 }],
  ];
  for (const [mutation, id, facts] of cases) {
    it(`${mutation}: ${id} says ${JSON.stringify(facts)}`, async () => {
      const fake = await startFake({ tokens: [TOKEN], [mutation]: true });
      try {
        const r = await runAgainst(fake, [id]);
        const result = r.results[0]!;
        assert.equal(result.outcome, 'fail', result.actual ?? '');
        assert.deepEqual(result.facts, facts);
        assert.ok(result.case, 'the case the verdict is about is named');
      } finally {
        await fake.close();
      }
    });
  }
});
