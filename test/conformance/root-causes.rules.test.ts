// The rules by which failures are grouped under a root cause (run/root-causes.ts),
// each on results made by hand: what links a later failure to a departure is
// the evidence of the cases (the member and the value the target took, the
// violation the later departure names), never the names of checks.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { Outcome } from '../../conformance/checks/types.js';
import {
  checksOf,
  failureGroups,
  summarize,
  type CaseResult,
  type CaseTrace,
  type CheckResult,
  type TargetResult,
} from '../../conformance/run/result.js';

/** A departing case: its cause, its Actual and its trace. */
function departing(check: string, cause: string, trace?: CaseTrace, outcome: Outcome = 'fail'): CaseResult {
  return {
    outcome,
    check,
    cause,
    expected: 'e',
    actual: `${cause}: 200`,
    reproduce: `curl ${check}`,
    ...(trace ? { trace } : {}),
  };
}

function result(id: string, ...cases: CaseResult[]): CheckResult {
  const worst = cases.some((c) => c.outcome === 'fail') ? 'fail' : (cases[0]?.outcome ?? 'pass');
  return {
    id,
    title: id,
    level: 'MUST',
    outcome: worst,
    requirement: 'r',
    source: { document: 'd', section: 's' },
    expected: null,
    actual: null,
    reproduce: null,
    cause: cases[0]?.cause ?? null,
    requests: cases.length,
    cases,
  };
}

function target(...results: CheckResult[]): TargetResult {
  return {
    target: {
      name: 'target',
      url: 'http://127.0.0.1:1',
      token: 't',
      role: 'target',
      informs: false,
      restrictsTokens: true,
    },
    summary: summarize(results),
    results,
  };
}

/** The create took a value its schema refuses at `pointer`. */
const took = (pointer: string, value: string): CaseTrace => ({
  operation: 'POST /plants',
  status: 200,
  accepted: [{ pointer, value }],
});
/** The list answered values its schema refuses. */
const listed = (...values: Array<[string, string]>): CaseTrace => ({
  operation: 'GET /plants',
  status: 200,
  answered: values.map(([pointer, value]) => ({ pointer, value, problem: `${pointer} must be string` })),
});
const ACCEPTED = 'invalid data is answered 200, not rejected with a 4xx';

describe('the grouping by root cause', () => {
  it('takes every value refused at one member of one operation for one root, whatever the check', () => {
    const groups = failureGroups(
      target(
        result('PS-REJECT-002', departing('PS-REJECT-002', ACCEPTED, took('/tag', '42'))),
        result('PS-REJECT-003', departing('PS-REJECT-003', ACCEPTED, took('/tag', 'null'))),
      ),
      false,
    );
    assert.equal(groups.length, 1);
    assert.deepEqual(groups[0]!.checks, ['PS-REJECT-002', 'PS-REJECT-003']);
    assert.deepEqual(
      groups[0]!.accepted?.values.map((v) => v.value),
      ['42', 'null'],
    );
  });

  it('keeps two members apart, and joins them where one request took values at both', () => {
    const apart = target(
      result('PS-REJECT-002', departing('PS-REJECT-002', ACCEPTED, took('/tag', '42'))),
      result('PS-REJECT-012', departing('PS-REJECT-012', ACCEPTED, took('/name', '""'))),
    );
    assert.equal(failureGroups(apart, false).length, 2);
    const both: CaseTrace = {
      operation: 'POST /plants',
      status: 200,
      accepted: [
        { pointer: '/tag', value: '1' },
        { pointer: '/name', value: '2' },
      ],
    };
    const joined = target(...apart.results, result('PS-GEN-002', departing('PS-GEN-002', ACCEPTED, both)));
    assert.equal(failureGroups(joined, false).length, 1);
  });

  it('lists a later failure under the root when its answer carries a value the root took, at the same member', () => {
    const t = target(
      result('PS-REJECT-002', departing('PS-REJECT-002', ACCEPTED, took('/tag', '42'))),
      result('PS-OP-002', departing('PS-OP-002', '/7/tag must be string', listed(['/7/tag', '42'], ['/9/tag', '5']))),
    );
    const groups = failureGroups(t, false);
    assert.equal(groups.length, 1);
    assert.deepEqual(groups[0]!.consequences?.[0]?.checks, ['PS-OP-002']);
    assert.equal(groups[0]!.consequences?.[0]?.count, 2);
    assert.deepEqual(checksOf(groups[0]!), ['PS-REJECT-002', 'PS-OP-002']);
  });

  it('keeps a failure apart when its answer carries no value the root took', () => {
    const t = target(
      result('PS-REJECT-002', departing('PS-REJECT-002', ACCEPTED, took('/tag', '42'))),
      result('PS-OP-002', departing('PS-OP-002', '/7/tag must be string', listed(['/7/tag', '"x"']))),
    );
    assert.equal(failureGroups(t, false).length, 2);
  });

  it('keeps a failure apart when its answer also breaks the schema at a member no root took', () => {
    const t = target(
      result('PS-REJECT-002', departing('PS-REJECT-002', ACCEPTED, took('/tag', '42'))),
      result('PS-OP-002', departing('PS-OP-002', '/7/tag must be string', listed(['/7/tag', '42'], ['/8/name', '3']))),
    );
    assert.equal(failureGroups(t, false).length, 2);
  });

  it('keeps a failure apart when it is not about those values (it does not name them)', () => {
    const t = target(
      result('PS-REJECT-002', departing('PS-REJECT-002', ACCEPTED, took('/tag', '42'))),
      result('PS-STATE-005', departing('PS-STATE-005', 'the created plant is not listed', listed(['/7/tag', '42']))),
    );
    assert.equal(failureGroups(t, false).length, 2);
  });

  it('takes valid creates refused as ids one double with ids the target took for one root, whatever the check', () => {
    const refused = (id: string, as: string): CaseTrace => ({
      operation: 'POST /plants',
      status: 400,
      refusedId: id,
      sameDoubleAs: as,
    });
    const groups = failureGroups(
      target(
        result(
          'PS-STATE-002',
          departing(
            'PS-STATE-002',
            'a valid POST /plants is answered 400, not 200',
            refused('9007199254740993', '9007199254740992'),
          ),
        ),
        result(
          'PS-GEN-001',
          departing(
            'PS-GEN-001',
            'a valid POST /plants is answered 400, not 200',
            refused('9143431625595715814', '9143431625595715819'),
          ),
        ),
        // A refusal with no such twin is another cause.
        result(
          'PS-ACCEPT-007',
          departing('PS-ACCEPT-007', 'a valid POST /plants is answered 400, not 200', {
            operation: 'POST /plants',
            status: 400,
            refusedId: '0',
          }),
        ),
      ),
      false,
    );
    assert.equal(groups.length, 2);
    assert.deepEqual(groups[0]!.checks, ['PS-STATE-002', 'PS-GEN-001']);
    assert.deepEqual(groups[0]!.sameDouble?.ids, [
      { refused: '9007199254740993', as: '9007199254740992' },
      { refused: '9143431625595715814', as: '9143431625595715819' },
    ]);
    assert.deepEqual(groups[1]!.checks, ['PS-ACCEPT-007']);
  });

  it('counts non-strict departures only under --strict', () => {
    const t = target(
      result('PS-REJECT-011', departing('PS-REJECT-011', 'another media type accepted', undefined, 'non-strict')),
    );
    assert.deepEqual(failureGroups(t, false), []);
    assert.equal(failureGroups(t, true).length, 1);
  });
});
