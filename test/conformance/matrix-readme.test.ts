// The README's list of the Prism mock's documented divergences is generated
// from conformance/divergences/prism.json; this fails when it is out of date.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { loadDivergences } from '../../conformance/divergences.js';
import { README_PATH, withDivergencesTable } from '../../scripts/checks-doc.js';

it('the README lists every documented Prism divergence, up to date', () => {
  const readme = readFileSync(README_PATH, 'utf8');
  assert.equal(readme, withDivergencesTable(readme), 'README is out of date: run `npm run docs:checks`');
  for (const d of loadDivergences().divergences) assert.ok(readme.includes(`| \`${d.check}\` | ${d.outcome} |`), d.check);
});
