// Credentials of every scheme out of what the server shows of a request
// (server/redact.ts): the document's API keys by the names it gives them
// (a query parameter `k`, a header `X-Plant`, a cookie), whatever those names
// look like; the configured credentials (PLANTSTORE_CREDENTIALS) by value,
// Basic's in every form it takes. In the stub's journal, and in the real
// entry point's log, whose start also names each scheme that accepts any
// credential. The held answers of the stub count per key.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { buildApp } from '../../server/app.js';
import { credentialOf } from '../../server/security/check.js';
import type { JournalEntry } from '../../server/stub/journal.js';
import { runProcess } from '../../lib/process.js';
import { ENTRY, startEntry } from '../support/entry.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-redaction-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const QUERY_KEY = 'query-key-0123456789';
const HEADER_KEY = 'header-key-0123456789';
const COOKIE_KEY = 'cookie-key-0123456789';
const BASIC_PASSWORD = 'basic-password-0123';

/** A list and a create, each taking a key in the query `k`, in the header X-Plant, in the cookie `c`, or Basic. */
const specPath = join(dir, 'keys.json');
writeFileSync(
  specPath,
  JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'keys', version: '1' },
    security: [{ q: [] }, { h: [] }, { c: [] }, { b: [] }],
    paths: {
      '/plants': {
        get: {
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array' } } } } },
        },
        post: {
          operationId: 'createPlant',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } },
          },
          responses: { '200': { description: 'ok' } },
        },
      },
    },
    components: {
      schemas: {},
      securitySchemes: {
        q: { type: 'apiKey', in: 'query', name: 'k' },
        h: { type: 'apiKey', in: 'header', name: 'X-Plant' },
        c: { type: 'apiKey', in: 'cookie', name: 'c' },
        b: { type: 'http', scheme: 'basic' },
      },
    },
  }),
);
const CREDENTIALS = `q=${QUERY_KEY},h=${HEADER_KEY},c=${COOKIE_KEY},b=ann:${BASIC_PASSWORD}`;
const basic = `Basic ${Buffer.from(`ann:${BASIC_PASSWORD}`).toString('base64')}`;

describe("the stub's journal", () => {
  test('keys by the names the document gives them, configured credentials by value, in every field', async () => {
    const app = buildApp({
      specPath,
      credentials: new Map([
        ['q', [QUERY_KEY]],
        ['h', [HEADER_KEY]],
        ['c', [COOKIE_KEY]],
        ['b', [`ann:${BASIC_PASSWORD}`]],
      ]),
      stub: {},
    });
    const echo = `{"id": 1, "note": "${QUERY_KEY} ${HEADER_KEY} ${COOKIE_KEY} ${BASIC_PASSWORD}"}`;
    const sent = [
      { url: `/plants?k=${QUERY_KEY}&limit=2`, headers: {} },
      { url: '/plants', headers: { 'x-plant': HEADER_KEY } },
      { url: '/plants', headers: { cookie: `theme=dark; c=${COOKIE_KEY}` } },
      { url: '/plants', headers: { authorization: basic } },
      // A key that is not accepted (401), in a query parameter whose name looks like no credential: redacted by its name.
      { url: '/plants?k=not-configured-key', headers: { 'x-note': 'not-configured-key' } },
    ];
    for (const { url, headers } of sent)
      await app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: echo,
      });
    const page = await app.inject({ method: 'GET', url: '/__admin/journal' });
    for (const secret of [QUERY_KEY, HEADER_KEY, COOKIE_KEY, BASIC_PASSWORD, 'not-configured-key'])
      assert.ok(!page.body.includes(secret), `${secret} is nowhere in the journal`);
    const entries = page.json<{ entries: JournalEntry[] }>().entries;
    assert.deepEqual(
      entries.map(({ path }) => path),
      ['/plants?k=<redacted>&limit=2', '/plants', '/plants', '/plants', '/plants?k=<redacted>'],
    );
    assert.equal(entries[1]!.headers['x-plant'], '<redacted>');
    assert.equal(entries[3]!.headers.authorization, 'Basic <redacted>');
    assert.deepEqual(
      entries.map(({ status }) => status),
      [200, 400, 400, 400, 401],
      'each configured credential let in (the same id: duplicates after the first), the key not accepted refused',
    );
  });

  test("a held answer counts against the keys it was let in with, not against everyone's empty Authorization", async () => {
    const app = buildApp({ specPath });
    const seen: string[] = [];
    app.addHook('preHandler', (request, _reply, done) => {
      seen.push(credentialOf(request));
      done();
    });
    await app.inject({ method: 'GET', url: '/plants?k=one' });
    await app.inject({ method: 'GET', url: '/plants?k=two' });
    await app.inject({ method: 'GET', url: '/plants', headers: { authorization: basic } });
    assert.deepEqual(seen, ['q=one', 'q=two', basic]);
  });
});

describe("the entry point's log", () => {
  test(
    'keys by name and value in its URLs and lines; at start, each open scheme named',
    { timeout: 60_000 },
    async () => {
      const { child, url, lines, exited } = await startEntry({
        PLANTSTORE_SPEC: specPath,
        PLANTSTORE_CREDENTIALS: CREDENTIALS,
      });
      try {
        await fetch(`${url}/plants?k=${QUERY_KEY}&limit=1`);
        await fetch(`${url}/plants?k=not-configured-key`);
        await fetch(`${url}/plants?k=${encodeURIComponent('a wrong one')}`, { headers: { cookie: `c=${COOKIE_KEY}` } });
      } finally {
        child.kill('SIGTERM');
      }
      await exited;
      const text = lines.join('\n');
      for (const secret of [QUERY_KEY, COOKIE_KEY, 'not-configured-key'])
        assert.ok(!text.includes(secret), `${secret} is nowhere in the log`);
      const urls = lines
        .map((line) => JSON.parse(line) as { msg: string; req?: { url: string } })
        .filter(({ msg }) => msg === 'request completed')
        .map(({ req }) => req?.url);
      assert.deepEqual(urls, ['/plants?k=<redacted>&limit=1', '/plants?k=<redacted>', '/plants?k=<redacted>']);
      assert.ok(!text.includes('no credentials are configured'), 'every scheme has credentials configured');
      const open = await startEntry({ PLANTSTORE_SPEC: specPath, PLANTSTORE_TOKENS: 'a-token' });
      open.child.kill('SIGTERM');
      await open.exited;
      const warnings = open.lines
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter(({ level }) => level === 40)
        .map(({ msg }) => msg);
      for (const scheme of ['q', 'h', 'c', 'b'])
        assert.ok(
          warnings.some((w) => w.startsWith(`no credentials are configured for the security scheme ${scheme} (`)),
          `${scheme}: ${warnings.join('\n')}`,
        );
      assert.ok(
        warnings.includes(
          'PLANTSTORE_TOKENS is set, but no operation of the document requires a bearer token: its tokens open nothing',
        ),
      );
    },
  );

  test('PLANTSTORE_CREDENTIALS naming a scheme the document lacks stops the start with exit 2, the value unsaid', async () => {
    const { code, stderr } = await runProcess({
      file: process.execPath,
      args: [ENTRY],
      env: { PORT: '0', PLANTSTORE_SPEC: specPath, PLANTSTORE_CREDENTIALS: 'elsewhere=very-secret-value' },
      stdout: 'ignore',
      timeoutMs: 30_000,
    });
    assert.equal(code, 2);
    assert.match(stderr, /PLANTSTORE_CREDENTIALS names the scheme elsewhere, which the document does not declare/);
    assert.ok(!stderr.includes('very-secret-value'));
  });
});
