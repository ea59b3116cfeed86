// Rule 1 of the specification: a valid NewPlant is answered 200 with a Plant.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { app, freshId, post } from './support.js';

test('a valid NewPlant with a tag is answered 200 with exactly the name and tag sent', async () => {
  const server = app();
  const response = await post(server, { id: freshId(), name: 'Monstera', tag: 'tropical' });
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  assert.deepEqual(response.json(), { name: 'Monstera', tag: 'tropical' });
});

test('without a tag the Plant has no tag key at all', async () => {
  const response = await post(app(), { id: freshId(), name: 'Fern' });
  assert.equal(response.statusCode, 200);
  assert.equal(response.body, '{"name":"Fern"}');
});

test('the id is not echoed and properties the schema does not name are dropped', async () => {
  const response = await post(app(), { id: freshId(), name: 'Cactus', colour: 'green', nested: { a: [1, 2] } });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), { name: 'Cactus' });
});

test('empty, long and non-ASCII names and tags are kept exactly', async () => {
  const server = app();
  for (const name of ['', 'x'.repeat(10_000), 'Ficus 🌿 ÿ 日本 \u0000 "quoted" \\ / \u2028']) {
    const response = await post(server, { id: freshId(), name, tag: name });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { name, tag: name });
  }
});

test('escaped characters in strings are decoded (RFC 8259 §7)', async () => {
  const response = await post(app(), `{"id": ${freshId()}, "name": "a\\u00e9\\ud83c\\udf3f\\n\\t\\/"}`);
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), { name: 'aé🌿\n\t/' });
});

test('__proto__ and constructor are plain property names: nothing is polluted', async () => {
  const server = app();
  const body = `{"id": ${freshId()}, "name": "Aloe", "__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}`;
  const response = await post(server, body);
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), { name: 'Aloe' });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  // A __proto__ holding a name must not stand in for the required name.
  const tricked = await post(server, `{"id": ${freshId()}, "__proto__": {"name": "Aloe"}}`);
  assert.equal(tricked.statusCode, 400);
});

test('the stored plant is what was sent', async () => {
  const server = app();
  await post(server, { id: 77, name: 'Palm', tag: 'indoor', extra: 1 });
  assert.deepEqual(await server.plantStore.get('77'), { name: 'Palm', tag: 'indoor' });
});
