// The image sends webhooks: serving the starter document (its webhook, a
// new plant added), it delivers to a receiver in this test after the create
// has stored the plant, and retries after a first 503. The container shares
// the host's network (`--network host`), so the receiver listens on the
// host's loopback and nothing is exposed beyond it; on a bridge network a
// receiver would have to listen where host.containers.internal points.
//
// Needs a Docker-compatible engine (DOCKER_HOST): `npm run test:container`.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { freePort } from '../lib/process.js';
import { engine } from './engine.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url)); // from dist/container-test/
const STARTER = readFileSync(join(ROOT, 'test', 'fixtures', 'operations', 'starter.yaml'), 'utf8');
const ADMIN = { authorization: 'Bearer hooks-admin' };

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The ids the stub's store held when the request arrived. */
  stored: string[];
}

test(
  'the image delivers the starter document’s webhook to a receiver on the host: after the commit, once, retried after a 503',
  { timeout: 15 * 60_000 },
  async () => {
    const image = `plantstore-webhooks-test:${process.pid}`;
    await GenericContainer.fromDockerfile(ROOT).build(image, { deleteOnExit: false });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const received: Received[] = [];
    const statuses = [503];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => void answer());
      const answer = async () => {
        const { plants } = (await (await fetch(`${base}/__admin/plants`, { headers: ADMIN })).json()) as {
          plants: Array<{ id: string }>;
        };
        received.push({ headers: req.headers, body, stored: plants.map(({ id }) => id) });
        res.writeHead(statuses.shift() ?? 204).end();
      };
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/plants`;
    let container: StartedTestContainer | undefined;
    try {
      container = await new GenericContainer(image)
        .withNetworkMode('host')
        .withEnvironment({
          PORT: String(port),
          HOST: '127.0.0.1',
          PLANTSTORE_SPEC: '/home/node/starter.yaml',
          PLANTSTORE_TOKENS: 'hooks-client',
          PLANTSTORE_ADMIN_TOKEN: 'hooks-admin',
          PLANTSTORE_WEBHOOK_URL: hook,
          PLANTSTORE_WEBHOOK_BACKOFF_MS: '10',
        })
        .withCopyContentToContainer([{ content: STARTER, target: '/home/node/starter.yaml', mode: 0o644 }])
        .withWaitStrategy(Wait.forLogMessage(/Server listening at/).withStartupTimeout(60_000))
        .start();
      const created = await fetch(`${base}/plants`, {
        method: 'POST',
        headers: { authorization: 'Bearer hooks-client', 'content-type': 'application/json' },
        body: '{"id": 7, "name": "Fern", "tag": "shade"}',
      });
      assert.equal(created.status, 200);
      const attempts = await settledAttempts(base);
      assert.deepEqual(
        attempts.map(({ attempt, status, outcome }) => [attempt, status, outcome]),
        [
          [1, 503, 'retry'],
          [2, 204, 'delivered'],
        ],
      );
      assert.equal(received.length, 2, 'once delivered, not sent again');
      assert.deepEqual(received[0]!.stored, ['7'], 'the plant was stored when the first attempt arrived');
      for (const { headers, body } of received) {
        assert.deepEqual(JSON.parse(body), { id: 7, name: 'Fern', tag: 'shade' });
        assert.equal(headers['content-type'], 'application/json');
        assert.equal(headers['webhook-id'], received[0]!.headers['webhook-id']);
        assert.equal(headers.authorization, undefined);
      }
    } finally {
      if (container !== undefined) {
        await container.stop({ timeout: 10_000, remove: false }).catch(() => undefined);
        await engine('DELETE', `/containers/${container.getId()}?force=true`).catch(() => undefined);
      }
      receiver.close();
      await engine('DELETE', `/images/${encodeURIComponent(image)}?force=true`).catch(() => undefined);
    }
  },
);

/** The journal's delivery attempts once none is pending (polled, bounded: a minute). */
async function settledAttempts(
  base: string,
): Promise<Array<{ attempt: number; status: number | null; outcome: string | null }>> {
  for (let i = 0; i < 600; i++) {
    const { pending } = (await (await fetch(`${base}/__admin/webhooks`, { headers: ADMIN })).json()) as {
      pending: number;
    };
    if (pending === 0) {
      const { entries } = (await (await fetch(`${base}/__admin/journal`, { headers: ADMIN })).json()) as {
        entries: Array<{ kind: string; attempt: number; status: number | null; outcome: string | null }>;
      };
      return entries.filter(({ kind }) => kind === 'delivery');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the deliveries never settled');
}
