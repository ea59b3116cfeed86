// The fault lost-answer: the plant is stored, then the answer is lost (the
// connection reset, no byte of it sent), as when a server or a proxy fails
// after the commit. A client's retry then meets the duplicate: here got's
// and undici's own retries, configured to retry a POST, each see the 400 of
// the duplicate, and the plant is stored once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import got, { HTTPError } from 'got';
import { Agent, interceptors, request } from 'undici';
import { ERRORS } from '../../server/http/errors.js';
import { fixturePath } from '../support/fixtures.js';
import { journalEntries, JSON_AUTH, listening, schedule, storedIds, stubApp } from './helpers.js';

const PLANT = { id: 7, name: 'Fern', tag: 'shade' };
const LOST_STEP = { fault: 'lost-answer' };

/** Every journal entry's status and fault. */
async function journaled(app: FastifyInstance) {
  return (await journalEntries(app)).map(({ status, fault }) => ({ status, fault }));
}

/** The app listening on loopback for the test, closed after it whatever happens. */
async function onStub(test: (app: FastifyInstance, base: string) => Promise<void>): Promise<void> {
  const app = stubApp();
  const base = await listening(app);
  try {
    await test(app, base);
  } finally {
    await app.close();
  }
}

describe('the fault lost-answer', { timeout: 120_000 }, () => {
  test('Prefer: fault=lost-answer: the plant is stored, the client sees a reset; the same request again meets the duplicate', () =>
    onStub(async (app, base) => {
      const agent = new Agent();
      try {
        const send = () =>
          request(`${base}/plants`, {
            method: 'POST',
            headers: { ...JSON_AUTH, prefer: 'fault=lost-answer' },
            body: JSON.stringify(PLANT),
            dispatcher: agent,
          });
        const error = await send().then(
          () => assert.fail('the answer was delivered'),
          (reason: Error & { code?: string }) => reason,
        );
        assert.equal(error.code, 'ECONNRESET', `${error.name}: ${error.message}`);
        assert.deepEqual(await storedIds(app), ['7'], 'stored before the answer was lost');
        // The retry carries the same Prefer: it stores nothing, so nothing is lost, and its 400 is answered.
        const again = await send();
        assert.equal(again.statusCode, 400);
        assert.equal(((await again.body.json()) as { error: number }).error, ERRORS.DUPLICATE_ID.error);
        assert.equal(
          again.headers['preference-applied'],
          undefined,
          'the lost-answer was not applied to the answer sent',
        );
        const fault = { from: 'prefer', step: LOST_STEP };
        assert.deepEqual(await journaled(app), [
          { status: null, fault },
          { status: 400, fault },
        ]);
      } finally {
        await agent.close();
      }
    }));

  test('a request that stores nothing (not a NewPlant) is answered as ever, and its scheduled step is spent', () =>
    onStub(async (app, base) => {
      await schedule(app, [LOST_STEP]);
      const res = await request(`${base}/plants`, {
        method: 'POST',
        headers: JSON_AUTH,
        body: JSON.stringify({ id: 1 }),
      });
      assert.equal(res.statusCode, 400);
      await res.body.dump();
      assert.deepEqual(await storedIds(app), []);
      assert.deepEqual(await journaled(app), [{ status: 400, fault: { from: 'schedule', step: LOST_STEP } }]);
      const next = await request(`${base}/plants`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify(PLANT) });
      assert.equal(next.statusCode, 200);
      await next.body.dump();
    }));

  test("got's retry (POST allowed): the retry meets the duplicate's 400; the plant is stored once", () =>
    onStub(async (app, base) => {
      await schedule(app, [LOST_STEP]);
      const retries: string[] = [];
      const error = await got
        .post(`${base}/plants`, {
          headers: JSON_AUTH,
          body: JSON.stringify(PLANT),
          // got retries no POST by default (it is not idempotent): a client that retries one must expect its duplicate.
          retry: { limit: 2, methods: ['POST'], backoffLimit: 10 },
          hooks: { beforeRetry: [(failure) => void retries.push(failure.code)] },
        })
        .then(
          () => assert.fail('got reported success'),
          (reason: unknown) => reason,
        );
      assert.deepEqual(retries, ['ECONNRESET'], 'one retry, after the reset');
      assert.ok(error instanceof HTTPError, String(error));
      assert.equal(error.response.statusCode, 400);
      assert.equal((JSON.parse(String(error.response.body)) as { error: number }).error, ERRORS.DUPLICATE_ID.error);
      assert.deepEqual(await storedIds(app), ['7']);
      assert.deepEqual(await journaled(app), [
        { status: null, fault: { from: 'schedule', step: LOST_STEP } },
        { status: 400, fault: null },
      ]);
    }));

  test("undici's retry interceptor (POST allowed): the retry meets the duplicate's 400; the plant is stored once", () =>
    onStub(async (app, base) => {
      await schedule(app, [LOST_STEP]);
      // Its defaults retry ECONNRESET, on the methods named: POST is not among them unless named.
      const agent = new Agent().compose(interceptors.retry({ maxRetries: 2, minTimeout: 10, methods: ['POST'] }));
      try {
        const res = await request(`${base}/plants`, {
          method: 'POST',
          headers: JSON_AUTH,
          body: JSON.stringify(PLANT),
          dispatcher: agent,
        });
        assert.equal(res.statusCode, 400);
        assert.equal(((await res.body.json()) as { error: number }).error, ERRORS.DUPLICATE_ID.error);
      } finally {
        await agent.close();
      }
      assert.deepEqual(await storedIds(app), ['7']);
      assert.deepEqual(await journaled(app), [
        { status: null, fault: { from: 'schedule', step: LOST_STEP } },
        { status: 400, fault: null },
      ]);
    }));

  test('on another operation (DELETE of starter.yaml): the plant is deleted and the answer lost; the retry meets the 404', async () => {
    const app = stubApp({ specPath: fixturePath('operations/starter.yaml') });
    const base = await listening(app);
    try {
      const created = await request(`${base}/plants`, {
        method: 'POST',
        headers: JSON_AUTH,
        body: JSON.stringify(PLANT),
      });
      assert.equal(created.statusCode, 200);
      await created.body.dump();
      await schedule(app, [LOST_STEP]);
      const remove = () =>
        request(`${base}/plants/7`, { method: 'DELETE', headers: { authorization: JSON_AUTH.authorization } });
      const error = await remove().then(
        () => assert.fail('the answer was delivered'),
        (reason: Error & { code?: string }) => reason,
      );
      assert.equal(error.code, 'ECONNRESET', `${error.name}: ${error.message}`);
      assert.deepEqual(await storedIds(app), [], 'deleted before the answer was lost');
      const again = await remove();
      assert.equal(again.statusCode, 404);
      await again.body.dump();
      assert.deepEqual((await journaled(app)).slice(1), [
        { status: null, fault: { from: 'schedule', step: LOST_STEP } },
        { status: 404, fault: null },
      ]);
    } finally {
      await app.close();
    }
  });

  test('without a socket (app.inject): the injected request fails naming the fault, and the plant is stored', async () => {
    const app = stubApp();
    try {
      const error = await app
        .inject({
          method: 'POST',
          url: '/plants',
          headers: { ...JSON_AUTH, prefer: 'fault=lost-answer' },
          payload: JSON.stringify(PLANT),
        })
        .then(
          () => assert.fail('the answer was delivered'),
          (reason: Error) => reason,
        );
      assert.match(
        error.message,
        /^the stub's fault lost-answer: the connection was reset \(app\.inject\(\) has no socket to fail\)$/,
      );
      assert.deepEqual(await storedIds(app), ['7']);
    } finally {
      await app.close();
    }
  });
});
