// The memory store keys safe-integer ids by number (a memory optimisation
// from the benchmark work); every id must still name exactly one plant and
// come back out as the string it went in as.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryStore } from '../../server/store/memory-store.js';

test('number and string keys never merge two ids, and ids come back as given', { timeout: 120_000 }, () => {
  const store = createMemoryStore(100);
  const ids = [
    '5',
    '-5',
    '0',
    '9007199254740991',
    '-9007199254740991',
    '9007199254740992',
    '9007199254740993',
    '-9223372036854775808',
    '9223372036854775807',
    '007',
    '-0',
  ];
  ids.forEach((id, i) => assert.equal(store.create(id, JSON.stringify({ name: `p${i}` })), 'created', id));
  ids.forEach((id, i) => {
    assert.equal(store.create(id, '{"name":"again"}'), 'exists', id);
    assert.deepEqual(store.get(id), { name: `p${i}` }, id);
  });
  assert.equal(store.usage().plants, ids.length);
  assert.deepEqual(
    store.list(0, 100, 1e9).plants.map((entry) => entry.id),
    ids,
  );
  assert.equal(store.get('6'), undefined);
});
