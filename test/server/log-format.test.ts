// The log's format: pretty for a person at a terminal, JSON lines for a
// program or when LOG_FORMAT says so; redacted either way. A terminal is
// hard to fake in a test, so the choice is a pure function of (isTTY,
// LOG_FORMAT), tested here, and the pretty format is forced for the runs.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ConfigError, readConfig } from '../../server/config.js';
import { createServerLog, logFormat } from '../../server/logging.js';
import { JSON_TYPE, app, freshId } from './support.js';
import { startEntry } from '../support/entry.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-log-format-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('logFormat: pretty at a terminal, JSON lines elsewhere, LOG_FORMAT wins either way', () => {
  assert.equal(logFormat(true, undefined), 'pretty');
  assert.equal(logFormat(false, undefined), 'json');
  assert.equal(logFormat(true, 'json'), 'json');
  assert.equal(logFormat(false, 'pretty'), 'pretty');
});

test('LOG_FORMAT is json or pretty (any case, spaces trimmed); unset or empty leaves the choice to the terminal; anything else is refused by name', () => {
  assert.equal(readConfig({}).logFormat, undefined);
  assert.equal(readConfig({ LOG_FORMAT: '' }).logFormat, undefined);
  assert.equal(readConfig({ LOG_FORMAT: ' Pretty ' }).logFormat, 'pretty');
  assert.equal(readConfig({ LOG_FORMAT: 'JSON' }).logFormat, 'json');
  assert.throws(
    () => readConfig({ LOG_FORMAT: 'xml' }),
    (err: unknown) => err instanceof ConfigError && /LOG_FORMAT must be one of json, pretty/.test(err.message),
  );
});

test(
  'the pretty log is for a person (no JSON line), holds the request line, and no secret, as the JSON log',
  { timeout: 60_000 },
  async () => {
    const secret = 'log-format-secret-7731';
    const run = async (format: 'json' | 'pretty') => {
      const file = join(dir, `${format}.log`);
      const fd = openSync(file, 'w');
      const log = createServerLog('info', fd, [secret], format);
      const server = app({ loggerInstance: log.logger });
      await server.inject({
        method: 'POST',
        url: `/plants?access_token=${secret}`,
        headers: { authorization: `Bearer ${secret}`, ...JSON_TYPE },
        payload: JSON.stringify({ id: freshId(), name: 'Fern' }),
      });
      // A secret in a message, with characters that JSON escapes: the pretty line writes them unescaped.
      log.logger.warn({ header: `Bearer ${secret}` }, `a message that names "${secret}"`);
      await server.close();
      await log.close();
      closeSync(fd);
      return readFileSync(file, 'utf8');
    };
    const json = await run('json');
    const pretty = await run('pretty');
    for (const [name, text] of [
      ['json', json],
      ['pretty', pretty],
    ] as const) {
      assert.ok(!text.includes(secret), `${name}: no secret in\n${text}`);
      assert.match(text, /request completed/, name);
      assert.match(text, /a message that names/, name);
    }
    for (const line of json.trimEnd().split('\n')) JSON.parse(line);
    assert.ok(
      pretty.split('\n').every((line) => !line.startsWith('{')),
      `no JSON line:\n${pretty}`,
    );
    assert.match(pretty, /INFO.*request completed/);
    assert.match(pretty, /WARN.*a message that names/);
  },
);

test(
  'the entry point (the bundle npm start and the image run) logs pretty with LOG_FORMAT=pretty, without its tokens',
  { timeout: 60_000 },
  async () => {
    const token = 'entry-pretty-token-4410';
    const { child, url, lines, exited } = await startEntry({
      LOG_FORMAT: 'pretty',
      PLANTSTORE_TOKENS: token,
      NO_COLOR: '1',
    });
    try {
      const created = await fetch(`${url}/plants?access_token=${token}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: freshId(), name: 'started' }),
      });
      assert.equal(created.status, 200);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal((await exited).code, 0);
    const text = lines.join('\n');
    assert.match(text, /INFO.*Server listening at http:\/\/127\.0\.0\.1:\d+/);
    assert.match(text, /request completed/, 'the request line, written at SIGTERM');
    assert.ok(
      lines.every((line) => !line.startsWith('{')),
      `no JSON line:\n${text}`,
    );
    assert.ok(!text.includes(token), text);
  },
);
