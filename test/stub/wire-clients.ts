// What the wire fault tests share (faults.wire.test.ts, faults.held.test.ts):
// a stub listening on loopback for one test, requests through undici, the
// failures clients report, and raw captures of what went over the socket.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Agent, type Dispatcher } from 'undici';
import type { AppOptions } from '../../server/app.js';
import { journalEntries, listening, stubApp, TOKEN } from './helpers.js';

export const JSON_AUTH = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

export function post(
  plant: unknown,
  extra: { headers?: Record<string, string>; dispatcher?: Dispatcher; signal?: AbortSignal } = {},
) {
  const { headers, ...rest } = extra;
  return { method: 'POST' as const, headers: { ...JSON_AUTH, ...headers }, body: JSON.stringify(plant), ...rest };
}

export interface RunningStub {
  app: FastifyInstance;
  base: string;
  /** An undici agent of the test's own (closed after it). */
  agent: Agent;
}

/** Runs `test` against a stub listening on loopback, then closes it (and the agent) whatever happens. */
export async function onStub(options: AppOptions, test: (stub: RunningStub) => Promise<void>): Promise<void> {
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
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new assert.AssertionError({ message: 'expected the client to fail, but it succeeded' });
}

/** A request whose answer headers arrive, then its body (read whole): the error of reading it. */
export async function bodyRejection(
  answer: Promise<Dispatcher.ResponseData>,
): Promise<{ status: number; error: Error & { code?: string } }> {
  const res = await answer;
  return { status: res.statusCode, error: await rejection(res.body.arrayBuffer()) };
}

/** Polls `condition` (bounded by a minute, which a loaded machine does not reach): for states the server reaches on its own, such as a request being held. */
export async function eventually(what: string, condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 2400; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`never happened: ${what}`);
}

/** A chunked body's chunks, as framed on the wire (RFC 9112 §7.1), from a raw capture of one answer. */
export function chunksOf(raw: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    assert.ok(lineEnd !== -1, 'a chunk size line');
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    assert.ok(Number.isInteger(size), `a chunk size at byte ${at}`);
    if (size === 0) return chunks;
    chunks.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    assert.equal(
      raw.subarray(lineEnd + 2 + size, lineEnd + 4 + size).toString('latin1'),
      '\r\n',
      'a chunk ends with CRLF',
    );
    at = lineEnd + 4 + size;
  }
}

/** One request on a fresh connection with `Connection: close`, and every byte the server sent until it closed. */
export function rawExchange(base: string, body: string, headers: Record<string, string>): Promise<Buffer> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (data) => received.push(data));
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(received)));
    const lines = Object.entries({
      ...JSON_AUTH,
      ...headers,
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    }).map(([n, v]) => `${n}: ${v}\r\n`);
    socket.write(`POST /plants HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('')}\r\n${body}`);
  });
}

/** Every journal entry's status and fault. */
export async function faultsJournaled(app: Parameters<typeof journalEntries>[0]) {
  return (await journalEntries(app)).map(({ status, fault }) => ({ status, fault }));
}
