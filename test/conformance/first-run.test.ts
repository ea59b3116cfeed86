// A new user's first runs that go through, end to end against real local
// servers: --wait-for waits for a server that starts late; -H reaches a
// gateway that wants its own header; --har records every exchange; the
// failures of a server that answers 201 end the output as one group, in a
// few lines; --fail-fast stops after the first failure. The mistakes that
// stop a run are first-run.diagnosis.test.ts's, the configuration file
// first-run.config.test.ts's.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { freePort } from '../../lib/process.js';
import type { JsonReport } from '../../conformance/report/json.js';
import { startFake, type FakeServer } from '../support/fake-server.js';
import { RULED_OUT } from '../support/ruled-out.js';
import { assertNotChecked, cliIn, scratchFolder, TOKEN, withFake, type CliRun } from '../support/first-run-cli.js';

const dir = scratchFolder();
const cli = cliIn(dir);

let status201: Promise<{ run: CliRun; url: string; json: string }> | undefined;
/** The whole catalog against a server that answers 201 to valid creates, once: the two tests of its output read it. */
const againstStatus201 = () =>
  (status201 ??= withFake({ status201: true }, async (fake) => {
    const json = join(dir, '201.json');
    const run = await cli(['--target', fake.url, '--token', TOKEN, '--cases', '5', '--seed', '4', '--json', json]);
    return { run, url: fake.url, json };
  }));

const GATEWAY_KEY = 'gateway-key-5150';
let throughGateway: Promise<{ run: CliRun; requests: number; json: string; har: string }> | undefined;
/**
 * One run through a gateway that requires x-api-key, given with -H, recording a JSON report and a HAR: the test of
 * -H reads the first, the test of --har the second (the key a secret header in both), from one run of the catalog.
 */
const runThroughGateway = () =>
  (throughGateway ??= withFake({ gatewayHeader: { name: 'x-api-key', value: GATEWAY_KEY } }, async (fake) => {
    const json = join(dir, 'gateway.json');
    const har = join(dir, 'run.har');
    const run = await cli([
      '--target',
      fake.url,
      '--token',
      TOKEN,
      '-H',
      `x-api-key: ${GATEWAY_KEY}`,
      '--json',
      json,
      '--har',
      har,
      '--cases',
      '5',
      '--seed',
      '9',
    ]);
    return { run, requests: fake.requests(), json, har };
  }));

describe('first runs: options that reach the target and record the run', { timeout: 300_000 }, () => {
  it('--wait-for: a server that starts 5 s after the run is waited for, then checked (exit 0)', async () => {
    const port = await freePort();
    let fake: FakeServer | undefined;
    const late = setTimeout(() => void startFake({ tokens: [TOKEN], port }).then((f) => (fake = f)), 5000);
    try {
      const run = await cli([
        '--target',
        `http://127.0.0.1:${port}`,
        '--token',
        TOKEN,
        '--wait-for',
        '90',
        '--only',
        'PS-ACCEPT-001,PS-AUTH-001',
        '--cases',
        '2',
      ]);
      assert.equal(run.code, 0, run.output);
      assert.match(
        run.stderr,
        new RegExp(
          `^target \\(http://127\\.0\\.0\\.1:${port}\\): waiting up to 90 s for it to answer \\(--wait-for\\)$`,
          'm',
        ),
      );
      assert.match(run.stderr, /: answered after \d/);
      assert.match(run.stderr, /: running 2 checks$/m, 'a plain progress line outside a terminal');
      assert.match(run.stdout, /^OK: /m);
    } finally {
      clearTimeout(late);
      await fake?.close();
    }
  });

  it('-H reaches a gateway that requires x-api-key; without it, the run says a gateway may want a header', async () => {
    await withFake({ gatewayHeader: { name: 'x-api-key', value: GATEWAY_KEY } }, async (fake) => {
      const without = await cli(['--target', fake.url, '--token', TOKEN]);
      assertNotChecked(without, /was not checked: every request is refused with 403 before the token is looked at\./);
      assert.match(without.stdout, /-H "Name: value"/);
    });
    const { run: withKey, json } = await runThroughGateway();
    assert.equal(withKey.code, 0, withKey.output);
    const report = readFileSync(json, 'utf8');
    assert.ok(!withKey.output.includes(GATEWAY_KEY) && !report.includes(GATEWAY_KEY), 'the key is redacted');
  });

  it('--har writes HAR 1.2 with one entry per exchange the target received, and no credential', async () => {
    const { run, har, requests } = await runThroughGateway();
    assert.equal(run.code, 0, run.output);
    const text = readFileSync(har, 'utf8');
    const log = (
      JSON.parse(text) as { log: { version: string; creator: { name: string }; entries: Array<Record<string, any>> } }
    ).log;
    assert.equal(log.version, '1.2');
    assert.equal(log.creator.name, 'plantstore-conformance');
    assert.equal(log.entries.length, requests, 'one entry per request the target received');
    for (const e of log.entries) {
      assert.ok(!Number.isNaN(Date.parse(e.startedDateTime)), 'startedDateTime');
      assert.equal(typeof e.time, 'number');
      for (const key of [
        'method',
        'url',
        'httpVersion',
        'headers',
        'queryString',
        'cookies',
        'headersSize',
        'bodySize',
      ])
        assert.ok(key in e.request, `request.${key}`);
      for (const key of [
        'status',
        'statusText',
        'httpVersion',
        'headers',
        'cookies',
        'content',
        'redirectURL',
        'headersSize',
        'bodySize',
      ])
        assert.ok(key in e.response, `response.${key}`);
      for (const key of ['send', 'wait', 'receive']) assert.equal(typeof e.timings[key], 'number', `timings.${key}`);
    }
    assert.ok(!text.includes(TOKEN) && !text.includes(GATEWAY_KEY), 'no token, no secret header');
    assert.ok(
      log.entries.some((e) =>
        (e.request.headers as Array<{ name: string; value: string }>).some(
          (h) => h.value === 'Bearer $PLANTSTORE_TOKEN',
        ),
      ),
    );
  });

  it('a server that answers 201 to valid creates: the output ends with one group naming all its 201 failures', async () => {
    const { run, url, json } = await againstStatus201();
    assert.equal(run.code, 1, run.output);
    const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
    const failed = report.targets[0]!.results.filter((r) => r.outcome === 'fail').map((r) => r.id);
    assert.ok(failed.length > 10, `${failed.length} checks failed`);
    const lines = run.stdout.trimEnd().split('\n');
    const start = lines.findIndex((l) => l.startsWith('What failed on the target'));
    assert.ok(start >= 0, run.stdout);
    const section = lines.slice(start);
    assert.equal(section[0], `What failed on the target (${url}): ${failed.length} check(s), 1 cause(s)`);
    // Numbered: each failing check's line points to it ([1]).
    assert.equal(section[1], `  [1] × a valid POST /plants is answered 201, not 200 (${failed.length} checks)`);
    const named = section
      .slice(2, -4)
      .join(' ')
      .split(/[\s,]+/)
      .filter(Boolean);
    assert.deepEqual(named.sort(), [...failed].sort(), 'the group names every failing check');
    assert.match(section.at(-4)!, /^ {6}Expected: 200 /);
    assert.match(section.at(-3)!, /^ {8}Actual: .*201/);
    assert.match(section.at(-2)!, /^ {5}Reproduce: curl -sS -i -X POST /);
    assert.match(section.at(-1)!, /^FAILED: \d+ check\(s\) failed, 1 cause\(s\), on 1 target\(s\), seed 4$/);
    assert.deepEqual(
      report.targets[0]!.failures.map((g) => [g.cause, g.checks.length]),
      [['a valid POST /plants is answered 201, not 200', failed.length]],
    );
    assert.doesNotMatch(run.stdout, /status 201: 201|undefined/);
  });

  it('against a server that answers 201 to every valid create: at most about 96 lines and three per check ruled out, the last of which name the 201', async () => {
    const { run } = await againstStatus201();
    assert.equal(run.code, 1, run.output);
    const lines = run.stdout.trimEnd().split('\n');
    // Each check the document rules out takes three lines (its skip, its reason, its line in the coverage).
    assert.ok(lines.length <= 96 + 3 * RULED_OUT, `${lines.length} lines:\n${run.stdout}`);
    assert.match(lines.slice(-12).join('\n'), /answered 201, not 200/);
    // One cause, one curl line in What failed, however many checks show it.
    const whatFailed = lines.slice(lines.findIndex((l) => l.startsWith('What failed on')));
    assert.equal(whatFailed.filter((l) => /Reproduce: /.test(l)).length, 1, run.stdout);
  });

  it('--fail-fast stops starting checks after the first failure; those not run are skip', async () => {
    await withFake({ status201: true }, async (fake) => {
      const json = join(dir, 'fail-fast.json');
      const run = await cli([
        '--target',
        fake.url,
        '--token',
        TOKEN,
        '--fail-fast',
        '--concurrency',
        '1',
        '--cases',
        '5',
        '--json',
        json,
      ]);
      assert.equal(run.code, 1, run.output);
      const results = (JSON.parse(readFileSync(json, 'utf8')) as JsonReport).targets[0]!.results;
      assert.equal(results.filter((r) => r.outcome === 'fail').length, 1);
      const stopped = results.filter(
        (r) => r.outcome === 'skip' && r.actual?.startsWith('not run: the run stopped after 1 failure(s)'),
      );
      assert.ok(stopped.length > 10, `${stopped.length} checks not run`);
    });
  });
});
