// parseExact (conformance/model/json.ts) keeps the texts it parsed last: the
// same answer is graded by a dozen checks. What it returns is what a fresh
// parse returns, frozen so that no reader changes what the next one reads,
// and what it keeps is bounded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Numeral, parseExact } from '../../conformance/model/json.js';

test('the same text gives the same value, frozen to the leaves, numbers kept as written', () => {
  const text = '{"id": 9223372036854775807, "price": 5.0, "tags": ["a", {"n": 1e400}]}';
  const first = parseExact(text);
  const again = parseExact(`${text}`);
  assert.ok(first.ok && again.ok);
  assert.equal(again.value, first.value, 'the kept value');
  const value = first.value as { id: Numeral; price: Numeral; tags: [string, { n: Numeral }] };
  assert.deepEqual([value.id.text, value.price.text, value.tags[1].n.text], ['9223372036854775807', '5.0', '1e400']);
  assert.ok(Object.isFrozen(value) && Object.isFrozen(value.tags) && Object.isFrozen(value.tags[1]));
  assert.throws(() => {
    (value as unknown as Record<string, unknown>).id = 1;
  }, TypeError);
  assert.throws(() => (value.tags as unknown as string[]).push('b'), TypeError);
});

test('a text that is not JSON is refused each time', () => {
  for (let attempt = 0; attempt < 2; attempt++) assert.deepEqual(parseExact('{"a": 01}'), { ok: false });
});

test('what is kept is bounded: after 512 other texts the first is parsed anew, and a text over 2 MiB is never kept', () => {
  const first = parseExact('{"bounded": 1}');
  for (let i = 0; i < 512; i++) parseExact(`[${i}]`);
  const later = parseExact('{"bounded": 1}');
  assert.ok(first.ok && later.ok);
  assert.notEqual(later.value, first.value);
  assert.deepEqual(later.value, first.value);

  const large = `[${' '.repeat(2 * 1024 * 1024)}1]`;
  const a = parseExact(large);
  const b = parseExact(large);
  assert.ok(a.ok && b.ok);
  assert.notEqual(a.value, b.value);
  assert.ok(Object.isFrozen(a.value), 'frozen all the same');
});
