// Lists in the styles a document declares, as a client team pages them, on
// both stores: an array filter and a sort (filter-sort.yaml), pages in an
// envelope followed by their cursor (cursor-envelope.yaml), numbered pages
// followed by their Link rel="next" (link-pages.yaml, RFC 8288) with the
// count. Every answer is judged against the document (client.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { compareCodePoints } from '../../server/operations/list-sort.js';
import { Client, documentFixture } from './client.js';
import { useStoreKinds } from './store-kinds.js';
import { TOKEN } from './support.js';

const { kinds } = useStoreKinds();
const FILTER_SORT = documentFixture('filter-sort.yaml');
const CURSOR = documentFixture('cursor-envelope.yaml');
const LINK = documentFixture('link-pages.yaml');

const PLANTS = [
  { name: 'Monstera', tag: 'tropical' },
  { name: 'aloe', tag: 'succulent' },
  { name: 'Boston fern', tag: 'fern' },
  { name: 'Zamioculcas', tag: 'tropical' },
  { name: 'Élan', tag: 'fern' },
  { name: '🌵 cactus', tag: 'succulent' },
  { name: 'Ivy' },
];

async function create(client: Client, count: number, withId: boolean) {
  for (let i = 0; i < count; i++) {
    const plant = PLANTS[i % PLANTS.length]!;
    await client.send(`create ${i + 1}`, 'POST', '/plants', { status: 200 }, { body: { id: i + 1, ...plant } });
  }
  return Array.from({ length: count }, (_, i) =>
    withId ? { id: i + 1, ...PLANTS[i % PLANTS.length]! } : PLANTS[i % PLANTS.length]!,
  );
}

for (const [kind, make, options] of kinds) {
  describe(`list styles: ${kind}`, options, () => {
    test(
      'filter-sort.yaml: ?tag=a&tag=b keeps exactly the plants tagged a or b; ?sort=name and ?sort=-name order by name in code point order; a sort outside the enum is 400',
      { timeout: 120_000 },
      async () => {
        const app = buildApp({ specPath: FILTER_SORT, tokens: [TOKEN], store: await make() });
        const client = new Client(app, FILTER_SORT);
        const stored = await create(client, PLANTS.length, false);
        const tagged = (...tags: string[]) => stored.filter((plant) => tags.includes(plant.tag ?? ''));
        await client.send('one tag', 'GET', '/plants?tag=fern', { status: 200, json: tagged('fern') });
        await client.send('two tags', 'GET', '/plants?tag=fern&tag=tropical', {
          status: 200,
          json: tagged('fern', 'tropical'),
        });
        await client.send('a tag no plant has', 'GET', '/plants?tag=none', { status: 200, json: [] });
        const byName = [...stored].sort((a, b) => compareCodePoints(a.name, b.name));
        assert.deepEqual(
          byName.map(({ name }) => name),
          ['Boston fern', 'Ivy', 'Monstera', 'Zamioculcas', 'aloe', 'Élan', '🌵 cactus'],
          'code point order: upper case before lower case, then Latin-1, then astral',
        );
        await client.send('sort by name', 'GET', '/plants?sort=name', { status: 200, json: byName });
        await client.send('sort by name, descending', 'GET', '/plants?sort=-name', {
          status: 200,
          json: [...byName].reverse(),
        });
        await client.send('sorted, then paged', 'GET', '/plants?sort=-name&limit=2', {
          status: 200,
          json: [...byName].reverse().slice(0, 2),
        });
        await client.send('filtered and sorted', 'GET', '/plants?tag=succulent&tag=fern&sort=name', {
          status: 200,
          json: byName.filter((plant) => ['succulent', 'fern'].includes(plant.tag ?? '')),
        });
        await client.send('a sort outside the enum', 'GET', '/plants?sort=tag', { status: 400, error: 40007 });
        await client.send('unsorted: the order created', 'GET', '/plants', { status: 200, json: stored });
      },
    );

    test(
      'cursor-envelope.yaml: following next_cursor from the first page gives every plant once, in creation order, page_size at most a page; the last page has no next_cursor',
      { timeout: 120_000 },
      async () => {
        const app = buildApp({ specPath: CURSOR, tokens: [TOKEN], store: await make() });
        const client = new Client(app, CURSOR);
        const stored = await create(client, 23, true);
        for (const size of [undefined, 1, 7, 23, 100]) {
          const seen: unknown[] = [];
          let url = size === undefined ? '/plants' : `/plants?page_size=${size}`;
          for (let pages = 0; ; pages++) {
            assert.ok(pages < 30, 'the pages end');
            const page = (
              await client.send(`a page of ${size ?? 'the default 10'}`, 'GET', url, { status: 200 })
            ).json<{
              data: unknown[];
              page: { next_cursor?: string };
            }>();
            assert.ok(page.data.length <= (size ?? 10), 'at most a page');
            seen.push(...page.data);
            if (page.page.next_cursor === undefined) break;
            url = `/plants?${size === undefined ? '' : `page_size=${size}&`}starting_after=${encodeURIComponent(page.page.next_cursor)}`;
          }
          assert.deepEqual(seen, stored, `every plant once, in order, by pages of ${size ?? 10}`);
        }
        await client.send('a page size past the maximum', 'GET', '/plants?page_size=101', {
          status: 400,
          error: 40007,
        });
        await client.send('a cursor this server never gave', 'GET', '/plants?starting_after=abc', {
          status: 200,
          json: { data: [], page: {} },
        });
      },
    );

    test(
      'link-pages.yaml: following Link rel="next" from the first page gives every plant once, per_page at most a page, X-Total-Count the count; the last page has no rel="next"',
      { timeout: 120_000 },
      async () => {
        const app: FastifyInstance = buildApp({ specPath: LINK, tokens: [TOKEN], store: await make() });
        const client = new Client(app, LINK);
        const stored = await create(client, 65, true);
        for (const perPage of [undefined, 10, 65, 100]) {
          const seen: unknown[] = [];
          let url: string | undefined = perPage === undefined ? '/plants' : `/plants?per_page=${perPage}`;
          let pages = 0;
          while (url !== undefined) {
            assert.ok(pages++ < 20, 'the pages end');
            const answer = await client.send(`a page of ${perPage ?? 30}`, 'GET', url, {
              status: 200,
              headers: { 'x-total-count': '65' },
            });
            const page = answer.json<unknown[]>();
            assert.ok(page.length <= (perPage ?? 30));
            seen.push(...page);
            const link = answer.headers.link === undefined ? undefined : String(answer.headers.link);
            url = link === undefined ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
            if (link !== undefined) assert.ok(url !== undefined, `a Link of RFC 8288's syntax: ${link}`);
          }
          assert.deepEqual(seen, stored, `every plant once, in order, ${perPage ?? 30} a page`);
          assert.equal(pages, Math.ceil(65 / (perPage ?? 30)));
        }
        await client.send('the second page by number', 'GET', '/plants?page=2&per_page=10', {
          status: 200,
          json: stored.slice(10, 20),
          headers: { link: '</plants?page=3&per_page=10>; rel="next"' },
        });
        await client.send('a page past the last', 'GET', '/plants?page=9&per_page=10', {
          status: 200,
          json: [],
          headers: { link: undefined },
        });
        await client.send('page 0, below the minimum', 'GET', '/plants?page=0', { status: 400, error: 40007 });
        await client.send('delete one', 'DELETE', '/plants/1', { status: 204 });
        await client.send('the count follows', 'GET', '/plants?per_page=1', {
          status: 200,
          headers: { 'x-total-count': '64' },
        });
      },
    );
  });
}
