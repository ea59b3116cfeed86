// compat's deadline (conformance/cli/compat-deadline.ts): the comparison
// runs in a worker thread, and a busy loop there, which no timer of its own
// could interrupt (issue 35, medium 1: compat's deadline was a timer on the
// blocked loop), is ended at --deadline with exit 2 and a message. A
// comparison that finishes gives its own exit code and reports through the
// worker. The verdicts are what ended and how, never how fast.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compatWithDeadline } from '../../conformance/cli/compat-deadline.js';
import { parseCompatArgs } from '../../conformance/cli/compat-args.js';
import { UsageError } from '../../conformance/cli/values.js';

const SPEC = fileURLToPath(new URL('../../../spec/openapi.yaml', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'plantstore-deadline-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** compatWithDeadline with what it says on stderr. */
async function withStderr(run: () => Promise<number>): Promise<{ code: number; stderr: string }> {
  const write = process.stderr.write.bind(process.stderr);
  let stderr = '';
  process.stderr.write = (chunk: string | Uint8Array) => ((stderr += String(chunk)), true);
  try {
    return { code: await run(), stderr };
  } finally {
    process.stderr.write = write;
  }
}

describe('compat under a deadline a blocked event loop cannot escape', { timeout: 300_000 }, () => {
  it('a comparison whose loop never comes back (a busy loop in its worker) is ended at --deadline: exit 2, said, and this thread was never blocked', async () => {
    const busy = join(scratch, 'busy.mjs');
    writeFileSync(busy, 'for (;;) {}\n');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    try {
      const { code, stderr } = await withStderr(() =>
        compatWithDeadline(['--base', SPEC, '--head', SPEC, '--deadline', '2'], {
          entry: pathToFileURL(busy),
          env: {},
        }),
      );
      assert.equal(code, 2);
      assert.match(stderr, /did not finish within its deadline of 2 s \(--deadline\)/);
      assert.ok(ticks > 0, 'the waiting thread kept its own loop');
    } finally {
      clearInterval(ticker);
    }
  });

  it('a comparison that finishes gives its exit code, and its reports, through the worker', async () => {
    const json = join(scratch, 'compat.json');
    const { code } = await withStderr(() =>
      compatWithDeadline(['--base', SPEC, '--head', SPEC, '--json', json], { env: {} }),
    );
    assert.equal(code, 0);
    assert.ok(existsSync(json));
    assert.equal((JSON.parse(readFileSync(json, 'utf8')) as { exitCode?: number }).exitCode ?? 0, 0);
  });

  it('--deadline and PLANTSTORE_COMPAT_DEADLINE: seconds, 600 by default, from 1 to 86400', () => {
    assert.equal(parseCompatArgs(['--base', 'x'], {}).deadlineMs, 600_000);
    assert.equal(parseCompatArgs(['--base', 'x', '--deadline', '5'], {}).deadlineMs, 5_000);
    assert.equal(parseCompatArgs(['--base', 'x'], { PLANTSTORE_COMPAT_DEADLINE: '30' }).deadlineMs, 30_000);
    for (const bad of ['0', '86401', 'soon'])
      assert.throws(() => parseCompatArgs(['--base', 'x', '--deadline', bad], {}), UsageError, bad);
  });
});
