// The real entry point: environment, listening, logging, clean shutdown.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runProcess } from '../../lib/process.js';
import { ENTRY, startEntry } from '../support/entry.js';

function create(url: string, token: string, id: number): Promise<Response> {
  return fetch(`${url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id, name: 'started' }),
  });
}

test('the entry point listens, restricts tokens from PLANTSTORE_TOKENS, and exits 0 on SIGTERM', async () => {
  const { child, url, lines, exited } = await startEntry({ PLANTSTORE_TOKENS: 'one,two' });
  try {
    assert.equal((await create(url, 'two', 1)).status, 200);
    const refused = await create(url, 'three', 2);
    assert.equal(refused.status, 401);
    assert.match(refused.headers.get('www-authenticate') ?? '', /^Bearer /);
    assert.equal((await fetch(`${url}/__health`)).status, 200);
    assert.ok(!lines.some((line) => line.includes('PLANTSTORE_TOKENS is not set')));
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal((await exited).code, 0);
});

test('without PLANTSTORE_TOKENS any token is accepted and a warning is logged; SIGINT exits 0', async () => {
  const { child, url, lines, exited } = await startEntry({});
  try {
    assert.equal((await create(url, 'whatever', 1)).status, 200);
    const warning = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).find((entry) => entry.msg.includes('PLANTSTORE_TOKENS is not set'));
    assert.equal(warning?.level, 40, 'a pino warn line');
  } finally {
    child.kill('SIGINT');
  }
  assert.equal((await exited).code, 0);
});

test('a bad environment stops the start with exit 2 and a message naming the variable', async () => {
  const { code, stderr } = await runProcess({ file: process.execPath, args: [ENTRY], env: { PORT: 'eighty' }, stdout: 'ignore', timeoutMs: 20_000 });
  assert.equal(code, 2);
  assert.match(stderr, /PORT must be a whole number/);
});

test('the request log is written asynchronously and loses no line: every request has its line after SIGTERM', async () => {
  const { child, url, lines, exited } = await startEntry({ PLANTSTORE_TOKENS: 'one' });
  const count = 300;
  try {
    // Concurrent creates: many lines are buffered while a write is in flight.
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => create(url, 'one', 1000 + i)));
    assert.ok(answers.every((a) => a.status === 200));
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal((await exited).code, 0);
  const requestLines = lines.map((line) => JSON.parse(line) as { msg: string; reqId?: string; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number }).filter((entry) => entry.msg === 'request completed');
  assert.equal(requestLines.length, count);
  const first = requestLines[0]!;
  assert.equal(first.req?.method, 'POST');
  assert.equal(first.req?.url, '/plants');
  assert.equal(first.res?.statusCode, 200);
  assert.equal(typeof first.responseTime, 'number');
  assert.equal(new Set(requestLines.map((entry) => entry.reqId)).size, count, 'each line names its request');
});
