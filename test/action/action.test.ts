// The GitHub Action run against targets, as the runner runs it
// (test/support/action-step.ts). Against the fake server's baseline it exits
// 0; against a mutant it exits 1 (the step fails) and the summary lists each
// failure with its curl line; against a refused port, or without the token a
// target requires, it exits 2 and says why; a token the target echoes, cut
// anywhere, leaves no 8 of its characters in the summary or the log (each
// run of 8 is masked); a run that ends before its report never shows an
// earlier run's. The bundle itself: checkout.test.ts; the summary from a
// report alone: summary.test.ts.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort } from '../../lib/process.js';
import type { JsonReport } from '../../conformance/report/json.js';
import { runStep, tempFolder, TOKEN, type StepRun } from '../support/action-step.js';
import { echoed, fragmentsIn, startEchoingTarget } from '../support/echoing-target.js';
import { startFake, type FakeServer } from '../support/fake-server.js';

/**
 * A fresh workspace whose config file (the `config` input) runs only `checks`: where a test looks at the step's
 * mechanics (exit code, reports, summary, outputs), a few checks show them as the whole catalog would. The whole
 * catalog runs through the bundle below, where the assertion is about every check's output (the token-echoing
 * target); the bundle passing the whole catalog against the fake's baseline: checkout.test.ts (from a checkout of the
 * action alone).
 */
function narrowedTo(checks: string[]): { config: { config: string }; workspace: { workspace: string } } {
  const workspace = tempFolder('plantstore-action-');
  writeFileSync(join(workspace, 'narrowed.yaml'), `only: ${checks.join(',')}\n`);
  return { config: { config: 'narrowed.yaml' }, workspace: { workspace } };
}

/**
 * The step against a target that breaks a rule (no WWW-Authenticate), once for the file: the test of a failing run
 * reads it, and the test of a run that ends before its report runs again in its workspace. Two checks the missing
 * WWW-Authenticate fails, one it passes. The target stays up until the file ends.
 */
let breaking: Promise<{ fake: FakeServer; step: StepRun }> | undefined;
function breakingRun(): Promise<{ fake: FakeServer; step: StepRun }> {
  breaking ??= (async () => {
    const fake = await startFake({ tokens: [TOKEN], noWwwAuthenticate: true });
    try {
      const narrowed = narrowedTo(['PS-AUTH-001', 'PS-AUTH-002', 'PS-ACCEPT-001']);
      return {
        fake,
        step: await runStep({ target: fake.url, token: TOKEN, seed: '3', ...narrowed.config }, narrowed.workspace),
      };
    } catch (err) {
      await fake.close();
      throw err;
    }
  })();
  return breaking;
}
after(async () => {
  await breaking?.then(
    ({ fake }) => fake.close(),
    () => undefined,
  );
});

describe('the GitHub Action (action.yml, as the runner runs it)', { timeout: 300_000 }, () => {
  it('an empty token against a target that requires one: exit 2 with the diagnosis, never "the service is broken"', async () => {
    const fake = await startFake({ tokens: [TOKEN] });
    try {
      const step = await runStep({ target: fake.url });
      assert.equal(step.code, 2, step.log);
      assert.equal(step.outputs['exit-code'], '2');
      assert.match(
        step.summary,
        /^## Plant Store conformance: NOT CHECKED: no token was given, and the target requires one$/m,
      );
      assert.match(step.summary, /What to do: Give the action's `token` input a token this target accepts/);
      assert.doesNotMatch(step.summary, /\| target \| pass/, 'no counts: no check was run');
      assert.match(step.summary, /The action's `token` input is empty/);
      assert.doesNotMatch(step.summary, /### Failures|FAILED/);
      assert.ok(step.log.trim().split('\n').length <= 15, step.log);
    } finally {
      await fake.close();
    }
  });

  it('against a conforming target: exit 0, the three reports, a summary with the counts, the outputs', async () => {
    const fake = await startFake({ tokens: [TOKEN] });
    try {
      const narrowed = narrowedTo(['PS-AUTH-001', 'PS-ACCEPT-001', 'PS-REJECT-001']);
      const step = await runStep(
        { target: fake.url, token: TOKEN, seed: '42', reports: 'out', ...narrowed.config },
        narrowed.workspace,
      );
      assert.equal(step.code, 0, step.log);
      for (const file of ['conformance.json', 'conformance.junit.xml', 'conformance.html'])
        assert.ok(existsSync(join(step.workspace, 'out', file)), file);
      const report = JSON.parse(readFileSync(join(step.workspace, 'out', 'conformance.json'), 'utf8')) as JsonReport;
      const s = report.targets[0]!.summary;
      assert.equal(report.seed, 42);
      assert.match(step.summary, /^## Plant Store conformance: passed$/m);
      assert.ok(
        step.summary.includes(`| ${fake.url} | ${s.pass} | ${s['non-strict']} | ${s.fail} | ${s.skip} | ${s.error} |`),
        step.summary,
      );
      assert.doesNotMatch(step.summary, /### Failures/);
      assert.equal(step.outputs['exit-code'], '0');
      assert.equal(step.outputs['json-report'], join(step.workspace, 'out', 'conformance.json'));
      assert.match(step.log, new RegExp(`^::add-mask::${TOKEN}$`, 'm'), 'the token is masked in the log');
    } finally {
      await fake.close();
    }
  });

  it('against a target that breaks a rule: exit 1, each failure in the summary with Expected, Actual and its curl line', async () => {
    const { step } = await breakingRun();
    assert.equal(step.code, 1, step.log);
    assert.equal(step.outputs['exit-code'], '1');
    assert.match(step.summary, /^## Plant Store conformance: FAILED: a check failed$/m);
    const report = JSON.parse(
      readFileSync(join(step.workspace, 'conformance-reports', 'conformance.json'), 'utf8'),
    ) as JsonReport;
    const failed = report.targets[0]!.results.filter((r) => r.outcome === 'fail');
    assert.ok(failed.length > 0);
    assert.match(step.summary, new RegExp(`^### Failures \\(${failed.length}\\)$`, 'm'));
    for (const r of failed) {
      assert.match(step.summary, new RegExp(`^#### ${r.id} `, 'm'), r.id);
      assert.ok(step.summary.includes(r.reproduce!), `${r.id}'s curl line`);
    }
    assert.ok(!step.summary.includes(TOKEN), 'the curl lines read the token from $PLANTSTORE_TOKEN');
  });

  it('with strict: a non-strict outcome fails the step and is listed', async () => {
    const fake = await startFake({ tokens: [TOKEN], status422: true });
    try {
      // A check the 422 makes non-strict, one it passes.
      const narrowed = narrowedTo(['PS-REJECT-001', 'PS-ACCEPT-001']);
      const step = await runStep(
        { target: fake.url, token: TOKEN, strict: 'true', seed: '7', ...narrowed.config },
        narrowed.workspace,
      );
      assert.equal(step.code, 1, step.log);
      assert.match(step.summary, /; strict\./);
      assert.match(step.summary, /^#### PS-\S+ .*: non-strict /m);
    } finally {
      await fake.close();
    }
  });

  it('against a port nothing listens on: exit 2, and the summary says why', async () => {
    const port = await freePort();
    const step = await runStep({ target: `http://127.0.0.1:${port}`, token: TOKEN });
    assert.equal(step.code, 2, step.log);
    assert.match(
      step.summary,
      /^## Plant Store conformance: NOT CHECKED: cannot connect: nothing listens on 127\.0\.0\.1:\d+ \\\(connection refused\\\)$/m,
    );
    assert.match(step.summary, /was not checked: cannot connect/);
  });

  it('without a target, or with strict not true or false: exit 2 naming the input, and no run', async () => {
    const missing = await runStep({ target: '' });
    assert.equal(missing.code, 2);
    assert.match(missing.log, /the input `target` is required/);
    const wrong = await runStep({ target: 'http://127.0.0.1:1', strict: 'yes' });
    assert.equal(wrong.code, 2);
    assert.match(wrong.log, /the input `strict` is true or false, not "yes"/);
  });

  it('a target that echoes the token, cut where the harness shortens what it shows: no 8 of its characters in the summary or the log, and each run of 8 is masked', async () => {
    const token = 'Zq7/Kp+Rw9.Xt~Lm-Nb_Vc3/Hd8+Jf2.Gs5~Ty6=';
    const echoing = await startEchoingTarget(token);
    try {
      // A body shown cut at 300 characters, an Error message cut at 100 by the diagnosis "the token was refused".
      for (const [kind, form, offset] of [
        ['answer', 'plain', 270],
        ['answer', 'percent', 262],
        ['refuse', 'plain', 80],
      ] as const) {
        const step = await runStep({ target: echoing.url(kind, form, offset), token, seed: '3' });
        assert.ok(step.code === 1 || step.code === 2, step.log);
        const masks = new Set(
          step.log
            .split('\n')
            .filter((line) => line.startsWith('::add-mask::'))
            .map((line) => line.slice('::add-mask::'.length)),
        );
        for (const written of [token, echoed(token, 'json'), echoed(token, 'percent')]) {
          for (let i = 0; i + 8 <= written.length; i++) {
            // A workflow command's value has "%" escaped as "%25".
            const run = written.slice(i, i + 8).replace(/%/g, '%25');
            assert.ok(masks.has(run), `::add-mask:: for ${run}`);
          }
        }
        const logged = step.log
          .split('\n')
          .filter((line) => !line.startsWith('::add-mask::'))
          .join('\n');
        assert.deepEqual(
          fragmentsIn(step.summary, token),
          [],
          `${kind} ${form} at ${offset}: part of the token in the summary:\n${step.summary}`,
        );
        assert.deepEqual(fragmentsIn(logged, token), [], `${kind} ${form} at ${offset}: part of the token in the log`);
        assert.match(step.summary, /the plant is not valid/, 'the summary shows what the target answered');
      }
    } finally {
      await echoing.close();
    }
  });

  it('a run that ends before it writes its report: the summary says so, never the results of an earlier run in the same workspace', async () => {
    // The earlier run: the one against the target that breaks a rule (above), which wrote its report.
    const { fake, step: first } = await breakingRun();
    assert.equal(first.code, 1, first.log);
    assert.ok(existsSync(join(first.workspace, 'conformance-reports', 'conformance.json')));
    // The same workspace, and an option the harness refuses (from the file the `config` input names): exit 2 before any check, and no report.
    writeFileSync(join(first.workspace, 'conformance.yaml'), 'cases: many\n');
    const second = await runStep(
      { target: fake.url, token: TOKEN, seed: '3', config: 'conformance.yaml' },
      { workspace: first.workspace },
    );
    assert.equal(second.code, 2, second.log);
    assert.match(second.log, /cases in .*conformance\.yaml/);
    assert.match(
      second.summary,
      /^## Plant Store conformance: ERROR: the harness could not finish, and found no failure before it stopped$/m,
    );
    assert.match(second.summary, /No report: the run ended before checks ran \(exit 2\)/);
    assert.doesNotMatch(second.summary, /### Failures|What failed|\| target \| pass/, second.summary);
    assert.ok(
      !existsSync(join(first.workspace, 'conformance-reports', 'conformance.json')),
      "the earlier run's report is not left to be taken for this run's",
    );
  });
});
