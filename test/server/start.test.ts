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
    const warning = lines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .find((entry) => entry.msg.includes('PLANTSTORE_TOKENS is not set'));
    assert.equal(warning?.level, 40, 'a pino warn line');
  } finally {
    child.kill('SIGINT');
  }
  assert.equal((await exited).code, 0);
});

test('a bad environment stops the start with exit 2 and a message naming the variable', async () => {
  const { code, stderr } = await runProcess({
    file: process.execPath,
    args: [ENTRY],
    env: { PORT: 'eighty' },
    stdout: 'ignore',
    timeoutMs: 20_000,
  });
  assert.equal(code, 2);
  assert.match(stderr, /PORT must be a whole number/);
});

test('without HOST the server listens on loopback only', async () => {
  const { child, url, lines, exited } = await startEntry({ HOST: '', PLANTSTORE_TOKENS: 'one' });
  try {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    // On all interfaces Fastify logs a "listening at" line per address.
    const addresses = lines.flatMap((line) =>
      [...line.matchAll(/Server listening at (http:\/\/[^\s"]+)/g)].map((m) => m[1]),
    );
    assert.deepEqual(addresses, [url]);
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal((await exited).code, 0);
});

test('open controls and an accept-any-token mode are each logged at warn, with what to set instead', async () => {
  const { child, lines, exited } = await startEntry({});
  try {
    const warnings = lines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((entry) => entry.level === 40);
    assert.ok(
      warnings.some((w) => /PLANTSTORE_TOKENS is not set.*set PLANTSTORE_TOKENS/.test(w.msg)),
      JSON.stringify(warnings),
    );
    assert.ok(
      warnings.some((w) => /controls on at \/__admin without a token.*set PLANTSTORE_ADMIN_TOKEN/.test(w.msg)),
      JSON.stringify(warnings),
    );
  } finally {
    child.kill('SIGTERM');
  }
  await exited;
  const closed = await startEntry({ PLANTSTORE_TOKENS: 'one', PLANTSTORE_ADMIN_TOKEN: 'two' });
  closed.child.kill('SIGTERM');
  await closed.exited;
  assert.deepEqual(
    closed.lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 40),
    [],
    'nothing to warn about',
  );
});

test('configuration that accepts or refuses nothing stops the start with exit 2, naming the variable', async () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PLANTSTORE_TOKENS: ',' }, /PLANTSTORE_TOKENS is set but holds no token/],
    [{ PLANTSTORE_TOKENS: '' }, /PLANTSTORE_TOKENS is set but holds no token/],
    [
      { PLANTSTORE_TOKENS: 'one,two', PLANTSTORE_ADMIN_TOKEN: 'two' },
      /PLANTSTORE_ADMIN_TOKEN equals a token of PLANTSTORE_TOKENS/,
    ],
  ];
  for (const [env, message] of cases) {
    const { code, stderr } = await runProcess({
      file: process.execPath,
      args: [ENTRY],
      env: { PORT: '0', HOST: '127.0.0.1', ...env },
      stdout: 'ignore',
      timeoutMs: 20_000,
    });
    assert.equal(code, 2, JSON.stringify(env));
    assert.match(stderr, message);
  }
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
  const requestLines = lines
    .map(
      (line) =>
        JSON.parse(line) as {
          msg: string;
          reqId?: string;
          req?: { method: string; url: string };
          res?: { statusCode: number };
          responseTime?: number;
        },
    )
    .filter((entry) => entry.msg === 'request completed');
  assert.equal(requestLines.length, count);
  const first = requestLines[0]!;
  assert.equal(first.req?.method, 'POST');
  assert.equal(first.req?.url, '/plants');
  assert.equal(first.res?.statusCode, 200);
  assert.equal(typeof first.responseTime, 'number');
  assert.equal(new Set(requestLines.map((entry) => entry.reqId)).size, count, 'each line names its request');
});
