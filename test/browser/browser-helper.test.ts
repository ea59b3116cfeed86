// The browser tests' helper (test/support/browser.ts): with CHROMIUM_PATH
// unset it launches the Chromium inside @sparticuz/chromium, so a fresh
// machine needs no system browser; CHROMIUM_PATH, when set, names the browser.
import { strict as assert } from 'node:assert';
import { after, describe, it } from 'node:test';
import { BUNDLED_CHROMIUM_VERSION, chromiumExecutable, launchChromium } from '../support/browser.js';

const saved = process.env.CHROMIUM_PATH;
after(() => {
  if (saved === undefined) delete process.env.CHROMIUM_PATH;
  else process.env.CHROMIUM_PATH = saved;
});

describe('the browser of the browser tests', () => {
  it('is the Chromium of @sparticuz/chromium when CHROMIUM_PATH is unset, and renders a page', async () => {
    delete process.env.CHROMIUM_PATH;
    const browser = await launchChromium();
    try {
      // The package's major version is the Chromium major it ships (143.0.4 ships Chromium 143).
      assert.equal(
        browser.version().split('.')[0],
        BUNDLED_CHROMIUM_VERSION.split('.')[0],
        `launched Chromium ${browser.version()}`,
      );
      const page = await browser.newPage();
      await page.setContent('<p id="greeting">Monstera</p>');
      assert.equal(await page.textContent('#greeting'), 'Monstera');
    } finally {
      await browser.close();
    }
  });

  it('is the one CHROMIUM_PATH names, when set', async () => {
    process.env.CHROMIUM_PATH = process.execPath;
    assert.equal((await chromiumExecutable()).path, process.execPath);
    process.env.CHROMIUM_PATH = '/nonexistent/chromium';
    await assert.rejects(chromiumExecutable(), /CHROMIUM_PATH names \/nonexistent\/chromium, which does not exist/);
  });
});
