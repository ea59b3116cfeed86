// The HTML report in a real browser: headless Chromium (the one inside
// @sparticuz/chromium, or CHROMIUM_PATH's; driven by playwright-core; see
// test/support/browser.ts) opens the file from disk, with no
// console error and no network request; the counts per target are those of
// the run; the filters change the visible rows as they should; hostile text
// from a target stays text. A screenshot goes to reports/ (git-ignored).
// The report comes from a real run: the fake server's baseline and a mutant
// side by side, so there are failures and disagreements. No Prism needed.
// The coverage of the document is shown below the matrix.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { computeCoverage, type Coverage } from '../../conformance/run/coverage.js';
import { toHtml } from '../../conformance/report/html.js';
import { runResult, type TargetResult } from '../../conformance/run/result.js';
import { run } from '../../conformance/run/runner.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { launchChromium } from '../support/browser.js';
import { startFake } from '../support/fake-server.js';

const REPORTS = fileURLToPath(new URL('../../../reports/', import.meta.url));
const HTML_FILE = `${REPORTS}html-report.browser-test.html`;
const SCREENSHOT = `${REPORTS}html-report.browser-test.png`;
const HOSTILE =
  '</script><script>window.__pwned = 1</script><img src="https://example.invalid/x.png" onerror="window.__pwned = 2">';

let results: TargetResult[];
let coverage: Coverage;
let browser: Browser | undefined;

before(async () => {
  const token = 'browser-test-token';
  const baseline = await startFake({ tokens: [token] });
  const mutant = await startFake({
    tokens: [token],
    noWwwAuthenticate: true,
    no405: true,
    acceptMalformed: true,
    dropTag: true,
  });
  const model = loadSpecModel();
  try {
    results = await run({
      model,
      targets: [
        { name: 'baseline', url: baseline.url, token, role: 'target', informs: false, restrictsTokens: true },
        { name: 'mutant', url: mutant.url, token, role: 'target', informs: false, restrictsTokens: true },
      ],
      seed: 7,
      cases: 5,
      timeoutMs: 10_000,
    });
  } finally {
    await Promise.all([baseline.close(), mutant.close()]);
  }
  // Text that came from a target ends up in the report: it must stay text.
  const failing = results[1]!.results.find((r) => r.outcome === 'fail')!;
  failing.actual = `${HOSTILE} ${failing.actual}`;
  mkdirSync(REPORTS, { recursive: true });
  coverage = computeCoverage(model, results, new Map(results.map((t) => [t.target.name, t.observed ?? []])));
  writeFileSync(
    HTML_FILE,
    toHtml(runResult({ seed: 7, strict: false, lint: [], targets: results, divergences: [], coverage })),
  );
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

interface Opened {
  page: Page;
  problems: string[];
}

async function open(): Promise<Opened> {
  const page = await browser!.newPage({ viewport: { width: 1400, height: 900 } });
  const problems: string[] = [];
  const fileUrl = pathToFileURL(HTML_FILE).href;
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  page.on('request', (r) => {
    if (r.url() !== fileUrl) problems.push(`request beyond the file: ${r.url()}`);
  });
  await page.goto(fileUrl);
  await page.waitForSelector('#matrix tbody tr');
  return { page, problems };
}

const visibleRows = (page: Page) =>
  page.$$eval('#matrix tr.check-row', (rows) =>
    rows.filter((r) => !(r as HTMLElement).hidden).map((r) => (r as HTMLElement).dataset.id!),
  );

describe('the HTML report, opened from disk in Chromium', () => {
  it('loads with no console error and no request beyond the file, and shows the counts of the run', async () => {
    const { page, problems } = await open();
    try {
      for (const t of results) {
        for (const [outcome, n] of Object.entries(t.summary)) {
          const shown = await page.textContent(
            `[data-count][data-target="${t.target.name}"][data-outcome="${outcome}"]`,
          );
          assert.equal(shown, String(n), `${t.target.name} ${outcome}`);
        }
      }
      assert.ok(results[1]!.summary.fail > 0, 'the mutant column has failures');
      assert.equal(
        await page.textContent('#shown'),
        `${results[0]!.results.length} of ${results[0]!.results.length} checks shown`,
      );
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  it('filters by outcome, by target and to disagreements only', async () => {
    const { page, problems } = await open();
    try {
      const [baseline, mutant] = results as [TargetResult, TargetResult];
      const outcomeOf = (t: TargetResult, id: string) => t.results.find((r) => r.id === id)!.outcome;
      const ids = baseline.results.map((r) => r.id);

      await page.selectOption('#filter-outcome', 'fail');
      const failing = ids.filter((id) => outcomeOf(baseline, id) === 'fail' || outcomeOf(mutant, id) === 'fail');
      assert.ok(failing.length > 0 && failing.length < ids.length);
      assert.deepEqual(await visibleRows(page), failing);

      await page.selectOption('#filter-outcome', '');
      await page.check('#filter-disagree');
      const disagreeing = ids.filter((id) => outcomeOf(baseline, id) !== outcomeOf(mutant, id));
      assert.ok(disagreeing.length > 0);
      assert.deepEqual(await visibleRows(page), disagreeing);
      assert.equal(await page.textContent('#shown'), `${disagreeing.length} of ${ids.length} checks shown`);

      // With one target left, nothing disagrees; its column alone is shown.
      await page.uncheck('input[name="target"][value="mutant"]');
      assert.deepEqual(await visibleRows(page), []);
      assert.equal(await page.isHidden('th[data-col="mutant"]'), true);
      assert.equal(await page.isVisible('th[data-col="baseline"]'), true);
      await page.uncheck('#filter-disagree');
      assert.equal((await visibleRows(page)).length, ids.length);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  it('shows a failure with its requirement, expected/actual and curl line, and keeps hostile text as text', async () => {
    const { page, problems } = await open();
    try {
      const failing = results[1]!.results.find((r) => r.actual?.startsWith(HOSTILE))!;
      const row = page.locator(`#matrix tr.check-row[data-id="${failing.id}"]`);
      await row.locator('summary').click();
      // The details are a row of their own below the check's, as wide as the table.
      const below = page.locator(`#matrix tr.detail-row[data-detail-for="${failing.id}"]`);
      const detail = below.locator('dl[data-detail="mutant"]');
      const text = (await detail.textContent()) ?? '';
      assert.ok(text.includes('Expected') && text.includes(failing.expected!), 'expected shown');
      assert.ok(text.includes(HOSTILE), 'the hostile text is shown as text');
      assert.ok(text.includes(failing.reproduce!), 'the curl line is shown');
      assert.ok(((await below.textContent()) ?? '').includes(failing.requirement.slice(0, 40)), 'requirement shown');
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
      assert.equal(await page.locator('img').count(), 0);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  it('shows the coverage of the document: operations, declared responses and every schema keyword', async () => {
    const { page, problems } = await open();
    try {
      assert.equal(
        await page.locator('#coverage-operations tr[data-covered="true"]').count(),
        coverage.operations.length,
      );
      assert.equal(await page.locator('#coverage-responses tr').count(), coverage.responses.length + 1);
      assert.equal(await page.locator('#coverage-keywords tr[data-status]').count(), coverage.keywords.length);
      const exercised = coverage.keywords.filter((k) => k.status === 'exercised').length;
      assert.ok(exercised > 0);
      assert.equal(await page.locator('#coverage-keywords tr[data-status="exercised"]').count(), exercised);
      assert.match(
        (await page.textContent('#coverage-summary')) ?? '',
        /1 of 1 operation\(s\) sent requests; 2 of 2 declared response\(s\) given; 0 schema keyword\(s\) not exercised/,
      );
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
});
