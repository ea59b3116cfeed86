// The NewPlant schema, derived from spec/openapi.yaml, applied without coercion.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { app, assertError, freshId, post } from './support.js';

async function rejected(body: unknown, ...fragments: RegExp[]): Promise<void> {
  const error = assertError(await post(app(), body), 400, 40003);
  assert.match(error.message, /^Request body is not a valid NewPlant: /);
  for (const fragment of fragments) assert.match(error.message, fragment, `${JSON.stringify(body)} → ${error.message}`);
}

test('a body that is not an object is 400 naming the rule', async () => {
  for (const body of [[], [{ id: 1, name: 'x' }], 'a string', 42, true, null]) {
    await rejected(JSON.stringify(body), /the body must be object/);
  }
});

test('missing id or name is 400 naming the field', async () => {
  await rejected({ name: 'x' }, /\/id is required/);
  await rejected({ id: freshId() }, /\/name is required/);
  await rejected({}, /\/id is required/, /\/name is required/);
});

test('no type coercion: "7" is not an integer, 42 is not a string, true is not an integer', async () => {
  await rejected({ id: '7', name: 'x' }, /\/id must be an integer \(int64\)/);
  await rejected({ id: true, name: 'x' }, /\/id must be an integer/);
  await rejected({ id: freshId(), name: 42 }, /\/name must be string/);
  await rejected({ id: freshId(), name: 'x', tag: 42 }, /\/tag must be string/);
  await rejected({ id: freshId(), name: ['x'] }, /\/name must be string/);
  await rejected({ id: { value: 1 }, name: 'x' }, /\/id must be an integer/);
});

test('null is not a string and not an integer', async () => {
  await rejected({ id: null, name: 'x' }, /\/id must be an integer/);
  await rejected({ id: freshId(), name: null }, /\/name must be string/);
  await rejected({ id: freshId(), name: 'x', tag: null }, /\/tag must be string/);
});

test('non-integral numbers are not integers', async () => {
  await rejected(`{"id": 1.5, "name": "x"}`, /\/id must be an integer \(int64\)/);
  await rejected(`{"id": 1e-400, "name": "x"}`, /\/id must be an integer/);
  await rejected(`{"id": 1.0000000000000000001, "name": "x"}`, /\/id must be an integer/);
  await rejected(`{"id": -0.5, "name": "x"}`, /\/id must be an integer/);
});

test('every violation is named in one answer', async () => {
  await rejected({ id: 'x', name: 1, tag: false }, /\/id must be/, /\/name must be string/, /\/tag must be string/);
});
