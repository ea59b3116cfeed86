// The client patterns of docs/stub.md ("Client patterns"), run as a reader
// would run them: each `// example: NAME` block is written to a file and run
// with node against the stub, listening on loopback with an admin token.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fixturePath } from '../support/fixtures.js';
import { listening, stubApp, TOKEN } from './helpers.js';

const DOC = fileURLToPath(new URL('../../../docs/stub.md', import.meta.url)); // from dist/test/stub/
const ADMIN_TOKEN = 'admin-token';

const examples = [...readFileSync(DOC, 'utf8').matchAll(/```js\n\/\/ example: (\S+)\n([\s\S]*?)```/g)].map(
  ([, name, code]) => ({ name: name as string, code: code as string }),
);

function runNode(file: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [file],
      { env: { ...process.env, ...env }, timeout: 90_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
  });
}

describe('docs/stub.md: the client patterns run against the stub', { timeout: 240_000 }, () => {
  test('the page has the four examples', () => {
    assert.deepEqual(
      examples.map(({ name }) => name),
      ['retry-with-backoff.mjs', 'timeout.mjs', 'circuit-breaker.mjs', 'webhook-receiver.mjs'],
    );
  });

  for (const { name, code } of examples) {
    test(name, async () => {
      // The receiver's example needs a document with a webhook: the starter, as its page says.
      const webhooks =
        name === 'webhook-receiver.mjs'
          ? { specPath: fixturePath('operations/starter.yaml'), webhooks: { backoffMs: 10 } }
          : {};
      const app = stubApp({ stub: { controlsToken: ADMIN_TOKEN }, ...webhooks });
      const base = await listening(app);
      const dir = mkdtempSync(join(tmpdir(), 'plantstore-example-'));
      try {
        const file = join(dir, name);
        writeFileSync(file, code);
        const result = await runNode(file, {
          PLANTSTORE_URL: base,
          PLANTSTORE_TOKEN: TOKEN,
          PLANTSTORE_ADMIN_TOKEN: ADMIN_TOKEN,
        });
        assert.equal(result.code, 0, `${name} failed:\n${result.stderr}`);
        assert.equal(result.stdout.trim(), `${name.replace(/\.mjs$/, '')}: ok`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await app.close();
      }
    });
  }
});
