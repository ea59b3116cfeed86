// Pages chosen by a deepObject parameter (`page[number]`, `page[size]`:
// OpenAPI 3.1 §4.8.12.4) and linked by a Link header with the relations its
// declaration names (`first`, `prev`, `next`, `last`: RFC 8288), on both
// stores (link-relations.yaml). Every answer is judged against the document
// (client.ts), its required Link included.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../server/app.js';
import { Client, documentFixture } from './client.js';
import { useStoreKinds } from './store-kinds.js';
import { TOKEN } from './support.js';

const { kinds } = useStoreKinds();
const LINK_RELATIONS = documentFixture('link-relations.yaml');

/** The Link header's targets by relation (RFC 8288 §3: `<target>; rel="relation"`, comma-separated). */
function relations(link: string | string[] | number | undefined): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of String(link ?? '').matchAll(/<([^>]*)>\s*;\s*rel="([^"]+)"/g)) found.set(match[2]!, match[1]!);
  return found;
}

for (const [kind, make, options] of kinds) {
  describe(`Link relations over deepObject pages: ${kind}`, options, () => {
    test('page[number] and page[size] choose the page; first, prev, next and last link the pages, written as the request wrote its query', async () => {
      const app = buildApp({ specPath: LINK_RELATIONS, tokens: [TOKEN], store: await make() });
      try {
        const client = new Client(app, LINK_RELATIONS);
        const names = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
        for (const [n, name] of names.entries())
          await client.send(`create ${name}`, 'POST', '/plants', { status: 200 }, { body: { id: n + 1, name } });

        const one = await client.send('the first page of 3', 'GET', '/plants?page[size]=3', { status: 200 });
        assert.deepEqual(
          Object.fromEntries(relations(one.headers.link)),
          {
            first: '/plants?page[size]=3&page[number]=1',
            next: '/plants?page[size]=3&page[number]=2',
            last: '/plants?page[size]=3&page[number]=3',
          },
          'no prev on the first page; brackets raw, as the request wrote them',
        );

        const middle = await client.send('the second page', 'GET', '/plants?page%5Bnumber%5D=2&page%5Bsize%5D=3', {
          status: 200,
          json: [{ name: 'D' }, { name: 'E' }, { name: 'F' }].map((plant, n) => ({ id: n + 4, ...plant })),
        });
        assert.deepEqual(Object.fromEntries(relations(middle.headers.link)), {
          first: '/plants?page%5Bnumber%5D=1&page%5Bsize%5D=3',
          prev: '/plants?page%5Bnumber%5D=1&page%5Bsize%5D=3',
          next: '/plants?page%5Bnumber%5D=3&page%5Bsize%5D=3',
          last: '/plants?page%5Bnumber%5D=3&page%5Bsize%5D=3',
        });

        // Following next from the first page gives every plant once, in creation order; the last page has no next.
        const seen: string[] = [];
        let target: string | undefined = '/plants?page[size]=2';
        for (let pages = 0; target !== undefined && pages < 10; pages++) {
          const page = await client.send(`follow ${target}`, 'GET', target, { status: 200 });
          seen.push(...page.json<Array<{ name: string }>>().map(({ name }) => name));
          target = relations(page.headers.link).get('next');
          if (target === undefined) assert.ok(relations(page.headers.link).has('last'), 'the last page links its last');
        }
        assert.deepEqual(seen, names);

        await client.send('a page past the last', 'GET', '/plants?page[number]=9&page[size]=3', {
          status: 200,
          json: [],
        });
        await client.send('a size below its minimum', 'GET', '/plants?page[size]=0', { status: 400, error: 40007 });
        await client.send('a member the object does not declare', 'GET', '/plants?page[sise]=3', {
          status: 400,
          error: 40007,
        });
      } finally {
        await app.close();
      }
    });
  });
}
