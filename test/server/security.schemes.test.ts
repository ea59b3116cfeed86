// The security of any document (server/security/): each kind of scheme read
// as its RFC writes its credential, the refusal chosen and worded, the
// challenges of a 401, and what the start refuses or says.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../server/app.js';
import { ConfigError } from '../../server/config.js';
import { DocumentError } from '../../spec/openapi.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-schemes-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let documents = 0;
/** A document of one operation, GET /plants (a list), with these schemes and requirements. */
function documentWith(schemes: Record<string, unknown>, security: unknown, operationSecurity?: unknown): string {
  const path = join(dir, `doc-${++documents}.json`);
  const list = {
    ...(operationSecurity === undefined ? {} : { security: operationSecurity }),
    responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array' } } } } },
  };
  const create = {
    operationId: 'createPlant',
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['id', 'name'],
            properties: { id: { type: 'integer' }, name: { type: 'string' } },
          },
        },
      },
    },
    responses: { '200': { description: 'ok' } },
  };
  writeFileSync(
    path,
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      security,
      paths: { '/plants': { get: list, post: create } },
      components: { schemas: {}, securitySchemes: schemes },
    }),
  );
  return path;
}

const list = (app: FastifyInstance, headers: Record<string, string> = {}, url = '/plants') =>
  app.inject({ method: 'GET', url, headers });
const appOf = (specPath: string, options: AppOptions = {}) => buildApp({ specPath, ...options });
const basic = (pair: string) => `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;

describe('HTTP Basic (RFC 7617)', () => {
  const spec = documentWith({ basicAuth: { type: 'http', scheme: 'Basic' } }, [{ basicAuth: [] }]);

  test('the pair is decoded as UTF-8; the password may hold a colon; the scheme in any letter case', async () => {
    const app = appOf(spec, { credentials: new Map([['basicAuth', ['zoë:pass:with:colons']]]) });
    assert.equal((await list(app, { authorization: basic('zoë:pass:with:colons') })).statusCode, 200);
    assert.equal(
      (await list(app, { authorization: `bAsIc ${Buffer.from('zoë:pass:with:colons').toString('base64')}` }))
        .statusCode,
      200,
    );
    const wrongCase = await list(app, { authorization: basic('Zoë:pass:with:colons') });
    assert.equal(wrongCase.statusCode, 401);
    assert.equal(wrongCase.json<{ error: number }>().error, 40106, 'the user-id is compared exactly');
  });

  test('credentials that are not base64 of user-id:password in UTF-8 without controls: 40105, and a Basic challenge', async () => {
    const app = appOf(spec);
    for (const credentials of [
      'Basic',
      'Basic ',
      'Basic !!!!',
      'Basic YWJj', // "abc": no colon
      `Basic ${Buffer.from([0x61, 0x3a, 0xff]).toString('base64')}`, // not UTF-8
      basic('a:b\u0007'), // a control character
      'Basic YTpi=', // padding where none belongs
    ]) {
      const answer = await list(app, { authorization: credentials });
      assert.equal(answer.statusCode, 401, credentials);
      assert.equal(answer.json<{ error: number }>().error, 40105, credentials);
      assert.equal(answer.headers['www-authenticate'], 'Basic realm="plantstore", charset="UTF-8"');
    }
    assert.equal((await list(app, { authorization: basic('any:one') })).statusCode, 200, 'none configured: any pair');
    assert.equal((await list(app, { authorization: basic(':') })).statusCode, 200, 'RFC 7617 allows both empty');
  });
});

describe('API keys', () => {
  test('a key named Authorization is the header whole; its 401 names it', async () => {
    const spec = documentWith({ raw: { type: 'apiKey', in: 'header', name: 'Authorization' } }, [{ raw: [] }]);
    const app = appOf(spec, { credentials: new Map([['raw', ['Token abc-123']]]) });
    assert.equal((await list(app, { authorization: 'Token abc-123' })).statusCode, 200);
    const refused = await list(app, { authorization: 'Token abc-124' });
    assert.equal(refused.json<{ error: number }>().error, 40107);
    const missing = await list(app);
    assert.equal(
      missing.json<{ message: string }>().message,
      'Authentication required: send the header Authorization: <API key>.',
    );
    assert.equal(missing.headers['www-authenticate'], 'APIKey realm="plantstore", in="header", name="Authorization"');
  });

  test("a query key is percent-decoded; a cookie's quotes are not part of it; one given twice is refused", async () => {
    const spec = documentWith(
      { q: { type: 'apiKey', in: 'query', name: 'k' }, c: { type: 'apiKey', in: 'cookie', name: 'sid' } },
      [{ q: [] }, { c: [] }],
    );
    const app = appOf(spec, {
      credentials: new Map([
        ['q', ['a key/with=signs']],
        ['c', ['s1']],
      ]),
    });
    assert.equal((await list(app, {}, '/plants?k=a%20key%2Fwith%3Dsigns')).statusCode, 200);
    assert.equal((await list(app, {}, '/plants?k=a+key/with%3Dsigns')).statusCode, 200, '+ is a space in a query');
    assert.equal((await list(app, { cookie: 'sid="s1"' })).statusCode, 200);
    const twice = await list(app, { cookie: 'sid=s1; sid=s1' });
    assert.equal(twice.statusCode, 401);
    assert.match(twice.json<{ message: string }>().message, /the cookie sid is given 2 times/);
    assert.equal(
      (await list(app, {}, '/plants?k=')).json<{ message: string }>().message,
      'The API key in the query parameter k is empty.',
    );
  });

  test('keys the document names __proto__ and constructor find nothing inherited: 401 without them, never a 500', async () => {
    const spec = documentWith(
      {
        q: { type: 'apiKey', in: 'query', name: '__proto__' },
        h: { type: 'apiKey', in: 'header', name: 'constructor' },
      },
      [{ q: [] }, { h: [] }],
    );
    const app = appOf(spec);
    const without = await list(app);
    assert.equal(without.statusCode, 401);
    assert.equal(without.json<{ error: number }>().error, 40101);
    assert.equal((await list(app, {}, '/plants?__proto__=k1')).statusCode, 200);
    assert.equal((await list(app, { constructor: 'k2' })).statusCode, 200);
  });

  test('without a configured key any key that is not empty is accepted', async () => {
    const spec = documentWith({ h: { type: 'apiKey', in: 'header', name: 'X-Plant' } }, [{ h: [] }]);
    const app = appOf(spec);
    assert.equal((await list(app, { 'x-plant': 'whatever' })).statusCode, 200);
    assert.equal((await list(app, { 'x-plant': '   ' })).statusCode, 401, 'white space alone is empty');
  });
});

describe('requirements', () => {
  test('two bearer schemes in one requirement are met by one token both accept; Basic with Bearer never, said at start', async () => {
    const spec = documentWith(
      {
        a: { type: 'http', scheme: 'bearer' },
        b: { type: 'oauth2', flows: {} },
        basic: { type: 'http', scheme: 'basic' },
      },
      [{ a: [], b: [] }],
      [
        { a: [], basic: [] },
        { a: [], b: [] },
      ],
    );
    const app = appOf(spec, { tokens: ['shared'], credentials: new Map([['b', ['only-b']]]) });
    assert.equal((await list(app, { authorization: 'Bearer shared' })).statusCode, 200);
    const onlyB = await list(app, { authorization: 'Bearer only-b' });
    assert.equal(onlyB.statusCode, 401, 'a accepts PLANTSTORE_TOKENS only');
    assert.equal(
      onlyB.headers['www-authenticate'],
      'Bearer realm="plantstore", error="invalid_token", Basic realm="plantstore", charset="UTF-8"',
    );
    assert.ok(
      app.documentWarnings.includes(
        'GET /plants: its security requirement a and basic is never met: it needs bearer and basic credentials at once, and a request has one Authorization header',
      ),
      app.documentWarnings.join('\n'),
    );
  });

  test('a scheme the server does not check (HTTP Digest, mutual TLS) is never met: named at start, a 401 saying so', async () => {
    const spec = documentWith({ digest: { type: 'http', scheme: 'Digest' }, tls: { type: 'mutualTLS' } }, [
      { digest: [] },
      { tls: [] },
    ]);
    const app = appOf(spec);
    assert.equal(app.documentWarnings.length, 4, app.documentWarnings.join('\n'));
    const answer = await list(app, { authorization: 'Digest username="a"' });
    assert.equal(answer.statusCode, 401);
    assert.equal(answer.headers['www-authenticate'], 'Digest realm="plantstore"');
    assert.match(
      answer.json<{ message: string }>().message,
      /no request can meet this operation's security requirements here/,
    );
  });

  test('an empty requirement among others, or security: [], requires nothing', async () => {
    for (const security of [[], [{}], [{ k: [] }, {}]]) {
      const spec = documentWith({ k: { type: 'apiKey', in: 'header', name: 'X-Key' } }, security);
      assert.equal((await list(appOf(spec))).statusCode, 200, JSON.stringify(security));
    }
  });

  test('a requirement naming a scheme the document does not declare stops the start, naming where', () => {
    const spec = documentWith({}, [{ nowhere: [] }]);
    assert.throws(
      () => appOf(spec),
      (e: unknown) =>
        e instanceof DocumentError &&
        e.message.startsWith('#/security/0/nowhere: the security requirement names nowhere'),
    );
  });
});

describe('credentials configured', () => {
  const spec = documentWith(
    {
      bearerAuth: { type: 'http', scheme: 'bearer' },
      basicAuth: { type: 'http', scheme: 'basic' },
      header: { type: 'apiKey', in: 'header', name: 'X-Key' },
      cookie: { type: 'apiKey', in: 'cookie', name: 'sid' },
      digest: { type: 'http', scheme: 'digest' },
    },
    [{ bearerAuth: [] }, { basicAuth: [] }, { header: [] }, { cookie: [] }],
  );

  test('a scheme the document lacks, or a value its kind cannot carry, stops the start, naming the scheme, never the value', () => {
    for (const [name, value, message] of [
      [
        'elsewhere',
        'v',
        /names the scheme elsewhere, which the document does not declare; its security schemes: bearerAuth, basicAuth, header, cookie, digest$/,
      ],
      ['bearerAuth', 'not a token', /a value of bearerAuth is outside RFC 6750 §2\.1 b64token syntax/],
      ['basicAuth', 'no-colon-secret', /a value of basicAuth is not user-id:password/],
      ['cookie', 'has space', /a value of cookie holds a character a cookie value cannot/],
      ['header', ' padded', /a value of header is not a header field value/],
      ['digest', 'anything', /a value of digest: the server does not check HTTP digest credentials/],
    ] as const) {
      assert.throws(
        () => appOf(spec, { credentials: new Map([[name, [value]]]) }),
        (e: unknown) => e instanceof ConfigError && message.test(e.message) && !e.message.includes(value.trim()),
        name,
      );
    }
  });

  test('each scheme that accepts any credential is named at start with what to set; configured ones are not', () => {
    assert.deepEqual(appOf(spec).credentialWarnings, [
      'PLANTSTORE_TOKENS is not set: any well-formed bearer token is accepted; set PLANTSTORE_TOKENS to the tokens your clients send',
      'no credentials are configured for the security scheme basicAuth (HTTP Basic): any well-formed user-id and password are accepted; set PLANTSTORE_CREDENTIALS=basicAuth=<user-id>:<password>',
      'no credentials are configured for the security scheme header (an API key in the header X-Key): any key that is not empty is accepted; set PLANTSTORE_CREDENTIALS=header=<key>',
      'no credentials are configured for the security scheme cookie (an API key in the cookie sid): any key that is not empty is accepted; set PLANTSTORE_CREDENTIALS=cookie=<key>',
    ]);
    const configured = appOf(spec, {
      tokens: ['t'],
      credentials: new Map([
        ['basicAuth', ['a:b']],
        ['header', ['h']],
        ['cookie', ['c']],
      ]),
    });
    assert.deepEqual(configured.credentialWarnings, []);
  });

  test('PLANTSTORE_TOKENS where no operation requires a bearer token: said to open nothing', () => {
    const keyOnly = documentWith({ header: { type: 'apiKey', in: 'header', name: 'X-Key' } }, [{ header: [] }]);
    assert.deepEqual(appOf(keyOnly, { tokens: ['t'], credentials: new Map([['header', ['h']]]) }).credentialWarnings, [
      'PLANTSTORE_TOKENS is set, but no operation of the document requires a bearer token: its tokens open nothing',
    ]);
  });
});
