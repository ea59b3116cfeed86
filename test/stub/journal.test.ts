import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JOURNAL_BODY_LIMIT } from '../../server/limits.js';
import type { JournalEntry } from '../../server/stub/journal.js';
import { AUTH, createPlant, stubApp, TOKEN } from './helpers.js';
import type { FastifyInstance } from 'fastify';

async function journal(app: FastifyInstance): Promise<{ size: number; total: number; entries: JournalEntry[] }> {
  const res = await app.inject({ method: 'GET', url: '/__admin/journal' });
  assert.equal(res.statusCode, 200);
  return res.json();
}

test('journal: method, path, headers, body as received and the status of each API request', async () => {
  const app = stubApp();
  await createPlant(app, { id: 1, name: 'Fern' }, { 'x-request-id': 'abc' });
  await app.inject({ method: 'POST', url: '/plants?dry=1', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"id": 1,' });
  await app.inject({ method: 'GET', url: '/plants' });
  const { size, total, entries } = await journal(app);
  assert.equal(size, 100);
  assert.equal(total, 3);
  assert.deepEqual(
    entries.map((e) => [e.seq, e.method, e.path, e.status, e.body]),
    [
      [1, 'POST', '/plants', 200, '{"id":1,"name":"Fern"}'],
      [2, 'POST', '/plants?dry=1', 400, '{"id": 1,'],
      [3, 'GET', '/plants', 405, null],
    ],
  );
  const [first] = entries;
  assert.equal(first?.headers['x-request-id'], 'abc');
  assert.equal(first?.headers['content-type'], 'application/json');
  assert.equal(first?.bodyBytes, 22);
  assert.equal(first?.bodyTruncated, false);
  assert.ok(!Number.isNaN(Date.parse(String(first?.time))));
});

test('journal: credentials are redacted, the scheme is kept', async () => {
  const app = stubApp();
  await createPlant(app, { id: 1, name: 'Fern' });
  await createPlant(app, { id: 2, name: 'Fern' }, { authorization: 'Basic dXNlcjpwYXNz', cookie: 'session=s3cret' });
  await createPlant(app, { id: 3, name: 'Fern' }, { authorization: 'nospace' });
  const res = await app.inject({ method: 'GET', url: '/__admin/journal' });
  assert.ok(!res.body.includes(TOKEN), 'the token appears nowhere in the journal');
  assert.ok(!res.body.includes('dXNlcjpwYXNz') && !res.body.includes('s3cret'));
  const entries = (res.json() as { entries: JournalEntry[] }).entries;
  assert.deepEqual(
    entries.map((e) => e.headers.authorization),
    ['Bearer <redacted>', 'Basic <redacted>', '<redacted>'],
  );
  assert.equal(entries[1]?.headers.cookie, '<redacted>');
  assert.deepEqual(entries.map((e) => e.status), [200, 401, 401]);
  assert.equal(entries[1]?.body, null, 'a 401 is answered before the body is read');
});

test('journal: bounded ring, the oldest entries go first', async () => {
  const app = stubApp({ stub: { journalSize: 3 } });
  for (let id = 1; id <= 5; id++) await createPlant(app, { id, name: `p${id}` });
  const { size, total, entries } = await journal(app);
  assert.equal(size, 3);
  assert.equal(total, 5);
  assert.deepEqual(entries.map((e) => e.seq), [3, 4, 5]);
  assert.deepEqual(entries.map((e) => JSON.parse(String(e.body)).id), [3, 4, 5]);
});

test('journal: clearing empties it; numbering goes on', async () => {
  const app = stubApp();
  await createPlant(app, { id: 1, name: 'Fern' });
  await createPlant(app, { id: 2, name: 'Fern' });
  const cleared = await app.inject({ method: 'DELETE', url: '/__admin/journal' });
  assert.deepEqual(cleared.json(), { cleared: 2 });
  assert.deepEqual((await journal(app)).entries, []);
  await createPlant(app, { id: 3, name: 'Fern' });
  assert.deepEqual((await journal(app)).entries.map((e) => e.seq), [3]);
});

test('journal: /__admin and /__health are not journaled', async () => {
  const app = stubApp();
  await app.inject({ method: 'GET', url: '/__health' });
  await app.inject({ method: 'GET', url: '/__admin/plants' });
  await app.inject({ method: 'DELETE', url: '/__admin/plants' });
  await app.inject({ method: 'GET', url: '/__admin/journal' });
  const { total, entries } = await journal(app);
  assert.equal(total, 0);
  assert.deepEqual(entries, []);
});

test('journal: a large body is cut to the limit and the entry says so', async () => {
  const app = stubApp();
  const name = 'x'.repeat(JOURNAL_BODY_LIMIT * 2);
  const res = await createPlant(app, { id: 1, name });
  assert.equal(res.statusCode, 200);
  const [entry] = (await journal(app)).entries;
  assert.equal(entry?.bodyTruncated, true);
  assert.equal(entry?.bodyBytes, JSON.stringify({ id: 1, name }).length);
  assert.equal(entry?.body?.length, JOURNAL_BODY_LIMIT);
  assert.ok(entry?.body?.startsWith('{"id":1,"name":"xxx'));
});

test('journal of size 0 keeps nothing', async () => {
  const app = stubApp({ stub: { journalSize: 0 } });
  await createPlant(app, { id: 1, name: 'Fern' });
  const { size, entries } = await journal(app);
  assert.equal(size, 0);
  assert.deepEqual(entries, []);
});
