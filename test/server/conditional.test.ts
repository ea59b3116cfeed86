// Conditional requests (RFC 9110 §13) as a client team meets them, on both
// stores (conditional.yaml): the ETag of each version, a replace with the
// ETag of the last read, a stale one (412), none (428, RFC 6585 §3), a read
// with the current ETag (304). Then what the RFC asks beyond the document:
// `*`, If-None-Match on a change, a delete, a weak tag.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildApp } from '../../server/app.js';
import { entityTag } from '../../server/operations/conditional.js';
import { Client, documentFixture } from './client.js';
import { useStoreKinds } from './store-kinds.js';
import { TOKEN } from './support.js';

const { kinds } = useStoreKinds();
const CONDITIONAL = documentFixture('conditional.yaml');
const CRUD = documentFixture('../operations/crud.yaml');
const STRONG = /^"[A-Za-z0-9_-]{22}"$/;

for (const [kind, make, options] of kinds) {
  describe(`conditional requests: ${kind}`, options, () => {
    test(
      'conditional.yaml: a replace with the last ETag succeeds and answers the new one; a stale ETag is 412 and changes nothing; none is 428; the current one on a read is 304',
      { timeout: 120_000 },
      async () => {
        const app = buildApp({ specPath: CONDITIONAL, tokens: [TOKEN], store: await make() });
        const client = new Client(app, CONDITIONAL);
        const created = await client.send(
          'create',
          'POST',
          '/plants',
          { status: 200, headers: { etag: STRONG } },
          { body: { id: 1, name: 'Fern' } },
        );
        const read = await client.send('read', 'GET', '/plants/1', {
          status: 200,
          json: { name: 'Fern' },
          headers: { etag: STRONG },
        });
        const first = String(read.headers.etag);
        assert.equal(created.headers.etag, first, "the create's ETag is the stored version's");
        assert.equal(first, entityTag('{"name":"Fern"}'), 'a digest of the stored text');
        await client.send(
          'replace without If-Match',
          'PUT',
          '/plants/1',
          { status: 428, error: 42801 },
          { body: { name: 'Boston fern' } },
        );
        await client.send(
          'replace with an ETag of no version',
          'PUT',
          '/plants/1',
          { status: 412, error: 41201 },
          { body: { name: 'x' }, headers: { 'if-match': '"nope"' } },
        );
        const replaced = await client.send(
          'replace with the ETag of the last read',
          'PUT',
          '/plants/1',
          { status: 200, json: { name: 'Boston fern' }, headers: { etag: STRONG } },
          { body: { name: 'Boston fern' }, headers: { 'if-match': first } },
        );
        const second = String(replaced.headers.etag);
        assert.notEqual(second, first, 'a new version, a new ETag');
        await client.send(
          'replace with the older ETag',
          'PUT',
          '/plants/1',
          { status: 412, error: 41201 },
          { body: { name: 'lost update' }, headers: { 'if-match': first } },
        );
        await client.send('the stale replace changed nothing', 'GET', '/plants/1', {
          status: 200,
          json: { name: 'Boston fern' },
          headers: { etag: second },
        });
        await client.send(
          'read with the current ETag',
          'GET',
          '/plants/1',
          { status: 304, empty: true, headers: { etag: second } },
          { headers: { 'if-none-match': second } },
        );
        await client.send(
          'read with an older ETag',
          'GET',
          '/plants/1',
          { status: 200, json: { name: 'Boston fern' } },
          { headers: { 'if-none-match': first } },
        );
        await client.send(
          'read with a list that holds the current one',
          'GET',
          '/plants/1',
          { status: 304 },
          { headers: { 'if-none-match': `${first}, W/${second}` } },
        );
        await client.send(
          'If-Match: * on a stored plant',
          'PUT',
          '/plants/1',
          { status: 200 },
          { body: { name: 'Fern' }, headers: { 'if-match': '*' } },
        );
        await client.send(
          'If-Match: * where none is stored',
          'PUT',
          '/plants/2',
          { status: 412, error: 41201 },
          { body: { name: 'Fern' }, headers: { 'if-match': '*' } },
        );
        await client.send(
          'a weak tag never matches If-Match (strong comparison, §8.8.3.2)',
          'PUT',
          '/plants/1',
          { status: 412 },
          { body: { name: 'x' }, headers: { 'if-match': `W/${entityTag('{"name":"Fern"}')}` } },
        );
        await client.send(
          'a plant not stored, with an ETag',
          'GET',
          '/plants/9',
          { status: 404, error: 40402 },
          { headers: { 'if-none-match': first } },
        );
      },
    );

    test(
      'where the document declares no 428 (crud.yaml): a change without a precondition is done; one with a precondition is judged all the same (RFC 9110 §13.2.1)',
      { timeout: 120_000 },
      async () => {
        const app = buildApp({ specPath: CRUD, tokens: [TOKEN], store: await make() });
        const client = new Client(app, CRUD);
        await client.send('create', 'POST', '/plants', { status: 200 }, { body: { id: 1, name: 'Fern' } });
        const tag = entityTag('{"name":"Fern"}');
        await client.send('no ETag where none is declared', 'GET', '/plants/1', {
          status: 200,
          headers: { etag: undefined },
        });
        await client.send('a replace without If-Match', 'PUT', '/plants/1', { status: 200 }, { body: { name: 'Ivy' } });
        await client.send(
          'a merge with a stale If-Match',
          'PATCH',
          '/plants/1',
          { status: 412, error: 41201 },
          { body: '{"tag":"x"}', headers: { 'if-match': tag, 'content-type': 'application/merge-patch+json' } },
        );
        await client.send(
          'a delete with a stale If-Match',
          'DELETE',
          '/plants/1',
          { status: 412, error: 41201 },
          { headers: { 'if-match': tag } },
        );
        await client.send(
          'If-None-Match: * on a replace of a stored plant',
          'PUT',
          '/plants/1',
          { status: 412, error: 41201 },
          { body: { name: 'x' }, headers: { 'if-none-match': '*' } },
        );
        await client.send('the plant is as the last replace left it', 'GET', '/plants/1', {
          status: 200,
          json: { name: 'Ivy' },
        });
        await client.send(
          'a delete with the current ETag',
          'DELETE',
          '/plants/1',
          { status: 204 },
          { headers: { 'if-match': entityTag('{"name":"Ivy"}') } },
        );
        await client.send('gone', 'GET', '/plants/1', { status: 404 });
      },
    );
  });
}
