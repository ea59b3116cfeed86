// The lint's findings kept on disk (conformance/model/lint-cache.ts): a
// document linted before is read back instead of linted, anything that
// changes the key lints anew, and a cache that cannot be used only means
// the lint runs.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { OPENAPI_PATH } from '../../spec/openapi.js';
import { DEFAULT_RULESET, lintApart, type LintFinding, type LintOutcome } from '../../conformance/model/lint.js';
import { keptFindings, lintCacheDir, lintKey } from '../../conformance/model/lint-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-lint-cache-'));
const cache = join(dir, 'cache');
const document = join(dir, 'openapi.yaml');
const shipped = readFileSync(OPENAPI_PATH, 'utf8');
const previous = process.env.PLANTSTORE_CACHE_DIR;
after(() => {
  if (previous === undefined) delete process.env.PLANTSTORE_CACHE_DIR;
  else process.env.PLANTSTORE_CACHE_DIR = previous;
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  rmSync(cache, { recursive: true, force: true });
  writeFileSync(document, shipped);
  process.env.PLANTSTORE_CACHE_DIR = cache;
});

const findingsOf = (outcome: LintOutcome): LintFinding[] => {
  assert.ok('findings' in outcome, JSON.stringify(outcome));
  return outcome.findings;
};
const kept = () => readdirSync(cache).filter((name) => name.endsWith('.json'));
const MARKER: LintFinding = { code: 'kept', severity: 'info', message: 'read from the cache', path: 'x' };

describe('the lint cache', { timeout: 180_000 }, () => {
  it('a document linted once is read back: the next lint returns what the file holds, without linting', async () => {
    const first = findingsOf(await lintApart(document));
    assert.ok(first.some((f) => f.code === 'plantstore-string-max-length'));
    const [file] = kept();
    assert.ok(file !== undefined, 'the findings were kept');
    const key = lintKey(document, DEFAULT_RULESET)!;
    assert.equal(file, `lint-${key}.json`);
    assert.deepEqual((JSON.parse(readFileSync(join(cache, file), 'utf8')) as { findings: unknown }).findings, first);

    writeFileSync(join(cache, file), JSON.stringify({ key, findings: [MARKER] }));
    assert.deepEqual(findingsOf(await lintApart(document)), [MARKER]);
  });

  it('one byte more in the document is another key: linted anew, and kept beside', async () => {
    const before = lintKey(document, DEFAULT_RULESET);
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, `lint-${before}.json`), JSON.stringify({ key: before, findings: [MARKER] }));
    writeFileSync(document, `${shipped}# edited\n`);
    assert.notEqual(lintKey(document, DEFAULT_RULESET), before);
    const findings = findingsOf(await lintApart(document));
    assert.ok(!findings.some((f) => f.code === MARKER.code));
    assert.equal(kept().length, 2);
  });

  it('a file that does not hold findings is not believed: the lint runs and the file is written again', async () => {
    const key = lintKey(document, DEFAULT_RULESET)!;
    const file = join(cache, `lint-${key}.json`);
    mkdirSync(cache, { recursive: true });
    for (const junk of [
      'not json',
      JSON.stringify({ key: 'another', findings: [MARKER] }),
      JSON.stringify({ key, findings: [{ ...MARKER, code: 1 }] }),
      JSON.stringify({ key, findings: [{ ...MARKER, severity: 'fatal' }] }),
      JSON.stringify({ key, findings: 'none' }),
    ]) {
      writeFileSync(file, junk);
      assert.equal(keptFindings(cache, key), undefined, junk);
    }
    const findings = findingsOf(await lintApart(document));
    assert.ok(!findings.some((f) => f.code === MARKER.code));
    assert.deepEqual((JSON.parse(readFileSync(file, 'utf8')) as { findings: unknown }).findings, findings);
  });

  it('PLANTSTORE_CACHE_DIR=off keeps nothing; a folder that cannot be written only means the lint runs', async () => {
    assert.equal(lintCacheDir({ PLANTSTORE_CACHE_DIR: 'off' }), undefined);
    assert.equal(lintCacheDir({ PLANTSTORE_CACHE_DIR: '' }), undefined);
    assert.equal(lintCacheDir({ XDG_CACHE_HOME: '/xdg' }), join('/xdg', 'plantstore'));
    process.env.PLANTSTORE_CACHE_DIR = 'off';
    const findings = findingsOf(await lintApart(document));
    assert.ok(findings.length > 0);
    process.env.PLANTSTORE_CACHE_DIR = join(document, 'under-a-file');
    assert.deepEqual(findingsOf(await lintApart(document)), findings);
  });

  it('a document with a $ref to another file has no key: its findings depend on that file too', () => {
    writeFileSync(document, `${shipped}x-elsewhere:\n  $ref: './other.yaml#/components/schemas/Plant'\n`);
    assert.equal(lintKey(document, DEFAULT_RULESET), undefined);
    writeFileSync(document, `${shipped}x-here:\n  $ref: '#/components/schemas/Plant'\n`);
    assert.ok(lintKey(document, DEFAULT_RULESET));
  });
});
