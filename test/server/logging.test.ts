// The server's log (server/logging.ts): the request line it builds by hand is
// the line pino writes for the same request with the same serializers, and
// the lines reach the destination in order after a flush.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import pino from 'pino';
import { createServerLog, requestLineWriter } from '../../server/logging.js';
import { AUTH, app, freshId, JSON_TYPE } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));

type Line = Record<string, unknown> & { msg: string; reqId?: string };

test(
  'the request line is what pino writes for the request and the answer: the same fields, values and order',
  { timeout: 60_000 },
  async () => {
    const file = join(dir, 'log.jsonl');
    const fd = openSync(file, 'w');
    const log = createServerLog('info', fd);
    const server = app({ loggerInstance: log.logger });
    // The same request and answer through pino and its serializers, just before the server's own line.
    const writers = new Set<unknown>();
    server.addHook('onResponse', (request, reply, done) => {
      writers.add(requestLineWriter(request.log));
      request.log.info({ reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'pino line');
      done();
    });
    const requests = [
      {
        method: 'POST' as const,
        url: '/plants',
        headers: { ...AUTH, ...JSON_TYPE },
        payload: JSON.stringify({ id: freshId(), name: 'Fern' }),
      },
      {
        method: 'POST' as const,
        url: '/plants?q=%22quoted%22&x=\\',
        headers: { ...AUTH, ...JSON_TYPE, host: 'example.test:8080' },
        payload: '{',
      },
      { method: 'GET' as const, url: '/__health', headers: {} },
      { method: 'GET' as const, url: '/nowhere/\u00e9t\u00e9', headers: {}, remoteAddress: '::1' },
    ];
    for (const request of requests) await server.inject(request);
    await server.close();
    await log.close();
    closeSync(fd);
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text) as Line);
    const ours = lines.filter((line) => line.msg === 'request completed');
    const pinos = lines.filter((line) => line.msg === 'pino line');
    // The server's line came from the hand-built writer (Fastify logs through a child of the logger it is given), not from pino.
    assert.deepEqual(
      [...writers].map((writer) => typeof writer),
      ['function'],
    );
    assert.equal(ours.length, requests.length);
    assert.equal(pinos.length, requests.length);
    for (const [i, line] of ours.entries()) {
      const pinoLine = pinos[i]!;
      assert.equal(line.reqId, pinoLine.reqId);
      assert.deepEqual(Object.keys(line), Object.keys(pinoLine), 'the same fields in the same order');
      const withoutTimes = ({ time, responseTime, msg, ...rest }: Line) => ({
        ...rest,
        time: typeof time,
        responseTime: typeof responseTime,
      });
      assert.deepEqual(withoutTimes(line), withoutTimes(pinoLine));
    }
    assert.equal((ours[1]!.req as { host: string }).host, 'example.test:8080');
    assert.equal((ours[1]!.req as { url: string }).url, '/plants?q=%22quoted%22&x=\\');
    assert.equal((ours[1]!.res as { statusCode: number }).statusCode, 400);
    // Each server line follows its pino line: one destination, in order.
    assert.deepEqual(
      lines.filter((line) => line.msg === 'pino line' || line.msg === 'request completed').map((line) => line.msg),
      requests.flatMap(() => ['pino line', 'request completed']),
    );
  },
);

test('any other logger writes the request line through pino', { timeout: 60_000 }, async () => {
  assert.equal(requestLineWriter(pino({ enabled: false })), undefined);
  const server = app({ logger: { level: 'silent' } });
  await server.ready();
  assert.equal(requestLineWriter(server.log), undefined);
  await server.close();
});

test('at warn the request line is not written', { timeout: 60_000 }, async () => {
  const file = join(dir, 'warn.jsonl');
  const fd = openSync(file, 'w');
  const log = createServerLog('warn', fd);
  const server = app({ loggerInstance: log.logger });
  await server.inject({ method: 'GET', url: '/__health' });
  server.log.warn('a warning');
  await server.close();
  await log.close();
  closeSync(fd);
  const lines = readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((text) => JSON.parse(text) as Line);
  assert.deepEqual(
    lines.map((line) => line.msg),
    ['a warning'],
  );
});

// sonic-boom 4.2.1, pino's destination, retried a failed write for ever at
// flushSync (EBADF, EPIPE): a server whose standard output went away never
// exited, and this file once hung until it was killed. A log that cannot be
// written is given up instead. Each case runs in a process of its own that
// either exits or never would: the verdict does not depend on timing.
const LOGGING = new URL('../../server/logging.js', import.meta.url).href;
const GOES_AWAY: Record<string, string> = {
  'its file closed under it (EBADF)': `
    import { closeSync, openSync } from 'node:fs';
    import { createServerLog } from ${JSON.stringify(LOGGING)};
    const fd = openSync(${JSON.stringify(join(dir, 'closed.jsonl'))}, 'w');
    const log = createServerLog('info', fd);
    for (let i = 0; i < 2000; i++) log.logger.info({ i }, 'a line before the file is closed');
    closeSync(fd);
    for (let i = 0; i < 2000; i++) log.logger.info({ i }, 'a line after');
    log.flush();
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.exit(0);`,
  'its pipe closed by the reader (EPIPE)': `
    import { createServerLog } from ${JSON.stringify(LOGGING)};
    const log = createServerLog('info', 1);
    for (let i = 0; i < 20000; i++) log.logger.info({ i, pad: 'x'.repeat(200) }, 'a line nobody reads');
    process.exit(0);`,
};

for (const [what, script] of Object.entries(GOES_AWAY)) {
  test(
    `a log that cannot be written is given up: a process whose log has ${what} exits`,
    { timeout: 60_000 },
    async () => {
      const { spawn } = await import('node:child_process');
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      // The reader goes away at once: every write to the pipe fails with EPIPE.
      child.stdout.destroy();
      const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
      assert.equal(code, 0, stderr);
    },
  );
}
test(
  "the log carries no query credential: token-like query parameters are redacted in the request line and in pino's lines, as in the journal",
  { timeout: 60_000 },
  async () => {
    const file = join(dir, 'credentials.jsonl');
    const fd = openSync(file, 'w');
    const log = createServerLog('info', fd);
    const server = app({ loggerInstance: log.logger });
    // pino's own serializer of the request, as an error line or another logger writes it.
    server.addHook('onResponse', (request, reply, done) => {
      request.log.info({ req: request, res: reply }, 'pino line');
      done();
    });
    const secrets = ['s3cret-access', 's3cret-api-key', 's3cret-sig', 's3cret-encoded'];
    const url = `/plants?page=2&access_token=${secrets[0]}&X-Api-Key=${secrets[1]}&sig=${secrets[2]}&%61uth=${secrets[3]}&plain=kept`;
    await server.inject({
      method: 'POST',
      url,
      headers: { ...AUTH, ...JSON_TYPE },
      payload: JSON.stringify({ id: freshId(), name: 'Fern' }),
    });
    await server.inject({ method: 'GET', url: `/nowhere?token=${secrets[0]}` });
    await server.close();
    await log.close();
    closeSync(fd);
    const text = readFileSync(file, 'utf8');
    for (const secret of secrets) assert.doesNotMatch(text, new RegExp(secret), `${secret} is in the log`);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    const urls = lines
      .filter((line) => line.msg === 'request completed' || line.msg === 'pino line')
      .map((line) => (line.req as { url: string }).url);
    assert.deepEqual(urls, [
      '/plants?page=2&access_token=<redacted>&X-Api-Key=<redacted>&sig=<redacted>&%61uth=<redacted>&plain=kept',
      '/plants?page=2&access_token=<redacted>&X-Api-Key=<redacted>&sig=<redacted>&%61uth=<redacted>&plain=kept',
      '/nowhere?token=<redacted>',
      '/nowhere?token=<redacted>',
    ]);
  },
);

test(
  'the request line redacts a target with a query the same way each time it is logged, and by the key names given since',
  { timeout: 60_000 },
  async () => {
    const file = join(dir, 'targets.jsonl');
    const fd = openSync(file, 'w');
    const log = createServerLog('info', fd);
    const server = app({ loggerInstance: log.logger });
    const long = `/plants?limit=5&pad=${'x'.repeat(600)}&access_token=long-secret-value`;
    const targets = [
      '/plants?limit=5&access_token=first-secret-value',
      '/plants?limit=5&access_token=first-secret-value',
      '/plants?limit=5&k=key-value-sent',
      long,
      long,
    ];
    for (const url of targets) await server.inject({ method: 'GET', url, headers: AUTH });
    // The document's API key names, as start.ts gives them once the document is read: the same target is now redacted by them.
    log.redactParameters(['k']);
    await server.inject({ method: 'GET', url: '/plants?limit=5&k=key-value-sent', headers: AUTH });
    await server.close();
    await log.close();
    closeSync(fd);
    const urls = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text) as Line & { req?: { url: string } })
      .filter((line) => line.msg === 'request completed')
      .map((line) => line.req?.url);
    const longRedacted = `/plants?limit=5&pad=${'x'.repeat(600)}&access_token=<redacted>`;
    assert.deepEqual(urls, [
      '/plants?limit=5&access_token=<redacted>',
      '/plants?limit=5&access_token=<redacted>',
      '/plants?limit=5&k=key-value-sent',
      longRedacted,
      longRedacted,
      '/plants?limit=5&k=<redacted>',
    ]);
  },
);
