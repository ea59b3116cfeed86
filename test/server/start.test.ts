// The real entry point: environment, listening, logging, clean shutdown.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const ENTRY = fileURLToPath(new URL('../../server/start.js', import.meta.url));

interface Started {
  child: ChildProcess;
  url: string;
  lines: string[];
}

/** Starts dist/server/start.js on a free loopback port and waits for its "listening" log line. */
async function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [ENTRY], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (match) resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
  return { child, url, lines };
}

function create(url: string, token: string, id: number): Promise<Response> {
  return fetch(`${url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id, name: 'started' }),
  });
}

test('the entry point listens, restricts tokens from PLANTSTORE_TOKENS, and exits 0 on SIGTERM', async () => {
  const { child, url, lines } = await start({ PLANTSTORE_TOKENS: 'one,two' });
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
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
});

test('without PLANTSTORE_TOKENS any token is accepted and a warning is logged; SIGINT exits 0', async () => {
  const { child, url, lines } = await start({});
  try {
    assert.equal((await create(url, 'whatever', 1)).status, 200);
    const warning = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).find((entry) => entry.msg.includes('PLANTSTORE_TOKENS is not set'));
    assert.equal(warning?.level, 40, 'a pino warn line');
  } finally {
    child.kill('SIGINT');
  }
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
});

test('a bad environment stops the start with exit 2 and a message naming the variable', async () => {
  const child = spawn(process.execPath, [ENTRY], { env: { ...process.env, PORT: 'eighty' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = await once(child, 'exit');
  assert.equal(code, 2);
  assert.match(stderr, /PORT must be a whole number/);
});
