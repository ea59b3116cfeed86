// Server processes (the bundle npm start runs) sharing one real PostgreSQL
// database, as replicas behind a load balancer do: one plant store under
// concurrent load, nothing answered 200 lost to a SIGKILL or to the
// database going away, and a start refused when the database is unreachable.
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runProcess, sleep } from '../../lib/process.js';
import { ENTRY, startEntry, type StartedEntry } from '../support/entry.js';
import { POSTGRES_MISSING, sql, useTestDatabases } from '../support/postgres.js';

const databases = useTestDatabases();
const TOKEN = 'replica-token';
const ADMIN = 'replica-admin';

const running: StartedEntry[] = [];
after(async () => {
  await Promise.all(running.map((server) => server.stop()));
});

async function replica(url: string, env: Record<string, string> = {}): Promise<StartedEntry> {
  const server = await startEntry({
    PLANTSTORE_DATABASE_URL: url,
    PLANTSTORE_TOKENS: TOKEN,
    PLANTSTORE_ADMIN_TOKEN: ADMIN,
    ...env,
  });
  running.push(server);
  return server;
}

interface Answer {
  status: number;
  body: string;
  retryAfter: string | null;
}

async function create(server: StartedEntry, id: string, name = 'Fern'): Promise<Answer> {
  const response = await fetch(`${server.url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: `{"id": ${id}, "name": ${JSON.stringify(name)}}`,
  });
  return { status: response.status, body: await response.text(), retryAfter: response.headers.get('retry-after') };
}

async function storedIds(server: StartedEntry): Promise<string[]> {
  const response = await fetch(`${server.url}/__admin/plants`, { headers: { authorization: `Bearer ${ADMIN}` } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { plants: Array<{ id: string }> }).plants.map((plant) => plant.id);
}

describe('replicas on one PostgreSQL database', { skip: POSTGRES_MISSING, timeout: 180_000 }, () => {
  test('two servers are one store: one 200 among 400 concurrent creates of one id sent half to each; an id stored through one is taken for the other', async () => {
    const url = await databases.fresh();
    const [left, right] = await Promise.all([replica(url), replica(url)]);
    const answers = await Promise.all(
      Array.from({ length: 400 }, (_, i) => create(i % 2 === 0 ? left : right, '9223372036854775807', `p${i}`)),
    );
    const statuses = answers.map((answer) => answer.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses: ${[...new Set(statuses)].join(',')}`);
    assert.equal(statuses.filter((s) => s === 400).length, 399);
    assert.ok(
      answers.filter((a) => a.status === 400).every((a) => JSON.parse(a.body).error === 40004),
      'every other answer is the duplicate error',
    );

    assert.equal((await create(left, '-9223372036854775808')).status, 200);
    const again = await create(right, '-9223372036854775808');
    assert.equal(again.status, 400);
    assert.equal(JSON.parse(again.body).message, 'A plant with id -9223372036854775808 already exists.');
    assert.deepEqual(await storedIds(right), ['9223372036854775807', '-9223372036854775808']);
    const reset = await fetch(`${left.url}/__admin/plants`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    assert.deepEqual(await reset.json(), { deleted: 2 });
    assert.deepEqual(await storedIds(right), [], 'a reset through one replica empties the store for all');
  });

  test('SIGKILL and a restart lose nothing answered 200; the initial plants are not stored twice', async () => {
    const url = await databases.fresh();
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-initial-'));
    try {
      const file = join(dir, 'plants.json');
      writeFileSync(file, '[{"id": 1, "name": "Monstera"}, {"id": 2, "name": "Fern"}]');
      const first = await replica(url, { PLANTSTORE_PLANTS_FILE: file });
      const ids = Array.from({ length: 200 }, (_, i) => String(1000 + i));
      const answers = await Promise.all(ids.map((id) => create(first, id)));
      assert.ok(answers.every((a) => a.status === 200));
      first.child.kill('SIGKILL');
      await first.exited;
      const restarted = await replica(url, { PLANTSTORE_PLANTS_FILE: file });
      // Sent concurrently, so stored in any order.
      assert.deepEqual(
        (await storedIds(restarted)).sort(),
        ['1', '2', ...ids].sort(),
        'every plant answered 200 is there after the restart, once',
      );
      assert.equal((await create(restarted, '1000')).status, 400);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the database stopped and started under load: only 200 and 503 (with Retry-After), every 200 committed, and the servers recover', async (t) => {
    const url = await databases.fresh();
    const servers = await Promise.all([replica(url), replica(url)]);
    const answered200: string[] = [];
    const statuses = new Map<number, number>();
    const problems: string[] = [];
    let next = 1;
    let stop = false;
    // 8 clients creating fresh ids until told to stop, at most 20,000 requests in all.
    const client = async (index: number) => {
      while (!stop && next <= 20_000) {
        const id = String(next++);
        try {
          const answer = await create(servers[index % 2]!, id);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status === 200) answered200.push(id);
          else if (answer.status === 503) {
            if (answer.retryAfter === null || JSON.parse(answer.body).error !== 50302)
              problems.push(`503 without Retry-After or error 50302: ${answer.body}`);
          } else problems.push(`${answer.status} for a fresh id: ${answer.body}`);
        } catch (error) {
          problems.push(`no answer: ${(error as Error).message}`);
        }
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, i) => client(i)));
    await sleep(1000);
    const beforeOutage = answered200.length;
    await databases.cluster().stopServer();
    await sleep(1000);
    const health = await fetch(`${servers[0].url}/__health`);
    assert.equal(health.status, 503, 'the health check reports the database away');
    await databases.cluster().startServer();
    await sleep(1500);
    stop = true;
    await load;
    assert.deepEqual(problems.slice(0, 5), []);
    assert.ok(beforeOutage > 0, 'creates succeeded before the outage');
    assert.ok((statuses.get(503) ?? 0) > 0, `the outage was seen: ${JSON.stringify([...statuses])}`);
    assert.ok(answered200.length > beforeOutage, 'creates succeeded again after the database came back');
    const stored = new Set(
      (await sql<{ id: string }>(url, 'SELECT id::text AS id FROM plantstore_plants')).map((row) => row.id),
    );
    const lost = answered200.filter((id) => !stored.has(id));
    assert.deepEqual(lost, [], 'every create answered 200 is in the database');
    t.diagnostic(
      `answers: ${JSON.stringify(Object.fromEntries(statuses))}; ${answered200.length} answered 200, ${stored.size} plants stored`,
    );
    assert.equal((await fetch(`${servers[1].url}/__health`)).status, 200);
  });

  test('a database unreachable at start: exit 2, naming the URL without its password', async () => {
    const result = await runProcess({
      file: process.execPath,
      args: [ENTRY],
      env: {
        ...process.env,
        PORT: '0',
        PLANTSTORE_TOKENS: TOKEN,
        PLANTSTORE_DATABASE_URL: 'postgres://plants:hunter2@127.0.0.1:1/plants',
      },
      timeoutMs: 20_000,
      name: 'the server',
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /cannot use the database at postgres:\/\/plants:\*\*\*@127\.0\.0\.1:1\/plants/);
    assert.doesNotMatch(result.stderr + result.lines.join('\n'), /hunter2/);
  });
});
