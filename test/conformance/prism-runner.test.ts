// The Prism runner starts a mock from spec/openapi.yaml and always stops it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OPENAPI_PATH } from '../../spec/openapi.js';
import { startPrism } from '../../conformance/run/targets/prism.js';

test('startPrism serves the document on a loopback port and stop() ends it', async () => {
  const prism = await startPrism({ specPath: OPENAPI_PATH });
  const port = Number(new URL(prism.url).port);
  assert.equal(new URL(prism.url).hostname, '127.0.0.1');
  try {
    const response = await fetch(`${prism.url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ id: 1, name: 'Rose' }),
    });
    assert.equal(response.status, 200);
    assert.equal(typeof (await response.json()).name, 'string');
  } finally {
    await prism.stop();
  }
  await prism.stop(); // a second stop is harmless
  await assert.rejects(fetch(`http://127.0.0.1:${port}/plants`, { signal: AbortSignal.timeout(2000) }));
});

test('a document Prism cannot read is a clear error, and no process is left', async () => {
  await assert.rejects(
    startPrism({ specPath: 'no-such-spec.yaml', startTimeoutMs: 20_000 }),
    /Prism ended \(exit 1\) before it was ready/,
  );
});
