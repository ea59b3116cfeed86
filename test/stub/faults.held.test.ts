// The stub's faults that hold an answer, seen by real clients over a real
// socket: a hang (no answer until the client gives up, the cap passes or the
// server closes) and a dribble (an answer a few bytes at a time). No timing
// is asserted: a hang ends by the client's own abort, a dribble is judged by
// its bytes and chunk boundaries.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { request } from 'undici';
import { MAX_HOLD_MS } from '../../server/limits.js';
import { DRIBBLE_RETRY_AFTER_SECONDS, DRIBBLE_TEXT } from '../../server/stub/faults.js';
import type { Sleep } from '../../server/stub/index.js';
import { curl, curlCreate, curlMissing, journalEntries, schedule, storedIds, stubApp } from './helpers.js';
import {
  chunksOf,
  eventually,
  faultsJournaled,
  JSON_AUTH,
  onStub,
  post,
  rawExchange,
  rejection,
} from './wire-clients.js';

describe('the stub’s faults that hold an answer (hang, dribble), over a real socket', { timeout: 120_000 }, () => {
  test(
    'hang: undici gives up by its own abort; the server answers others meanwhile, then takes the held place back; nothing is stored',
    { timeout: 60_000 },
    () =>
      onStub({ stub: { maxWaiting: 1 } }, async ({ app, base, agent }) => {
        await schedule(app, [{ fault: 'hang' }]);
        const controller = new AbortController();
        const hung = rejection(
          request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent, signal: controller.signal }),
        );
        await eventually('the hang is journaled', async () => (await journalEntries(app)).length === 1);
        // The only place for a held answer is taken: a request that would wait is answered 503 at once.
        const busy = await request(
          `${base}/plants`,
          post({ id: 2, name: 'Fern' }, { headers: { prefer: 'delay=1' }, dispatcher: agent }),
        );
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
          const res = await request(
            `${base}/plants`,
            post({ id: 4, name: 'Moss' }, { headers: { prefer: 'delay=1' }, dispatcher: agent }),
          );
          await res.body.dump();
          return res.statusCode === 200;
        });
        assert.deepEqual(await storedIds(app), ['3', '4'], 'the hung request stored nothing');
        assert.deepEqual((await faultsJournaled(app))[0], {
          status: null,
          fault: { from: 'schedule', step: { fault: 'hang' } },
        });
        // The client gave up on the hang: its entry says so.
        assert.equal((await journalEntries(app))[0]!.abandoned, true);
      }),
  );

  test(
    'hang: curl gives up at its --max-time with exit 28 (Operation timed out)',
    { skip: curlMissing, timeout: 60_000 },
    () =>
      onStub({}, async ({ app, base }) => {
        const result = await curl([
          ...curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=hang' }),
          '--max-time',
          '1',
        ]);
        assert.equal(result.code, 28, result.stderr);
        assert.match(result.stderr, /Operation timed out .* 0 bytes received/);
        assert.deepEqual(await storedIds(app), []);
      }),
  );

  test(
    'hang: app.close() with a hang held ends it (the client sees the connection closed, unanswered)',
    { timeout: 60_000 },
    () =>
      onStub({}, async ({ app, base, agent }) => {
        await schedule(app, [{ fault: 'hang' }]);
        const hung = rejection(request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent }));
        await eventually('the hang is journaled', async () => (await journalEntries(app)).length === 1);
        await app.close(); // the file's timeout fails this test by name if the hang held the close
        const error = await hung;
        assert.equal(error.code, 'UND_ERR_SOCKET', `${error.name}: ${error.message}`);
        assert.deepEqual((await app.plantStore.list(0, 1000, 1e9)).plants, []);
      }),
  );

  test(
    'hang: past its cap (MAX_HOLD_MS, here a sleep that ends at once) the connection is closed unanswered',
    { timeout: 60_000 },
    () => {
      const asked: number[] = [];
      const sleep: Sleep = async (ms) => void asked.push(ms);
      return onStub({ stub: { sleep } }, async ({ app, base, agent }) => {
        await schedule(app, [{ fault: 'hang' }]);
        const error = await rejection(
          request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent }),
        );
        assert.equal(error.code, 'UND_ERR_SOCKET', `${error.name}: ${error.message}`);
        assert.deepEqual(asked, [MAX_HOLD_MS]);
        assert.deepEqual(await storedIds(app), []);
      });
    },
  );

  test(
    'dribble: the answer comes in chunks of exactly `bytes` bytes (the last one shorter), a whole 503 Error record with Retry-After; nothing is stored',
    { timeout: 60_000 },
    () =>
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
          Array.from({ length: Math.ceil(DRIBBLE_TEXT.length / 7) }, (_, i) =>
            Math.min(7, DRIBBLE_TEXT.length - 7 * i),
          ),
        );
        assert.deepEqual(JSON.parse(DRIBBLE_TEXT.toString('utf8')).error, 50303);
        assert.deepEqual(await storedIds(app), []);
        assert.deepEqual(await faultsJournaled(app), [
          { status: 503, fault: { from: 'schedule', step: { fault: 'dribble', bytes: 7, intervalMs: 1 } } },
        ]);
      }),
  );

  test(
    'dribble: undici reads the first chunk and gives up by its own abort; the server lets go and closes at once',
    { timeout: 60_000 },
    () =>
      onStub({ stub: { maxWaiting: 1 } }, async ({ app, base, agent }) => {
        // The next chunk is due in 10 s: the client aborts long before.
        await schedule(app, [{ fault: 'dribble', bytes: 5, intervalMs: 10_000 }]);
        const controller = new AbortController();
        const res = await request(`${base}/plants`, {
          ...post({ id: 1, name: 'Fern' }),
          dispatcher: agent,
          signal: controller.signal,
        });
        assert.equal(res.statusCode, 503);
        const chunks = res.body[Symbol.asyncIterator]();
        const first = await chunks.next();
        assert.deepEqual(first.value, DRIBBLE_TEXT.subarray(0, 5));
        controller.abort();
        const error = await rejection(chunks.next());
        assert.equal(error.name, 'AbortError', `${error.name}: ${error.message}`);
        await eventually('the dribble’s held place is free again', async () => {
          const next = await request(
            `${base}/plants`,
            post({ id: 2, name: 'Fern' }, { headers: { prefer: 'delay=1' }, dispatcher: agent }),
          );
          await next.body.dump();
          return next.statusCode === 200;
        });
        assert.deepEqual(await storedIds(app), ['2']);
      }),
  );

  test(
    'without a socket (app.inject): reset, close and close-mid-body fail the injected request, naming the fault; a hang ends when the app closes',
    { timeout: 60_000 },
    async () => {
      const app = stubApp();
      for (const fault of ['reset', 'close', 'close-mid-body']) {
        const error = await rejection(
          app.inject({
            method: 'POST',
            url: '/plants',
            headers: { ...JSON_AUTH, prefer: `fault=${fault}` },
            payload: '{"id": 1, "name": "Fern"}',
          }),
        );
        assert.match(
          error.message,
          new RegExp(
            `^the stub's fault ${fault}: the connection (was reset|closed) \\(app\\.inject\\(\\) has no socket to fail\\)$`,
          ),
        );
      }
      const hung = rejection(
        app.inject({
          method: 'POST',
          url: '/plants',
          headers: { ...JSON_AUTH, prefer: 'fault=hang' },
          payload: '{"id": 1, "name": "Fern"}',
        }),
      );
      await eventually('the hang is journaled', async () => (await journalEntries(app)).length === 4);
      await app.close();
      assert.match((await hung).message, /fault hang/);
      assert.deepEqual((await app.plantStore.list(0, 1000, 1e9)).plants, []);
    },
  );

  test(
    'dribble: curl --raw shows the chunk boundaries; the body is the whole Error record',
    { skip: curlMissing, timeout: 60_000 },
    () =>
      onStub({}, async ({ app, base }) => {
        const result = await curl([
          ...curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=dribble, bytes=9, interval=1' }),
          '--raw',
        ]);
        assert.equal(result.code, 0, result.stderr);
        const chunks = chunksOf(result.stdout);
        assert.deepEqual(Buffer.concat(chunks), DRIBBLE_TEXT);
        assert.ok(
          chunks.length > 1 && chunks.slice(0, -1).every((chunk) => chunk.length === 9) && chunks.at(-1)!.length <= 9,
        );
        const failed = await curl([
          ...curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=dribble, bytes=9, interval=1' }),
          '--fail',
        ]);
        assert.equal(failed.code, 22, 'with --fail, curl reports the 503 (exit 22)');
        assert.deepEqual(await storedIds(app), []);
      }),
  );
});
