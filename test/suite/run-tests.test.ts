// The test runner (scripts/run-tests.mjs) gives every test file a deadline:
// a file that hangs fails by name, whether its event loop is blocked (a
// synchronous retry loop, as sonic-boom's flushSync on EBADF) or merely kept
// alive by a handle, and the files beside it still run and pass.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../../lib/process.js';

const RUN_TESTS = fileURLToPath(new URL('../../../scripts/run-tests.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plantstore-run-tests-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const FILES: Record<string, string> = {
  'blocked.test.mjs':
    "import { test } from 'node:test';\ntest('blocks its event loop', () => { const cell = new Int32Array(new SharedArrayBuffer(4)); for (;;) Atomics.wait(cell, 0, 0, 100); });\n",
  'kept-alive.test.mjs':
    "import { test } from 'node:test';\ntest('leaves a timer running', () => { setInterval(() => {}, 1000); });\n",
  'fine.test.mjs': "import { test } from 'node:test';\ntest('passes', () => {});\n",
};

describe('scripts/run-tests.mjs', { timeout: 120_000 }, () => {
  it('fails a file that hangs, naming it, and still runs the others', async () => {
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name.replace('.mjs', '.js')), text);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    // NODE_TEST_CONTEXT unset: the inner runner is a runner of its own, not a child reporting to this one.
    // The hanging files never end by themselves: only the deadline can end them, so the verdict does not depend on timing.
    const run = await runProcess({
      file: process.execPath,
      args: [RUN_TESTS, dir],
      env: { TEST_FILE_TIMEOUT_MS: '3000', NODE_TEST_CONTEXT: undefined },
      timeoutMs: 90_000,
      name: 'run-tests',
    });
    assert.notEqual(run.code, 0, 'a run with a hanging file fails');
    const out = run.lines.join('\n');
    for (const name of ['blocked.test.js', 'kept-alive.test.js']) {
      assert.match(
        out,
        new RegExp(`not ok \\d+ - [^\\n]*${name.replace('.', '\\.')}\\n[\\s\\S]*?test timed out after 3000ms`),
        `${name} is reported as timed out`,
      );
    }
    assert.match(out, /ok \d+ - passes/);
    assert.match(out, /# pass [12]\n/);
  });
});
