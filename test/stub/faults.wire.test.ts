// The stub's failures on the wire, each seen by real clients over a real
// socket: undici (the fault scheduled through the controls) and curl (the
// fault asked for with Prefer), with the error each one reports, and that
// nothing was stored. No timing is asserted: a hang ends by the client's own
// abort, a dribble is judged by its bytes and chunk boundaries.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Agent, request, type Dispatcher } from 'undici';
import type { AppOptions } from '../../server/app.js';
import { MAX_HOLD_MS } from '../../server/limits.js';
import { DRIBBLE_RETRY_AFTER_SECONDS, DRIBBLE_TEXT, FAULT_HALF, FAULT_TEXT, GARBAGE } from '../../server/stub/faults.js';
import type { Sleep } from '../../server/stub/index.js';
import { curl, curlCreate, curlMissing, journalEntries, listening, schedule, storedIds, stubApp, TOKEN } from './helpers.js';

const JSON_AUTH = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

function post(plant: unknown, extra: { headers?: Record<string, string>; dispatcher?: Dispatcher; signal?: AbortSignal } = {}) {
  const { headers, ...rest } = extra;
  return { method: 'POST' as const, headers: { ...JSON_AUTH, ...headers }, body: JSON.stringify(plant), ...rest };
}

interface RunningStub {
  app: FastifyInstance;
  base: string;
  /** An undici agent of the test's own (closed after it). */
  agent: Agent;
}

/** Runs `test` against a stub listening on loopback, then closes it (and the agent) whatever happens. */
async function onStub(options: AppOptions, test: (stub: RunningStub) => Promise<void>): Promise<void> {
  const app = stubApp(options);
  const base = await listening(app);
  const agent = new Agent();
  try {
    await test({ app, base, agent });
  } finally {
    await agent.close();
    if (app.server.listening) await app.close();
  }
}

/** What a promise rejects with (it must reject). */
async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new assert.AssertionError({ message: 'expected the client to fail, but it succeeded' });
}

/** A request whose answer headers arrive, then its body (read whole): the error of reading it. */
async function bodyRejection(answer: Promise<Dispatcher.ResponseData>): Promise<{ status: number; error: Error & { code?: string } }> {
  const res = await answer;
  return { status: res.statusCode, error: await rejection(res.body.arrayBuffer()) };
}

/** Polls `condition` (bounded by a minute, which a loaded machine does not reach): for states the server reaches on its own, such as a request being held. */
async function eventually(what: string, condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 2400; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`never happened: ${what}`);
}

/** A chunked body's chunks, as framed on the wire (RFC 9112 §7.1), from a raw capture of one answer. */
function chunksOf(raw: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    assert.ok(lineEnd !== -1, 'a chunk size line');
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    assert.ok(Number.isInteger(size), `a chunk size at byte ${at}`);
    if (size === 0) return chunks;
    chunks.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    assert.equal(raw.subarray(lineEnd + 2 + size, lineEnd + 4 + size).toString('latin1'), '\r\n', 'a chunk ends with CRLF');
    at = lineEnd + 4 + size;
  }
}

/** One request on a fresh connection with `Connection: close`, and every byte the server sent until it closed. */
function rawExchange(base: string, body: string, headers: Record<string, string>): Promise<Buffer> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (data) => received.push(data));
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(received)));
    const lines = Object.entries({ ...JSON_AUTH, ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' }).map(([n, v]) => `${n}: ${v}\r\n`);
    socket.write(`POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('')}\r\n${body}`);
  });
}

/** Every journal entry's status and fault. */
async function faultsJournaled(app: Parameters<typeof journalEntries>[0]) {
  return (await journalEntries(app)).map(({ status, fault }) => ({ status, fault }));
}

describe('the stub’s wire faults, over a real socket', { timeout: 120_000 }, () => {
  test('reset: undici fails with ECONNRESET; the journal shows the fault with no status; nothing is stored', { timeout: 60_000 }, () =>
    onStub({}, async ({ app, base, agent }) => {
      await schedule(app, [{ fault: 'reset' }]);
      const error = await rejection(request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent }));
      assert.equal(error.code, 'ECONNRESET', `${error.name}: ${error.message}`);
      assert.deepEqual(await storedIds(app), []);
      assert.deepEqual(await faultsJournaled(app), [{ status: null, fault: { from: 'schedule', step: { fault: 'reset' } } }]);
      // The schedule is spent: the next request is answered as ever.
      const next = await request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent });
      assert.equal(next.statusCode, 200);
      await next.body.dump();
      assert.deepEqual(await storedIds(app), ['1']);
    }));

  test('reset: curl exits 56 (Recv failure: Connection reset by peer)', { skip: curlMissing, timeout: 60_000 }, () =>
    onStub({}, async ({ app, base }) => {
      const result = await curl(curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=reset' }));
      assert.equal(result.code, 56, result.stderr);
      assert.match(result.stderr, /Connection reset by peer/);
      assert.equal(result.stdout.length, 0);
      assert.deepEqual(await storedIds(app), []);
      assert.deepEqual(await faultsJournaled(app), [{ status: null, fault: { from: 'prefer', step: { fault: 'reset' } } }]);
    }));

  test('close: undici fails with UND_ERR_SOCKET (other side closed); nothing is stored', { timeout: 60_000 }, () =>
    onStub({}, async ({ app, base, agent }) => {
      await schedule(app, [{ fault: 'close' }]);
      const error = await rejection(request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent }));
      assert.equal(error.code, 'UND_ERR_SOCKET', `${error.name}: ${error.message}`);
      assert.match(error.message, /other side closed/);
      assert.deepEqual(await storedIds(app), []);
      assert.deepEqual(await faultsJournaled(app), [{ status: null, fault: { from: 'schedule', step: { fault: 'close' } } }]);
    }));

  test('close: curl exits 52 (Empty reply from server)', { skip: curlMissing, timeout: 60_000 }, () =>
    onStub({}, async ({ app, base }) => {
      const result = await curl(curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=close' }));
      assert.equal(result.code, 52, result.stderr);
      assert.match(result.stderr, /Empty reply from server/);
      assert.deepEqual(await storedIds(app), []);
    }));

  test('close-mid-body: undici gets the 200 headers, then reading the body fails with UND_ERR_SOCKET; nothing is stored', { timeout: 60_000 }, () =>
    onStub({}, async ({ app, base, agent }) => {
      await schedule(app, [{ fault: 'close-mid-body' }]);
      const { status, error } = await bodyRejection(request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent }));
      assert.equal(status, 200);
      assert.equal(error.code, 'UND_ERR_SOCKET', `${error.name}: ${error.message}`);
      assert.deepEqual(await storedIds(app), []);
      assert.deepEqual(await faultsJournaled(app), [{ status: 200, fault: { from: 'schedule', step: { fault: 'close-mid-body' } } }]);
    }));

  test('close-mid-body: curl exits 18 (transfer closed with bytes remaining), having received the first half', { skip: curlMissing, timeout: 60_000 }, () =>
    onStub({}, async ({ app, base }) => {
      const result = await curl(curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=close-mid-body' }));
      assert.equal(result.code, 18, result.stderr);
      assert.match(result.stderr, new RegExp(`transfer closed with ${FAULT_TEXT.length - FAULT_HALF.length} bytes remaining to read`));
      assert.deepEqual(result.stdout, FAULT_HALF);
      assert.deepEqual(await storedIds(app), []);
    }));

  test('garbage: undici gets a 200 whose body, exactly its Content-Length, is not JSON; nothing is stored', { timeout: 60_000 }, () =>
    onStub({}, async ({ app, base, agent }) => {
      await schedule(app, [{ fault: 'garbage' }]);
      const res = await request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-length'], String(GARBAGE.length));
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const bytes = Buffer.from(await res.body.arrayBuffer());
      assert.deepEqual(bytes, GARBAGE);
      assert.throws(() => JSON.parse(bytes.toString('utf8')), SyntaxError);
      assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes), TypeError, 'not even UTF-8');
      assert.deepEqual(await storedIds(app), []);
      assert.deepEqual(await faultsJournaled(app), [{ status: 200, fault: { from: 'schedule', step: { fault: 'garbage' } } }]);
    }));

  test('garbage: curl exits 0 with the 64 bytes (the transfer is whole; only the JSON is wrong)', { skip: curlMissing, timeout: 60_000 }, () =>
    onStub({}, async ({ app, base }) => {
      const result = await curl([...curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=garbage' }), '--fail']);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(result.stdout, GARBAGE);
      assert.deepEqual(await storedIds(app), []);
    }));

  test('truncated: undici gets a 200 whose body, exactly its Content-Length, is JSON cut short; nothing is stored', { timeout: 60_000 }, () =>
    onStub({}, async ({ app, base, agent }) => {
      await schedule(app, [{ fault: 'truncated' }]);
      const res = await request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-length'], String(FAULT_HALF.length));
      const text = await res.body.text();
      assert.equal(text, FAULT_HALF.toString('utf8'));
      assert.ok(FAULT_TEXT.toString('utf8').startsWith(text) && text.length < FAULT_TEXT.length);
      assert.throws(() => JSON.parse(text), SyntaxError);
      assert.deepEqual(await storedIds(app), []);
    }));

  test('truncated: curl exits 0 with the half of the JSON text', { skip: curlMissing, timeout: 60_000 }, () =>
    onStub({}, async ({ app, base }) => {
      const result = await curl([...curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=truncated' }), '--fail', '-i']);
      assert.equal(result.code, 0, result.stderr);
      const text = result.stdout.toString('utf8');
      assert.match(text, /^HTTP\/1\.1 200 /);
      assert.match(text, /^preference-applied: fault=truncated\r$/m);
      assert.ok(text.endsWith(`\r\n\r\n${FAULT_HALF.toString('utf8')}`));
      assert.deepEqual(await storedIds(app), []);
    }));

  test('hang: undici gives up by its own abort; the server answers others meanwhile, then takes the held place back; nothing is stored', { timeout: 60_000 }, () =>
    onStub({ stub: { maxWaiting: 1 } }, async ({ app, base, agent }) => {
      await schedule(app, [{ fault: 'hang' }]);
      const controller = new AbortController();
      const hung = rejection(request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent, signal: controller.signal }));
      await eventually('the hang is journaled', async () => (await journalEntries(app)).length === 1);
      // The only place for a held answer is taken: a request that would wait is answered 503 at once.
      const busy = await request(`${base}/plants`, post({ id: 2, name: 'Fern' }, { headers: { prefer: 'delay=1' }, dispatcher: agent }));
      assert.equal(busy.statusCode, 503);
      assert.equal(((await busy.body.json()) as { error: number }).error, 50301);
      const other = await request(`${base}/plants`, post({ id: 3, name: 'Ivy' }, { dispatcher: agent }));
      assert.equal(other.statusCode, 200, 'other requests are answered while one hangs');
      await other.body.dump();
      controller.abort();
      const error = await hung;
      assert.equal(error.name, 'AbortError', `${error.name}: ${error.message}`);
      // The client's connection closed: the held place is free again.
      await eventually('a held place is free again', async () => {
        const res = await request(`${base}/plants`, post({ id: 4, name: 'Moss' }, { headers: { prefer: 'delay=1' }, dispatcher: agent }));
        await res.body.dump();
        return res.statusCode === 200;
      });
      assert.deepEqual(await storedIds(app), ['3', '4'], 'the hung request stored nothing');
      assert.deepEqual((await faultsJournaled(app))[0], { status: null, fault: { from: 'schedule', step: { fault: 'hang' } } });
    }));

  test('hang: curl gives up at its --max-time with exit 28 (Operation timed out)', { skip: curlMissing, timeout: 60_000 }, () =>
    onStub({}, async ({ app, base }) => {
      const result = await curl([...curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=hang' }), '--max-time', '1']);
      assert.equal(result.code, 28, result.stderr);
      assert.match(result.stderr, /Operation timed out .* 0 bytes received/);
      assert.deepEqual(await storedIds(app), []);
    }));

  test('hang: app.close() with a hang held ends it (the client sees the connection closed, unanswered)', { timeout: 60_000 }, () =>
    onStub({}, async ({ app, base, agent }) => {
      await schedule(app, [{ fault: 'hang' }]);
      const hung = rejection(request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent }));
      await eventually('the hang is journaled', async () => (await journalEntries(app)).length === 1);
      await app.close(); // the file's timeout fails this test by name if the hang held the close
      const error = await hung;
      assert.equal(error.code, 'UND_ERR_SOCKET', `${error.name}: ${error.message}`);
      assert.deepEqual((await app.plantStore.list(0, 1000, 1e9)).plants, []);
    }));

  test('hang: past its cap (MAX_HOLD_MS, here a sleep that ends at once) the connection is closed unanswered', { timeout: 60_000 }, () => {
    const asked: number[] = [];
    const sleep: Sleep = async (ms) => void asked.push(ms);
    return onStub({ stub: { sleep } }, async ({ app, base, agent }) => {
      await schedule(app, [{ fault: 'hang' }]);
      const error = await rejection(request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent }));
      assert.equal(error.code, 'UND_ERR_SOCKET', `${error.name}: ${error.message}`);
      assert.deepEqual(asked, [MAX_HOLD_MS]);
      assert.deepEqual(await storedIds(app), []);
    });
  });

  test('dribble: the answer comes in chunks of exactly `bytes` bytes (the last one shorter), a whole 503 Error record with Retry-After; nothing is stored', { timeout: 60_000 }, () =>
    onStub({}, async ({ app, base }) => {
      await schedule(app, [{ fault: 'dribble', bytes: 7, intervalMs: 1 }]);
      const raw = await rawExchange(base, '{"id": 1, "name": "Fern"}', {});
      const headerEnd = raw.indexOf('\r\n\r\n');
      const head = raw.subarray(0, headerEnd).toString('latin1');
      assert.match(head, /^HTTP\/1\.1 503 /);
      assert.match(head, /\r\ntransfer-encoding: chunked/i);
      assert.match(head, new RegExp(`\\r\\nretry-after: ${DRIBBLE_RETRY_AFTER_SECONDS}\\r\\n`, 'i'));
      const chunks = chunksOf(raw.subarray(headerEnd + 4));
      assert.deepEqual(Buffer.concat(chunks), DRIBBLE_TEXT);
      assert.deepEqual(
        chunks.map((chunk) => chunk.length),
        Array.from({ length: Math.ceil(DRIBBLE_TEXT.length / 7) }, (_, i) => Math.min(7, DRIBBLE_TEXT.length - 7 * i)),
      );
      assert.deepEqual(JSON.parse(DRIBBLE_TEXT.toString('utf8')).error, 50303);
      assert.deepEqual(await storedIds(app), []);
      assert.deepEqual(await faultsJournaled(app), [{ status: 503, fault: { from: 'schedule', step: { fault: 'dribble', bytes: 7, intervalMs: 1 } } }]);
    }));

  test('dribble: undici reads the first chunk and gives up by its own abort; the server lets go and closes at once', { timeout: 60_000 }, () =>
    onStub({ stub: { maxWaiting: 1 } }, async ({ app, base, agent }) => {
      // The next chunk is due in 10 s: the client aborts long before.
      await schedule(app, [{ fault: 'dribble', bytes: 5, intervalMs: 10_000 }]);
      const controller = new AbortController();
      const res = await request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent, signal: controller.signal });
      assert.equal(res.statusCode, 503);
      const chunks = res.body[Symbol.asyncIterator]();
      const first = await chunks.next();
      assert.deepEqual(first.value, DRIBBLE_TEXT.subarray(0, 5));
      controller.abort();
      const error = await rejection(chunks.next());
      assert.equal(error.name, 'AbortError', `${error.name}: ${error.message}`);
      await eventually('the dribble’s held place is free again', async () => {
        const next = await request(`${base}/plants`, post({ id: 2, name: 'Fern' }, { headers: { prefer: 'delay=1' }, dispatcher: agent }));
        await next.body.dump();
        return next.statusCode === 200;
      });
      assert.deepEqual(await storedIds(app), ['2']);
    }));

  test('without a socket (app.inject): reset, close and close-mid-body fail the injected request, naming the fault; a hang ends when the app closes', { timeout: 60_000 }, async () => {
    const app = stubApp();
    for (const fault of ['reset', 'close', 'close-mid-body']) {
      const error = await rejection(app.inject({ method: 'POST', url: '/plants', headers: { ...JSON_AUTH, prefer: `fault=${fault}` }, payload: '{"id": 1, "name": "Fern"}' }));
      assert.match(error.message, new RegExp(`^the stub's fault ${fault}: the connection (was reset|closed) \\(app\\.inject\\(\\) has no socket to fail\\)$`));
    }
    const hung = rejection(app.inject({ method: 'POST', url: '/plants', headers: { ...JSON_AUTH, prefer: 'fault=hang' }, payload: '{"id": 1, "name": "Fern"}' }));
    await eventually('the hang is journaled', async () => (await journalEntries(app)).length === 4);
    await app.close();
    assert.match((await hung).message, /fault hang/);
    assert.deepEqual((await app.plantStore.list(0, 1000, 1e9)).plants, []);
  });

  test('dribble: curl --raw shows the chunk boundaries; the body is the whole Error record', { skip: curlMissing, timeout: 60_000 }, () =>
    onStub({}, async ({ app, base }) => {
      const result = await curl([...curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=dribble, bytes=9, interval=1' }), '--raw']);
      assert.equal(result.code, 0, result.stderr);
      const chunks = chunksOf(result.stdout);
      assert.deepEqual(Buffer.concat(chunks), DRIBBLE_TEXT);
      assert.ok(chunks.length > 1 && chunks.slice(0, -1).every((chunk) => chunk.length === 9) && chunks.at(-1)!.length <= 9);
      const failed = await curl([...curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=dribble, bytes=9, interval=1' }), '--fail']);
      assert.equal(failed.code, 22, 'with --fail, curl reports the 503 (exit 22)');
      assert.deepEqual(await storedIds(app), []);
    }));
});
