// Failures grouped by the departure behind them (issue 45, item 1), on a
// real run: a fake of the CRUD document that does not judge `tag` (it stores
// 42 and null as sent) fails the checks that send them and, later, every
// check that reads the list (it lists every plant, whatever the limit: a
// second, unrelated departure); the reports show one root cause with those
// later failures listed under it, and the other cause apart, on the console
// and in the JSON report.
import { strict as assert } from 'node:assert';
import { before, describe, it } from 'node:test';
import { whatFailedLines, closingLine } from '../../conformance/report/console.js';
import { toJsonReport } from '../../conformance/report/json.js';
import { checksOf, exitCode, failureGroups, runResult, type TargetResult } from '../../conformance/run/result.js';
import { runTarget } from '../../conformance/run/runner.js';
import { catalog } from '../../conformance/checks/index.js';
import { startResourceFake } from '../support/fake-resource.js';
import { startFake } from '../support/fake-server.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';

const TOKEN = 'root-causes-test-token';
// The resource fake serves the document's operations, not every way of writing a request: it compares
// the scheme and the spaces after it as written, which PS-AUTH-005/008 fail (the create's fake does not).
const CHECKS = catalog.map((c) => c.id).filter((id) => id !== 'PS-AUTH-005' && id !== 'PS-AUTH-008');

async function run(breaks: Parameters<typeof startResourceFake>[2]): Promise<TargetResult> {
  const fake = await startResourceFake('crud', TOKEN, breaks);
  try {
    return await runTarget(
      { model: fake.model, targets: [], seed: 11, cases: 10, timeoutMs: 60_000, only: CHECKS },
      { name: 'target', url: fake.url, token: TOKEN, role: 'target', informs: false, restrictsTokens: true },
    );
  } finally {
    await fake.close();
  }
}

describe('a target that stores a tag its schema refuses: one root cause, its consequences under it', () => {
  let t: TargetResult;
  before(async () => {
    t = await run(['tagUnchecked', 'limitIgnored']);
  });

  it('groups every failure that involves the stored tag under one root', () => {
    const groups = failureGroups(t, false);
    const tagged = groups.filter((g) => checksOf(g).length > 0 && /\/tag\b/.test(JSON.stringify(g)));
    assert.equal(tagged.length, 1, groups.map((g) => g.cause).join('\n'));
    const root = tagged[0]!;
    assert.equal(root.accepted?.operation, 'POST /plants');
    assert.ok(root.accepted.values.every((v) => v.pointer === '/tag'));
    // Both kinds of bad value the fake stored are one departure: it does not judge the member.
    assert.ok(root.accepted.values.some((v) => v.value === '42'));
    assert.ok(root.accepted.values.some((v) => v.value === 'null'));
    const later = root.consequences ?? [];
    const list = later.find((q) => q.operation === 'GET /plants');
    assert.ok(list, `the list's failures are a consequence: ${JSON.stringify(later)}`);
    assert.deepEqual(list.checks, ['PS-OP-002', 'PS-DOC-002', 'PS-RESP-003'], 'several later checks');
    assert.ok(list.values.every((v) => /^\/\d+\/tag$/.test(v.pointer)));
    // Every check that failed is accounted for once: the root, its consequences, or another cause.
    const failed = t.results.filter((r) => r.outcome === 'fail' || r.outcome === 'error').map((r) => r.id);
    const accounted = new Set(groups.flatMap(checksOf));
    assert.deepEqual(
      failed.filter((id) => !accounted.has(id)),
      [],
    );
    assert.ok(groups.indexOf(root) === 0, 'the root that accounts for the most checks leads');
    // The unrelated departure stays a cause of its own.
    assert.deepEqual(
      groups.slice(1).map((g) => g.checks),
      [['PS-STATE-008']],
    );
  });

  it('the console leads with the root cause and lists its consequences under it', () => {
    const run = runResult({ seed: 11, strict: false, lint: [], targets: [t], divergences: [] });
    const lines = whatFailedLines(run, { color: false });
    const groups = failureGroups(run.targets[0]!, false);
    assert.match(lines[0]!, new RegExp(`: \\d+ check\\(s\\), ${groups.length} cause\\(s\\)$`));
    assert.match(
      lines[1]!,
      /^ {2}\[1\] × POST \/plants accepts what its request schema refuses at \/tag \(.*\), and later answers carry it \(\d+ checks: \d+ show it, \d+ fail on it later\)$/,
    );
    const consequence = lines.findIndex((l) => l.startsWith('      → then GET /plants answers 200 with it: /'));
    const second = lines.findIndex((l) => l.startsWith('  [2]'));
    assert.ok(consequence > 1 && (second === -1 || consequence < second), lines.join('\n'));
    assert.match(lines[consequence + 2]!, /Reproduce: curl .* -X GET '[^']*\/plants'/);
    assert.match(
      closingLine(run, exitCode(run.targets, false)),
      new RegExp(`, ${groups.length} cause\\(s\\), on 1 target`),
    );
  });

  it('the JSON report carries the grouping: the root, what it took, and its consequences', () => {
    const json = toJsonReport(runResult({ seed: 11, strict: false, lint: [], targets: [t], divergences: [] }));
    const root = json.targets[0]!.failures[0]!;
    assert.equal(root.accepted?.operation, 'POST /plants');
    const list = root.consequences?.find((q) => q.operation === 'GET /plants');
    assert.ok(list);
    assert.equal(list.status, 200);
    assert.ok(list.count >= list.values.length && list.values.length > 0);
    assert.ok(list.reproduce?.includes("/plants'"));
    // Each case carries its trace, the evidence of the grouping.
    const cases = json.targets[0]!.results.flatMap((r) => r.cases ?? []);
    assert.ok(cases.some((c) => c.trace?.accepted?.some((v) => v.pointer === '/tag')));
    assert.ok(cases.some((c) => c.trace?.answered?.some((v) => /^\/\d+\/tag$/.test(v.pointer))));
  });
});

describe('the same document, served right: no root cause', () => {
  it('a fake that refuses the bad tags has no failure at all', async () => {
    const t = await run([]);
    assert.deepEqual(failureGroups(t, false), []);
  });
});

describe('a target that reads ids as doubles: its refusals of ids it cannot tell apart are one root', () => {
  it('every valid create refused as an id one double with one it took is one cause, with the pairs', async () => {
    const fake = await startFake({ tokens: [TOKEN], roundIds: true });
    let t: TargetResult;
    try {
      t = await runTarget(
        { model: loadSpecModel(), targets: [], seed: 11, cases: 10, timeoutMs: 60_000 },
        { name: 'target', url: fake.url, token: TOKEN, role: 'target', informs: false, restrictsTokens: true },
      );
    } finally {
      await fake.close();
    }
    const groups = failureGroups(t, false);
    const conflated = groups.filter((g) => g.sameDouble !== undefined);
    assert.equal(conflated.length, 1, groups.map((g) => g.cause).join('\n'));
    const root = conflated[0]!;
    assert.ok(root.checks.includes('PS-STATE-002'), root.checks.join(', '));
    assert.ok(root.checks.length >= 2, `several checks: ${root.checks.join(', ')}`);
    for (const { refused, as } of root.sameDouble!.ids) {
      assert.notEqual(refused, as);
      assert.equal(Number(refused), Number(as), `${refused} and ${as} are one double`);
    }
    assert.equal(groups.filter((g) => g.checks.includes('PS-STATE-002')).length, 1);
  });
});
