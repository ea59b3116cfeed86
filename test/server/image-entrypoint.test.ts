// The image's entry point (scripts/image-entrypoint.sh), run by sh as the
// image runs it: `docker run IMAGE --help` exited 127 (exec of "--help",
// not found); it now lists the image's commands, and another option is a
// clear error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../../lib/process.js';

const ENTRYPOINT = fileURLToPath(new URL('../../../scripts/image-entrypoint.sh', import.meta.url)); // from dist/test/server/

test(
  'the image entry point: --help lists the commands (exit 0); another option is an error naming it (exit 2)',
  { timeout: 60_000 },
  async () => {
    for (const help of ['--help', '-h', 'help']) {
      const { code, lines } = await runProcess({ file: 'sh', args: [ENTRYPOINT, help], timeoutMs: 30_000 });
      assert.equal(code, 0, help);
      assert.match(lines.join('\n'), /docker run IMAGE conformance ARGS/);
    }
    const { code, stderr } = await runProcess({ file: 'sh', args: [ENTRYPOINT, '--port'], timeoutMs: 30_000 });
    assert.equal(code, 2);
    assert.match(stderr, /--port is not a command of the image; docker run IMAGE --help lists them/);
  },
);
