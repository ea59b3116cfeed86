// The list (server/operations/list.ts): the answer's shape from the
// document, what its parameters do by their names (each rule switched off
// by PLANTSTORE_INFER), and its bounds.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { app, assertError, AUTH } from './support.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/operations/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plantstore-list-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Stores `count` plants at once (ids 1 to count), named by their id; every third a fern, the others palms. */
async function fill(server: FastifyInstance, count: number, name = (i: number) => `p${i}`): Promise<void> {
  const entries = Array.from({ length: count }, (_, i) => ({
    id: String(i + 1),
    json: JSON.stringify({ name: name(i + 1), tag: i % 3 === 0 ? 'fern' : 'palm' }),
  }));
  assert.equal(await server.plantStore.createAll(entries), 'created');
}
const list = async (server: FastifyInstance, query = '') => {
  const response = await server.inject({ method: 'GET', url: `/plants${query}`, headers: AUTH });
  assert.equal(response.statusCode, 200, response.body);
  return response.json<unknown>();
};
const names = (plants: unknown) => (plants as Array<{ name: string }>).map(({ name }) => name);

describe('the list', { timeout: 120_000 }, () => {
  test("a page object (paged.yaml): the limit's default makes the page, the cursor continues it, next is null on the last page", async () => {
    const server = app({ specPath: fixture('paged.yaml') });
    await fill(server, 45);
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = (await list(server, cursor === '' ? '' : `?cursor=${cursor}`)) as {
        items: Array<{ name: string }>;
        next: string | null;
      };
      sizes.push(page.items.length);
      seen.push(...names(page.items));
      assert.ok(page.next === null || typeof page.next === 'string', 'the cursor is the string the schema declares');
      cursor = page.next;
    }
    assert.deepEqual(sizes, [20, 20, 5]);
    assert.deepEqual(
      seen,
      Array.from({ length: 45 }, (_, i) => `p${i + 1}`),
      'every plant once, oldest first',
    );
    assert.deepEqual(
      await list(server, '?cursor=abc'),
      { items: [], next: null },
      'a cursor this server did not give: an empty last page',
    );
    assertError(await server.inject({ method: 'GET', url: '/plants?limit=51', headers: AUTH }), 400, 40007);
    assertError(await server.inject({ method: 'GET', url: '/plants?cursor=', headers: AUTH }), 400, 40007); // minLength 1
  });

  test('a filter by a Plant property (tag): only the plants whose property equals it, page after page', async () => {
    const server = app({ specPath: fixture('paged.yaml') });
    await fill(server, 40);
    const ferns: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const page = (await list(server, `?tag=fern&limit=4${cursor === '' ? '' : `&cursor=${cursor}`}`)) as {
        items: Array<{ name: string; tag: string }>;
        next: string | null;
      };
      assert.ok(page.items.every(({ tag }) => tag === 'fern'));
      ferns.push(...names(page.items));
      cursor = page.next;
      pages++;
    }
    assert.deepEqual(
      ferns,
      Array.from({ length: 14 }, (_, i) => `p${3 * i + 1}`),
    );
    assert.equal(pages, 4);
    assert.deepEqual(await list(server, '?tag=cactus'), { items: [], next: null });
  });

  test('an array (crud.yaml): limit and offset; starter.yaml: a limit of 0 is an empty list', async () => {
    const server = app({ specPath: fixture('crud.yaml') });
    await fill(server, 10);
    assert.deepEqual(names(await list(server, '?limit=3&offset=4')), ['p5', 'p6', 'p7']);
    assert.deepEqual(names(await list(server, '?offset=8')), ['p9', 'p10']);
    assert.deepEqual(await list(server, '?offset=10'), []);
    assertError(await server.inject({ method: 'GET', url: '/plants?offset=-1', headers: AUTH }), 400, 40007);
    assertError(await server.inject({ method: 'GET', url: '/plants?limit=1&limit=2', headers: AUTH }), 400, 40007);
    const starter = app({ specPath: fixture('starter.yaml') });
    await fill(starter, 3);
    assert.deepEqual(await list(starter, '?limit=0'), []);
    assert.deepEqual(await list(starter, '?limit=-5'), []);
    assert.deepEqual(
      names(await list(starter, '?limit=2&unknown=x')),
      ['p1', 'p2'],
      'a parameter the document does not declare is ignored',
    );
  });

  test('bounded as GET /__admin/plants is: 1000 plants a page unless asked for fewer, 10,000 at most whatever is asked, 4 MiB of plants', async () => {
    const server = app({ specPath: fixture('starter.yaml') });
    await fill(server, 10_050);
    assert.equal(((await list(server)) as unknown[]).length, 1000);
    assert.equal(((await list(server, '?limit=20000')) as unknown[]).length, 10_000);
    const large = app({ specPath: fixture('starter.yaml') });
    await fill(large, 10, (i) => `${i}`.padEnd(600_000, '.'));
    assert.equal(((await list(large)) as unknown[]).length, 6, 'six plants of 600 KB are under 4 MiB, seven are over');
  });

  test('PLANTSTORE_INFER: a rule switched off leaves its parameter checked and doing nothing; resource off answers every operation but the create from examples', async () => {
    const server = app({ specPath: fixture('paged.yaml'), inference: { limit: false, filter: false } });
    await fill(server, 30);
    const page = (await list(server, '?limit=2&tag=fern')) as { items: unknown[]; next: string | null };
    assert.equal(
      page.items.length,
      30,
      'no limit, nor its default: every plant, within the bound of 1000 a page; no filter',
    );
    assert.ok(
      server.operationNotes.some(
        (note) =>
          note.startsWith('GET /plants lists the plants') && note.includes('limit, tag checked, with no effect'),
      ),
      server.operationNotes.join('\n'),
    );
    assertError(await server.inject({ method: 'GET', url: '/plants?limit=500', headers: AUTH }), 400, 40007);
    const stateless = app({ specPath: fixture('crud.yaml'), inference: { resource: false } });
    await fill(stateless, 3);
    const listed = await stateless.inject({ method: 'GET', url: '/plants', headers: AUTH });
    assert.equal(listed.statusCode, 200);
    assert.deepEqual(
      listed.json(),
      [],
      "crud.yaml's list has no example: a value made from its schema, whatever the store holds",
    );
    assert.ok(
      stateless.operationNotes.some(
        (note) =>
          note ===
          'GET /plants is on no resource: answered 200 with a value made from its schema, whatever the store holds',
      ),
      stateless.operationNotes.join('\n'),
    );
  });

  test('a filter by a number compares by value (5 and 5.0 are one), exactly beyond 2^53', async () => {
    const paged = readFileSync(fixture('paged.yaml'), 'utf8');
    const withAge = paged
      .replace(
        '        - name: tag\n          in: query',
        '        - name: age\n          in: query\n          schema:\n            type: integer\n        - name: tag\n          in: query',
      )
      .replace(
        '        tag:\n          type: string\n    NewPlant:',
        '        tag:\n          type: string\n        age:\n          type: integer\n    NewPlant:',
      );
    assert.notEqual(withAge, paged);
    const specPath = join(dir, 'age.yaml');
    writeFileSync(specPath, withAge);
    const server = app({ specPath });
    for (const [id, age] of [
      [1, '5'],
      [2, '5.0'],
      [3, '6'],
      [4, '9007199254740993'],
      [5, '9007199254740992'],
    ] as const) {
      const created = await server.inject({
        method: 'POST',
        url: '/plants',
        headers: { ...AUTH, 'content-type': 'application/json' },
        payload: `{"id": ${id}, "name": "p${id}", "age": ${age}}`,
      });
      assert.equal(created.statusCode, 200, created.body);
    }
    assert.deepEqual(names(((await list(server, '?age=5')) as { items: unknown }).items), ['p1', 'p2']);
    assert.deepEqual(names(((await list(server, '?age=9007199254740993')) as { items: unknown }).items), ['p4']);
    assertError(await server.inject({ method: 'GET', url: '/plants?age=five', headers: AUTH }), 400, 40007);
  });
});
