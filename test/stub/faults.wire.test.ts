// The stub's failures on the wire that answer at once, each seen by real
// clients over a real socket: undici (the fault scheduled through the
// controls) and curl (the fault asked for with Prefer), with the error each
// one reports, and that nothing was stored. The faults that hold an answer
// (hang, dribble) are in faults.held.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { request } from 'undici';
import { FAULT_HALF, FAULT_TEXT, GARBAGE } from '../../server/stub/faults.js';
import { curl, curlCreate, curlMissing, schedule, storedIds } from './helpers.js';
import { bodyRejection, faultsJournaled, onStub, post, rejection } from './wire-clients.js';

describe('the stub’s wire faults, over a real socket', { timeout: 120_000 }, () => {
  test(
    'reset: undici fails with ECONNRESET; the journal shows the fault with no status; nothing is stored',
    { timeout: 60_000 },
    () =>
      onStub({}, async ({ app, base, agent }) => {
        await schedule(app, [{ fault: 'reset' }]);
        const error = await rejection(
          request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent }),
        );
        assert.equal(error.code, 'ECONNRESET', `${error.name}: ${error.message}`);
        assert.deepEqual(await storedIds(app), []);
        assert.deepEqual(await faultsJournaled(app), [
          { status: null, fault: { from: 'schedule', step: { fault: 'reset' } } },
        ]);
        // The schedule is spent: the next request is answered as ever.
        const next = await request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent });
        assert.equal(next.statusCode, 200);
        await next.body.dump();
        assert.deepEqual(await storedIds(app), ['1']);
      }),
  );

  test('reset: curl exits 56 (Recv failure: Connection reset by peer)', { skip: curlMissing, timeout: 60_000 }, () =>
    onStub({}, async ({ app, base }) => {
      const result = await curl(curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=reset' }));
      assert.equal(result.code, 56, result.stderr);
      assert.match(result.stderr, /Connection reset by peer/);
      assert.equal(result.stdout.length, 0);
      assert.deepEqual(await storedIds(app), []);
      assert.deepEqual(await faultsJournaled(app), [
        { status: null, fault: { from: 'prefer', step: { fault: 'reset' } } },
      ]);
    }),
  );

  test('close: undici fails with UND_ERR_SOCKET (other side closed); nothing is stored', { timeout: 60_000 }, () =>
    onStub({}, async ({ app, base, agent }) => {
      await schedule(app, [{ fault: 'close' }]);
      const error = await rejection(request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent }));
      assert.equal(error.code, 'UND_ERR_SOCKET', `${error.name}: ${error.message}`);
      assert.match(error.message, /other side closed/);
      assert.deepEqual(await storedIds(app), []);
      assert.deepEqual(await faultsJournaled(app), [
        { status: null, fault: { from: 'schedule', step: { fault: 'close' } } },
      ]);
    }),
  );

  test('close: curl exits 52 (Empty reply from server)', { skip: curlMissing, timeout: 60_000 }, () =>
    onStub({}, async ({ app, base }) => {
      const result = await curl(curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=close' }));
      assert.equal(result.code, 52, result.stderr);
      assert.match(result.stderr, /Empty reply from server/);
      assert.deepEqual(await storedIds(app), []);
    }),
  );

  test(
    'close-mid-body: undici gets the 200 headers, then reading the body fails with UND_ERR_SOCKET; nothing is stored',
    { timeout: 60_000 },
    () =>
      onStub({}, async ({ app, base, agent }) => {
        await schedule(app, [{ fault: 'close-mid-body' }]);
        const { status, error } = await bodyRejection(
          request(`${base}/plants`, { ...post({ id: 1, name: 'Fern' }), dispatcher: agent }),
        );
        assert.equal(status, 200);
        assert.equal(error.code, 'UND_ERR_SOCKET', `${error.name}: ${error.message}`);
        assert.deepEqual(await storedIds(app), []);
        assert.deepEqual(await faultsJournaled(app), [
          { status: 200, fault: { from: 'schedule', step: { fault: 'close-mid-body' } } },
        ]);
      }),
  );

  test(
    'close-mid-body: curl exits 18 (transfer closed with bytes remaining), having received the first half',
    { skip: curlMissing, timeout: 60_000 },
    () =>
      onStub({}, async ({ app, base }) => {
        const result = await curl(curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=close-mid-body' }));
        assert.equal(result.code, 18, result.stderr);
        assert.match(
          result.stderr,
          new RegExp(`transfer closed with ${FAULT_TEXT.length - FAULT_HALF.length} bytes remaining to read`),
        );
        assert.deepEqual(result.stdout, FAULT_HALF);
        assert.deepEqual(await storedIds(app), []);
      }),
  );

  test(
    'garbage: undici gets a 200 whose body, exactly its Content-Length, is not JSON; nothing is stored',
    { timeout: 60_000 },
    () =>
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
        assert.deepEqual(await faultsJournaled(app), [
          { status: 200, fault: { from: 'schedule', step: { fault: 'garbage' } } },
        ]);
      }),
  );

  test(
    'garbage: curl exits 0 with the 64 bytes (the transfer is whole; only the JSON is wrong)',
    { skip: curlMissing, timeout: 60_000 },
    () =>
      onStub({}, async ({ app, base }) => {
        const result = await curl([
          ...curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=garbage' }),
          '--fail',
        ]);
        assert.equal(result.code, 0, result.stderr);
        assert.deepEqual(result.stdout, GARBAGE);
        assert.deepEqual(await storedIds(app), []);
      }),
  );

  test(
    'truncated: undici gets a 200 whose body, exactly its Content-Length, is JSON cut short; nothing is stored',
    { timeout: 60_000 },
    () =>
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
      }),
  );

  test('truncated: curl exits 0 with the half of the JSON text', { skip: curlMissing, timeout: 60_000 }, () =>
    onStub({}, async ({ app, base }) => {
      const result = await curl([
        ...curlCreate(base, { id: 1, name: 'Fern' }, { prefer: 'fault=truncated' }),
        '--fail',
        '-i',
      ]);
      assert.equal(result.code, 0, result.stderr);
      const text = result.stdout.toString('utf8');
      assert.match(text, /^HTTP\/1\.1 200 /);
      assert.match(text, /^preference-applied: fault=truncated\r$/m);
      assert.ok(text.endsWith(`\r\n\r\n${FAULT_HALF.toString('utf8')}`));
      assert.deepEqual(await storedIds(app), []);
    }),
  );
});
