// The CLI with several targets, end to end and without Prism: the fake
// server's baseline and a mutant side by side print the matrix with the
// reason of each disagreement, exit 1 (a --target failed), and write the
// JSON, JUnit and HTML reports where asked (--reports DIR, --html FILE).
// Also: a divergence file that does not load is exit 2 before any server
// starts; a report that cannot be written is exit 2 with a clear message.
import { catalog } from '../../conformance/checks/index.js';
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { JsonReport } from '../../conformance/report/json.js';
import { startFake, type FakeServer } from '../support/fake-server.js';

const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plantstore-matrix-cli-'));
const TOKEN = 'matrix-cli-token';
let baseline: FakeServer;
let mutant: FakeServer;

before(async () => {
  baseline = await startFake({ tokens: [TOKEN] });
  mutant = await startFake({ tokens: [TOKEN], noWwwAuthenticate: true, no405: true });
});
after(async () => {
  await Promise.all([baseline.close(), mutant.close()]);
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: dir, env: { ...process.env, NO_COLOR: '1', PLANTSTORE_TOKEN: TOKEN }, timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

describe('the CLI with two targets side by side', () => {
  it('prints the matrix with why the targets disagree, exits 1, and writes the reports', async () => {
    const html = join(dir, 'single.html');
    const r = await cli([
      '--target',
      baseline.url,
      '--target',
      mutant.url,
      '--invalid-token',
      '--seed',
      '5',
      '--cases',
      '5',
      '--reports',
      'out',
      '--html',
      html,
    ]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /^check\s+target-1\s+target-2\s+why they disagree$/m);
    assert.match(
      r.stdout,
      /^PS-AUTH-001\s+✔ pass\s+× fail\s+target-2 \(fail\): expected 401 with WWW-Authenticate: Bearer and an auth-param; actual .*no WWW-Authenticate/m,
    );
    assert.match(r.stdout, /^PS-HTTP-001\s+✔ pass\s+~ non-strict\s+target-2 \(non-strict\): /m);
    assert.match(r.stdout, /^PS-ACCEPT-001\s+✔ pass\s+✔ pass\s*$/m);
    assert.match(r.stdout, /Details target-2[\s\S]*Reproduce: curl /);
    assert.match(
      r.stdout,
      /Reports: single\.html, out\/conformance\.json, out\/conformance\.junit\.xml, out\/conformance\.html/,
    );
    assert.match(r.stdout, /^FAILED: \d+ check\(s\) failed, \d+ cause\(s\), on 2 target\(s\), seed 5$/m);

    const report = JSON.parse(readFileSync(join(dir, 'out', 'conformance.json'), 'utf8')) as JsonReport;
    assert.deepEqual(
      report.targets.map((t) => [t.name, t.role, t.informs]),
      [
        ['target-1', 'target', false],
        ['target-2', 'target', false],
      ],
    );
    assert.equal(report.matrix?.find((m) => m.id === 'PS-AUTH-001')?.agree, false);
    const junit = readFileSync(join(dir, 'out', 'conformance.junit.xml'), 'utf8');
    assert.equal(junit.match(/<testsuite /g)?.length, 2);
    assert.match(junit, new RegExp(`<testsuite name="target-1" tests="${catalog.length}" failures="0"`));
    const page = readFileSync(html, 'utf8');
    assert.equal(
      page,
      readFileSync(join(dir, 'out', 'conformance.html'), 'utf8').replace(
        /"generated":"[^"]+"/,
        /"generated":"[^"]+"/.exec(page)![0],
      ),
    );
    assert.match(page, /<script type="application\/json" id="report-data">/);
  });

  it('a divergence file that does not load is exit 2, before any server starts', async () => {
    const bad = join(dir, 'bad-divergences.json');
    writeFileSync(
      bad,
      JSON.stringify({
        target: 'prism',
        divergences: [{ check: 'PS-NOPE-001', outcome: 'fail', reason: 'r', evidence: 'e' }],
      }),
    );
    const r = await cli(['--prism', '--divergences', bad]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /divergence file .*bad-divergences\.json: divergences\[0\]: "check" "PS-NOPE-001" is not a check of the catalog/,
    );
    assert.doesNotMatch(r.stderr, /^prism: /m);
  });

  it('with explicit --targets only those run (no reference server, no Prism); a report that cannot be written is exit 2', async () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    const r = await cli([
      '--target',
      baseline.url,
      '--cases',
      '5',
      '--only',
      'PS-AUTH-001',
      '--html',
      join(blocker, 'report.html'),
    ]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.doesNotMatch(r.stderr, /^(reference|prism): /m);
    assert.match(r.stdout, /^Target http:\/\/127\.0\.0\.1:\d+$/m, 'one target: the per-check report as before');
    assert.doesNotMatch(r.stdout, /Reports:/);
    assert.match(r.stderr, /cannot write the report .*report\.html/);
  });

  it('--help names the differential run and its flags', async () => {
    const r = await cli(['--help']);
    assert.equal(r.code, 0);
    for (const flag of ['--prism', '--divergences', '--html', '--reports']) assert.ok(r.stdout.includes(flag), flag);
    assert.match(r.stdout, /reference server and a Prism mock/);
  });
});
