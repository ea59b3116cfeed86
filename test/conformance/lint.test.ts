// Spec lint first: the project's ruleset (custom rules included) runs through
// Spectral's API; warnings are reported, errors stop the run with exit 2.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { OPENAPI_PATH } from '../../spec/openapi.js';
import { lintSpec } from '../../conformance/lint.js';

const CLI = fileURLToPath(new URL('../../conformance/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plantstore-lint-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('spec lint', () => {
  it('reports the project rules\' warnings on our document, and no error', async () => {
    const findings = await lintSpec(OPENAPI_PATH);
    assert.deepEqual(findings.filter((f) => f.severity === 'error'), []);
    const codes = new Set(findings.map((f) => f.code));
    for (const code of ['plantstore-secured-operation-declares-401', 'plantstore-size-limit-declared', 'plantstore-string-max-length']) assert.ok(codes.has(code), code);
  });

  it('stops the run (exit 2) on a lint error, naming the rule', async () => {
    // An integer without a format breaks the custom rule plantstore-integer-format.
    const broken = join(dir, 'openapi.yaml');
    const text = readFileSync(OPENAPI_PATH, 'utf8');
    assert.ok(text.includes('format: int32'));
    writeFileSync(broken, text.replace(/^ *format: int32\n/m, ''));
    const findings = await lintSpec(broken);
    assert.ok(findings.some((f) => f.code === 'plantstore-integer-format' && f.severity === 'error'));
    const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(process.execPath, [CLI, '--spec', broken, '--target', 'http://127.0.0.1:9'], (err, _out, stderr) =>
        resolve({ code: err ? Number(err.code) : 0, stderr }),
      ),
    );
    assert.equal(r.code, 2);
    assert.match(r.stderr, /lint errors/);
    assert.match(r.stderr, /plantstore-integer-format/);
  });
});
