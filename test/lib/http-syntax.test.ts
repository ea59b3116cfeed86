// lib/http-syntax.ts: RFC 9110 §8.3.1 media types and RFC 6750 §2.1 b64token.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isB64Token, mediaTypeEssence, parseMediaType } from '../../lib/http-syntax.js';

test('type and subtype are case-insensitive (RFC 9110 §8.3.1)', () => {
  assert.equal(mediaTypeEssence('Application/JSON'), 'application/json');
  assert.equal(mediaTypeEssence('  application/json  '), 'application/json');
});

test('parameters: OWS around ";", names case-insensitive, quoted values unescaped, the first of a repeated name wins', () => {
  const parsed = parseMediaType('application/json ;  CharSet="UTF-8" ; x="a\\"b;c"; charset=latin1');
  assert.ok(parsed);
  assert.equal(parsed.essence, 'application/json');
  assert.equal(parsed.parameters.get('charset'), 'UTF-8');
  assert.equal(parsed.parameters.get('x'), 'a"b;c');
});

test('empty parameters and parameters without "=" are skipped', () => {
  const parsed = parseMediaType('application/json;;charset=utf-8;flag');
  assert.deepEqual([...parsed!.parameters], [['charset', 'utf-8']]);
});

test('no type/subtype: undefined', () => {
  for (const value of [undefined, '', 'json', 'application/', '/json', ';charset=utf-8']) {
    assert.equal(parseMediaType(value), undefined, String(value));
  }
});

test('b64token (RFC 6750 §2.1): letters, digits, - . _ ~ + / then any =', () => {
  for (const token of ['abc', 'A-b.c_d~e+f/g', 'abc==', 'x=']) assert.ok(isB64Token(token), token);
  for (const token of ['', '=abc', 'a b', 'a=b', 'ä', 'a,b', '@@@']) assert.ok(!isB64Token(token), token);
});

test('type and subtype must be tokens (RFC 9110 §5.6.2, §8.3.1)', () => {
  assert.equal(parseMediaType('application /json'), undefined);
  assert.equal(parseMediaType('application/json x'), undefined);
  assert.equal(parseMediaType('a/b/c'), undefined);
  assert.equal(parseMediaType('application/json ; charset=utf-8')?.essence, 'application/json');
});

test('an unterminated quoted-string parameter is passed over (RFC 9110 §5.6.4)', () => {
  assert.equal(parseMediaType('application/json; charset="utf-8')?.parameters.has('charset'), false);
  assert.equal(parseMediaType('application/json; charset="a\\"b"')?.parameters.get('charset'), 'a"b');
});
