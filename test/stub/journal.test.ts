import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JOURNAL_BODY_LIMIT, JOURNAL_PAGE_BYTES, MAX_JOURNAL_PAGE, MIN_JOURNAL_BYTES } from '../../server/limits.js';
import { Journal, type JournalEntry, type JournalPage } from '../../server/stub/journal.js';
import { AUTH, createPlant, stubApp, TOKEN } from './helpers.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';

async function journal(app: FastifyInstance): Promise<{ size: number; total: number; entries: JournalEntry[] }> {
  const res = await app.inject({ method: 'GET', url: '/__admin/journal' });
  assert.equal(res.statusCode, 200);
  return res.json();
}

test('journal: method, path, headers, body as received and the status of each API request', async () => {
  const app = stubApp();
  await createPlant(app, { id: 1, name: 'Fern' }, { 'x-request-id': 'abc' });
  await app.inject({
    method: 'POST',
    url: '/plants?dry=1',
    headers: { ...AUTH, 'content-type': 'application/json' },
    payload: '{"id": 1,',
  });
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
  const entries = res.json<{ entries: JournalEntry[] }>().entries;
  assert.deepEqual(
    entries.map((e) => e.headers.authorization),
    ['Bearer <redacted>', 'Basic <redacted>', '<redacted>'],
  );
  assert.equal(entries[1]?.headers.cookie, '<redacted>');
  assert.deepEqual(
    entries.map((e) => e.status),
    [200, 401, 401],
  );
  assert.equal(entries[1]?.body, null, 'a 401 is answered before the body is read');
});

test('journal: bounded in count, the oldest entries go first', async () => {
  const app = stubApp({ stub: { journalSize: 3 } });
  for (let id = 1; id <= 5; id++) await createPlant(app, { id, name: `p${id}` });
  const { size, total, entries } = await journal(app);
  assert.equal(size, 3);
  assert.equal(total, 5);
  assert.deepEqual(
    entries.map((e) => e.seq),
    [3, 4, 5],
  );
  assert.deepEqual(
    entries.map((e) => JSON.parse(String(e.body)).id),
    [3, 4, 5],
  );
});

test('journal: clearing empties it; numbering goes on', async () => {
  const app = stubApp();
  await createPlant(app, { id: 1, name: 'Fern' });
  await createPlant(app, { id: 2, name: 'Fern' });
  const cleared = await app.inject({ method: 'DELETE', url: '/__admin/journal' });
  assert.deepEqual(cleared.json(), { cleared: 2 });
  assert.deepEqual((await journal(app)).entries, []);
  await createPlant(app, { id: 3, name: 'Fern' });
  assert.deepEqual(
    (await journal(app)).entries.map((e) => e.seq),
    [3],
  );
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

test('journal: every credential form is redacted: query parameters named like tokens and keys, X-Api-Key and kin, any Authorization value, cookies', async () => {
  const app = stubApp();
  const secret = 'Zm9vYmFyLXNlY3JldA';
  const sent: Array<[string, Record<string, string>]> = [
    [`/plants?access_token=${secret}&page=2`, {}],
    [`/plants?API_KEY=${secret}&client_secret=${secret}&password=${secret}&sig=${secret}&x=${'1'}`, {}],
    ['/plants', { 'x-api-key': secret, 'x-auth-token': secret, 'x-amz-security-token': secret }],
    ['/plants', { authorization: secret }],
    ['/plants', { authorization: `Custom ${secret}` }],
    ['/plants', { authorization: `Digest username="u", response="${secret}"` }],
    ['/plants', { 'proxy-authorization': `Basic ${secret}`, cookie: `sid=${secret}` }],
  ];
  for (const [url, headers] of sent) {
    await app.inject({
      method: 'POST',
      url,
      headers: { ...AUTH, 'content-type': 'application/json', ...headers },
      payload: '{"id": 1, "name": "a"}',
    });
  }
  const res = await app.inject({ method: 'GET', url: '/__admin/journal' });
  assert.ok(!res.body.includes(secret), `a credential shows in ${res.body}`);
  assert.ok(!res.body.includes(TOKEN));
  const entries = res.json<{ entries: JournalEntry[] }>().entries;
  assert.equal(entries[0]?.path, '/plants?access_token=<redacted>&page=2', 'other parameters are kept');
  assert.equal(
    entries[1]?.path,
    '/plants?API_KEY=<redacted>&client_secret=<redacted>&password=<redacted>&sig=<redacted>&x=1',
  );
  assert.deepEqual(
    [
      entries[2]?.headers['x-api-key'],
      entries[2]?.headers['x-auth-token'],
      entries[2]?.headers['x-amz-security-token'],
    ],
    ['<redacted>', '<redacted>', '<redacted>'],
  );
  assert.equal(entries[3]?.headers.authorization, '<redacted>', 'a value without a scheme is the secret itself');
  assert.equal(entries[4]?.headers.authorization, '<redacted>', 'an unregistered first word may be the secret');
  assert.equal(entries[5]?.headers.authorization, 'Digest <redacted>', 'a registered scheme is kept');
  assert.equal(entries[6]?.headers['proxy-authorization'], 'Basic <redacted>');
  assert.equal(entries[6]?.headers.cookie, '<redacted>');
});

test('journal: a byte budget next to the count, the oldest entries going first; the page says what it counts', async () => {
  const body = (id: number) => JSON.stringify({ id, name: 'x'.repeat(40_000) });
  const app = stubApp({ stub: { journalSize: 100, journalBytes: MIN_JOURNAL_BYTES } });
  for (let id = 1; id <= 10; id++) assert.equal((await createPlant(app, JSON.parse(body(id)))).statusCode, 200);
  const page = (await app.inject({ method: 'GET', url: '/__admin/journal' })).json<JournalPage>();
  assert.equal(page.maxBytes, MIN_JOURNAL_BYTES);
  assert.equal(page.total, 10);
  assert.ok(page.bytes <= MIN_JOURNAL_BYTES, `${page.bytes} bytes kept`);
  // 128 KiB holds three entries of 40 KB bodies, not four.
  assert.deepEqual(
    page.entries.map((e) => e.seq),
    [8, 9, 10],
  );
  assert.ok(page.bytes > 3 * 40_000);
});

test('journal: read a page at a time with ?after=SEQ&limit=N; next is the after of the following page, null on the last', async () => {
  const app = stubApp();
  for (let id = 1; id <= 7; id++) await createPlant(app, { id, name: `p${id}` });
  const read = async (query: string) =>
    (await app.inject({ method: 'GET', url: `/__admin/journal${query}` })).json<JournalPage>();
  const first = await read('?limit=3');
  assert.deepEqual([first.entries.map((e) => e.seq), first.next], [[1, 2, 3], 3]);
  const second = await read(`?after=${first.next}&limit=3`);
  assert.deepEqual([second.entries.map((e) => e.seq), second.next], [[4, 5, 6], 6]);
  const last = await read(`?after=${second.next}&limit=3`);
  assert.deepEqual([last.entries.map((e) => e.seq), last.next], [[7], null]);
  const beyond = await read('?after=7');
  assert.deepEqual([beyond.entries, beyond.next], [[], null], 'nothing newer yet: poll again with the same after');
  for (const bad of [
    '?limit=0',
    `?limit=${MAX_JOURNAL_PAGE + 1}`,
    '?after=-1',
    '?after=x',
    '?limit=1.5',
    '?after=1&after=2',
  ]) {
    const res = await app.inject({ method: 'GET', url: `/__admin/journal${bad}` });
    assert.equal(res.statusCode, 400, bad);
    assert.equal(res.json().error, 40023);
    assert.match(res.json().message, /Page the journal with \?after=SEQ&limit=N/);
  }
});

test('journal: a page holds at most JOURNAL_PAGE_BYTES of entries (one at least), so reading it never builds an answer too large to send', async () => {
  const app = stubApp({ stub: { journalSize: 1000, journalBytes: 64 * 1024 * 1024 } });
  const name = 'x'.repeat(JOURNAL_BODY_LIMIT);
  for (let id = 1; id <= 100; id++) await createPlant(app, { id, name });
  const res = await app.inject({ method: 'GET', url: `/__admin/journal?limit=${MAX_JOURNAL_PAGE}` });
  assert.equal(res.statusCode, 200);
  const page = res.json<JournalPage>();
  assert.ok(
    page.entries.length < 100 && page.entries.length * JOURNAL_BODY_LIMIT <= JOURNAL_PAGE_BYTES,
    `${page.entries.length} entries of 64 KiB on one page`,
  );
  assert.equal(page.next, page.entries.at(-1)?.seq);
});

test('journal: a fault noted on a waiting entry counts against the budget while the entry is kept, and not once it is gone', () => {
  const request = {
    method: 'POST',
    url: '/plants',
    headers: { host: 'x' },
    rawBody: Buffer.from('{}'),
  } as unknown as FastifyRequest;
  const fault = { from: 'schedule', step: { code: 503, retryAfter: 1 } } as const;
  const journal = new Journal(2, MIN_JOURNAL_BYTES);
  const waiting = journal.recordPending(request);
  const before = journal.bytes;
  waiting.injected(fault);
  assert.equal(journal.bytes, before + 2 * JSON.stringify(fault).length);
  assert.deepEqual(journal.page(0, 10).entries[0]?.fault, fault);
  // Evicted by newer entries: a fault noted then changes nothing the journal counts.
  const evicted = journal.recordPending(request);
  journal.record(request, 200);
  journal.record(request, 200);
  const kept = journal.bytes;
  evicted.injected(fault);
  assert.equal(journal.bytes, kept);
  journal.clear();
  assert.equal(journal.bytes, 0);
});
