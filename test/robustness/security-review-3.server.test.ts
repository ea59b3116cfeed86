// The third security review's findings on the server (issue 32), each run
// from its own proof: the request, the configuration or the document that
// showed it. Each test failed on the build the review read, and passes now.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../server/app.js';
import { OPENAPI_PATH } from '../../spec/openapi.js';
import { exchange } from '../../robustness/wire.js';
import { startEntry } from '../support/entry.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)); // from dist/test/robustness/
const dir = mkdtempSync(join(tmpdir(), 'plantstore-review-3-'));
after(() => rmSync(dir, { recursive: true, force: true }));
/** A token as a team would configure it: long enough to be told from ordinary text. */
const SECRET = 'sk_live_4f9a0c2e7b1d';
const JSON_TYPE = { 'content-type': 'application/json' };

/** Stops a started entry point (SIGKILL: one that a finding blocked would not end otherwise) and waits for it. */
async function stop(
  started: { child: { kill(signal: NodeJS.Signals): boolean }; exited: Promise<unknown> },
  signal: NodeJS.Signals = 'SIGTERM',
) {
  started.child.kill(signal);
  await started.exited;
}

test(
  'medium 1: a catastrophic pattern on Plant.tag (PLANTSTORE_SPEC) cannot block the server: a 32-character tag is answered, and /__health still answers',
  { timeout: 180_000 },
  async () => {
    const evil = join(dir, 'evil.yaml');
    const tag = '          description: Tag to specify the type\n';
    writeFileSync(
      evil,
      readFileSync(OPENAPI_PATH, 'utf8').replace(tag, () => `${tag}          pattern: '^([\\s\\S]+)+X$'\n`),
    );
    assert.match(readFileSync(evil, 'utf8'), /pattern: '\^\(\[\\s\\S\]\+\)\+X\$'/);
    const server = await startEntry({ PLANTSTORE_SPEC: evil, PLANTSTORE_TOKENS: SECRET });
    try {
      // A minute is a deadline, not a timing: on V8's engine this request backtracks 2^32 ways.
      const signal = AbortSignal.timeout(60_000);
      const created = await fetch(`${server.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}`, ...JSON_TYPE },
        body: JSON.stringify({ id: 1, name: 'Fern', tag: 'a'.repeat(32) }),
        signal,
      });
      assert.equal(created.status, 400);
      assert.match((await created.json()).message, /\/tag must match pattern/);
      assert.equal((await fetch(`${server.url}/__health`, { signal })).status, 200);
      const matching = await fetch(`${server.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}`, ...JSON_TYPE },
        body: JSON.stringify({ id: 2, name: 'Fern', tag: `${'a'.repeat(31)}X` }),
        signal,
      });
      assert.equal(matching.status, 200);
    } finally {
      await stop(server, 'SIGKILL');
    }
  },
);

test(
  "medium 3: one API client asking for 64 hangs takes its share of the held places, and another client's delayed create is answered 200",
  { timeout: 120_000 },
  async () => {
    const app = buildApp({ tokens: ['tenant-a-token', 'tenant-b-token'], stub: { delayMs: 200 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const hangs = new AbortController();
    try {
      const asked = Array.from({ length: 64 }, (_, i) =>
        fetch(`${base}/plants`, {
          method: 'POST',
          headers: { authorization: 'Bearer tenant-a-token', ...JSON_TYPE, prefer: 'fault=hang' },
          body: JSON.stringify({ id: 100 + i, name: 'Fern' }),
          signal: hangs.signal,
        }).then(
          (response) => response.status,
          () => 'held until the test ended',
        ),
      );
      // Every one of the 64 has reached the stub (journaled: held, or refused at once).
      for (let round = 0; (await app.inject({ method: 'GET', url: '/__admin/journal' })).json().total < 64; round++) {
        assert.ok(round < 600, 'the 64 requests reach the stub within a minute');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const created = await fetch(`${base}/plants`, {
        method: 'POST',
        headers: { authorization: 'Bearer tenant-b-token', ...JSON_TYPE },
        body: '{"id": 1, "name": "Monstera"}',
      });
      assert.equal(created.status, 200, await created.text());
      hangs.abort();
      const statuses = await Promise.all(asked);
      assert.equal(
        statuses.filter((status) => status === 503).length,
        64 - 16,
        'past its share of 16, tenant A is told 503 at once',
      );
    } finally {
      hangs.abort();
      await app.close();
    }
  },
);

test(
  'medium 3: with PLANTSTORE_PREFER=admin, a Prefer fault needs the admin token (403 without it), and the controls are unchanged',
  { timeout: 60_000 },
  async () => {
    const app = buildApp({
      tokens: ['api-token-1'],
      stub: { controlsToken: 'admin-token-1', preferNeedsControlsToken: true },
    });
    const create = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/plants',
        headers: { authorization: 'Bearer api-token-1', ...JSON_TYPE, ...headers },
        payload: '{"id": 1, "name": "Fern"}',
      });
    const refused = await create({ prefer: 'code=503' });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().error, 40301);
    assert.equal(
      (await create({ prefer: 'code=503', 'plantstore-admin-authorization': 'Bearer api-token-1' })).statusCode,
      403,
    );
    assert.equal(
      (await create({ prefer: 'code=503', 'plantstore-admin-authorization': 'Bearer admin-token-1' })).statusCode,
      503,
    );
    // A Prefer that asks the stub for nothing (RFC 7240: ignored) needs no token.
    assert.equal((await create({ prefer: 'return=minimal' })).statusCode, 200);
    await app.close();
  },
);

test('medium 3: docs/stub.md says one thing of who may ask for faults', { timeout: 60_000 }, () => {
  const stub = readFileSync(join(ROOT, 'docs/stub.md'), 'utf8');
  assert.doesNotMatch(stub, /Only the controls schedule faults/);
  assert.match(stub, /PLANTSTORE_PREFER/);
});

test(
  'low 1: at LOG_LEVEL=debug, a request the HTTP parser refuses is logged without its raw packet: no token, as text or as bytes',
  { timeout: 120_000 },
  async () => {
    const server = await startEntry({ LOG_LEVEL: 'debug', PLANTSTORE_TOKENS: SECRET });
    const { port } = new URL(server.url);
    const answer = await exchange(
      Number(port),
      Buffer.from(`POST /plants HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${SECRET}\r\nBad Header Line\r\n\r\n`),
    );
    assert.equal(answer.responses[0]?.status, 400);
    await stop(server);
    const log = server.lines.join('\n');
    assert.match(log, /client error/, 'the refusal is logged at debug');
    assert.doesNotMatch(log, /rawPacket/);
    assert.ok(!log.includes(SECRET), 'the token as text');
    assert.ok(!log.includes([...Buffer.from(SECRET)].join(',')), 'the token as the bytes of a packet');
  },
);

test(
  'low 2: without an admin token, POST /__admin/reset as a browser sends it cross-origin (text/plain, or no body) is 415 and resets nothing',
  { timeout: 60_000 },
  async () => {
    const app = buildApp({ tokens: ['api-token-1'], stub: {} });
    await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { authorization: 'Bearer api-token-1', ...JSON_TYPE },
      payload: '{"id": 1, "name": "Fern"}',
    });
    for (const headers of [
      { 'content-type': 'text/plain', origin: 'https://attacker.example' },
      { origin: 'https://attacker.example' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ]) {
      const reset = await app.inject({
        method: 'POST',
        url: '/__admin/reset',
        headers,
        payload: headers['content-type'] === undefined ? undefined : 'x',
      });
      assert.equal(reset.statusCode, 415, JSON.stringify(headers));
    }
    assert.equal((await app.plantStore.usage()).plants, 1, 'nothing was reset');
    // A client that says JSON (which a browser sends cross-origin only after a preflight the stub never grants) resets.
    assert.equal((await app.inject({ method: 'POST', url: '/__admin/reset', headers: JSON_TYPE })).statusCode, 200);
    assert.equal((await app.plantStore.usage()).plants, 0);
    await app.close();
  },
);

test(
  'low 2: without an admin token the controls answer loopback names, IP addresses and the allowed hosts only (DNS rebinding)',
  { timeout: 60_000 },
  async () => {
    const open = buildApp({ stub: {} });
    const journal = (app: typeof open, host: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: '/__admin/journal', headers: { host, ...headers } });
    const refused = await journal(open, 'rebound.attacker.example:4010');
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().error, 40302);
    for (const host of [
      'localhost:4010',
      'LOCALHOST',
      'api.localhost:4010',
      '127.0.0.1:4010',
      '[::1]:4010',
      '10.0.0.7',
    ])
      assert.equal((await journal(open, host)).statusCode, 200, host);
    // The API itself is not the controls: it answers any Host.
    assert.equal(
      (
        await open.inject({
          method: 'POST',
          url: '/plants',
          headers: { host: 'rebound.attacker.example', authorization: 'Bearer any-token', ...JSON_TYPE },
          payload: '{"id": 1, "name": "Fern"}',
        })
      ).statusCode,
      200,
    );
    const named = buildApp({ stub: { allowedHosts: ['plantstore'] } });
    assert.equal((await journal(named, 'plantstore:4010')).statusCode, 200);
    assert.equal((await journal(named, 'rebound.attacker.example')).statusCode, 403);
    // With a token, the token decides, whatever the Host.
    const locked = buildApp({ stub: { controlsToken: 'admin-token-1' } });
    assert.equal((await journal(locked, 'plantstore:4010', { authorization: 'Bearer admin-token-1' })).statusCode, 200);
    await Promise.all([open.close(), named.close(), locked.close()]);
  },
);

test(
  'low 7: the journal redacts every configured secret by value: X-Bearer, Forwarded by=, ?code=, percent-encoded, in the body',
  { timeout: 60_000 },
  async () => {
    const other = 'beta.token/2+=='; // percent-encoded in a query: beta.token%2F2%2B%3D%3D
    const app = buildApp({ tokens: [SECRET, other], stub: { controlsToken: 'admin-token-for-the-journal' } });
    await app.inject({
      method: 'POST',
      url: `/plants?code=${SECRET}&state=${encodeURIComponent(other)}`,
      headers: {
        authorization: `Bearer ${SECRET}`,
        'x-bearer': SECRET,
        forwarded: `for=192.0.2.1;by=${SECRET}`,
        'x-note': 'admin-token-for-the-journal',
        ...JSON_TYPE,
      },
      payload: JSON.stringify({ id: 1, name: SECRET }),
    });
    const page = await app.inject({
      method: 'GET',
      url: '/__admin/journal',
      headers: { authorization: 'Bearer admin-token-for-the-journal' },
    });
    const [entry] = page.json().entries;
    const text = JSON.stringify(entry);
    assert.ok(
      !text.includes(SECRET) && !text.includes('admin-token-for-the-journal') && !text.includes('beta.token'),
      text,
    );
    assert.equal(entry.headers['x-bearer'], '<redacted>');
    assert.equal(entry.headers.forwarded, 'for=192.0.2.1;by=<redacted>');
    assert.equal(entry.path, '/plants?code=<redacted>&state=<redacted>');
    assert.equal(entry.body, '{"id":1,"name":"<redacted>"}');
    assert.equal(entry.bodyBytes, JSON.stringify({ id: 1, name: SECRET }).length, 'the size as received');
    await app.close();
  },
);

test(
  'low 7: the server log redacts every configured secret by value, wherever a line carries it (?code=)',
  { timeout: 120_000 },
  async () => {
    const server = await startEntry({ PLANTSTORE_TOKENS: SECRET, PLANTSTORE_ADMIN_TOKEN: 'admin-token-for-the-log' });
    try {
      await fetch(`${server.url}/plants?code=${SECRET}&other=admin-token-for-the-log`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}`, ...JSON_TYPE },
        body: '{"id": 1, "name": "Fern"}',
      });
      await fetch(`${server.url}/${SECRET}`);
    } finally {
      await stop(server);
    }
    const log = server.lines.join('\n');
    assert.match(log, /"url":"\/plants\?code=<redacted>&other=<redacted>"/);
    assert.ok(!log.includes(SECRET) && !log.includes('admin-token-for-the-log'), log);
  },
);

test(
  "low 8: the quick start's docker run commands (README, docs/stub.md) publish the port on loopback or set an admin token",
  { timeout: 60_000 },
  () => {
    for (const file of ['README.md', 'docs/stub.md']) {
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/\\\n\s*/g, ' ');
      const runs = text
        .split('\n')
        .filter((line) => /^\s*docker run /.test(line) && /\s(-p|--publish)[\s=]/.test(line));
      assert.ok(runs.length > 0, `${file} has a docker run that publishes a port`);
      for (const run of runs) {
        const published = [...run.matchAll(/(?:-p|--publish)[\s=](\S+)/g)].map(([, spec]) => spec as string);
        assert.ok(
          published.every((spec) => spec.startsWith('127.0.0.1:')) || /PLANTSTORE_ADMIN_TOKEN=/.test(run),
          `${file}: ${run.trim()}`,
        );
      }
    }
  },
);
