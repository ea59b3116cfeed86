// HAL lists (draft-kelly-json-hal), on both stores: a page object whose items
// are in `_embedded` and whose `_links` it declares is answered with them, its
// `_links.self.href` the request's own path and query and its
// `_links.next.href` the next page's (§4.1.1, §5.1) while one follows, where
// the list can continue (hal-pages.yaml: its page number); without a
// parameter to continue by (hal-pages.yaml without `page`),
// every page has its self link only, and the start names the next link as not
// served. Every answer is judged against the document (client.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse, stringify } from 'yaml';
import { buildApp } from '../../server/app.js';
import { Client, documentFixture } from './client.js';
import { useStoreKinds } from './store-kinds.js';
import { TOKEN } from './support.js';

const { kinds } = useStoreKinds();
const HAL = documentFixture('hal-pages.yaml');
const dir = mkdtempSync(join(tmpdir(), 'plantstore-list-hal-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** hal-pages.yaml without its page number: nothing to continue the list by. */
function withoutPageNumber(): string {
  const doc = parse(readFileSync(HAL, 'utf8')) as {
    paths: { '/plants': { get: { parameters: Array<{ name: string }> } } };
  };
  const list = doc.paths['/plants'].get;
  list.parameters = list.parameters.filter((parameter) => parameter.name !== 'page');
  const path = join(dir, 'hal-no-page-number.yaml');
  writeFileSync(path, stringify(doc));
  return path;
}

interface HalPage {
  _embedded: { plants: unknown[] };
  _links: { self: { href: string }; next?: { href: string } };
}

const PLANTS = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, name: `plant ${i + 1}` }));

for (const [kind, make, options] of kinds) {
  describe(`HAL lists: ${kind}`, options, () => {
    test(
      'hal-pages.yaml: following _links.next.href from the first page gives every plant once, self names the page, the last page has no next',
      { timeout: 120_000 },
      async () => {
        const client = new Client(buildApp({ specPath: HAL, tokens: [TOKEN], store: await make() }), HAL);
        for (const plant of PLANTS) await client.send('create', 'POST', '/plants', { status: 200 }, { body: plant });
        const seen: unknown[] = [];
        let url: string | undefined = '/plants?size=3';
        for (let pages = 0; url !== undefined; pages++) {
          assert.ok(pages < PLANTS.length, 'the pages end');
          const answer = await client.send('a HAL page', 'GET', url, {
            status: 200,
            headers: { 'content-type': /^application\/hal\+json/ },
          });
          const page = answer.json<HalPage>();
          assert.equal(page._links.self.href, url, 'self: the request itself');
          assert.ok(page._embedded.plants.length <= 3, 'at most a page');
          seen.push(...page._embedded.plants);
          // A URI reference, resolved against the request's URL (RFC 3986 §5).
          const next = page._links.next?.href;
          const resolved: URL | undefined = next === undefined ? undefined : new URL(next, `http://target${url}`);
          url = resolved === undefined ? undefined : `${resolved.pathname}${resolved.search}`;
        }
        assert.deepEqual(seen, PLANTS, 'every plant once, in order');
      },
    );

    test(
      'without a parameter to continue by: a page with its self link only, and the next link named as not served at start',
      { timeout: 120_000 },
      async () => {
        const specPath = withoutPageNumber();
        assert.throws(
          () => buildApp({ specPath, tokens: [TOKEN], strict: true }),
          /GET \/plants: its HAL next link is not served as the document says: the document declares no cursor, page number or offset parameter/,
        );
        const client = new Client(buildApp({ specPath, tokens: [TOKEN], store: await make() }), specPath);
        for (const plant of PLANTS.slice(0, 2))
          await client.send('create', 'POST', '/plants', { status: 200 }, { body: plant });
        await client.send('the list', 'GET', '/plants?size=1', {
          status: 200,
          json: { _embedded: { plants: PLANTS.slice(0, 1) }, _links: { self: { href: '/plants?size=1' } } },
        });
      },
    );
  });
}
