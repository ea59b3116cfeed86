// Which operation is what (server/operations/resource.ts, served.ts): the
// plant resource found by the path's shape or the create's links, the
// operations beside it answered from the document's examples or a value
// made from their schema (501 when none can be made), each checked like
// any other, and a line at start for every operation.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startEntry } from '../support/entry.js';
import { app, assertError, AUTH, post } from './support.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/operations/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plantstore-operations-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A fixture with `anchor` replaced, written to a file of its own. */
function evolved(name: string, from: string, anchor: string, replacement: string): string {
  const text = readFileSync(fixture(from), 'utf8');
  assert.ok(text.includes(anchor), `${from} holds ${JSON.stringify(anchor)}`);
  const path = join(dir, name);
  writeFileSync(path, text.split(anchor).join(replacement));
  return path;
}

describe('the operations beside the plant resource (unmapped.yaml)', { timeout: 60_000 }, () => {
  const server = app({ specPath: fixture('unmapped.yaml') });
  after(() => server.close());

  test("a public one answers its declared status with the document's example, whatever the store holds", async () => {
    await post(server, { id: 1, name: 'Fern' });
    const summary = await server.inject({ method: 'GET', url: '/store/summary' });
    assert.equal(summary.statusCode, 200);
    assert.match(String(summary.headers['content-type']), /^application\/json/);
    assert.deepEqual(summary.json(), { open: true, greeting: 'Welcome to the plant store' });
  });

  test("one with a body: credentials, content type and the body's schema checked first, then a value made from the answer's schema that it accepts", async () => {
    const url = '/plants/42/watering';
    const json = { ...AUTH, 'content-type': 'application/json' };
    assertError(
      await server.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{"litres": 1}',
      }),
      401,
      40101,
    );
    assertError(
      await server.inject({ method: 'POST', url: '/plants/abc/watering', headers: json, payload: '{"litres": 1}' }),
      400,
      40007,
    );
    assertError(
      await server.inject({ method: 'POST', url, headers: { ...AUTH, 'content-type': 'text/plain' }, payload: 'x' }),
      415,
      41501,
    );
    assertError(await server.inject({ method: 'POST', url, headers: json }), 400, 40002);
    assertError(await server.inject({ method: 'POST', url, headers: json, payload: '{"litres": 0}' }), 400, 40008);
    assertError(await server.inject({ method: 'POST', url, headers: json, payload: '{"litres": ' }), 400, 40001);
    const watered = await server.inject({ method: 'POST', url, headers: json, payload: '{"litres": 2.5}' });
    assert.equal(watered.statusCode, 202);
    assert.deepEqual(
      watered.json(),
      { litres: 0, at: '2026-01-01T00:00:00Z' },
      'the least value the schema Watering asks for; a date-time of its format',
    );
  });

  test('each is named at start, with how it is answered', () => {
    assert.deepEqual(server.operationNotes, [
      'POST /plants creates a plant in the store',
      'POST /plants/{id}/watering is on no resource: answered 202 with a value made from its schema, whatever the store holds',
      "GET /store/summary is on no resource: answered 200 with the document's example, whatever the store holds",
    ]);
  });
});

describe('how the resource is found', { timeout: 60_000 }, () => {
  test("by the create's links (links.yaml): the parameter they map from the body's id carries it, wherever the path is", async () => {
    const moved = evolved('moved.yaml', 'links.yaml', '/plants/{plantId}:', '/plant-by-id/{plantId}:');
    for (const [specPath, prefix] of [
      [fixture('links.yaml'), '/plants'],
      [moved, '/plant-by-id'],
    ] as const) {
      const server = app({ specPath });
      assert.equal((await post(server, '{"id": 9223372036854775807, "name": "Ivy"}')).statusCode, 200);
      const read = await server.inject({ method: 'GET', url: `${prefix}/9223372036854775807`, headers: AUTH });
      assert.deepEqual(read.json(), { name: 'Ivy' });
      assert.equal(
        (await server.inject({ method: 'DELETE', url: `${prefix}/9223372036854775807`, headers: AUTH })).statusCode,
        204,
      );
      assertError(
        await server.inject({ method: 'GET', url: `${prefix}/9223372036854775807`, headers: AUTH }),
        404,
        40402,
      );
      assert.ok(
        server.operationNotes.includes(
          `GET ${prefix}/{plantId} reads the plant whose id is the path parameter plantId (found by the create's links)`,
        ),
        server.operationNotes.join('\n'),
      );
    }
  });

  test('without the links, a path that is not the collection and one segment is not on the resource', async () => {
    const text = readFileSync(fixture('links.yaml'), 'utf8');
    const unlinked = join(dir, 'unlinked.yaml');
    writeFileSync(
      unlinked,
      text
        .replace(/ {10}links:\n(?: {12}.*\n)+/, '')
        .split('/plants/{plantId}:')
        .join('/plant-by-id/{plantId}:'),
    );
    const server = app({ specPath: unlinked });
    assert.ok(
      server.operationNotes.some((note) =>
        note.startsWith('GET /plant-by-id/{plantId} is on no resource: answered 200 with a value made from its schema'),
      ),
      server.operationNotes.join('\n'),
    );
    assert.deepEqual((await server.inject({ method: 'GET', url: '/plant-by-id/5', headers: AUTH })).json(), {
      name: 'example',
      tag: 'example',
    });
  });

  test('a path parameter of string type carries a string id; a PATCH that declares no body has no patch to merge', async () => {
    const stringId = evolved(
      'string-id.yaml',
      'crud.yaml',
      '          type: integer\n          format: int64\n    get:',
      '          type: string\n    get:',
    );
    const server = app({ specPath: stringId });
    assert.ok(
      server.operationNotes.includes(
        "GET /plants/{id} reads the plant whose id is the path parameter id (found by the path's shape)",
      ),
      server.operationNotes.join('\n'),
    );
    const noPatchBody = evolved(
      'no-patch-body.yaml',
      'crud.yaml',
      '      requestBody:\n        required: true\n        content:\n          application/merge-patch+json:',
      '      x-requestBody:\n        required: true\n        content:\n          application/merge-patch+json:',
    );
    const merged = app({ specPath: noPatchBody });
    assert.ok(
      merged.operationNotes.some((note) =>
        note.startsWith('PATCH /plants/{id} merges with no declared request body: answered 200'),
      ),
      merged.operationNotes.join('\n'),
    );
  });

  test('an answer no example and no value made from the schema gives is 501, said at start: never a silent 404', async () => {
    const specPath = evolved(
      'no-example.yaml',
      'unmapped.yaml',
      '                  greeting:\n                    type: string\n              example:\n                open: true\n                greeting: Welcome to the plant store\n',
      '                  greeting:\n                    type: string\n                    pattern: "^[0-9]{3}$"\n',
    );
    const server = app({ specPath });
    assert.ok(
      server.operationNotes.some((note) =>
        /^GET \/store\/summary is on no resource: answered 501, as no example in the document, and no value made from the schema at #\/paths\/~1store~1summary\/get\/responses\/200\/content\/application~1json\/schema passes it$/.test(
          note,
        ),
      ),
      server.operationNotes.join('\n'),
    );
    const answer = assertError(await server.inject({ method: 'GET', url: '/store/summary' }), 501, 50101);
    assert.match(
      answer.message,
      /^The document gives no example for this answer, and none could be made from its schema: /,
    );
  });
});

test('the entry point logs a line for each operation at start', { timeout: 60_000 }, async () => {
  const { child, lines, exited } = await startEntry({ PLANTSTORE_SPEC: fixture('unmapped.yaml') });
  child.kill('SIGTERM');
  await exited;
  for (const expected of ['POST /plants/{id}/watering is on no resource', 'GET /store/summary is on no resource']) {
    assert.ok(
      lines.some((line) => line.includes(expected) && line.includes('"level":30')),
      `${expected}:\n${lines.join('\n')}`,
    );
  }
});
