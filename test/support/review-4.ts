// What the fourth security review's tests (issue 41) share: the plants of
// medium 2 on either store, the walk through a filtered list's pages, and
// the documents of low 3.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { fixturePath } from './fixtures.js';
import { AUTH } from '../server/support.js';

/**
 * Forty plants whose `tag` is a megabyte and whose `name` is "x" (so the
 * cheap look for `"x"` finds it in every one, and only judging the whole
 * plant tells it does not match `?tag=x`), then the one that matches.
 */
export const MEGABYTE_TAG_PLANTS: ReadonlyArray<readonly [string, string]> = [
  ...Array.from({ length: 40 }, (_, i) => [String(i + 1), `{"name":"x","tag":"${'t'.repeat(1_000_000)}"}`] as const),
  ['41', '{"name":"the one match","tag":"x"}'],
];

/**
 * The pages of `GET /plants?tag=x&limit=50` (paged.yaml), each followed by
 * its cursor to the last: what each page holds, and what `takeRead` counted
 * while it was made.
 */
export async function filteredPages(
  app: FastifyInstance,
  takeRead: () => number,
): Promise<Array<{ read: number; names: string[] }>> {
  const pages: Array<{ read: number; names: string[] }> = [];
  takeRead();
  for (let cursor: string | null = null; pages.length < 100;) {
    const answer: Awaited<ReturnType<FastifyInstance['inject']>> = await app.inject({
      method: 'GET',
      url: `/plants?tag=x&limit=50${cursor === null ? '' : `&cursor=${cursor}`}`,
      headers: AUTH,
    });
    assert.equal(answer.statusCode, 200, answer.body.slice(0, 200));
    const page = answer.json<{ items: Array<{ name: string }>; next: string | null }>();
    pages.push({ read: takeRead(), names: page.items.map(({ name }) => name) });
    if (page.next === null) return pages;
    cursor = page.next;
  }
  throw new Error('a hundred pages, and the list had not ended');
}

/**
 * test/fixtures/operations/unmapped.yaml with the answer of
 * `GET /store/summary` (an operation beside the plant resource, answered
 * with a value made from its schema) declared by `schema`, without an
 * example: by default `levels` arrays nested, each of minItems 1000.
 */
export function nestedArraysDocument(levels: number, schema = '{type: integer}'): string {
  for (let i = 0; i < levels; i++) schema = `{type: array, minItems: 1000, items: ${schema}}`;
  const base = readFileSync(fixturePath('operations/unmapped.yaml'), 'utf8');
  const start = base.indexOf(
    '              schema:\n                type: object\n                required:\n                  - open',
  );
  const end = base.indexOf('components:');
  assert.ok(start > 0 && end > start, 'unmapped.yaml declares the summary as it did');
  return `${base.slice(0, start)}              schema: ${schema}\n${base.slice(end)}`;
}
