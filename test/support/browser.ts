// The browser of the browser tests. By default, the Chromium build that ships
// inside the @sparticuz/chromium npm package: `npm ci` is all a fresh machine
// needs, no system package and no root. CHROMIUM_PATH names another Chromium
// (e.g. Debian's /usr/bin/chromium) when set.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

/** Flags for a desktop Chromium named by CHROMIUM_PATH: no sandbox (tests may run as root in CI), nothing fetched in the background. */
const DESKTOP_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-gpu',
  '--no-first-run',
  '--disable-sync',
];

/** The version of the @sparticuz/chromium package, whose major is the Chromium major it ships (its package.json is not exported: found from its entry, build/cjs/index.cjs). */
export const BUNDLED_CHROMIUM_VERSION = (
  JSON.parse(
    readFileSync(
      join(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..', '..', 'package.json'),
      'utf8',
    ),
  ) as { version: string }
).version;

/**
 * @sparticuz/chromium inflates its browser into the temp folder on first use
 * and from then on returns any file at that path, even one still being
 * written. Browser tests run in parallel processes, so the first inflation
 * is done under a lock (mkdir is atomic): the others wait for it to end.
 */
async function bundledChromium(): Promise<string> {
  const lock = join(tmpdir(), 'plantstore-chromium.lock');
  const giveUpAt = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock left by a process killed while inflating: inflating takes seconds, not minutes.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000)
        rmSync(lock, { recursive: true, force: true });
      if (Date.now() > giveUpAt)
        throw new Error(`waited 3 minutes for ${lock} to go: another process is inflating @sparticuz/chromium`);
      await sleep(200);
    }
  }
  try {
    // The package returns whatever file is at its path, even one another
    // version inflated (a machine that ran an older checkout's tests): a
    // stamp beside it says which version it is, and a stale one is removed.
    const inflated = join(tmpdir(), 'chromium');
    const stamp = join(tmpdir(), 'plantstore-chromium.version');
    const stamped = existsSync(stamp) ? readFileSync(stamp, 'utf8') : undefined;
    if (existsSync(inflated) && stamped !== BUNDLED_CHROMIUM_VERSION) rmSync(inflated, { force: true });
    const path = await sparticuz.executablePath();
    if (stamped !== BUNDLED_CHROMIUM_VERSION) writeFileSync(stamp, BUNDLED_CHROMIUM_VERSION);
    return path;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Which browser the tests launch: CHROMIUM_PATH when set, else the bundled one. */
export async function chromiumExecutable(): Promise<{ path: string; args: string[] }> {
  const named = process.env.CHROMIUM_PATH;
  if (named) {
    if (!existsSync(named))
      throw new Error(
        `CHROMIUM_PATH names ${named}, which does not exist; unset it to use the Chromium of @sparticuz/chromium`,
      );
    return { path: named, args: DESKTOP_ARGS };
  }
  // The package's flags are made for one page per Lambda call: --single-process
  // ends the browser when its first page closes, and these tests open several.
  return { path: await bundledChromium(), args: sparticuz.args.filter((flag) => flag !== '--single-process') };
}

/** A headless Chromium for a browser test; close it in `after`. */
export async function launchChromium(): Promise<Browser> {
  const { path, args } = await chromiumExecutable();
  return chromium.launch({ executablePath: path, args, headless: true });
}
