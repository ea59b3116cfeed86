import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Agent, request } from 'undici';
import { startEntry } from '../support/entry.js';

/** Polls the journal (for up to a minute, which a loaded machine does not reach) until it holds a request: then that request is in flight. */
async function untilJournaled(url: string, agent: Agent): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const journal = await request(`${url}/__admin/journal`, { dispatcher: agent });
    if (((await journal.body.json()) as { total: number }).total > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail('the request never reached the server');
}

// A keep-alive connection whose request is in flight when SIGTERM arrives
// must not hold the exit until the client lets go of the connection.
test(
  'SIGTERM with a keep-alive request in flight: the request is answered and the server exits 0',
  { timeout: 120_000 },
  async () => {
    const agent = new Agent({ keepAliveTimeout: 120_000, keepAliveMaxTimeout: 120_000 });
    const { child, url, exited } = await startEntry({
      LOG_LEVEL: 'info',
      PLANTSTORE_TOKENS: 't',
      PLANTSTORE_DELAY_MS: '60000',
    });
    try {
      const answer = request(`${url}/plants`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: '{"id": 1, "name": "Fern"}',
      });
      // The journal records the request before its delay: then it is in flight.
      await untilJournaled(url, agent);
      child.kill('SIGTERM');
      const res = await answer;
      assert.equal(res.statusCode, 200);
      assert.deepEqual(await res.body.json(), { name: 'Fern' });
      assert.equal((await exited).code, 0);
    } finally {
      child.kill('SIGKILL');
      await agent.close();
    }
  },
);

// A hang holds its answer until the client gives up: SIGTERM must not wait for that.
test(
  'SIGTERM with a hang fault held: the connection is closed unanswered and the server exits 0',
  { timeout: 120_000 },
  async () => {
    const agent = new Agent();
    const { child, url, exited } = await startEntry({ LOG_LEVEL: 'info', PLANTSTORE_TOKENS: 't' });
    try {
      const hung = request(`${url}/plants`, {
        method: 'POST',
        dispatcher: agent,
        headers: { authorization: 'Bearer t', 'content-type': 'application/json', prefer: 'fault=hang' },
        body: '{"id": 1, "name": "Fern"}',
      }).then(
        () => assert.fail('a hang is never answered'),
        (error: Error & { code?: string }) => error,
      );
      await untilJournaled(url, agent);
      child.kill('SIGTERM');
      assert.equal((await hung).code, 'UND_ERR_SOCKET');
      assert.equal((await exited).code, 0);
    } finally {
      child.kill('SIGKILL');
      await agent.close();
    }
  },
);
