// The console's diagnoses: one paragraph per cause, targets named as given,
// evidence once when the targets share it and per target when they do not.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { diagnosisGroups, diagnosisLines } from '../../conformance/report/console-diagnosis.js';
import type { Diagnosis } from '../../conformance/run/diagnose.js';
import type { RunResult, TargetResult } from '../../conformance/run/result.js';

const NO_TOKEN: Diagnosis = {
  kind: 'no-token',
  problem: 'no token was given, and the target requires one',
  evidence: 'A valid POST /plants with a placeholder token was answered 401.',
  fix: 'Set PLANTSTORE_TOKEN.',
};

function target(name: string, diagnosis?: Diagnosis, informs = false): TargetResult {
  return {
    target: {
      name,
      url: `http://127.0.0.1:9/${name}`,
      token: 'placeholder-token',
      role: informs ? 'prism' : 'target',
      ...(informs ? { informs } : {}),
    },
    summary: { pass: 0, 'non-strict': 0, fail: 0, skip: 0, error: 0 },
    results: [],
    ...(diagnosis ? { diagnosis } : {}),
  } as unknown as TargetResult;
}

const run = (targets: TargetResult[]) =>
  ({ seed: 1, strict: false, lint: [], targets, divergences: [], matrix: [] }) as unknown as RunResult;

test('targets that share a cause are one paragraph naming each as given; another cause is its own paragraph; checked targets none', () => {
  const down: Diagnosis = {
    kind: 'unreachable',
    problem: 'cannot connect: nothing listens on 127.0.0.1:9 (connection refused)',
    fix: 'Start the server first.',
  };
  const targets = [
    target('a', NO_TOKEN),
    target('notag', NO_TOKEN),
    target('checked'),
    target('down', down),
    target('c', NO_TOKEN),
  ];
  assert.deepEqual(
    diagnosisGroups(targets).map((g) => g.map((t) => t.target.name)),
    [['a', 'notag', 'c'], ['down']],
  );
  assert.deepEqual(diagnosisLines(run(targets), false), [
    '3 targets were not checked, for one cause: no token was given, and the target requires one.',
    '  a (http://127.0.0.1:9/a), notag (http://127.0.0.1:9/notag), c (http://127.0.0.1:9/c)',
    '  A valid POST /plants with a placeholder token was answered 401.',
    '  What to do: Set PLANTSTORE_TOKEN.',
    '',
    'Target down (http://127.0.0.1:9/down) was not checked: cannot connect: nothing listens on 127.0.0.1:9 (connection refused).',
    '  What to do: Start the server first.',
    '',
  ]);
});

test('one cause, different evidence: the evidence of each target, by name', () => {
  const other = { ...NO_TOKEN, evidence: 'A valid POST /plants with a placeholder token was answered 403.' };
  const lines = diagnosisLines(run([target('a', NO_TOKEN), target('b', other)]), false);
  assert.deepEqual(lines.slice(2, 4), [
    '  a: A valid POST /plants with a placeholder token was answered 401.',
    '  b: A valid POST /plants with a placeholder token was answered 403.',
  ]);
});

test('the one unnamed --target is "The target"; a run where every target was checked prints nothing', () => {
  assert.match(
    diagnosisLines(run([target('target', NO_TOKEN)]), false)[0]!,
    /^The target \(http:\/\/127\.0\.0\.1:9\/target\) was not checked: no token/,
  );
  assert.deepEqual(diagnosisLines(run([target('a'), target('b')]), false), []);
});

test('control characters a target sent are escaped before they reach the terminal', () => {
  const hostile = { ...NO_TOKEN, evidence: 'answered 401 ("\u001b[2Jcleared")' };
  const text = diagnosisLines(run([target('a', hostile)]), false).join('\n');
  assert.ok(!text.includes('\u001b'), JSON.stringify(text));
});
