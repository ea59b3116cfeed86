// The webhooks through the real entry point (what npm start and the image
// run): a bad setting stops the start naming the variable, and SIGTERM does
// not wait on a receiver that never answers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runProcess } from '../../lib/process.js';
import { ENTRY, startEntry } from '../support/entry.js';
import { STARTER, useReceivers } from './helpers.js';

const receiver = useReceivers();

describe('webhooks at start and at SIGTERM', { timeout: 120_000 }, () => {
  test('a receiver that is not an http(s) URL stops the start with exit 2, naming the variable', async () => {
    const ran = await runProcess({
      file: process.execPath,
      args: [ENTRY],
      env: { PORT: '0', PLANTSTORE_SPEC: STARTER, PLANTSTORE_WEBHOOK_URL: 'file:///etc/passwd' },
      timeoutMs: 30_000,
      name: 'the server',
    });
    assert.equal(ran.code, 2);
    assert.match(
      ran.stderr,
      /^plantstore: PLANTSTORE_WEBHOOK_URL: a receiver is an http:\/\/ or https:\/\/ URL, got the scheme "file"/m,
    );
  });

  test('SIGTERM with a delivery held by its receiver: dropped after PLANTSTORE_WEBHOOK_SHUTDOWN_MS and logged; the server exits 0', async () => {
    const hook = await receiver({ hold: true });
    const server = await startEntry({
      PLANTSTORE_SPEC: STARTER,
      PLANTSTORE_TOKENS: 't',
      PLANTSTORE_WEBHOOK_URL: hook.url,
      PLANTSTORE_WEBHOOK_SHUTDOWN_MS: '50',
    });
    try {
      const created = await fetch(`${server.url}/plants`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: '{"id": 1, "name": "Fern"}',
      });
      assert.equal(created.status, 200, 'answered while the receiver holds the delivery');
      await hook.until(1);
      server.child.kill('SIGTERM');
      assert.equal((await server.exited).code, 0);
      assert.ok(
        server.lines.some((line) =>
          line.includes('webhook: closing: 1 deliveries still pending after 50 ms were dropped'),
        ),
        server.lines.join('\n'),
      );
    } finally {
      await server.stop();
    }
  });
});
