// The project's main job, end to end: `plantstore-conformance` with no
// arguments lints the spec, runs every check against the reference server
// and a real Prism 5.14.2 mock side by side, prints the matrix and writes
// the reports under reports/. It exits 0; the reference column is free of
// failures; every departure of the Prism column is explained by the
// committed divergence file, and no entry of that file is stale (so the
// file stays true); the HTML report opens in Chromium with the same counts.
// One Prism start for the whole file.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { catalog } from '../../conformance/checks/index.js';
import { loadDivergences } from '../../conformance/run/differential/divergences.js';
import type { JsonReport } from '../../conformance/report/json.js';
import { launchChromium } from '../support/browser.js';

const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));
// The default run writes reports/ under the working directory: a fresh one.
const cwd = mkdtempSync(join(tmpdir(), 'plantstore-default-run-'));
after(() => rmSync(cwd, { recursive: true, force: true }));

let code: number;
let stdout: string;
let stderr: string;
let report: JsonReport;

before(async () => {
  ({ code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [CLI],
      { cwd, env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
      (err, out, errOut) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout: out, stderr: errOut });
      },
    );
  }));
  const json = join(cwd, 'reports', 'conformance.json');
  assert.ok(existsSync(json), `the default run wrote reports/conformance.json:\n${stdout}\n${stderr}`);
  report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
});

describe('the default run: reference server and Prism mock side by side', () => {
  it('exits 0, prints the matrix and says where the reports are', () => {
    assert.equal(code, 0, stdout + stderr);
    assert.match(stdout, /^check\s+reference\s+prism\s+why they disagree$/m);
    for (const c of catalog) assert.match(stdout, new RegExp(`^${c.id}\\s`, 'm'), `${c.id} has a row`);
    assert.match(
      stdout,
      /Reports: reports\/conformance\.json, reports\/conformance\.junit\.xml, reports\/conformance\.html/,
    );
    assert.match(stdout, /Summary prism: .* \(informs; does not fail the run\)/);
    assert.match(stdout, /OK: 2 target\(s\), seed \d+; Prism: 0 unexplained divergence\(s\), 0 stale entries/);
    const junit = readFileSync(join(cwd, 'reports', 'conformance.junit.xml'), 'utf8');
    assert.match(junit, new RegExp(`<testsuite name="reference" tests="${catalog.length}" failures="0" errors="0"`));
    assert.match(junit, new RegExp(`<testsuite name="prism" tests="${catalog.length}" failures="0" errors="0"`));
  });

  it('the reference column is free of failures', () => {
    const reference = report.targets.find((t) => t.name === 'reference')!;
    assert.equal(reference.role, 'reference');
    // Every check passes but those the shipped document rules out (the state checks: it declares no list, read or delete), each skip saying why.
    const ruledOut = reference.results.filter((r) => r.outcome === 'skip' && r.ruledOut !== undefined).length;
    assert.deepEqual(reference.summary, {
      pass: catalog.length - ruledOut,
      'non-strict': 0,
      fail: 0,
      skip: ruledOut,
      error: 0,
    });
  });

  it('the divergence file explains every departure of the Prism column, and no entry is stale', () => {
    const prism = report.targets.find((t) => t.name === 'prism')!;
    assert.equal(prism.informs, true);
    assert.ok(prism.summary.fail > 0, 'Prism does fail checks: its column informs, the run still exits 0');
    const departures = prism.results.filter(
      (r) => r.outcome !== 'pass' && !(r.outcome === 'skip' && r.ruledOut !== undefined),
    );
    const file = loadDivergences();
    const wrong = departures
      .filter((r) => file.divergences.find((d) => d.check === r.id)?.outcome !== r.outcome)
      .map((r) => `${r.id} ${r.outcome}: ${r.actual}`);
    assert.deepEqual(wrong, [], 'Prism departures the divergence file does not explain');
    assert.deepEqual(prism.divergences?.unexplained, []);
    assert.deepEqual(prism.divergences?.stale, []);
    assert.equal(prism.divergences?.documented, file.divergences.length, 'every entry of the file occurred');
    for (const r of departures) assert.equal(r.divergence?.status, 'documented', r.id);
  });

  it('the HTML report opens in Chromium from disk and shows the same counts', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(pathToFileURL(join(cwd, 'reports', 'conformance.html')).href);
      await page.waitForSelector('#matrix tbody tr');
      for (const t of report.targets) {
        for (const [outcome, n] of Object.entries(t.summary)) {
          assert.equal(
            await page.textContent(`[data-count][data-target="${t.name}"][data-outcome="${outcome}"]`),
            String(n),
            `${t.name} ${outcome}`,
          );
        }
      }
      assert.match(
        (await page.textContent('[data-divergences="prism"]')) ?? '',
        /every departure \(\d+\) is documented/,
      );
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});
