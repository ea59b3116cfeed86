// The fourth security review's findings on the server's answers (issue 41):
// medium 2 (a filtered list page parsed whole plants with no byte bound) and
// low 3 (an answer made from a schema had no size bound: a 4 KB document kept
// the server from ever listening). Each test failed on the build the review
// read, and passes now. The work is counted (the bytes of plant text a page
// reads), never timed; the one deadline is a start-up that never listened.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { buildApp } from '../../server/app.js';
import { LIST_MAX_EXAMINED_BYTES } from '../../server/limits.js';
import { PlantTexts } from '../../server/store/plant-texts.js';
import { MAX_MADE_BYTES, MAX_MADE_VALUES } from '../../spec/value-budget.js';
import { fixturePath } from '../support/fixtures.js';
import { startEntry } from '../support/entry.js';
import { AUTH, TOKEN } from '../server/support.js';
import { filteredPages, MEGABYTE_TAG_PLANTS, nestedArraysDocument } from '../support/review-4.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-review-4-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the fourth security review: the answers the server makes', { timeout: 300_000 }, () => {
  test('medium 2: a filtered page of the in-memory store reads at most its byte budget of plant text (and one plant), ends with its cursor, and the pages after it find every match', async () => {
    const app = buildApp({ specPath: fixturePath('operations/paged.yaml'), tokens: [TOKEN], maxBytes: 1e9 });
    for (const [id, json] of MEGABYTE_TAG_PLANTS) assert.equal(app.plantStore.create(id, json), 'created');
    // Every text the store reads, counted where it reads them.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with its own `this`
    const text = PlantTexts.prototype.text;
    let read = 0;
    PlantTexts.prototype.text = function counted(this: PlantTexts, index: number) {
      const json = text.call(this, index);
      read += json.length;
      return json;
    };
    try {
      const pages = await filteredPages(app, () => {
        const bytes = read;
        read = 0;
        return bytes;
      });
      for (const page of pages)
        assert.ok(
          page.read <= LIST_MAX_EXAMINED_BYTES + 1_000_100,
          `a page read ${page.read} bytes of plants, past the budget of ${LIST_MAX_EXAMINED_BYTES} and one plant`,
        );
      assert.ok(pages.length > 1, 'the first page ended at the budget, with its cursor');
      assert.deepEqual(
        pages.flatMap((page) => page.names),
        ['the one match'],
        'and the pages after it found the one plant that matches',
      );
    } finally {
      PlantTexts.prototype.text = text;
      await app.close();
    }
  });

  test('low 3: a document whose answer made from a schema would hold a thousand million values lets the server start and listen; that operation answers 501 saying why', async () => {
    const spec = join(dir, 'nested-3.yaml');
    writeFileSync(spec, nestedArraysDocument(3));
    assert.ok(readFileSync(spec).length < 4600, 'a document of a few kilobytes');
    // A minute is a deadline, not a timing: the build the review read never listened.
    const server = await startEntry({ PLANTSTORE_SPEC: spec, PLANTSTORE_TOKENS: TOKEN }, 60_000);
    try {
      const answer = await fetch(`${server.url}/store/summary`, { signal: AbortSignal.timeout(60_000) });
      assert.equal(answer.status, 501);
      const body = (await answer.json()) as { error: number; message: string };
      assert.equal(body.error, 50101);
      assert.match(body.message, new RegExp(`more than ${MAX_MADE_VALUES} values`));
      assert.equal((await fetch(`${server.url}/__health`)).status, 200);
    } finally {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  });

  test('low 3: two levels of minItems 1000 (a 2 MB answer to each 30-byte GET) and a minLength of ten million are past the budget: 501 with the reason', async () => {
    const spec = join(dir, 'nested-2.yaml');
    writeFileSync(spec, nestedArraysDocument(2));
    const long = join(dir, 'long-string.yaml');
    writeFileSync(long, nestedArraysDocument(0, '{type: string, minLength: 10000000}'));
    for (const [path, reason] of [
      [spec, new RegExp(`more than ${MAX_MADE_VALUES} values`)],
      [long, new RegExp(`more than ${MAX_MADE_BYTES} bytes`)],
    ] as const) {
      const app = buildApp({ specPath: path, tokens: [TOKEN] });
      try {
        const answer = await app.inject({ method: 'GET', url: '/store/summary', headers: AUTH });
        assert.equal(answer.statusCode, 501, answer.body.slice(0, 200));
        assert.match(answer.json<{ message: string }>().message, reason);
        assert.ok(
          app.operationNotes.some((note) => /^GET \/store\/summary .*answered 501/.test(note)),
          'the start-up line says so',
        );
      } finally {
        await app.close();
      }
    }
  });

  test('low 3: an answer within the budget is still made: 100 arrays of 10 integers', async () => {
    const spec = join(dir, 'within.yaml');
    writeFileSync(
      spec,
      nestedArraysDocument(
        0,
        '{type: array, minItems: 100, items: {type: array, minItems: 10, items: {type: integer}}}',
      ),
    );
    const app = buildApp({ specPath: spec, tokens: [TOKEN] });
    try {
      const answer = await app.inject({ method: 'GET', url: '/store/summary', headers: AUTH });
      assert.equal(answer.statusCode, 200);
      assert.deepEqual(
        answer.json(),
        Array.from({ length: 100 }, () => Array.from({ length: 10 }, () => 0)),
      );
    } finally {
      await app.close();
    }
  });
});
