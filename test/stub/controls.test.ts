import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../../server/app.js';
import { MAX_DELAY_MS } from '../../server/limits.js';
import { plantBytes } from '../../server/store.js';
import type { Sleep } from '../../server/stub/index.js';
import { AUTH, createPlant, stubApp, TOKEN } from './helpers.js';

test('controls off: every /__admin path is an unknown resource (404) and Prefer is ignored', async () => {
  for (const app of [buildApp({ tokens: [TOKEN] }), buildApp({ tokens: [TOKEN], stub: { controls: false } })]) {
    for (const [method, url] of [['GET', '/__admin/plants'], ['DELETE', '/__admin/plants'], ['GET', '/__admin/journal'], ['PUT', '/__admin/delay']] as const) {
      const res = await app.inject({ method, url });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
      assert.equal(res.json().error, 40401);
    }
    const res = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: 'code=400' });
    assert.equal(res.statusCode, 200, 'without the controls the server is the plain reference');
    assert.deepEqual(res.json(), { name: 'Fern' });
  }
});

test('controls on without a token: answered without credentials', async () => {
  const app = stubApp();
  const res = await app.inject({ method: 'GET', url: '/__admin/plants' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { plants: [] });
});

test('controls token: the controls answer 401 without it or with another token, 200 with it', async () => {
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
  const ok = await app.inject({ method: 'GET', url: '/__admin/journal', headers: { authorization: 'Bearer admin-secret' } });
  assert.equal(ok.statusCode, 200);
  // The controls token does not open the API when PLANTSTORE_TOKENS is set.
  const api = await createPlant(app, { id: 1, name: 'Fern' }, { authorization: 'Bearer admin-secret' });
  assert.equal(api.statusCode, 401);
});

test('plants: listed with exact int64 ids as strings, reset, and stored from an array', async () => {
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
  });

  const reset = await app.inject({ method: 'DELETE', url: '/__admin/plants' });
  assert.deepEqual(reset.json(), { deleted: 2 });
  assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/plants' })).json(), { plants: [] });
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
  const ids = (await app.inject({ method: 'GET', url: '/__admin/plants' })).json().plants.map((p: { id: string }) => p.id);
  assert.deepEqual(ids, ['1', '2', '-9223372036854775808']);
  // The API sees stored plants as taken.
  assert.equal((await createPlant(app, { id: 2, name: 'Again' })).json().error, 40004);
});

test('POST /__admin/plants refuses bad lists whole, with the Error record', async () => {
  const app = stubApp();
  const cases: Array<[string, RegExp]> = [
    ['{"id": 1, "name": "Fern"}', /JSON array/],
    ['[{"id": 1, "name": "Fern"}, {"id": "2", "name": "Bad"}]', /item 1 is not a valid NewPlant: \/id must be an integer/],
    ['[{"id": 1, "name": "Fern"}, {"id": 1, "name": "Twice"}]', /item 1 repeats the id 1/],
    ['[{"id": 9223372036854775808, "name": "Beyond"}]', /item 0 is not a valid NewPlant/],
  ];
  for (const [payload, message] of cases) {
    const res = await app.inject({ method: 'POST', url: '/__admin/plants', headers: { 'content-type': 'application/json' }, payload });
    assert.equal(res.statusCode, 400, payload);
    assert.equal(res.json().error, 40023);
    assert.match(res.json().message, message);
  }
  assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/plants' })).json(), { plants: [] }, 'nothing stored');
  const syntax = await app.inject({ method: 'POST', url: '/__admin/plants', headers: { 'content-type': 'application/json' }, payload: '[{' });
  assert.equal(syntax.statusCode, 400);
  assert.equal(syntax.json().error, 40001);
  const media = await app.inject({ method: 'POST', url: '/__admin/plants', headers: { 'content-type': 'text/plain' }, payload: '[]' });
  assert.equal(media.statusCode, 415);
});

test('POST /__admin/plants is all or nothing at the store cap and the byte budget: a list that does not fit is 507 and stores none of it', async () => {
  for (const options of [{ maxPlants: 3 }, { maxBytes: 3 * plantBytes('1', { name: 'Fern' }) }]) {
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
    assert.match(add.json().message, /the 3 plants do not fit in the store, which holds 1 plants \(\d+ bytes\); none was stored/);
    const ids = (await app.inject({ method: 'GET', url: '/__admin/plants' })).json().plants.map((p: { id: string }) => p.id);
    assert.deepEqual(ids, ['1'], 'the first half of the list was not kept');
  }
});

test('delay: read, set, bounded, and applied to API answers only', async () => {
  const slept: number[] = [];
  const sleep: Sleep = async (ms) => {
    slept.push(ms);
  };
  const app = stubApp({ stub: { delayMs: 250, sleep } });
  assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/delay' })).json(), { ms: 250 });

  assert.equal((await createPlant(app, { id: 1, name: 'Fern' })).statusCode, 200);
  assert.equal((await app.inject({ method: 'GET', url: '/nowhere' })).statusCode, 404);
  assert.equal((await createPlant(app, { id: 1, name: 'Fern' }, { authorization: 'Basic x' })).statusCode, 401);
  assert.deepEqual(slept, [250, 250, 250], 'every API answer waits, errors included');

  await app.inject({ method: 'GET', url: '/__health' });
  await app.inject({ method: 'GET', url: '/__admin/plants' });
  assert.deepEqual(slept, [250, 250, 250], 'health and the controls are not delayed');

  const put = (payload: string) =>
    app.inject({ method: 'PUT', url: '/__admin/delay', headers: { 'content-type': 'application/json' }, payload });
  for (const bad of ['{"ms": -1}', `{"ms": ${MAX_DELAY_MS + 1}}`, '{"ms": 1.5}', '{"ms": "10"}', '{}', '[]', '5']) {
    const res = await put(bad);
    assert.equal(res.statusCode, 400, bad);
    assert.equal(res.json().error, 40023);
    assert.match(res.json().message, /whole number of milliseconds from 0 to 60000/);
  }
  assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/delay' })).json(), { ms: 250 }, 'bad values change nothing');

  assert.deepEqual((await put('{"ms": 0}')).json(), { ms: 0 });
  await createPlant(app, { id: 2, name: 'Fern' });
  assert.equal(slept.length, 3, 'a delay of 0 does not wait');
  assert.deepEqual((await put(`{"ms": ${MAX_DELAY_MS}}`)).json(), { ms: MAX_DELAY_MS });
  await createPlant(app, { id: 3, name: 'Fern' });
  assert.deepEqual(slept.slice(3), [MAX_DELAY_MS]);
});

test('delay with the controls off: set at start, still applied', async () => {
  const slept: number[] = [];
  const app = buildApp({ tokens: [TOKEN], stub: { controls: false, delayMs: 40, sleep: async (ms) => void slept.push(ms) } });
  assert.equal((await createPlant(app, { id: 1, name: 'Fern' })).statusCode, 200);
  assert.deepEqual(slept, [40]);
  assert.equal((await app.inject({ method: 'GET', url: '/__admin/delay' })).statusCode, 404);
});

test('a delayed answer is sent at once when the server closes', async () => {
  let started!: () => void;
  const waiting = new Promise<void>((resolve) => (started = resolve));
  let aborted = false;
  // A sleep that only ends when the server's close aborts it.
  const sleep: Sleep = (_ms, signal) =>
    new Promise((_resolve, reject) => {
      started();
      signal.addEventListener('abort', () => {
        aborted = true;
        reject(signal.reason);
      });
    });
  const app = stubApp({ stub: { delayMs: MAX_DELAY_MS, sleep } });
  const answer = createPlant(app, { id: 1, name: 'Fern' });
  await waiting;
  await app.close();
  const res = await answer;
  assert.equal(aborted, true);
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { name: 'Fern' });
});
