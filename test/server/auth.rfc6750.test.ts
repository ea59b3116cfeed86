// Bearer authentication: RFC 6750 and RFC 9110 §11.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { app, assertError, freshId, post, TOKEN } from './support.js';

const CHALLENGE = 'Bearer realm="plantstore"';
const INVALID_TOKEN = 'Bearer realm="plantstore", error="invalid_token"';

test('no Authorization header: 401, a Bearer challenge, an Error body', async () => {
  const response = await post(app(), { id: freshId(), name: 'x' }, { authorization: undefined });
  assertError(response, 401, 40101);
  assert.equal(response.headers['www-authenticate'], CHALLENGE);
});

test('the body is not read without credentials: a malformed or oversized body still gets 401', async () => {
  const server = app({ bodyLimit: 10 });
  assertError(await post(server, '{not json', { authorization: undefined }), 401, 40101);
  assertError(await post(server, 'x'.repeat(100), { authorization: undefined }), 401, 40101);
  assertError(await post(server, '{}', { authorization: undefined, 'content-type': 'text/plain' }), 401, 40101);
});

test('another scheme: 401 with a challenge and no error code (RFC 6750 §3.1)', async () => {
  for (const authorization of ['Basic dXNlcjpwYXNz', `Token ${TOKEN}`, `Bearer${TOKEN}`, 'Digest username="a"']) {
    const response = await post(app(), { id: freshId(), name: 'x' }, { authorization });
    assertError(response, 401, 40102);
    assert.equal(response.headers['www-authenticate'], CHALLENGE, authorization);
  }
});

test('Bearer with an empty or malformed token: 401 invalid_token', async () => {
  for (const authorization of [
    'Bearer',
    'Bearer ',
    `Bearer:${TOKEN}`,
    `Bearer\t${TOKEN}`,
    'Bearer a b',
    'Bearer tok@en',
    'Bearer =abc',
    'Bearer ab=c',
    'Bearer ünï',
  ]) {
    const response = await post(app({ tokens: undefined }), { id: freshId(), name: 'x' }, { authorization });
    assertError(response, 401, 40103);
    assert.equal(response.headers['www-authenticate'], INVALID_TOKEN, authorization);
  }
});

test('the b64token syntax of RFC 6750 §2.1 is accepted in full', async () => {
  const token = 'AZaz09-._~+/==';
  const response = await post(
    app({ tokens: [token] }),
    { id: freshId(), name: 'x' },
    { authorization: `Bearer ${token}` },
  );
  assert.equal(response.statusCode, 200);
});

test('the scheme is case-insensitive (RFC 9110 §11.1), and 1*SP may separate it from the token', async () => {
  const server = app();
  for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
    const response = await post(server, { id: freshId(), name: 'x' }, { authorization: `${scheme} ${TOKEN}` });
    assert.equal(response.statusCode, 200, scheme);
  }
  const spaced = await post(server, { id: freshId(), name: 'x' }, { authorization: `Bearer   ${TOKEN}` });
  assert.equal(spaced.statusCode, 200);
});

test('with accepted tokens configured, any other token is refused with invalid_token', async () => {
  const server = app({ tokens: ['alpha', 'beta'] });
  for (const token of ['gamma', 'alph', 'alphaa', 'ALPHA', 'beta=']) {
    const response = await post(server, { id: freshId(), name: 'x' }, { authorization: `Bearer ${token}` });
    assertError(response, 401, 40104);
    assert.equal(response.headers['www-authenticate'], INVALID_TOKEN);
  }
  for (const token of ['alpha', 'beta']) {
    const response = await post(server, { id: freshId(), name: 'x' }, { authorization: `Bearer ${token}` });
    assert.equal(response.statusCode, 200, token);
  }
});

test('without configured tokens, any well-formed token is accepted', async () => {
  const response = await post(
    app({ tokens: undefined }),
    { id: freshId(), name: 'x' },
    { authorization: 'Bearer anything.at-all' },
  );
  assert.equal(response.statusCode, 200);
});
