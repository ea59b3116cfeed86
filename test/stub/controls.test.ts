// The stub's controls: off (404, Prefer ignored), on without a token and
// with one, and the stored plants (listed with exact ids, reset, stored from
// a list all or nothing). The delay has a file of its own (delay.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../../server/app.js';
import { plantBytes } from '../../server/store/store.js';
import { AUTH, createPlant, stubApp, TOKEN } from './helpers.js';

test(
  'controls off: every /__admin path is an unknown resource (404) and Prefer is ignored',
  { timeout: 60_000 },
  async () => {
    for (const app of [buildApp({ tokens: [TOKEN] }), buildApp({ tokens: [TOKEN], stub: { controls: false } })]) {
      for (const [method, url] of [
        ['GET', '/__admin/plants'],
        ['DELETE', '/__admin/plants'],
        ['GET', '/__admin/journal'],
        ['PUT', '/__admin/delay'],
      ] as const) {
        const res = await app.inject({ method, url });
        assert.equal(res.statusCode, 404, `${method} ${url}`);
        assert.equal(res.json().error, 40401);
      }
      const res = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: 'code=400' });
      assert.equal(res.statusCode, 200, 'without the controls the server is the plain reference');
      assert.deepEqual(res.json(), { name: 'Fern' });
    }
  },
);

test('controls on without a token: answered without credentials', { timeout: 60_000 }, async () => {
  const app = stubApp();
  const res = await app.inject({ method: 'GET', url: '/__admin/plants' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { plants: [], next: null });
});

test(
  'controls token: the controls answer 401 without it or with another token, 200 with it',
  { timeout: 60_000 },
  async () => {
    const app = stubApp({ stub: { controlsToken: 'admin-secret' } });
    const missing = await app.inject({ method: 'GET', url: '/__admin/journal' });
    assert.equal(missing.statusCode, 401);
    assert.equal(missing.json().error, 40101);
    assert.match(String(missing.headers['www-authenticate']), /^Bearer realm=/);
    // The API's client token is not the controls token.
    const wrong = await app.inject({ method: 'GET', url: '/__admin/journal', headers: AUTH });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().error, 40104);
    const reset = await app.inject({ method: 'DELETE', url: '/__admin/plants', headers: AUTH });
    assert.equal(reset.statusCode, 401, 'a reset without the controls token changes nothing');
    const ok = await app.inject({
      method: 'GET',
      url: '/__admin/journal',
      headers: { authorization: 'Bearer admin-secret' },
    });
    assert.equal(ok.statusCode, 200);
    // The controls token does not open the API when PLANTSTORE_TOKENS is set.
    const api = await createPlant(app, { id: 1, name: 'Fern' }, { authorization: 'Bearer admin-secret' });
    assert.equal(api.statusCode, 401);
  },
);

test(
  'plants: listed with exact int64 ids as strings, reset, and stored from an array',
  { timeout: 60_000 },
  async () => {
    const app = stubApp();
    assert.equal((await createPlant(app, { id: 1, name: 'Monstera', tag: 'tropical' })).statusCode, 200);
    const big = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { ...AUTH, 'content-type': 'application/json' },
      payload: '{"id": 9223372036854775807, "name": "Max"}',
    });
    assert.equal(big.statusCode, 200);
    const list = await app.inject({ method: 'GET', url: '/__admin/plants' });
    assert.match(String(list.headers['content-type']), /^application\/json/);
    assert.deepEqual(list.json(), {
      plants: [
        { id: '1', name: 'Monstera', tag: 'tropical' },
        { id: '9223372036854775807', name: 'Max' },
      ],
      next: null,
    });

    const reset = await app.inject({ method: 'DELETE', url: '/__admin/plants' });
    assert.deepEqual(reset.json(), { deleted: 2 });
    assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/plants' })).json(), { plants: [], next: null });
    // After a reset the same id can be created again.
    assert.equal((await createPlant(app, { id: 1, name: 'Monstera' })).statusCode, 200);

    const add = await app.inject({
      method: 'POST',
      url: '/__admin/plants',
      headers: { 'content-type': 'application/json' },
      payload: '[{"id": 2, "name": "Fern"}, {"id": -9223372036854775808, "name": "Min", "tag": "t"}]',
    });
    assert.equal(add.statusCode, 200);
    assert.deepEqual(add.json(), { created: 2 });
    const ids = (await app.inject({ method: 'GET', url: '/__admin/plants' }))
      .json()
      .plants.map((p: { id: string }) => p.id);
    assert.deepEqual(ids, ['1', '2', '-9223372036854775808']);
    // The API sees stored plants as taken.
    assert.equal((await createPlant(app, { id: 2, name: 'Again' })).json().error, 40004);
  },
);

test('POST /__admin/plants refuses bad lists whole, with the Error record', { timeout: 60_000 }, async () => {
  const app = stubApp();
  const cases: Array<[string, RegExp]> = [
    ['{"id": 1, "name": "Fern"}', /JSON array/],
    [
      '[{"id": 1, "name": "Fern"}, {"id": "2", "name": "Bad"}]',
      /item 1 is not a valid NewPlant: \/id must be an integer/,
    ],
    ['[{"id": 1, "name": "Fern"}, {"id": 1, "name": "Twice"}]', /item 1 repeats the id 1/],
    ['[{"id": 9223372036854775808, "name": "Beyond"}]', /item 0 is not a valid NewPlant/],
  ];
  for (const [payload, message] of cases) {
    const res = await app.inject({
      method: 'POST',
      url: '/__admin/plants',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    assert.equal(res.statusCode, 400, payload);
    assert.equal(res.json().error, 40023);
    assert.match(res.json().message, message);
  }
  assert.deepEqual(
    (await app.inject({ method: 'GET', url: '/__admin/plants' })).json(),
    { plants: [], next: null },
    'nothing stored',
  );
  const syntax = await app.inject({
    method: 'POST',
    url: '/__admin/plants',
    headers: { 'content-type': 'application/json' },
    payload: '[{',
  });
  assert.equal(syntax.statusCode, 400);
  assert.equal(syntax.json().error, 40001);
  const media = await app.inject({
    method: 'POST',
    url: '/__admin/plants',
    headers: { 'content-type': 'text/plain' },
    payload: '[]',
  });
  assert.equal(media.statusCode, 415);
});

test(
  'POST /__admin/plants is all or nothing at the store cap and the byte budget: a list that does not fit is 507 and stores none of it',
  { timeout: 60_000 },
  async () => {
    for (const options of [{ maxPlants: 3 }, { maxBytes: 3 * plantBytes('1', '{"name":"Fern"}') }]) {
      const app = stubApp(options);
      assert.equal((await createPlant(app, { id: 1, name: 'Fern' })).statusCode, 200);
      const add = await app.inject({
        method: 'POST',
        url: '/__admin/plants',
        headers: { 'content-type': 'application/json' },
        payload: '[{"id": 2, "name": "Fern"}, {"id": 3, "name": "Fern"}, {"id": 4, "name": "Fern"}]',
      });
      assert.equal(add.statusCode, 507, JSON.stringify(options));
      assert.equal(add.json().error, 50701);
      assert.match(
        add.json().message,
        /the 3 plants do not fit in the store, which holds 1 plants \(\d+ bytes\); none was stored/,
      );
      const ids = (await app.inject({ method: 'GET', url: '/__admin/plants' }))
        .json()
        .plants.map((p: { id: string }) => p.id);
      assert.deepEqual(ids, ['1'], 'the first half of the list was not kept');
    }
  },
);
