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
