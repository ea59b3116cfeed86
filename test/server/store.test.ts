// State: one plant per id, kept in memory behind the PlantStore interface.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryStore } from '../../server/store.js';
import { app, assertError, post } from './support.js';

test('a second create with a stored id is 400 saying the plant exists', async () => {
  const server = app();
  assert.equal((await post(server, { id: 5, name: 'first' })).statusCode, 200);
  const error = assertError(await post(server, { id: 5, name: 'second' }), 400, 40004);
  assert.equal(error.message, 'A plant with id 5 already exists.');
  assert.deepEqual(server.plantStore.get('5'), { name: 'first' });
});

test('100 simultaneous creates of one id give exactly one 200', async () => {
  const server = app();
  const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => post(server, { id: 4242, name: `p${i}` })));
  const statuses = responses.map((r) => r.statusCode);
  assert.equal(statuses.filter((s) => s === 200).length, 1);
  assert.equal(statuses.filter((s) => s === 400).length, 99);
  assert.equal(server.plantStore.size, 1);
});

test('past the maximum number of plants a create is 507 and nothing is stored', async () => {
  const server = app({ maxPlants: 2 });
  assert.equal((await post(server, { id: 1, name: 'a' })).statusCode, 200);
  assert.equal((await post(server, { id: 2, name: 'b' })).statusCode, 200);
  assertError(await post(server, { id: 3, name: 'c' }), 507, 50701);
  // A duplicate is still a duplicate when the store is full.
  assertError(await post(server, { id: 1, name: 'a' }), 400, 40004);
  assert.equal(server.plantStore.size, 2);
});

test('the memory store lists in insertion order and clears', () => {
  const store = createMemoryStore(10);
  assert.equal(store.create('1', { name: 'a' }), 'created');
  assert.equal(store.create('-5', { name: 'b', tag: 't' }), 'created');
  assert.equal(store.create('1', { name: 'c' }), 'exists');
  assert.deepEqual(store.list(), [
    { id: '1', plant: { name: 'a' } },
    { id: '-5', plant: { name: 'b', tag: 't' } },
  ]);
  store.clear();
  assert.equal(store.size, 0);
});
