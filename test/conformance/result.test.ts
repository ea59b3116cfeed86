// The exit code read from a run's results: only the deciding targets (the
// reference server and the --targets) count; an informing target (the Prism
// mock) shows its failures but never decides.
import { strict as assert } from 'node:assert';
import { it } from 'node:test';
import type { Outcome } from '../../conformance/checks/types.js';
import { decidingTargets, exitCode, summarize, type TargetResult } from '../../conformance/run/result.js';
import type { Role } from '../../conformance/model/target.js';

function target(name: string, role: Role, outcome: Outcome, unreachable?: string): TargetResult {
  const results = [
    {
      id: 'PS-AUTH-001',
      title: 't',
      level: 'MUST' as const,
      outcome,
      requirement: 'r',
      source: { document: 'd', section: 's' },
      expected: null,
      actual: null,
      reproduce: null,
      requests: 1,
    },
  ];
  return {
    target: { name, url: 'http://127.0.0.1:1', token: 't', role, informs: role === 'prism', restrictsTokens: false },
    summary: summarize(results),
    results,
    unreachable,
  };
}

it('an informing target never decides the exit code, a deciding one does', () => {
  const reference = target('reference', 'reference', 'pass');
  assert.equal(exitCode([reference, target('prism', 'prism', 'fail')], false), 0);
  assert.equal(exitCode([reference, target('prism', 'prism', 'error', 'refused')], false), 0);
  assert.equal(exitCode([reference, target('target', 'target', 'fail')], false), 1);
  assert.equal(exitCode([reference, target('target', 'target', 'non-strict')], false), 0);
  assert.equal(exitCode([reference, target('target', 'target', 'non-strict')], true), 1);
  assert.equal(exitCode([reference, target('target', 'target', 'error')], false), 2);
  assert.equal(exitCode([target('reference', 'reference', 'pass', 'refused')], false), 2);
  assert.deepEqual(
    decidingTargets([reference, target('prism', 'prism', 'fail')]).map((t) => t.target.name),
    ['reference'],
  );
});

it('findings are kept: a failed check makes the code 1 even where a target stopped answering or a check ended in error', () => {
  const failedThenDied = target('target', 'target', 'fail', 'closed (5 requests in a row got no answer)');
  assert.equal(exitCode([failedThenDied], false), 1);
  // The failure on one target and an error (or a target given up) on another: the finding wins.
  assert.equal(exitCode([target('a', 'target', 'fail'), target('b', 'target', 'error')], false), 1);
  assert.equal(exitCode([target('a', 'target', 'error', 'refused'), target('b', 'target', 'fail')], false), 1);
  // Under --strict a non-strict verdict is a finding too, and wins over 2 in the same way.
  const lenientThenDied = target('target', 'target', 'non-strict', 'closed');
  assert.equal(exitCode([lenientThenDied], true), 1);
  assert.equal(exitCode([lenientThenDied], false), 2, 'without --strict it is no finding: the run could not finish');
  // Nothing failed and the harness could not do its whole job: 2.
  assert.equal(exitCode([target('target', 'target', 'pass', 'closed')], false), 2);
  assert.equal(exitCode([target('target', 'target', 'error')], false), 2);
});
