// Faults: closing under load (in-process and the real entry with SIGTERM),
// and 1,000 concurrent creates of one id.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { buildApp } from '../../server/app.js';
import { startEntry } from '../support/entry.js';
import { answerProblems } from '../../robustness/answers.js';
import { create, driveCreates, type Outcome } from '../../robustness/load.js';

const TOKEN = 'fault-token';

function checkAnswers(outcomes: Outcome[]): void {
  for (const outcome of outcomes) {
    if (outcome.status === undefined) continue;
    const problems = answerProblems({
      status: outcome.status,
      headers: { 'content-type': 'application/json' },
      body: outcome.body ?? '',
    });
    assert.deepEqual(problems, [], `id ${outcome.id}: ${outcome.status} ${outcome.body}`);
  }
}

test(
  'closing under load: requests in flight are answered, and every 200 is a stored plant and every stored plant got its 200',
  { timeout: 60_000 },
  async () => {
    const app = buildApp({ tokens: [TOKEN] });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 32 });
    let nextId = 0;
    let answered = 0;
    let closing: Promise<void> | undefined;
    const outcomes = await driveCreates({
      pool,
      token: TOKEN,
      workers: 64,
      next: () => String(++nextId),
      stop: () => closing !== undefined && answered > 3000,
      limit: 20_000,
      onOutcome: (outcome) => {
        if (outcome.status !== undefined) answered++;
        // Close in the middle of the load, with requests in flight on every connection.
        if (answered === 1500 && closing === undefined) closing = app.close();
      },
    });
    await closing;
    await pool.close();
    checkAnswers(outcomes);
    const ok = outcomes
      .filter((o) => o.status === 200)
      .map((o) => o.id)
      .sort();
    const stored = (await app.plantStore.list(0, 100_000, Number.MAX_SAFE_INTEGER)).plants.map((p) => p.id).sort();
    assert.ok(ok.length >= 1500, `only ${ok.length} creates succeeded`);
    assert.deepEqual(stored, ok, 'the stored plants and the 200 answers differ');
    const failures = new Map<string, number>();
    for (const o of outcomes) if (o.failure) failures.set(o.failure, (failures.get(o.failure) ?? 0) + 1);
    console.log(
      `close under load: ${outcomes.length} requests, ${ok.length} x 200, no answer: ${JSON.stringify(Object.fromEntries(failures))}`,
    );
  },
);

test('SIGTERM under load: the real entry answers what it received and exits 0', { timeout: 60_000 }, async () => {
  const { child, url, exited } = await startEntry({ PLANTSTORE_TOKENS: TOKEN, LOG_LEVEL: 'info' });
  const pool = new Pool(url, { connections: 16 });
  let nextId = 0;
  let answered = 0;
  let signalled = false;
  const outcomes = await driveCreates({
    pool,
    token: TOKEN,
    workers: 32,
    next: () => String(++nextId),
    stop: () => signalled && answered > 3000,
    limit: 20_000,
    onOutcome: (outcome) => {
      if (outcome.status !== undefined) answered++;
      if (answered === 1000 && !signalled) signalled = child.kill('SIGTERM');
    },
  });
  const { code } = await exited;
  await pool.close();
  assert.equal(code, 0, 'exit code 0 (null would mean a signal ended it)');
  checkAnswers(outcomes);
  assert.ok(outcomes.filter((o) => o.status === 200).length >= 1000);
});

test(
  '1,000 concurrent creates of one id through inject: exactly one 200, 999 duplicates',
  { timeout: 60_000 },
  async () => {
    const app = buildApp({ tokens: [TOKEN] });
    const responses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/plants',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          payload: `{"id":42,"name":"n${i}"}`,
        }),
      ),
    );
    assert.equal(responses.filter((r) => r.statusCode === 200).length, 1);
    assert.equal(
      responses.filter((r) => r.statusCode === 400 && r.json<{ error: number }>().error === 40004).length,
      999,
    );
    const winner = responses.find((r) => r.statusCode === 200)?.json<{ name: string }>();
    assert.deepEqual(await app.plantStore.get('42'), winner);
    await app.close();
  },
);

test(
  '1,000 concurrent creates of one id over 100 sockets: exactly one 200, 999 duplicates',
  { timeout: 60_000 },
  async () => {
    const app = buildApp({ tokens: [TOKEN] });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 100 });
    const outcomes = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => create(pool, TOKEN, '9223372036854775807', `n${i}`)),
    );
    await pool.close();
    await app.close();
    assert.deepEqual(
      outcomes.filter((o) => o.status === undefined),
      [],
    );
    assert.equal(outcomes.filter((o) => o.status === 200).length, 1);
    assert.equal(
      outcomes.filter((o) => o.status === 400 && (JSON.parse(o.body ?? '') as { error: number }).error === 40004)
        .length,
      999,
    );
    assert.equal((await app.plantStore.usage()).plants, 1);
  },
);
