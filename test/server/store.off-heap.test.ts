// The in-memory store's plants outside the V8 heap: PlantTexts gives every
// text back exactly, whatever its script and length; PlantIds finds every id
// it holds and no other. clear() drops everything.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PlantIds, type PlantKey } from '../../server/store/plant-ids.js';
import { PlantTexts } from '../../server/store/plant-texts.js';

test('texts come back exactly: latin1 and UTF-16, lone surrogates, every length from empty to past a shared buffer', () => {
  const texts = new PlantTexts();
  const samples = [
    '',
    'Monstera',
    'ünïcödé ÿ',
    'emoji 🌱',
    'lone \ud800 and \udfff',
    'x'.repeat(100_000),
    'y'.repeat(300_000),
    '語'.repeat(140_000),
    'z'.repeat(70_000),
  ];
  // Many small texts between the long ones, so that shared buffers fill and new ones start.
  const all = Array.from({ length: 30_000 }, (_, i) =>
    i % 3000 === 0
      ? samples[(i / 3000) % samples.length]!
      : `plant ${i} ${i % 7 === 0 ? 'ö' : ''}${i % 11 === 0 ? '🌵' : ''}`,
  );
  const indexes = all.map((text) => texts.add(text));
  assert.deepEqual(
    indexes,
    all.map((_, i) => i),
    'indexes count up from 0',
  );
  for (const [i, text] of all.entries()) assert.equal(texts.text(i), text, `text ${i}`);
  texts.clear();
  assert.equal(texts.add('after clear'), 0);
  assert.equal(texts.text(0), 'after clear');
});

test('PlantIds: every id found again, none found that was not stored, listed back in the order stored, across rehashes and both kinds of key', () => {
  const ids = new PlantIds();
  // Ids that count up, share their low 32 bits, are negative, sit near 2^53, and ids kept as text (beyond 2^53).
  const numbers = [
    ...Array.from({ length: 5000 }, (_, i) => i),
    ...Array.from({ length: 2000 }, (_, i) => (i + 1) * 2 ** 32),
    ...Array.from({ length: 2000 }, (_, i) => -(i + 1) * 977),
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
  ];
  const texts = ['9007199254740993', '-9223372036854775808', '9223372036854775807', '-0'];
  const keys: PlantKey[] = numbers.flatMap((n, i) =>
    i % 1000 === 0 && texts[i / 1000] !== undefined ? [n, texts[i / 1000]!] : [n],
  );
  for (const [index, key] of keys.entries()) {
    assert.equal(ids.find(key), undefined, `${key} not yet stored`);
    assert.equal(ids.add(key), index);
  }
  assert.equal(ids.size, keys.length);
  for (const [index, key] of keys.entries()) {
    assert.equal(ids.find(key), index, `find ${key}`);
    assert.equal(ids.keyAt(index), key, `keyAt ${index}`);
  }
  for (const absent of [5000, 2 ** 32 + 1, -978, 1.5, '9007199254740995', '0'])
    assert.equal(ids.find(absent), undefined, `${absent} was never stored`);
  ids.clear();
  assert.equal(ids.size, 0);
  assert.equal(ids.find(0), undefined);
  assert.equal(ids.add(7), 0);
});

test('PlantIds.remove: the id is found no more, every other still is (linear probing closes the gap), and its index stays handed out, marked', () => {
  const ids = new PlantIds();
  // Ids that collide (same low bits) and sit next to each other in the table, and ids kept as text.
  const keys: PlantKey[] = [
    ...Array.from({ length: 3000 }, (_, i) => (i % 2 === 0 ? i : i * 2 ** 32)),
    '9007199254740993',
    '-9223372036854775808',
  ];
  for (const key of keys) ids.add(key);
  const removed = new Set<PlantKey>();
  keys.forEach((key, index) => {
    if (index % 3 === 0) {
      ids.remove(key, index);
      removed.add(key);
    }
  });
  assert.equal(ids.size, keys.length - removed.size);
  assert.equal(ids.length, keys.length);
  keys.forEach((key, index) => {
    assert.equal(ids.find(key), removed.has(key) ? undefined : index, `find ${key}`);
    assert.equal(ids.holds(index), !removed.has(key));
    assert.equal(ids.keyAt(index), removed.has(key) ? undefined : key);
  });
  assert.equal(ids.add(0), keys.length, 'a removed id added again gets a new index');
  assert.equal(ids.find(0), keys.length);
});

test('PlantTexts: replace writes over a text that fits and anew one that does not, remove leaves dead bytes, compacted copies the live texts byte for byte', () => {
  const texts = new PlantTexts();
  const originals = ['Monstera', 'ünïcödé', 'emoji 🌱', 'x'.repeat(400_000), 'short'];
  for (const text of originals) texts.add(text);
  texts.replace(0, 'Fern'); // shorter, latin1: in place
  assert.equal(texts.text(0), 'Fern');
  assert.equal(texts.deadBytes, 'Monstera'.length - 'Fern'.length);
  texts.replace(1, 'ж'); // another encoding: anew
  assert.equal(texts.text(1), 'ж');
  assert.equal(texts.deadBytes, 4 + 'ünïcödé'.length);
  texts.replace(4, 'a longer text than before');
  texts.remove(3);
  assert.equal(texts.deadBytes, 4 + 'ünïcödé'.length + 'short'.length + 400_000);
  assert.equal(texts.text(2), 'emoji 🌱');
  const compacted = texts.compacted((index) => index !== 3);
  assert.deepEqual(
    [0, 1, 2, 3].map((index) => compacted.text(index)),
    ['Fern', 'ж', 'emoji 🌱', 'a longer text than before'],
  );
  assert.deepEqual(
    [0, 1, 2, 3].map((index) => compacted.bytesAt(index)),
    [4, 2, 2 * 'emoji 🌱'.length, 25],
  );
  assert.equal(compacted.deadBytes, 0);
  assert.equal(compacted.add('next'), 4);
});
