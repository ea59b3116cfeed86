// The fix loop (issue 45, item 5): --rerun-failed reads the last JSON report
// and runs only the checks that failed or errored there, with its seed and a
// fresh id offset; once the server is fixed they pass, and a report with
// nothing failed reruns the whole catalog. What cannot be reread says so
// (exit 2). And the lint of the shipped document is not run against a
// --target (it cannot change the run), while another document's still is.
import { strict as assert } from 'node:assert';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { catalog } from '../../conformance/checks/index.js';
import type { JsonReport } from '../../conformance/report/json.js';
import { OPENAPI_PATH } from '../../spec/openapi.js';
import { cliIn, scratchFolder, TOKEN, withFake } from '../support/first-run-cli.js';

const dir = scratchFolder();
const cli = cliIn(dir);
const REPORT = join(dir, 'last.json');
const read = (): JsonReport => JSON.parse(readFileSync(REPORT, 'utf8')) as JsonReport;
const failedIds = (r: JsonReport) =>
  r.targets[0]!.results.filter((x) => x.outcome === 'fail' || x.outcome === 'error').map((x) => x.id);

/**
 * The first run of the fix loop: checks that a server answering 201 to valid creates fails (the 201 itself, the
 * JSON it sends, the state it stores) and two it passes (a refusal, the missing token). A rerun chooses among the
 * checks that ran, so a few of each prove what the whole catalog would; the whole catalog runs in the loop's last step.
 */
const FIRST_ONLY = ['PS-ACCEPT-001', 'PS-ACCEPT-002', 'PS-JSON-001', 'PS-REJECT-001', 'PS-AUTH-001', 'PS-STATE-002'];
const FIRST_REPORT = join(dir, 'first.json');
let started: Promise<{ code: number; output: string; report: JsonReport }> | undefined;
/** That run, the shipped document against a --target, made once: the fix loop starts from it, the lint's test reads it. */
const startOfTheLoop = () =>
  (started ??= withFake({ status201: true }, async (fake) => {
    const args = ['--target', fake.url, '--token', TOKEN, '--seed', '3', '--only', FIRST_ONLY.join(',')];
    const run = await cli([...args, '--json', FIRST_REPORT]);
    return { ...run, report: JSON.parse(readFileSync(FIRST_REPORT, 'utf8')) as JsonReport };
  }));

describe('--rerun-failed: the fix loop', { timeout: 600_000 }, () => {
  it('reruns only what failed, with the same seed and a fresh id offset, until it passes; then every check', async () => {
    // A server that answers 201 to valid creates: many checks fail, for one cause.
    const start = await startOfTheLoop();
    assert.equal(start.code, 1, start.output);
    const failed = failedIds(start.report);
    assert.ok(failed.length > 1 && failed.length < FIRST_ONLY.length, `${failed.length} failed`);
    // The last report, which each rerun reads and then overwrites (--json names both).
    copyFileSync(FIRST_REPORT, REPORT);
    await withFake({ status201: true }, async (fake) => {
      const again = await cli(['--target', fake.url, '--token', TOKEN, '--rerun-failed', '--json', REPORT]);
      assert.equal(again.code, 1, again.output);
      assert.match(
        again.stderr,
        new RegExp(`--rerun-failed: ${failed.length} check\\(s\\) failed or errored in .*last\\.json: running only`),
      );
      const rerun = read();
      assert.deepEqual(
        rerun.targets[0]!.results.map((x) => x.id),
        failed,
        'only the checks that failed ran',
      );
      assert.equal(rerun.seed, 3, "the report's seed: the same cases");
      assert.ok((rerun.idOffset ?? 0) > 0, 'a fresh id offset: ids the long-lived target has not stored');
    });
    // The server fixed (a correct one): the same checks now pass.
    await withFake({}, async (fake) => {
      const fixed = await cli(['--target', fake.url, '--token', TOKEN, '--rerun-failed', '--json', REPORT]);
      assert.equal(fixed.code, 0, fixed.output);
      const report = read();
      assert.deepEqual(
        report.targets[0]!.results.map((x) => [x.id, x.outcome === 'pass' || x.outcome === 'skip']),
        failed.map((id) => [id, true]),
      );
      // Nothing failed last time: the whole catalog, said so.
      const all = await cli(['--target', fake.url, '--token', TOKEN, '--rerun-failed', '--json', REPORT]);
      assert.equal(all.code, 0, all.output);
      assert.match(all.stderr, /--rerun-failed: no check failed in .*: running every check/);
      assert.equal(read().targets[0]!.results.length, catalog.length);
    });
  });

  it('reads the report --last-report names, or conformance.json in the --reports folder', async () => {
    const folder = join(dir, 'reports-folder');
    await withFake({ status201: true }, async (fake) => {
      const first = await cli(['--target', fake.url, '--token', TOKEN, '--reports', folder, '--only', 'PS-ACCEPT-001']);
      assert.equal(first.code, 1, first.output);
      const inFolder = await cli(['--target', fake.url, '--token', TOKEN, '--reports', folder, '--rerun-failed']);
      assert.match(inFolder.stderr, /1 check\(s\) failed or errored in .*reports-folder\/conformance\.json/);
      const named = await cli([
        '--target',
        fake.url,
        '--token',
        TOKEN,
        '--rerun-failed',
        '--last-report',
        join(folder, 'conformance.json'),
      ]);
      assert.equal(named.code, 1, named.output);
      assert.match(named.stderr, /running only PS-ACCEPT-001 /);
    });
  });

  it('says what to do when there is nothing to rerun from, or the report is not one (exit 2)', async () => {
    const missing = await cli([
      '--target',
      'http://127.0.0.1:9',
      '--rerun-failed',
      '--last-report',
      join(dir, 'none.json'),
    ]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no report at .*none\.json to rerun from; run once with --json FILE or --reports DIR/);
    const other = join(dir, 'other.json');
    writeFileSync(other, '{"name": "not a report"}');
    const notReport = await cli(['--target', 'http://127.0.0.1:9', '--rerun-failed', '--last-report', other]);
    assert.equal(notReport.code, 2);
    assert.match(notReport.stderr, /is not a JSON report of plantstore-conformance/);
    const both = await cli(['--target', 'http://127.0.0.1:9', '--rerun-failed', '--only', 'PS-ACCEPT-001']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--rerun-failed and --only both choose the checks: give one/);
  });
});

describe('the lint of the document, beside a target run', { timeout: 300_000 }, () => {
  it('the shipped document against a --target: not linted at all, and the report says why', async () => {
    // The fix loop's first run is such a run (its checks fail: the lint is skipped whatever the outcome).
    const { report } = await startOfTheLoop();
    assert.deepEqual(report.lint, []);
    assert.match(report.lintSkipped ?? '', /the shipped document, against a --target/);
  });

  it('another document is linted (on a thread of its own), and a rerun of it reuses that lint', async () => {
    const evolved = join(dir, 'evolved.yaml');
    // An integer without a format: a warning of the project's rule plantstore-integer-format.
    writeFileSync(evolved, readFileSync(OPENAPI_PATH, 'utf8').replace(/^ *format: int32\n/m, ''));
    await withFake({ status201: true }, async (fake) => {
      const args = ['--spec', evolved, '--target', fake.url, '--token', TOKEN, '--json', REPORT];
      const run = await cli([...args, '--only', 'PS-ACCEPT-001']);
      assert.equal(run.code, 1, run.output);
      assert.match(run.stdout, /Spec lint: \d+ warning\(s\) about the document/);
      const first = read();
      assert.equal(first.lintSkipped, undefined);
      assert.ok(first.lint.some((f) => f.code === 'plantstore-integer-format'));
      assert.match(first.lintDigest ?? '', /^sha256:[0-9a-f]{64}$/);
      // The same document and ruleset: the rerun does not lint again, and reports the same findings.
      const rerun = await cli([...args, '--rerun-failed']);
      assert.equal(rerun.code, 1, rerun.output);
      const second = read();
      assert.match(second.lintSkipped ?? '', /^not run again: the document and the ruleset are those the last report/);
      assert.deepEqual(second.lint, first.lint);
      assert.equal(second.lintDigest, first.lintDigest);
      // The document changed: it is linted again.
      writeFileSync(evolved, `${readFileSync(evolved, 'utf8')}\n# changed\n`);
      await cli([...args, '--rerun-failed']);
      const third = read();
      assert.equal(third.lintSkipped, undefined);
      assert.notEqual(third.lintDigest, first.lintDigest);
    });
  });
});
