// Every error in the media type and the schema the operation declares for
// its status (server/http/error-shapes.ts, error-body.ts, the one writer of
// error-handler.ts): the response found for a status, the body made for each
// kind of schema and judged by it, what is said at start, and the errors no
// operation answers, on the socket included.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../server/app.js';
import { isErrorRecordSchema } from '../../server/http/error-shapes.js';
import { readOpenApi } from '../../spec/openapi.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-error-shapes-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'shapes-token';

let documents = 0;
/** A document whose item read (GET /plants/{id}) declares `responses` beside its 200; its create declares `createResponses`. */
function documentWith(responses: Record<string, unknown>, createResponses: Record<string, unknown> = {}): string {
  const path = join(dir, `doc-${++documents}.json`);
  const plant = { type: 'object', properties: { name: { type: 'string' } } };
  writeFileSync(
    path,
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      security: [{ bearerAuth: [] }],
      paths: {
        '/plants': {
          post: {
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
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema: plant } } },
              ...createResponses,
            },
          },
        },
        '/plants/{id}': {
          get: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema: plant } } },
              ...responses,
            },
          },
        },
      },
      components: { schemas: {}, securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    }),
  );
  return path;
}

const json = (schema: unknown, mediaType = 'application/json') => ({
  description: 'an error',
  content: { [mediaType]: { schema } },
});
const appOf = (specPath: string, options: AppOptions = {}) => buildApp({ specPath, tokens: [TOKEN], ...options });
const read = (app: FastifyInstance, id = '7', auth = true) =>
  app.inject({ method: 'GET', url: `/plants/${id}`, headers: auth ? { authorization: `Bearer ${TOKEN}` } : {} });

describe('the response a status finds (OpenAPI 3.1 §4.8.16.2)', () => {
  test('the status itself, else its range, else default; a status none covers is the Error record', async () => {
    const problem = json({}, 'application/problem+json');
    const app = appOf(
      documentWith({ '404': json({ type: 'string' }), '4XX': problem, default: json({}, 'application/vnd.x+json') }),
    );
    const missing = await read(app);
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.body, '"No plant has the id 7."', 'a string schema gets the message');
    const bad = await read(app, 'x');
    assert.match(String(bad.headers['content-type']), /^application\/problem\+json/);
    assert.equal(bad.json<{ status: number }>().status, 400);
    const unauthorized = await read(app, '7', false);
    assert.match(String(unauthorized.headers['content-type']), /^application\/problem\+json/, '401 is in 4XX');
    const noDefault = appOf(documentWith({ '404': problem }));
    const plain = await read(noDefault, 'x');
    assert.match(String(plain.headers['content-type']), /^application\/json/);
    assert.deepEqual(Object.keys(plain.json<object>()), ['error', 'message']);
  });

  test('a declared response with no content gets none; text gets the message as text; XML only gets the Error record, said at start', async () => {
    const app = appOf(
      documentWith({
        '404': { description: 'not found' },
        '400': { description: 'bad', content: { 'text/plain': { schema: { type: 'string' } } } },
        '401': { description: 'who', content: { 'application/xml': {} } },
      }),
    );
    const missing = await read(app);
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.body, '');
    assert.equal(missing.headers['content-type'], undefined);
    const bad = await read(app, 'x');
    assert.match(String(bad.headers['content-type']), /^text\/plain/);
    assert.match(bad.body, /^Path parameter id must be an integer/);
    assert.deepEqual(Object.keys((await read(app, '7', false)).json<object>()), ['error', 'message']);
    assert.deepEqual(app.documentWarnings, [
      'GET /plants/{id}: its 401 response declares application/xml, none of which this server writes: those errors are answered as the Error record, application/json',
    ]);
  });
});

describe('the body made for a schema', () => {
  test('problem details: about:blank, the status phrase, the status, the detail; a required instance is the path', async () => {
    const problem = {
      type: 'object',
      required: ['type', 'title', 'status', 'detail', 'instance'],
      properties: {
        type: { type: 'string' },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        instance: { type: 'string' },
        code: { type: 'integer' },
      },
      additionalProperties: false,
    };
    const app = appOf(documentWith({ '404': json(problem, 'application/problem+json') }));
    const missing = await app.inject({
      method: 'GET',
      url: '/plants/7?api_key=secret',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.deepEqual(missing.json(), {
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'No plant has the id 7.',
      instance: '/plants/7',
      code: 40402,
    });
  });

  test('members by their names: a message, a code, a status, a title beside a message, an envelope, a list of errors', async () => {
    const error = {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        title: { type: 'string' },
        httpStatus: { type: 'integer' },
      },
    };
    const jsonApi = {
      type: 'object',
      required: ['errors'],
      properties: {
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['status', 'detail'],
            properties: { status: { type: 'string' }, detail: { type: 'string' } },
          },
        },
      },
    };
    const app = appOf(
      documentWith({
        '404': json({ type: 'object', required: ['error'], properties: { error } }),
        '400': json(jsonApi),
      }),
    );
    assert.deepEqual((await read(app)).json(), {
      error: { code: '40402', message: 'No plant has the id 7.', title: 'Not Found', httpStatus: 404 },
    });
    assert.deepEqual((await read(app, 'x')).json(), {
      errors: [
        {
          status: '400',
          detail:
            'Path parameter id must be an integer from -9223372036854775808 to 9223372036854775807 (int64), got "x".',
        },
      ],
    });
  });

  test('a body its schema refuses gets a value made from the schema; none at all, the Error record; both said at start', async () => {
    const enumCode = json({ type: 'object', required: ['code'], properties: { code: { enum: ['NOT_FOUND', 'BAD'] } } });
    const impossible = json({
      type: 'object',
      required: ['message'],
      properties: { message: { type: 'string', maxLength: 3, minLength: 4 } },
    });
    const app = appOf(documentWith({ '404': enumCode, '400': impossible }));
    assert.deepEqual((await read(app)).json(), { code: 'NOT_FOUND' });
    const bad = await read(app, 'x');
    assert.match(String(bad.headers['content-type']), /^application\/json/);
    assert.deepEqual(Object.keys(bad.json<object>()), ['error', 'message']);
    // Integer-like keys come in numeric order: 400's line first.
    const [first, second] = app.documentWarnings;
    assert.equal(app.documentWarnings.length, 2, app.documentWarnings.join('\n'));
    assert.match(first!, /its 400 response: no error body this server makes passes the schema .*as the Error record/);
    assert.match(
      second!,
      /its 404 response: no error body this server makes passes the schema .*with a value made from the schema/,
    );
  });

  test('without the inference errors, a schema of another shape gets the Error record; problem details stay', async () => {
    const app = appOf(
      documentWith({
        '404': json({ type: 'object', properties: { msg: { type: 'string' } } }),
        '400': json({}, 'application/problem+json'),
      }),
      { inference: { errors: false } },
    );
    assert.deepEqual(Object.keys((await read(app)).json<object>()), ['error', 'message']);
    assert.equal((await read(app, 'x')).json<{ title: string }>().title, 'Bad Request');
  });

  test('the Error record is found by its structure, not its name: bounded members are not it', () => {
    const { document } = readOpenApi(fileURLToPath(new URL('../../../spec/openapi.yaml', import.meta.url)));
    assert.equal(isErrorRecordSchema(document, { $ref: '#/components/schemas/Error' }), true);
    const record = (message: Record<string, unknown>) => ({
      type: 'object',
      required: ['error', 'message'],
      properties: { error: { type: 'integer', format: 'int32' }, message },
    });
    assert.equal(isErrorRecordSchema(document, record({ type: 'string', description: 'why' })), true);
    assert.equal(isErrorRecordSchema(document, record({ type: 'string', maxLength: 10 })), false);
    assert.equal(isErrorRecordSchema(document, record({ type: 'integer' })), false);
    assert.equal(isErrorRecordSchema(document, { ...record({ type: 'string' }), minProperties: 3 }), false);
  });
});

describe('what no operation answers', () => {
  const specPath = fileURLToPath(new URL('../../../test/fixtures/documents/problem-json.yaml', import.meta.url));

  test('an unknown path gets the 404 the operations that declare one agree on; another method, which none declares, the Error record', async () => {
    const app = appOf(specPath);
    const unknown = await app.inject({ method: 'GET', url: '/gardens' });
    assert.match(String(unknown.headers['content-type']), /^application\/problem\+json/);
    assert.equal(unknown.json<{ status: number }>().status, 404);
    const wrongMethod = await app.inject({ method: 'PUT', url: '/plants' });
    assert.equal(wrongMethod.statusCode, 405);
    assert.deepEqual(Object.keys(wrongMethod.json<object>()), ['error', 'message']);
  });

  test("a request target that is not a URI is a problem too; the stub's own endpoints, no operation of the document, answer the Error record", async () => {
    const app = appOf(specPath, { stub: {} });
    const badTarget = await app.inject({ method: 'GET', url: '/plants/%zz' });
    assert.equal(badTarget.statusCode, 400);
    assert.match(String(badTarget.headers['content-type']), /^application\/problem\+json/);
    const control = await app.inject({
      method: 'POST',
      url: '/__admin/faults',
      headers: { 'content-type': 'application/json' },
      payload: '{"steps": "no"}',
    });
    assert.equal(control.statusCode, 400);
    assert.match(String(control.headers['content-type']), /^application\/json/);
    assert.equal(control.json<{ error: number }>().error, 40023);
  });

  test('a request the HTTP parser refuses, answered on the socket, as a problem too', async () => {
    const app = appOf(specPath);
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = createConnection({ port, host: '127.0.0.1' });
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
        socket.on('error', reject);
        socket.end('GET /plants HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n');
      });
      assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
      assert.match(answer, /\r\nContent-Type: application\/problem\+json; charset=utf-8\r\n/);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
      assert.deepEqual(body, {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: 'Malformed HTTP request.',
      });
    } finally {
      await app.close();
    }
  });

  test("the stub's Prefer: code=N without an example answers in the status's shape, a 401 with the operation's challenge", async () => {
    const app = appOf(specPath, { stub: {} });
    const forced = await app.inject({
      method: 'GET',
      url: '/plants/1',
      headers: { authorization: `Bearer ${TOKEN}`, prefer: 'code=401' },
    });
    assert.equal(forced.statusCode, 401);
    assert.equal(forced.headers['www-authenticate'], 'Bearer realm="plantstore"');
    assert.deepEqual(forced.json(), {
      type: 'about:blank',
      title: 'Unauthorized',
      status: 401,
      detail: 'Answer requested by the header Prefer: code=401.',
    });
    const undeclared = await app.inject({
      method: 'GET',
      url: '/plants/1',
      headers: { authorization: `Bearer ${TOKEN}`, prefer: 'code=503' },
    });
    assert.deepEqual(undeclared.json(), { error: 50399, message: 'Answer requested by the header Prefer: code=503.' });
  });
});
