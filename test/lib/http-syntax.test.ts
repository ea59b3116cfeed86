// lib/http-syntax.ts: RFC 9110 §8.3.1 media types and RFC 6750 §2.1 b64token.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isB64Token, mediaTypeEssence, parseChallenges, parseMediaType } from '../../lib/http-syntax.js';

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

test('WWW-Authenticate challenges (RFC 9110 §11.6.1, §11.2): schemes, auth-params, token68, several challenges', () => {
  const read = (value: string) => {
    const parsed = parseChallenges(value);
    assert.ok('challenges' in parsed, `${value}: ${'error' in parsed ? parsed.error : ''}`);
    return parsed.challenges.map((c) => ({
      scheme: c.scheme,
      params: Object.fromEntries(c.params),
      ...(c.token68 !== undefined ? { token68: c.token68 } : {}),
    }));
  };
  assert.deepEqual(read('Bearer'), [{ scheme: 'Bearer', params: {} }]);
  assert.deepEqual(read('Bearer realm="plantstore"'), [{ scheme: 'Bearer', params: { realm: 'plantstore' } }]);
  assert.deepEqual(read('Bearer realm="a, b", error="invalid_token", Basic realm=x'), [
    { scheme: 'Bearer', params: { realm: 'a, b', error: 'invalid_token' } },
    { scheme: 'Basic', params: { realm: 'x' } },
  ]);
  assert.deepEqual(read('Basic realm="x", Bearer REALM = "y" , scope="a \\"b\\""'), [
    { scheme: 'Basic', params: { realm: 'x' } },
    { scheme: 'Bearer', params: { realm: 'y', scope: 'a "b"' } },
  ]);
  assert.deepEqual(read('Negotiate abc==, Bearer'), [
    { scheme: 'Negotiate', params: {}, token68: 'abc==' },
    { scheme: 'Bearer', params: {} },
  ]);
  // "realm=" is a token68 (letters, then "=" padding), not an auth-param without a value.
  assert.deepEqual(read('Bearer realm='), [{ scheme: 'Bearer', params: {}, token68: 'realm=' }]);
  for (const bad of [
    'Bearer realm=plant store',
    'Bearer realm="open',
    '"Bearer"',
    'Bearer, , =x',
    'Bearer realm="a" error="b"',
  ]) {
    assert.ok('error' in parseChallenges(bad), bad);
  }
});
