// The HTML report's layout in a real browser, at a laptop's width (1366×768)
// and a phone's (390×844) (issue 45, item 4): "What failed" gives each root
// cause its Expected, Actual and curl line, and the later failures it
// explains; a departure's details span the matrix's width, not a last
// column; on a phone nothing makes the page scroll sideways. Layout facts
// are asserted, not pixels; the screenshots (the page's top, What failed,
// an opened departure) are kept in reports/ (their paths are in the test's
// output) for a person to look at.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it, type TestContext } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { catalog } from '../../conformance/checks/index.js';
import { computeCoverage } from '../../conformance/run/coverage.js';
import { toHtml } from '../../conformance/report/html.js';
import { failureGroups, runResult, type TargetResult } from '../../conformance/run/result.js';
import { runTarget } from '../../conformance/run/runner.js';
import { launchChromium } from '../support/browser.js';
import { startResourceFake } from '../support/fake-resource.js';
import { fixturePath } from '../support/fixtures.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';

const REPORTS = fileURLToPath(new URL('../../../reports/', import.meta.url));
const HTML_FILE = `${REPORTS}html-layout.browser-test.html`;
const TOKEN = 'html-layout-test-token';
// The resource fake compares the scheme and the spaces after it as written (root-causes.test.ts).
const CHECKS = catalog.map((c) => c.id).filter((id) => id !== 'PS-AUTH-005' && id !== 'PS-AUTH-008');
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

let browser: Browser | undefined;
let broken: TargetResult;

async function runOn(name: string, breaks: Parameters<typeof startResourceFake>[2]): Promise<TargetResult> {
  const fake = await startResourceFake('crud', TOKEN, breaks);
  try {
    return await runTarget(
      { model: fake.model, targets: [], seed: 5, cases: 5, timeoutMs: 60_000, only: CHECKS },
      { name, url: fake.url, token: TOKEN, role: 'target', informs: false, restrictsTokens: true },
    );
  } finally {
    await fake.close();
  }
}

before(async () => {
  const right = await runOn('served-right', []);
  broken = await runOn('stores-bad-tags', ['tagUnchecked', 'limitIgnored']);
  const model = loadSpecModel(fixturePath('operations/crud.yaml'));
  const targets = [right, broken];
  const coverage = computeCoverage(model, targets, new Map(targets.map((t) => [t.target.name, t.observed ?? []])));
  mkdirSync(REPORTS, { recursive: true });
  writeFileSync(HTML_FILE, toHtml(runResult({ seed: 5, strict: false, lint: [], targets, divergences: [], coverage })));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

async function open(viewport: { width: number; height: number }): Promise<{ page: Page; problems: string[] }> {
  const page = await browser!.newPage({ viewport });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(pathToFileURL(HTML_FILE).href);
  await page.waitForSelector('#matrix tbody tr');
  return { page, problems };
}

/** The page's width beyond the viewport's: 0 when nothing makes it scroll sideways. */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Screenshots for a person to look at: the page's top as the viewport shows
 * it, What failed of the broken target, and any other part named. Not one
 * full-page picture: headless Chromium repeats parts of a page this tall
 * (10,000 to 19,000 px) in one, which would show a page that is not there.
 */
async function keepScreenshots(
  t: TestContext,
  page: Page,
  device: string,
  parts: Record<string, Locator> = {},
): Promise<void> {
  const shots: [string, (path: string) => Promise<unknown>][] = [
    [
      'top',
      async (path) => {
        await page.evaluate(() => window.scrollTo(0, 0));
        return page.screenshot({ path });
      },
    ],
    ['what-failed', (path) => page.locator('ol[data-failures="stores-bad-tags"]').screenshot({ path })],
    ...Object.entries(parts).map(([name, part]): [string, (path: string) => Promise<unknown>] => [
      name,
      (path) => part.screenshot({ path }),
    ]),
  ];
  for (const [name, take] of shots) {
    const path = `${REPORTS}html-report.${device}.${name}.png`;
    await take(path);
    t.diagnostic(`screenshot: ${path}`);
  }
}

describe('the HTML report at a laptop’s width and a phone’s', () => {
  it('a laptop (1366×768): each root cause with Expected, Actual, curl and its consequences, at the page’s width', async (t) => {
    const { page, problems } = await open(LAPTOP);
    try {
      const groups = failureGroups(broken, false);
      const entries = page.locator('ol[data-failures="stores-bad-tags"] > li.failure');
      assert.equal(await entries.count(), groups.length);
      const first = entries.first();
      for (const field of ['expected', 'actual', 'reproduce']) {
        const box = await first.locator(`[data-field="${field}"]`).boundingBox();
        assert.ok(box && box.width > 0 && box.x + box.width <= LAPTOP.width, `${field} is shown within the page`);
      }
      assert.equal(await first.locator('[data-field="expected"]').textContent(), groups[0]!.expected);
      assert.equal(await first.locator('[data-field="actual"]').textContent(), groups[0]!.actual);
      assert.equal(await first.locator('[data-field="reproduce"]').textContent(), groups[0]!.reproduce);
      // The root's consequences, each with its curl line.
      const later = first.locator('[data-consequence="GET /plants 200"]');
      assert.ok(await later.isVisible(), 'the list’s failures are listed under the root that explains them');
      assert.match((await later.locator('pre').textContent()) ?? '', /curl .* -X GET '[^']*\/plants'/);
      // The text has the page's width, not a column's.
      const entry = await first.boundingBox();
      assert.ok(entry && entry.width >= 0.6 * LAPTOP.width, `the entry is ${entry?.width} px wide`);

      // A departure's details span the matrix: a row of their own below the check's.
      const row = page.locator('#matrix tr.check-row[data-id="PS-STATE-008"]');
      await row.locator('summary').click();
      const detail = page.locator('#matrix tr.detail-row[data-detail-for="PS-STATE-008"] td.detail');
      // The row is shown on the details' toggle event, which the browser fires in a task of its own after the click.
      await detail.waitFor({ state: 'visible' });
      const box = await detail.boundingBox();
      assert.ok(box && box.width >= 0.6 * LAPTOP.width, `the details are ${box?.width} px wide`);
      assert.ok(((await detail.textContent()) ?? '').includes('Expected'));
      assert.equal(await overflow(page), 0);
      await keepScreenshots(t, page, 'laptop-1366x768', { 'details-PS-STATE-008': detail });
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  it('a phone (390×844): no sideways scroll, and What failed still shows Expected and Actual', async (t) => {
    const { page, problems } = await open(PHONE);
    try {
      assert.equal(await overflow(page), 0, 'the page is no wider than the phone');
      const first = page.locator('ol[data-failures="stores-bad-tags"] > li.failure').first();
      for (const field of ['expected', 'actual', 'reproduce']) {
        const box = await first.locator(`[data-field="${field}"]`).boundingBox();
        assert.ok(box && box.width > 0 && box.x >= 0 && box.x + box.width <= PHONE.width, `${field} fits the phone`);
      }
      // The wide tables scroll in their own box.
      const matrix = await page.locator('#matrix').boundingBox();
      const holder = await page.locator('div.scroll:has(#matrix)').boundingBox();
      assert.ok(matrix && holder && holder.width <= PHONE.width, 'the matrix scrolls within its box');
      await page.locator('#matrix tr.check-row[data-id="PS-STATE-008"] summary').click();
      await page
        .locator('#matrix tr.detail-row[data-detail-for="PS-STATE-008"] td.detail')
        .waitFor({ state: 'visible' });
      assert.equal(await overflow(page), 0, 'opened details make the page no wider');
      await keepScreenshots(t, page, 'phone-390x844');
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
});
