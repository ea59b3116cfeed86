// Helpers for the server tests: build an app and send requests with inject().
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../../server/app.js';

export const TOKEN = 'test-token';
export const AUTH = { authorization: `Bearer ${TOKEN}` };
export const JSON_TYPE = { 'content-type': 'application/json' };

export function app(options: AppOptions = {}): FastifyInstance {
  return buildApp({ tokens: [TOKEN], ...options });
}

/** POST /plants with credentials and a JSON content type unless overridden; a string body is sent as is. */
export function post(
  server: FastifyInstance,
  body: unknown,
  headers: Record<string, string | undefined> = {},
): Promise<LightMyRequestResponse> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...AUTH, ...JSON_TYPE, ...headers })) {
    if (value !== undefined) merged[name] = value;
  }
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return server.inject({
    method: 'POST',
    url: '/plants',
    headers: merged,
    ...(payload === undefined ? {} : { payload }),
  });
}

/** Asserts the answer is the specification's Error record with the given status and error number. */
export function assertError(
  response: LightMyRequestResponse,
  status: number,
  error: number,
): { error: number; message: string } {
  assert.equal(response.statusCode, status, `status: ${response.body}`);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  const body = response.json<Record<string, unknown>>();
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message']);
  assert.equal(body.error, error, `error number: ${response.body}`);
  assert.equal(typeof body.message, 'string');
  assert.ok((body.message as string).length > 0);
  return body as { error: number; message: string };
}

let nextId = 1000;
/** A fresh id for tests that only need "an id not yet stored". */
export function freshId(): number {
  return nextId++;
}
