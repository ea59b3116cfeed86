import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadOpenApi } from '../../spec/openapi.js';
import { parsePrefer } from '../../server/stub/prefer.js';
import { AUTH, createPlant, JSON_AUTH, stubApp } from './helpers.js';

// The example the document declares for the 400 response, read from it.
const doc = loadOpenApi();
const declared400 = doc.paths['/plants']?.post?.responses['400']?.content?.['application/json'] as unknown as {
  examples: Record<string, { value: unknown }>;
};
const [exampleName, example] = Object.entries(declared400.examples)[0] ?? [];

test(
  'Prefer: code=400 answers the declared 400 response with its example, and stores nothing',
  { timeout: 60_000 },
  async () => {
    assert.ok(exampleName !== undefined && example !== undefined, 'the document has a 400 example');
    const app = stubApp();
    for (const prefer of [
      'code=400',
      'CODE = 400',
      'code="400"',
      'respond-async, code=400; x=y',
      `code=400, example=${exampleName}`,
    ]) {
      const res = await createPlant(app, { id: 1, name: 'Fern' }, { prefer });
      assert.equal(res.statusCode, 400, prefer);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.deepEqual(res.json(), example.value, prefer);
      assert.match(String(res.headers['preference-applied']), /^code=400/);
    }
    const list = await app.inject({ method: 'GET', url: '/__admin/plants' });
    assert.deepEqual(list.json(), { plants: [], next: null });
    // The forced request is in the journal with its body.
    const entries = (await app.inject({ method: 'GET', url: '/__admin/journal' })).json().entries;
    assert.equal(entries[0].status, 400);
    assert.equal(entries[0].headers.prefer, 'code=400');
    assert.equal(entries[0].body, '{"id":1,"name":"Fern"}');
  },
);

test(
  'Prefer: code=200 with a valid body behaves normally; an invalid body still gets its real error',
  { timeout: 60_000 },
  async () => {
    const app = stubApp();
    const ok = await createPlant(app, { id: 1, name: 'Fern', tag: 't' }, { prefer: 'code=200' });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { name: 'Fern', tag: 't' });
    const bad = await createPlant(app, { id: 'x', name: 'Fern' }, { prefer: 'code=200' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error, 40003);
    const unrelated = await createPlant(app, { id: 2, name: 'Fern' }, { prefer: 'return=minimal' });
    assert.equal(unrelated.statusCode, 200, 'RFC 7240: preferences the server does not know are ignored');
  },
);

test(
  'Prefer: a code outside the declared ones and the error statuses (400 to 599) is a clear 400',
  { timeout: 60_000 },
  async () => {
    const app = stubApp();
    for (const code of ['201', '204', '302', '100', '600', '999']) {
      const res = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: `code=${code}` });
      assert.equal(res.statusCode, 400, code);
      assert.equal(res.json().error, 40022);
      assert.equal(
        res.json().message,
        `Prefer: code=${code} is not a response that POST /plants declares; declared: 200, 400; any error status from 400 to 599 is answered with an Error record.`,
      );
    }
    const example = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: 'code=400, example=nosuch' });
    assert.equal(example.json().error, 40022);
    assert.match(example.json().message, /example=nosuch is not an example of the 400 response/);
    // Preference values resolve through the document's own examples only, not Object.prototype.
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const inherited = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: `code=400, example=${name}` });
      assert.equal(inherited.statusCode, 400, name);
      assert.equal(inherited.json().error, 40022, name);
      assert.match(inherited.json().message, new RegExp(`example=${name} is not an example of the 400 response`));
    }
    // Nothing was stored by the refused requests.
    assert.equal((await createPlant(app, { id: 1, name: 'Fern' })).statusCode, 200);
  },
);

test('Prefer: malformed headers are a clear 400', { timeout: 60_000 }, async () => {
  const app = stubApp();
  for (const prefer of ['code=abc', 'code=4000', 'code=', 'code', '=400', 'code=400 junk', ',', 'code=400; =x']) {
    const res = await createPlant(app, { id: 1, name: 'Fern' }, { prefer });
    assert.equal(res.statusCode, 400, prefer);
    assert.equal(res.json().error, 40021, prefer);
    assert.match(res.json().message, /Prefer/);
  }
});

test('Prefer: credentials are checked first', { timeout: 60_000 }, async () => {
  const app = stubApp();
  const res = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: 'code=400', authorization: 'Bearer wrong' });
  assert.equal(res.statusCode, 401);
  const malformed = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: 'code=???', authorization: '' });
  assert.equal(malformed.statusCode, 401);
});

test(
  'Prefer: the body is read first, so its content type, size and JSON errors win over code=400',
  { timeout: 60_000 },
  async () => {
    const app = stubApp({ bodyLimit: 64 });
    const prefer = { prefer: 'code=400' };
    const media = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { ...AUTH, ...prefer, 'content-type': 'text/plain' },
      payload: '{"id": 1, "name": "Fern"}',
    });
    assert.equal(media.statusCode, 415);
    const large = await createPlant(app, { id: 1, name: 'x'.repeat(100) }, prefer);
    assert.equal(large.statusCode, 413);
    const syntax = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { ...JSON_AUTH, ...prefer },
      payload: '{"id": 1,',
    });
    assert.equal(syntax.statusCode, 400);
    assert.equal(syntax.json().error, 40001, 'the JSON error, not the declared example');
    assert.equal(syntax.headers['preference-applied'], undefined);
    // An empty body is readable: the preference is honoured.
    const empty = await app.inject({ method: 'POST', url: '/plants', headers: { ...JSON_AUTH, ...prefer } });
    assert.equal(empty.headers['preference-applied'], 'code=400');
  },
);

test(
  'parsePrefer follows RFC 7240 §2: names are case-insensitive, the first of a repeated preference counts',
  { timeout: 60_000 },
  () => {
    const parsed = parsePrefer('Code=400; a=b, wait=10, code=200, handling="lenient"');
    assert.equal(parsed.get('code'), '400');
    assert.equal(parsed.get('wait'), '10');
    assert.equal(parsed.get('handling'), 'lenient');
  },
);

test(
  'Prefer: code=N for any error status 400 to 599 answers an Error record, with Retry-After when asked; nothing is stored',
  { timeout: 60_000 },
  async () => {
    const app = stubApp();
    for (const code of [404, 409, 429, 500, 502, 503, 504, 599]) {
      const res = await createPlant(app, { id: code, name: 'Fern' }, { prefer: `code=${code}` });
      assert.equal(res.statusCode, code);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.deepEqual(res.json(), {
        error: code * 100 + 99,
        message: `Answer requested by the header Prefer: code=${code}.`,
      });
      assert.equal(res.headers['preference-applied'], `code=${code}`);
      assert.equal(res.headers['retry-after'], undefined);
    }
    const later = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: 'code=503, retry-after=120' });
    assert.equal(later.statusCode, 503);
    assert.equal(later.headers['retry-after'], '120');
    assert.equal(later.headers['preference-applied'], 'code=503, retry-after=120');
    const declared = await createPlant(
      app,
      { id: 1, name: 'Fern' },
      { prefer: `code=400, example=${exampleName}, retry-after=0` },
    );
    assert.deepEqual(declared.json(), example?.value);
    assert.equal(declared.headers['retry-after'], '0');
    assert.deepEqual((await app.inject({ method: 'GET', url: '/__admin/plants' })).json(), { plants: [], next: null });
    const journaled = (await app.inject({ method: 'GET', url: '/__admin/journal' })).json().entries.at(-2);
    assert.deepEqual(journaled.fault, { from: 'prefer', step: { code: 503, retryAfter: 120 } });
  },
);

test('Prefer: a forced status carries the header RFC 9110 requires of it', { timeout: 60_000 }, async () => {
  const app = stubApp();
  const unauthorized = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: 'code=401' });
  assert.equal(
    unauthorized.headers['www-authenticate'],
    'Bearer realm="plantstore"',
    '§15.5.2: a 401 MUST carry WWW-Authenticate',
  );
  const notAllowed = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: 'code=405' });
  assert.equal(notAllowed.headers.allow, 'POST', '§15.5.6: a 405 MUST carry Allow');
  const proxy = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: 'code=407' });
  assert.equal(
    proxy.headers['proxy-authenticate'],
    'Bearer realm="plantstore"',
    '§15.5.8: a 407 MUST carry Proxy-Authenticate',
  );
  const timeout = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: 'code=408' });
  assert.equal(timeout.headers.connection, 'close', '§15.5.9: a 408 SHOULD close the connection');
});

test(
  'Prefer: delay=MS holds this request, then answers it normally (stored), and says so',
  { timeout: 60_000 },
  async () => {
    const asked: number[] = [];
    const app = stubApp({ stub: { sleep: async (ms) => void asked.push(ms) } });
    const res = await createPlant(app, { id: 1, name: 'Fern' }, { prefer: 'delay=1500' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['preference-applied'], 'delay=1500');
    assert.deepEqual(asked, [1500]);
    const slowError = await createPlant(app, { id: 2, name: 'Fern' }, { prefer: 'delay=20, code=503, retry-after=1' });
    assert.equal(slowError.statusCode, 503);
    assert.equal(slowError.headers['preference-applied'], 'code=503, retry-after=1, delay=20');
    assert.deepEqual(asked, [1500, 20]);
    assert.deepEqual(
      (await app.inject({ method: 'GET', url: '/__admin/plants' })).json().plants.map((p: { id: string }) => p.id),
      ['1'],
    );
  },
);

test(
  'Prefer: retry-after, fault, delay, bytes and interval that cannot be honoured are a clear 400 naming them',
  { timeout: 60_000 },
  async () => {
    const app = stubApp();
    const cases: Array<[string, number, RegExp]> = [
      ['retry-after=1', 40021, /^Prefer: retry-after goes with code=N\.$/],
      [
        'code=200, retry-after=1',
        40021,
        /^Prefer: retry-after goes with an error status \(code=400 to 599\), not code=200\.$/,
      ],
      [
        'code=503, retry-after=soon',
        40021,
        /^Prefer: retry-after must be a whole number of seconds from 0 to 86400, got "soon"\.$/,
      ],
      [
        'code=503, retry-after=86401',
        40021,
        /retry-after must be a whole number of seconds from 0 to 86400, got "86401"/,
      ],
      [
        'fault=explode',
        40021,
        /^Prefer: fault must be one of reset, close, close-mid-body, garbage, truncated, hang, dribble, lost-answer, got "explode"\.$/,
      ],
      ['fault', 40021, /fault must be one of .* got ""/],
      ['code=503, fault=reset', 40021, /^Prefer: code and fault do not go together/],
      ['fault=reset, bytes=4', 40021, /^Prefer: bytes goes with fault=dribble\.$/],
      ['interval=4', 40021, /^Prefer: interval goes with fault=dribble\.$/],
      ['fault=dribble, bytes=0', 40021, /bytes must be a whole number of bytes from 1 to 1024, got "0"/],
      ['fault=dribble, interval=10001', 40021, /interval must be a whole number of milliseconds from 1 to 10000/],
      ['delay=60001', 40021, /^Prefer: delay must be a whole number of milliseconds from 0 to 60000, got "60001"\.$/],
      ['delay=-1', 40021, /delay must be a whole number/],
      ['code=503, example=x', 40022, /^Prefer: example=x is not an example of the 503 response; examples: none\.$/],
    ];
    for (const [prefer, error, message] of cases) {
      const res = await createPlant(app, { id: 1, name: 'Fern' }, { prefer });
      assert.equal(res.statusCode, 400, prefer);
      assert.equal(res.json().error, error, prefer);
      assert.match(res.json().message, message, prefer);
    }
    assert.equal(
      (await createPlant(app, { id: 1, name: 'Fern' })).statusCode,
      200,
      'the refused requests stored nothing',
    );
  },
);
