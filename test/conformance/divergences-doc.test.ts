// docs/checks.md's list of the Prism mock's documented divergences is generated
// from conformance/differential/divergences/prism.json; this fails when it is out of date.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { loadDivergences } from '../../conformance/run/differential/divergences.js';
import { CHECKS_DOC_PATH, withDivergencesTable } from '../../scripts/checks-doc.js';

it('docs/checks.md lists every documented Prism divergence, up to date', () => {
  const page = readFileSync(CHECKS_DOC_PATH, 'utf8');
  assert.equal(page, withDivergencesTable(page), 'docs/checks.md is out of date: run `npm run docs:checks`');
  for (const d of loadDivergences().divergences) assert.ok(page.includes(`| \`${d.check}\` | ${d.outcome} |`), d.check);
});
