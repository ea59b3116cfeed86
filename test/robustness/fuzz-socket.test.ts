// Fuzzing over real sockets: pipelined requests, Content-Length mismatches,
// malformed request lines and headers, odd methods, huge headers. "Never a
// dropped connection": every complete request gets a complete answer with an
// Error body (or a Plant), and the server closes what it will not read.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { StatusTally } from '../../robustness/answers.js';
import { FUZZ_BODY_LIMIT, FUZZ_SEED, FUZZ_TOKEN } from '../../robustness/requests.js';
import { wireCaseArb, wireCaseProblems } from '../../robustness/wire-requests.js';
import { exchange, rawRequest } from '../../robustness/wire.js';

const RUNS = 400;
/** Short, so the never-completing body below is answered quickly; production uses 30 s. */
const REQUEST_TIMEOUT_MS = 1000;

let app: FastifyInstance;
let port: number;

before(async () => {
  app = buildApp({ tokens: [FUZZ_TOKEN], bodyLimit: FUZZ_BODY_LIMIT, requestTimeout: REQUEST_TIMEOUT_MS });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
after(() => app.close());

test(`${RUNS} connections of pipelined, mismatched and malformed requests: every complete request answered (seed ${FUZZ_SEED})`, async () => {
  const tally = new StatusTally();
  let created = 0;
  const property = fc.asyncProperty(wireCaseArb, async (wireCase) => {
    const { problems, statuses, created: createdHere } = await wireCaseProblems(port, wireCase);
    created += createdHere;
    for (const status of statuses) tally.add(status);
    if (problems.length > 0)
      throw new Error(
        `${JSON.stringify(wireCase.bytes.toString('latin1').slice(0, 600))}:\n  ${problems.join('\n  ')}`,
      );
  });
  await fc
    .assert(property, { numRuns: RUNS, seed: FUZZ_SEED, endOnFailure: true, includeErrorInReport: true })
    .catch((error: Error) => {
      throw new Error(
        `socket fuzz failed with seed ${FUZZ_SEED} (replay with FUZZ_SEED=${FUZZ_SEED}): ${error.message}`,
      );
    });
  // Every 200 answered over the wire is a stored plant, and no plant was stored without its 200.
  assert.equal((await app.plantStore.usage()).plants, created);
  for (const status of ['200', '400', '401', '431'])
    assert.ok((tally.counts.get(status) ?? 0) > 0, `no ${status} in ${tally.toString()}`);
  console.log(`fuzz (sockets, seed ${FUZZ_SEED}): ${tally.toString()}`);
});

const auth: Array<[string, string]> = [
  ['Host', 'a'],
  ['Authorization', `Bearer ${FUZZ_TOKEN}`],
  ['Content-Type', 'application/json'],
];

function errorOf(body: string): number {
  return (JSON.parse(body) as { error: number }).error;
}

test('a body that never completes: 408 with an Error record, then the server closes', async () => {
  const bytes = rawRequest('POST /plants HTTP/1.1', [...auth, ['Content-Length', '100']], Buffer.from('{"id":1,'));
  // No half-close: the client just stops sending. The deadline only bounds the test if the server never answers.
  const result = await exchange(port, bytes, { end: false, deadlineMs: 15_000 });
  assert.ok(result.closedByServer, 'the server kept the connection open');
  assert.equal(result.responses.length, 1);
  assert.equal(result.responses[0]?.status, 408);
  assert.equal(errorOf(result.responses[0]?.body ?? ''), 40801);
});

test('headers that never complete: 408 with an Error record, then the server closes', async () => {
  const result = await exchange(port, Buffer.from('POST /plants HTTP/1.1\r\nHost: a\r\nX-Slow: a'), {
    end: false,
    deadlineMs: 15_000,
  });
  assert.ok(result.closedByServer);
  assert.equal(result.responses[0]?.status, 408);
  assert.equal(errorOf(result.responses[0]?.body ?? ''), 40801);
});

test('a body shorter than its Content-Length, then half-close: the connection ends, nothing torn', async () => {
  const bytes = rawRequest('POST /plants HTTP/1.1', [...auth, ['Content-Length', '100']], Buffer.from('{"id":1,'));
  const result = await exchange(port, bytes, { end: true });
  assert.ok(result.closedByServer);
  assert.equal(result.leftover.length, 0);
  for (const response of result.responses) assert.equal(Math.floor(errorOf(response.body) / 100), response.status);
});

test('a body longer than its Content-Length: the declared bytes are the request, the rest a malformed next one', async () => {
  const body = Buffer.from('{"id":77001,"name":"a"}GARBAGE');
  const result = await exchange(
    port,
    rawRequest('POST /plants HTTP/1.1', [...auth, ['Content-Length', String(body.length - 7)]], body),
  );
  assert.deepEqual(
    result.responses.map((r) => r.status),
    [200, 400],
  );
  assert.equal(result.responses[0]?.body, '{"name":"a"}');
  assert.equal(errorOf(result.responses[1]?.body ?? ''), 40006);
});

test('headers over 16 KiB: 431 with an Error record', async () => {
  const result = await exchange(port, rawRequest('POST /plants HTTP/1.1', [...auth, ['X-Big', 'a'.repeat(20_000)]]));
  assert.equal(result.responses[0]?.status, 431);
  assert.equal(errorOf(result.responses[0]?.body ?? ''), 43101);
});

test('an unknown method and a malformed request line: 400 with an Error record', async () => {
  for (const line of ['FOO /plants HTTP/1.1', 'POST /plants HTTP/7', 'POST']) {
    const result = await exchange(port, Buffer.from(`${line}\r\nHost: a\r\n\r\n`));
    assert.equal(result.responses[0]?.status, 400, line);
    assert.equal(errorOf(result.responses[0]?.body ?? ''), 40006, line);
  }
});

test('20 pipelined creates on one connection: 20 answers in order, each plant stored', async () => {
  const first = 88_000;
  const bytes = Buffer.concat(
    Array.from({ length: 20 }, (_, i) => {
      const body = Buffer.from(`{"id":${first + i},"name":"p${i}"}`);
      return rawRequest('POST /plants HTTP/1.1', [...auth, ['Content-Length', String(body.length)]], body);
    }),
  );
  const result = await exchange(port, bytes);
  assert.deepEqual(
    result.responses.map((r) => r.body),
    Array.from({ length: 20 }, (_, i) => `{"name":"p${i}"}`),
  );
  for (let i = 0; i < 20; i++) assert.deepEqual(await app.plantStore.get(String(first + i)), { name: `p${i}` });
});

/** Every byte the server sends for one request on a connection it closes (Connection: close), bounded by a minute. */
function rawAnswer(method: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    const deadline = setTimeout(() => socket.destroy(new Error(`${method}: no close within a minute`)), 60_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(deadline);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.end(
      rawRequest(`${method} /plants HTTP/1.1`, [
        ['Host', 'a'],
        ['Connection', 'close'],
      ]),
    );
  });
}

test('HEAD /plants on the wire: the 405 head with Allow, no content after it, and the Content-Length of the GET answer (RFC 9110 §9.3.2, §8.6)', async () => {
  const [head, get] = [await rawAnswer('HEAD'), await rawAnswer('GET')];
  const headEnd = head.indexOf('\r\n\r\n');
  const getEnd = get.indexOf('\r\n\r\n');
  assert.ok(headEnd > 0 && getEnd > 0, 'complete heads');
  assert.equal(head.slice(headEnd + 4), '', 'no content after the head of a HEAD answer');
  assert.match(head, /^HTTP\/1\.1 405 /);
  assert.match(head, /\r\nallow: POST\r\n/i);
  const length = (text: string) => /\r\ncontent-length: (\d+)\r\n/i.exec(text)?.[1];
  assert.equal(length(head), length(get), 'the Content-Length of the same answer to GET');
  assert.equal(Number(length(get)), Buffer.byteLength(get.slice(getEnd + 4), 'latin1'));
});
