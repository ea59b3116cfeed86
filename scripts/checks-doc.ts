// Writes docs/checks.md's list of conformance checks from the catalog, between
// the <!-- checks:start --> and <!-- checks:end --> markers, and the list of
// the Prism mock's documented divergences from its divergence file, between
// <!-- divergences:start --> and <!-- divergences:end -->. `npm run
// docs:checks` runs it; test/conformance/checks-doc.test.ts and
// divergences-doc.test.ts fail when the page is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { catalog } from '../conformance/checks/index.js';
import { loadDivergences } from '../conformance/run/differential/divergences.js';

/** Every check ID ever published, in the order they were added: `npm run docs:checks` appends new ones; none is ever removed (test/conformance/catalog.test.ts). */
export const FROZEN_IDS_PATH = fileURLToPath(
  new URL(
    import.meta.url.includes('/dist/')
      ? '../../conformance/checks/frozen-ids.json'
      : '../conformance/checks/frozen-ids.json',
    import.meta.url,
  ),
);
export const FROZEN_IDS: readonly string[] = JSON.parse(readFileSync(FROZEN_IDS_PATH, 'utf8')) as string[];

export const CHECKS_DOC_PATH = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '../../docs/checks.md' : '../docs/checks.md', import.meta.url),
);
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

/** The first sentence of a quoted requirement (up to its first full stop followed by a space), at most `max` characters. */
function firstSentence(text: string, max = 220): string {
  const end = text.search(/[.:]\s/);
  const sentence = end > 0 ? text.slice(0, end + 1) : text;
  return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
}

/** The grading audit: each check's level, the sentence of its source it rests on, why that level, and what a pass needs. */
export function auditTable(): string {
  const rows = catalog.map(
    (c) =>
      `| \`${c.id}\` | ${c.level} | ${cell(`${c.source.document}, ${c.source.section}`)}: "${cell(firstSentence(c.requirement))}" | ${cell(c.grading)} | ${cell(c.evidence)} |`,
  );
  return [
    '| check | level | source sentence | why this level, and how a departure is graded | what a pass needs |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** `page` with `body` between the markers `start` and `end`; throws when they are missing. */
function between(page: string, start: string, end: string, body: string): string {
  const a = page.indexOf(start);
  const b = page.indexOf(end);
  if (a < 0 || b < a) throw new Error(`docs/checks.md has no ${start} … ${end} markers`);
  return `${page.slice(0, a + start.length)}\n${body}\n${page.slice(b)}`;
}

/** The page with the generated tables in place (the catalog and its grading audit); throws when the markers are missing. */
export function withChecksTable(readme: string): string {
  return between(
    between(readme, START, END, checksTable()),
    '<!-- audit:start -->',
    '<!-- audit:end -->',
    auditTable(),
  );
}

const DIV_START = '<!-- divergences:start -->';
const DIV_END = '<!-- divergences:end -->';

export function divergencesTable(): string {
  const rows = loadDivergences().divergences.map(
    (d) => `| \`${d.check}\` | ${d.outcome} | ${cell(d.reason)} | \`${cell(d.evidence)}\` |`,
  );
  return ['| check | outcome on Prism | why | evidence |', '|---|---|---|---|', ...rows].join('\n');
}

/** The page with the generated divergences table in place; throws when the markers are missing. */
export function withDivergencesTable(readme: string): string {
  const a = readme.indexOf(DIV_START);
  const b = readme.indexOf(DIV_END);
  if (a < 0 || b < a) throw new Error(`docs/checks.md has no ${DIV_START} … ${DIV_END} markers`);
  return `${readme.slice(0, a + DIV_START.length)}\n${divergencesTable()}\n${readme.slice(b)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const before = readFileSync(CHECKS_DOC_PATH, 'utf8');
  const after = withDivergencesTable(withChecksTable(before));
  if (after !== before) writeFileSync(CHECKS_DOC_PATH, after);
  const added = catalog.map((c) => c.id).filter((id) => !FROZEN_IDS.includes(id));
  if (added.length > 0) {
    writeFileSync(FROZEN_IDS_PATH, `${JSON.stringify([...FROZEN_IDS, ...added], null, 2)}\n`);
    process.stdout.write(`conformance/checks/frozen-ids.json: ${added.join(', ')} added\n`);
  }
  process.stdout.write(
    after === before
      ? 'docs/checks.md: checks and divergences lists are up to date\n'
      : 'docs/checks.md: checks and divergences lists updated\n',
  );
}
