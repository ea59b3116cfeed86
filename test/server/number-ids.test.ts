// Ids of the schemas a widened or hand-written document gives them, on both
// stores: `type: number` (test/fixtures/ids/number-id.yaml, the starter's id
// widened as test/compat's pair "the id widened: integer becomes number"),
// `type: [integer, string]`, and no type at all. None answers 500: each id
// is kept by value, or refused with 400 and named at start.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { buildApp } from '../../server/app.js';
import { Client } from './client.js';
import { useStoreKinds } from './store-kinds.js';
import { TOKEN } from './support.js';

const { kinds } = useStoreKinds();
const NUMBER_ID = fileURLToPath(new URL('../../../test/fixtures/ids/number-id.yaml', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plantstore-number-ids-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** number-id.yaml with each `type: number` (the body's id and the path's) replaced by `replacement`. */
function withIdSchema(name: string, replacement: string): string {
  const text = readFileSync(NUMBER_ID, 'utf8');
  const changed = text.replace(/\n( +)type: number\n/g, (_, indent: string) => `\n${indent}${replacement}\n`);
  assert.equal(changed.split(replacement).length - 1, 2, 'the body and the path both changed');
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, changed);
  return path;
}

for (const [kind, make, options] of kinds) {
  describe(`number ids: ${kind}`, options, () => {
    test('type: number: 5 and 5.0 are one id, stored, read by the path as 5.0, deleted; a fraction is refused with 400', async () => {
      const app = buildApp({ specPath: NUMBER_ID, tokens: [TOKEN], store: await make() });
      try {
        const client = new Client(app, NUMBER_ID);
        const fern = { name: 'Fern' };
        await client.send(
          'create 5',
          'POST',
          '/plants',
          { status: 200, json: fern },
          { body: '{"id":5,"name":"Fern"}' },
        );
        await client.send(
          'create 5.0: the same id',
          'POST',
          '/plants',
          { status: 400, error: 40004 },
          { body: '{"id":5.0,"name":"Ivy"}' },
        );
        await client.send('create 7e0', 'POST', '/plants', { status: 200 }, { body: '{"id":7e0,"name":"Ivy"}' });
        const fraction = await client.send(
          'create 5.5',
          'POST',
          '/plants',
          { status: 400, error: 40003 },
          { body: '{"id":5.5,"name":"Palm"}' },
        );
        assert.match(fraction.json<{ message: string }>().message, /must be an integer.*got 5\.5/);
        await client.send('list', 'GET', '/plants', { status: 200, json: [fern, { name: 'Ivy' }] });
        await client.send('a fractional path', 'DELETE', '/plants/5.5', { status: 400, error: 40007 });
        await client.send('delete 5 as 5.0', 'DELETE', '/plants/5.0', { status: 204, empty: true });
        await client.send('list after', 'GET', '/plants', { status: 200, json: [{ name: 'Ivy' }] });
        assert.deepEqual(app.unservedFeatures, [
          "POST /plants: a fractional id (5.5) the id's schema accepts is not served as the document says: ids are kept as integers: it is refused with 400",
        ]);
      } finally {
        await app.close();
      }
    });

    test('type: [integer, string]: 1 and "1" are one id, "a" another, both deleted by their path', async () => {
      const specPath = withIdSchema('mixed', 'type: [integer, string]');
      const app = buildApp({ specPath, tokens: [TOKEN], store: await make() });
      try {
        const client = new Client(app, specPath);
        await client.send('create 1', 'POST', '/plants', { status: 200 }, { body: '{"id":1,"name":"Fern"}' });
        await client.send(
          'create "1"',
          'POST',
          '/plants',
          { status: 400, error: 40004 },
          { body: '{"id":"1","name":"Ivy"}' },
        );
        await client.send('create "a"', 'POST', '/plants', { status: 200 }, { body: '{"id":"a","name":"Ivy"}' });
        await client.send('delete 1', 'DELETE', '/plants/1', { status: 204, empty: true });
        await client.send('delete a', 'DELETE', '/plants/a', { status: 204, empty: true });
        await client.send('list after', 'GET', '/plants', { status: 200, json: [] });
        assert.deepEqual(app.unservedFeatures, []);
      } finally {
        await app.close();
      }
    });

    test('no type: integers kept, any other id refused with 400 and named at start', async () => {
      const specPath = withIdSchema('untyped', 'x-any: true');
      const app = buildApp({ specPath, tokens: [TOKEN], store: await make() });
      try {
        const client = new Client(app, specPath);
        await client.send('create 1', 'POST', '/plants', { status: 200 }, { body: '{"id":1,"name":"Fern"}' });
        await client.send(
          'create "a"',
          'POST',
          '/plants',
          { status: 400, error: 40003 },
          { body: '{"id":"a","name":"Ivy"}' },
        );
        await client.send(
          'create true',
          'POST',
          '/plants',
          { status: 400, error: 40003 },
          { body: '{"id":true,"name":"Ivy"}' },
        );
        await client.send('list', 'GET', '/plants', { status: 200, json: [{ name: 'Fern' }] });
        assert.ok(
          app.unservedFeatures.some((line) => line.startsWith('POST /plants: an id that is not an integer')),
          app.unservedFeatures.join('\n'),
        );
      } finally {
        await app.close();
      }
    });
  });
}
