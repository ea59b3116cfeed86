// The server serves every name of lib/list-parameters.ts, the table the
// harness reads lists by, on both stores: for each cursor name (with each
// cursor member's name in turn) a page of cursor-envelope.yaml renamed so is
// followed to the last; for each page name and offset name a page of
// link-pages.yaml renamed so is followed by its Link rel="next"; each under
// a limit of each limit name in turn. Every answer is judged against the
// renamed document (client.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse, stringify } from 'yaml';
import { LIST_PARAMETER_NAMES, NEXT_MEMBER_NAMES } from '../../lib/list-parameters.js';
import { buildApp } from '../../server/app.js';
import type { PlantStore } from '../../server/store/store.js';
import { Client, documentFixture } from './client.js';
import { useStoreKinds } from './store-kinds.js';
import { TOKEN } from './support.js';

const { kinds } = useStoreKinds();
const dir = mkdtempSync(join(tmpdir(), 'plantstore-list-names-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const PLANTS = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: `plant ${i + 1}` }));
const PAGE = 2;

type Parameter = { name: string; schema: Record<string, unknown> };
type Document = {
  paths: { '/plants': { get: { parameters: Parameter[]; responses: Record<string, unknown> } } };
};

/** A fixture with its list's parameters renamed (and given a schema), and its cursor member renamed; written to a file. */
function renamed(
  fixture: string,
  parameters: Record<string, { name: string; schema?: Record<string, unknown> }>,
  nextMember?: string,
): string {
  const doc = parse(readFileSync(documentFixture(fixture), 'utf8')) as Document;
  const list = doc.paths['/plants'].get;
  for (const parameter of list.parameters) {
    const to = parameters[parameter.name];
    if (to === undefined) continue;
    parameter.name = to.name;
    if (to.schema !== undefined) parameter.schema = to.schema;
  }
  if (nextMember !== undefined) {
    const page = (list.responses['200'] as { content: Record<string, { schema: Record<string, unknown> }> }).content[
      'application/json'
    ]!.schema as { properties: { page: { properties: Record<string, unknown> } } };
    page.properties.page.properties = { [nextMember]: page.properties.page.properties.next_cursor };
  }
  const path = join(
    dir,
    `${fixture}-${Object.values(parameters)
      .map((p) => p.name)
      .join('-')}-${nextMember ?? ''}.yaml`,
  );
  writeFileSync(path, stringify(doc));
  return path;
}

const limitName = (i: number) => LIST_PARAMETER_NAMES.limit[i % LIST_PARAMETER_NAMES.limit.length]!;

async function stored(store: PlantStore): Promise<PlantStore> {
  const specPath = documentFixture('cursor-envelope.yaml');
  const client = new Client(buildApp({ specPath, tokens: [TOKEN], store }), specPath);
  for (const plant of PLANTS)
    await client.send(`create ${plant.id}`, 'POST', '/plants', { status: 200 }, { body: plant });
  return store;
}

for (const [kind, make, options] of kinds) {
  describe(`every list parameter name the harness knows is served: ${kind}`, options, () => {
    test(
      'each cursor name, with each cursor member name: following the cursor gives every plant once, a limit a page',
      { timeout: 300_000 },
      async () => {
        const store = await stored(await make());
        const cursors = LIST_PARAMETER_NAMES.cursor;
        const rounds = Math.max(cursors.length, NEXT_MEMBER_NAMES.length);
        for (let i = 0; i < rounds; i++) {
          const cursor = cursors[i % cursors.length]!;
          const member = NEXT_MEMBER_NAMES[i % NEXT_MEMBER_NAMES.length]!;
          const limit = limitName(i);
          const specPath = renamed(
            'cursor-envelope.yaml',
            { page_size: { name: limit }, starting_after: { name: cursor } },
            member,
          );
          const client = new Client(buildApp({ specPath, tokens: [TOKEN], store }), specPath);
          const seen: unknown[] = [];
          let url = `/plants?${limit}=${PAGE}`;
          for (let pages = 0; ; pages++) {
            assert.ok(pages < PLANTS.length, `${cursor}, ${member}: the pages end`);
            const page = (await client.send(`${cursor}, ${member}`, 'GET', url, { status: 200 })).json<{
              data: unknown[];
              page: Record<string, string | undefined>;
            }>();
            assert.ok(page.data.length <= PAGE, `${limit}=${PAGE}: at most a page`);
            seen.push(...page.data);
            const next = page.page[member];
            if (next === undefined || next === null) break;
            url = `/plants?${limit}=${PAGE}&${cursor}=${encodeURIComponent(next)}`;
          }
          assert.deepEqual(seen, PLANTS, `${cursor} after ${member}: every plant once, in order`);
        }
      },
    );

    test(
      'each page name and each offset name: following Link rel="next" gives every plant once, a limit a page',
      { timeout: 300_000 },
      async () => {
        const store = await stored(await make());
        const continuations = [
          ...LIST_PARAMETER_NAMES.page.map((name) => ({ name })),
          ...LIST_PARAMETER_NAMES.offset.map((name) => ({ name, schema: { type: 'integer', minimum: 0 } })),
        ];
        for (const [i, continuation] of continuations.entries()) {
          const limit = limitName(i);
          const specPath = renamed('link-pages.yaml', { page: continuation, per_page: { name: limit } });
          const client = new Client(buildApp({ specPath, tokens: [TOKEN], store }), specPath);
          const seen: unknown[] = [];
          let url: string | undefined = `/plants?${limit}=${PAGE}`;
          for (let pages = 0; url !== undefined; pages++) {
            assert.ok(pages < PLANTS.length, `${continuation.name}: the pages end`);
            const answer = await client.send(continuation.name, 'GET', url, { status: 200 });
            const page = answer.json<unknown[]>();
            assert.ok(page.length <= PAGE, `${limit}=${PAGE}: at most a page`);
            seen.push(...page);
            const link = answer.headers.link === undefined ? undefined : String(answer.headers.link);
            url = link === undefined ? undefined : /^<([^>]+)>; rel="next"/.exec(link)?.[1];
            if (link !== undefined) assert.match(url ?? '', new RegExp(`[?&]${continuation.name}=`), link);
          }
          assert.deepEqual(seen, PLANTS, `${continuation.name} by ${limit}: every plant once, in order`);
        }
      },
    );
  });
}
