// Writes the README's list of conformance checks from the catalog, between
// the <!-- checks:start --> and <!-- checks:end --> markers. `npm run
// docs:checks` runs it; test/conformance/readme.test.ts fails when the README
// is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { catalog } from '../conformance/checks/index.js';

export const README_PATH = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../README.md' : '../README.md', import.meta.url));
const START = '<!-- checks:start -->';
const END = '<!-- checks:end -->';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function checksTable(): string {
  const rows = catalog.map((c) => {
    const source = `${c.source.document}, ${c.source.section}`;
    return `| \`${c.id}\` | ${c.level} | ${cell(c.title)} | ${c.source.url ? `[${cell(source)}](${c.source.url})` : cell(source)} |`;
  });
  return ['| ID | level | check | source |', '|---|---|---|---|', ...rows].join('\n');
}

/** The README with the generated table in place; throws when the markers are missing. */
export function withChecksTable(readme: string): string {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`README has no ${START} … ${END} markers`);
  return `${readme.slice(0, a + START.length)}\n${checksTable()}\n${readme.slice(b)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const before = readFileSync(README_PATH, 'utf8');
  const after = withChecksTable(before);
  if (after !== before) writeFileSync(README_PATH, after);
  process.stdout.write(after === before ? 'README checks list is up to date\n' : 'README checks list updated\n');
}
