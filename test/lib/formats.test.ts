// spec/formats.ts: the ranges of the OpenAPI integer formats.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INT64_MAX, INT64_MIN, integerRange } from '../../spec/formats.js';

test('int32 and int64 are signed two’s-complement ranges; other formats have none', () => {
  assert.deepEqual(integerRange('int32'), [-2147483648n, 2147483647n]);
  assert.equal(INT64_MIN, -9223372036854775808n);
  assert.equal(INT64_MAX, 9223372036854775807n);
  assert.equal(integerRange('uint8'), undefined);
  assert.equal(integerRange(undefined), undefined);
});

test('integerRange ignores names of Object.prototype', () => {
  assert.equal(integerRange('constructor'), undefined);
  assert.equal(integerRange('toString'), undefined);
});
