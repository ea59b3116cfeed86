// State: one plant per id, kept in memory behind the PlantStore interface.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PLANT_OVERHEAD_BYTES } from '../../server/limits.js';
import { plantBytes, plantFromJson, plantJson } from '../../server/store/store.js';
import { app, assertError, post } from './support.js';

test('a second create with a stored id is 400 saying the plant exists', { timeout: 60_000 }, async () => {
  const server = app();
  assert.equal((await post(server, { id: 5, name: 'first' })).statusCode, 200);
  const error = assertError(await post(server, { id: 5, name: 'second' }), 400, 40004);
  assert.equal(error.message, 'A plant with id 5 already exists.');
  assert.deepEqual(await server.plantStore.get('5'), { name: 'first' });
});

test('100 simultaneous creates of one id give exactly one 200', { timeout: 60_000 }, async () => {
  const server = app();
  const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => post(server, { id: 4242, name: `p${i}` })));
  const statuses = responses.map((r) => r.statusCode);
  assert.equal(statuses.filter((s) => s === 200).length, 1);
  assert.equal(statuses.filter((s) => s === 400).length, 99);
  assert.equal((await server.plantStore.usage()).plants, 1);
});

test('past the maximum number of plants a create is 507 and nothing is stored', { timeout: 60_000 }, async () => {
  const server = app({ maxPlants: 2 });
  assert.equal((await post(server, { id: 1, name: 'a' })).statusCode, 200);
  assert.equal((await post(server, { id: 2, name: 'b' })).statusCode, 200);
  assertError(await post(server, { id: 3, name: 'c' }), 507, 50701);
  // A duplicate is still a duplicate when the store is full.
  assertError(await post(server, { id: 1, name: 'a' }), 400, 40004);
  assert.equal((await server.plantStore.usage()).plants, 2);
});

test(
  'past the byte budget a create is 507 and nothing is stored; plantBytes counts the stored text, the id and the overhead',
  { timeout: 60_000 },
  async () => {
    const fern = plantBytes('1', '{"name":"Fern"}');
    assert.equal(fern, PLANT_OVERHEAD_BYTES + '1'.length + '{"name":"Fern"}'.length);
    assert.equal(plantBytes('-12', '{"name":"Ivy","tag":"climber"}'), PLANT_OVERHEAD_BYTES + 3 + 30);
    const server = app({ maxBytes: 2 * fern });
    assert.equal((await post(server, { id: 1, name: 'Fern' })).statusCode, 200);
    // The second plant is one character too many for what is left.
    assertError(await post(server, { id: 2, name: 'Ferns' }), 507, 50701);
    assert.equal((await post(server, { id: 2, name: 'Fern' })).statusCode, 200, 'one that fits exactly is stored');
    assertError(await post(server, { id: 3, name: '' }), 507, 50701);
    assert.equal((await server.plantStore.usage()).plants, 2);
    assert.equal((await server.plantStore.usage()).bytes, 2 * fern);
    // A long name costs what it holds: the count cap alone would let it in.
    const roomy = app({ maxPlants: 1000, maxBytes: 64 * 1024 });
    assertError(await post(roomy, { id: 1, name: 'x'.repeat(70 * 1024) }), 507, 50701);
    assert.equal((await roomy.plantStore.usage()).plants, 0);
  },
);

test(
  'the byte budget counts what the store keeps: an escaped control character as the 6 characters of its escape, a text past U+00FF as 2 bytes a code unit',
  { timeout: 60_000 },
  async () => {
    const server = app();
    const sent: Array<[number, string, number]> = [
      [1, 'plain', '{"name":"plain"}'.length],
      [2, '\u0001'.repeat(1000), '{"name":""}'.length + 6 * 1000],
      [3, '\u0436'.repeat(1000), 2 * ('{"name":""}'.length + 1000)],
      [4, '\u0436\u0001'.repeat(500), 2 * ('{"name":""}'.length + 500 + 6 * 500)],
    ];
    let before = 0;
    for (const [id, name, kept] of sent) {
      assert.equal((await post(server, { id, name })).statusCode, 200);
      const { bytes } = await server.plantStore.usage();
      assert.equal(bytes - before, PLANT_OVERHEAD_BYTES + String(id).length + kept, `plant ${id}`);
      before = bytes;
    }
    // A budget of 32 KiB holds five plants of 1,000 control characters (6 KB each), not sixteen.
    const small = app({ maxBytes: 32 * 1024 });
    let stored = 0;
    while ((await post(small, { id: stored + 1, name: '\u0001'.repeat(1000) })).statusCode === 200) stored++;
    assert.equal(stored, 5);
  },
);

test(
  'a stored plant is the JSON text of its answer, every character of any script kept, int64 digits too (memory per plant: test/robustness/memory.test.ts)',
  { timeout: 60_000 },
  async () => {
    const server = app();
    const name = 'a name long enough to be a slice';
    const answer = await post(
      server,
      `{"id":1,"name":${JSON.stringify(name)},"tag":"a tag long enough too","notes":"${'n'.repeat(1000)}"}`,
    );
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.body, JSON.stringify({ name, tag: 'a tag long enough too' }), 'the answer is the stored text');
    assert.deepEqual(await server.plantStore.get('1'), { name, tag: 'a tag long enough too' });
    for (const text of [
      name,
      'ünïcödé',
      'emoji 🌱 and a lone surrogate \ud800!',
      '',
      'nul \u0000 and 1234567890123456789 digits',
      '__proto__',
    ]) {
      assert.deepEqual(
        plantFromJson(plantJson({ name: text, tag: text })),
        { name: text, tag: text },
        'read back equal, character for character',
      );
    }
    // A field an evolved document makes an integer: a bigint keeps its digits, where JSON.stringify would throw.
    const big = { name: 'n', tag: 9223372036854775807n as unknown as string };
    assert.equal(plantJson(big), '{"name":"n","tag":9223372036854775807}');
    assert.deepEqual(plantFromJson(plantJson(big)), big);
    const proto = plantFromJson('{"name":"n","__proto__":{"x":1234567890123456789}}') as unknown as Record<
      string,
      unknown
    >;
    assert.equal(Object.getPrototypeOf(proto), Object.prototype, 'a member named __proto__ stays a member');
    assert.deepEqual(Object.keys(proto), ['name', '__proto__']);
  },
);
