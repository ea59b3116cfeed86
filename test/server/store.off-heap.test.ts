// The in-memory store's plants outside the V8 heap: PlantTexts gives every
// text back exactly, whatever its script and length; PlantIds finds every id
// it holds and no other. clear() drops everything.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PlantIds, type PlantKey } from '../../server/plant-ids.js';
import { PlantTexts } from '../../server/plant-texts.js';

test('texts come back exactly: latin1 and UTF-16, lone surrogates, every length from empty to past a shared buffer', () => {
  const texts = new PlantTexts();
  const samples = ['', 'Monstera', 'ünïcödé ÿ', 'emoji 🌱', 'lone \ud800 and \udfff', 'x'.repeat(100_000), 'y'.repeat(300_000), '語'.repeat(140_000), 'z'.repeat(70_000)];
  // Many small texts between the long ones, so that shared buffers fill and new ones start.
  const all = Array.from({ length: 30_000 }, (_, i) => (i % 3000 === 0 ? samples[(i / 3000) % samples.length]! : `plant ${i} ${i % 7 === 0 ? 'ö' : ''}${i % 11 === 0 ? '🌵' : ''}`));
  const indexes = all.map((text) => texts.add(text));
  assert.deepEqual(indexes, all.map((_, i) => i), 'indexes count up from 0');
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
  const keys: PlantKey[] = numbers.flatMap((n, i) => (i % 1000 === 0 && texts[i / 1000] !== undefined ? [n, texts[i / 1000]!] : [n]));
  for (const [index, key] of keys.entries()) {
    assert.equal(ids.find(key), undefined, `${key} not yet stored`);
    assert.equal(ids.add(key), index);
  }
  assert.equal(ids.size, keys.length);
  for (const [index, key] of keys.entries()) {
    assert.equal(ids.find(key), index, `find ${key}`);
    assert.equal(ids.keyAt(index), key, `keyAt ${index}`);
  }
  for (const absent of [5000, 2 ** 32 + 1, -978, 1.5, '9007199254740995', '0']) assert.equal(ids.find(absent), undefined, `${absent} was never stored`);
  ids.clear();
  assert.equal(ids.size, 0);
  assert.equal(ids.find(0), undefined);
  assert.equal(ids.add(7), 0);
});
