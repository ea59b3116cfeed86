// Spec lint first: the project's ruleset (custom rules included) runs through
// Spectral's API. Findings are reported; none stops a run: our own house
// rules are warnings for a run, and only a document that cannot be served or
// checked (it does not load) stops one. `npm run lint:spec` still fails on
// a house rule's error.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { OPENAPI_PATH } from '../../spec/openapi.js';
import { lintSpec } from '../../conformance/model/lint.js';
import { startFake } from '../support/fake-server.js';

const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));
const LINT_SPEC = fileURLToPath(new URL('../../../scripts/lint-spec.mjs', import.meta.url));
const TOKEN = 'lint-test-token';
const dir = mkdtempSync(join(tmpdir(), 'plantstore-lint-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('spec lint', { timeout: 180_000 }, () => {
  it("reports the project rules' warnings on our document, and no error", async () => {
    const findings = await lintSpec(OPENAPI_PATH);
    assert.deepEqual(
      findings.filter((f) => f.severity === 'error'),
      [],
    );
    const codes = new Set(findings.map((f) => f.code));
    for (const code of [
      'plantstore-secured-operation-declares-401',
      'plantstore-size-limit-declared',
      'plantstore-string-max-length',
    ])
      assert.ok(codes.has(code), code);
  });

  it('a house rule broken (an integer without a format) is a warning for a run: the run checks the target', async () => {
    // An integer without a format breaks the custom rule plantstore-integer-format: valid OpenAPI 3.1 and JSON Schema all the same.
    const evolved = join(dir, 'openapi.yaml');
    const text = readFileSync(OPENAPI_PATH, 'utf8');
    assert.ok(text.includes('format: int32'));
    writeFileSync(evolved, text.replace(/^ *format: int32\n/m, ''));
    const findings = await lintSpec(evolved);
    assert.ok(
      findings.some((f) => f.code === 'plantstore-integer-format' && f.severity === 'warning'),
      'a warning for the run',
    );
    assert.deepEqual(
      findings.filter((f) => f.severity === 'error'),
      [],
    );
    const fake = await startFake({ tokens: [TOKEN] });
    try {
      const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(
          process.execPath,
          [CLI, '--spec', evolved, '--target', fake.url, '--token', TOKEN, '--only', 'PS-ACCEPT-001,PS-AUTH-001'],
          { env: { ...process.env, NO_COLOR: '1' } },
          (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
        ),
      );
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.doesNotMatch(r.stdout + r.stderr, /no checks were run/);
      assert.match(r.stdout, /PASSED|Summary/);
    } finally {
      await fake.close();
    }
  });

  it("npm run lint:spec still fails on a house rule's error for the file it lints", async () => {
    const evolved = join(dir, 'openapi.yaml');
    const r = await new Promise<{ code: number; out: string }>((resolve) =>
      execFile(process.execPath, [LINT_SPEC, evolved], (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code) : 0, out: stdout + stderr }),
      ),
    );
    assert.notEqual(r.code, 0, r.out);
    assert.match(r.out, /plantstore-integer-format/);
  });

  // A document that cannot be served or checked (a $ref that resolves to nothing) stops the run with exit 2, naming
  // why, line and column: cli.test.ts.
});
