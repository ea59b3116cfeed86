// docs/checks.md's list of checks is generated from the catalog; this fails when
// a check was added or changed without `npm run docs:checks`.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { catalog } from '../../conformance/checks/index.js';
import { CHECKS_DOC_PATH, withChecksTable } from '../../scripts/checks-doc.js';

it('docs/checks.md lists every check of the catalog, up to date', () => {
  const page = readFileSync(CHECKS_DOC_PATH, 'utf8');
  assert.equal(
    page,
    withChecksTable(page),
    'docs/checks.md is out of date: run `npm run build && npm run docs:checks`',
  );
  for (const c of catalog) assert.ok(page.includes(`| \`${c.id}\` | ${c.level} |`), c.id);
});
