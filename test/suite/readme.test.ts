// The README as a front page (issue 45, items 3 and 8): short, true, and its
// examples draw no warning of ours. The server started with the settings of
// each of its commands (`npm start`, the image's `docker run`) logs no
// warning, and the harness run with the token its examples use prints none;
// every page of docs/ is linked from it, and every link it has resolves.
// (container-test/readme.test.ts runs its docker commands as written.)
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { startEntry } from '../support/entry.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'dist/conformance/cli/main.js');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The PLANTSTORE_* settings a README command line gives (`NAME=value` before a command, or `-e NAME=value`). */
function settingsOf(line: string): Record<string, string> {
  return Object.fromEntries(
    [...line.matchAll(/(?:^|\s)(?:-e\s+)?(PLANTSTORE_[A-Z_]+)=(\S+)/g)].map(([, name, value]) => [name!, value!]),
  );
}

const lineWith = (pattern: RegExp) => {
  const found = README.split('\n').find((l) => pattern.test(l));
  assert.ok(found, `the README has a line matching ${String(pattern)}`);
  return found;
};

describe('the README', () => {
  it('is a front page: under 250 lines, the two set-up commands, and no claim of one operation', () => {
    assert.ok(README.split('\n').length < 250, `${README.split('\n').length} lines`);
    assert.doesNotMatch(README, /one operation/i);
    assert.match(README, /^npm ci && npm run conformance\s+# the main job/m);
    assert.match(README, /^npm test\s+# build and run every test/m);
  });

  it('links every page of docs/, and every relative link it has resolves', () => {
    const links = [...README.matchAll(/\]\(([^)#\s]+)(#[^)\s]*)?\)/g)].map(([, target]) => target!);
    for (const page of readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')))
      assert.ok(links.includes(`docs/${page}`), `the README links docs/${page}`);
    for (const target of links.filter((t) => !/^[a-z]+:/.test(t)))
      assert.ok(existsSync(join(ROOT, target)), `${target} exists`);
  });

  for (const [name, pattern] of [
    ['npm start', /^PLANTSTORE_TOKENS=\S+ .*npm start$/],
    ['docker run', /^docker run .* plantstore$/],
  ] as const)
    it(`the server started as its ${name} command says logs no warning`, async () => {
      const settings = settingsOf(lineWith(pattern));
      assert.ok(settings.PLANTSTORE_TOKENS, 'the command gives the API tokens');
      const server = await startEntry(settings);
      try {
        const warnings = server.lines.filter((l) => (JSON.parse(l) as { level: number }).level >= 40);
        assert.deepEqual(warnings, []);
      } finally {
        await server.stop();
      }
    });

  it('the harness run with the token of its examples prints no warning', async () => {
    const token = /Authorization: Bearer (\S+?)'/.exec(README)?.[1];
    assert.ok(token, 'the README shows the token its curl line sends');
    const server = await startEntry(settingsOf(lineWith(/^PLANTSTORE_TOKENS=\S+ .*npm start$/)));
    try {
      const run = await new Promise<{ code: number; stderr: string; stdout: string }>((resolve) =>
        execFile(
          process.execPath,
          [CLI, '--target', server.url, '--token', token, '--only', 'PS-ACCEPT-001'],
          { env: { ...process.env, NO_COLOR: '1', PLANTSTORE_TOKEN: '' }, timeout: 120_000 },
          (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
        ),
      );
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.doesNotMatch(run.stderr, /warning/i);
    } finally {
      await server.stop();
    }
  });
});
