// The server follows the document it is given: every keyword of the request
// schema is enforced (numeric ones exactly, for numbers and bigints alike),
// a declared read is served from the store, and a document it cannot
// serve stops the start with exit 2, the keyword and its pointer, and no
// stack trace.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runProcess } from '../../lib/process.js';
import { loadOpenApi, OPENAPI_PATH, PARSED_DOCUMENT_PATH, serializeParsedDocument } from '../../spec/openapi.js';
import { ENTRY, startEntry } from '../support/entry.js';
import { fixturePath } from '../support/fixtures.js';
import { app, assertError, AUTH, freshId, post } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-document-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const shipped = readFileSync(OPENAPI_PATH, 'utf8');
const ID_FORMAT = '              format: int64\n';
const NAME_DESCRIPTION = '          description: The name of the plant\n';

/** spec/openapi.yaml with `replacement` in place of `anchor`, written to a file of its own. */
function evolved(name: string, anchor: string, replacement: string): string {
  assert.ok(shipped.includes(anchor), `the shipped document holds ${JSON.stringify(anchor)}`);
  const path = join(dir, name);
  writeFileSync(path, shipped.replace(anchor, replacement));
  return path;
}

function statusOf(specPath: string, body: unknown): Promise<number> {
  return post(app({ specPath }), body).then((r) => r.statusCode);
}

test('maxLength 50 on name: 50 characters are accepted, 51 refused naming the field', async () => {
  const specPath = fixturePath('name-max-length.yaml');
  assert.equal(await statusOf(specPath, { id: freshId(), name: 'n'.repeat(50) }), 200);
  const error = assertError(await post(app({ specPath }), { id: freshId(), name: 'n'.repeat(51) }), 400, 40003);
  assert.match(error.message, /\/name must NOT have more than 50 characters/);
});

test('minimum 1 on id and unevaluatedProperties: false on NewPlant are served, not refused', async () => {
  assert.equal(await statusOf(fixturePath('id-minimum.yaml'), { id: 0, name: 'x' }), 400);
  assert.equal(await statusOf(fixturePath('id-minimum.yaml'), { id: 1, name: 'x' }), 200);
  assert.equal(
    await statusOf(fixturePath('new-plant-closed.yaml'), { id: freshId(), name: 'x', colour: 'green' }),
    400,
  );
  assert.equal(await statusOf(fixturePath('new-plant-closed.yaml'), { id: freshId(), name: 'x', tag: 't' }), 200);
});

test('type [string, "null"] on tag accepts null and echoes it; an enum refuses other tags', async () => {
  const res = await post(app({ specPath: fixturePath('tag-nullable.yaml') }), { id: freshId(), name: 'x', tag: null });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { name: 'x', tag: null });
  assert.equal(await statusOf(fixturePath('tag-enum.yaml'), { id: freshId(), name: 'x', tag: 'fern' }), 200);
  assert.equal(await statusOf(fixturePath('tag-enum.yaml'), { id: freshId(), name: 'x', tag: 'Fern' }), 400);
});

test('numeric keywords are exact beyond 2^53: maximum, exclusiveMinimum and multipleOf on bigints', async () => {
  const max = evolved('max.yaml', ID_FORMAT, `${ID_FORMAT}              maximum: 9007199254740993\n`);
  assert.equal(await statusOf(max, `{"id": 9007199254740993, "name": "x"}`), 200);
  assert.equal(await statusOf(max, `{"id": 9007199254740994, "name": "x"}`), 400);
  const above = evolved('exclusive.yaml', ID_FORMAT, `${ID_FORMAT}              exclusiveMinimum: 9007199254740993\n`);
  assert.equal(await statusOf(above, `{"id": 9007199254740993, "name": "x"}`), 400);
  assert.equal(await statusOf(above, `{"id": 9007199254740994, "name": "x"}`), 200);
  const multiple = evolved('multiple.yaml', ID_FORMAT, `${ID_FORMAT}              multipleOf: 3\n`);
  assert.equal(await statusOf(multiple, `{"id": 9223372036854775806, "name": "x"}`), 200); // 3 × 3074457345618258602
  assert.equal(await statusOf(multiple, `{"id": 9223372036854775807, "name": "x"}`), 400);
  assert.equal(await statusOf(multiple, `{"id": 30e0, "name": "x"}`), 200);
  const listed = evolved('enum.yaml', ID_FORMAT, `${ID_FORMAT}              enum: [1, 9223372036854775807]\n`);
  assert.equal(await statusOf(listed, `{"id": 9223372036854775807, "name": "x"}`), 200);
  assert.equal(await statusOf(listed, `{"id": 9223372036854775806, "name": "x"}`), 400);
  assert.equal(await statusOf(listed, `{"id": 1.0, "name": "x"}`), 200);
});

test('a new required field is required', async () => {
  const specPath = fixturePath('new-required-field.yaml');
  const error = assertError(await post(app({ specPath }), { id: freshId(), name: 'x' }), 400, 40003);
  assert.match(error.message, /\/quantity is required/);
  assert.equal(await statusOf(specPath, { id: freshId(), name: 'x', quantity: 2 }), 200);
});

test('a declared read of one plant is served from the store: credentials first (401), then 404 for an id not stored, then the plant once created', async () => {
  const server = app({ specPath: fixturePath('get-plant-by-id.yaml') });
  const anonymous = await server.inject({ method: 'GET', url: '/plants/7' });
  assertError(anonymous, 401, 40101);
  assert.match(String(anonymous.headers['www-authenticate']), /^Bearer /);
  const error = assertError(await server.inject({ method: 'GET', url: '/plants/7', headers: AUTH }), 404, 40402);
  assert.equal(error.message, 'No plant has the id 7.');
  assert.equal(
    (
      await server.inject({
        method: 'POST',
        url: '/plants',
        headers: { ...AUTH, 'content-type': 'application/json' },
        payload: '{"id": 7, "name": "Fern"}',
      })
    ).statusCode,
    200,
  );
  const read = await server.inject({ method: 'GET', url: '/plants/7', headers: AUTH });
  assert.equal(read.statusCode, 200);
  assert.deepEqual(read.json(), { name: 'Fern' });
  // Paths the document does not declare stay 404 before credentials.
  assertError(await server.inject({ method: 'GET', url: '/plants/7/leaves' }), 404, 40401);
});

test('PLANTSTORE_SPEC: the entry point serves another document without a rebuild', async () => {
  const { child, url, exited } = await startEntry({
    PLANTSTORE_TOKENS: 't',
    PLANTSTORE_SPEC: fixturePath('name-max-length.yaml'),
  });
  try {
    const create = (name: string) =>
      fetch(`${url}/plants`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({ id: 5, name }),
      });
    assert.equal((await create('n'.repeat(51))).status, 400);
    assert.equal((await create('n'.repeat(50))).status, 200);
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal((await exited).code, 0);
});

test('a format the server cannot check is served as an annotation, with a warning at start naming it', async () => {
  const specPath = evolved('format.yaml', NAME_DESCRIPTION, `${NAME_DESCRIPTION}          format: botanical-name\n`);
  const { child, lines, exited } = await startEntry({ PLANTSTORE_SPEC: specPath });
  child.kill('SIGTERM');
  await exited;
  assert.ok(
    lines.some((line) =>
      line.includes('format \\"botanical-name\\" at #/components/schemas/Plant/properties/name/format is not checked'),
    ),
    lines.join('\n'),
  );
});

test('a document the server cannot serve stops the start: exit 2, the keyword and its pointer, no stack trace', async () => {
  const cases: Array<[string, string, string, RegExp]> = [
    [
      'typo.yaml',
      NAME_DESCRIPTION,
      `${NAME_DESCRIPTION}          maxLenght: 50\n`,
      /maxLenght at #\/components\/schemas\/Plant\/properties\/name\/maxLenght: not a keyword/,
    ],
    [
      'bound.yaml',
      ID_FORMAT,
      `${ID_FORMAT}              minimum: one\n`,
      /minimum at #\/components\/schemas\/NewPlant\/allOf\/1\/properties\/id\/minimum: "one" is not a number/,
    ],
    [
      'regex.yaml',
      NAME_DESCRIPTION,
      `${NAME_DESCRIPTION}          pattern: '['\n`,
      /pattern at #\/components\/schemas\/Plant\/properties\/name\/pattern: not an ECMA-262 regular expression/,
    ],
    [
      'lookahead.yaml',
      NAME_DESCRIPTION,
      `${NAME_DESCRIPTION}          pattern: '^(?!admin)'\n`,
      /pattern at #\/components\/schemas\/Plant\/properties\/name\/pattern: lookahead and lookbehind .* need a backtracking engine/,
    ],
    [
      'length.yaml',
      NAME_DESCRIPTION,
      `${NAME_DESCRIPTION}          maxLength: -1\n`,
      /maxLength at #\/components\/schemas\/Plant\/properties\/name\/maxLength: not a valid JSON Schema 2020-12 value/,
    ],
    [
      'remote.yaml',
      "$ref: '#/components/schemas/Plant'\n        - type",
      "$ref: 'plant.yaml#/Plant'\n        - type",
      /\$ref at #\/components\/schemas\/NewPlant\/allOf\/0\/\$ref: "plant.yaml#\/Plant"/,
    ],
    ['version.yaml', 'openapi: 3.1.0', 'openapi: 3.0.3', /openapi at #\/openapi: "3.0.3": only OpenAPI 3.1/],
    [
      'no-body.yaml',
      '      requestBody:\n',
      '      x-requestBody:\n',
      /no operation with operationId createPlant|declares no request body/,
    ],
  ];
  for (const [name, anchor, replacement, message] of cases) {
    const specPath = evolved(name, anchor, replacement);
    const { code, stderr } = await runProcess({
      file: process.execPath,
      args: [ENTRY],
      env: { PORT: '0', PLANTSTORE_SPEC: specPath },
      stdout: 'ignore',
      timeoutMs: 20_000,
    });
    assert.equal(code, 2, `${name}: ${stderr}`);
    assert.match(stderr, /^plantstore: cannot serve the OpenAPI document /, name);
    assert.match(stderr, message, name);
    assert.doesNotMatch(stderr, /\n\s+at /, `${name}: no stack trace`);
  }
  const missing = await runProcess({
    file: process.execPath,
    args: [ENTRY],
    env: { PORT: '0', PLANTSTORE_SPEC: join(dir, 'missing.yaml') },
    stdout: 'ignore',
    timeoutMs: 20_000,
  });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read .*missing\.yaml/);
});

test('the document parsed at build time is the document: used for its own text only', () => {
  const text = readFileSync(OPENAPI_PATH, 'utf8');
  const bigints = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value);
  const saved = JSON.parse(readFileSync(PARSED_DOCUMENT_PATH, 'utf8')) as { source: string };
  assert.equal(saved.source, text, 'the build parsed the shipped text');
  assert.equal(
    JSON.stringify(loadOpenApi(), bigints),
    JSON.stringify(JSON.parse(serializeParsedDocument(text)).document, bigints),
  );
  // An edited copy is parsed from its own text, not taken from the build.
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-parsed-'));
  try {
    const edited = join(dir, 'openapi.yaml');
    writeFileSync(edited, text.replace('version: 1.0.0', 'version: 1.0.1'));
    assert.equal(loadOpenApi(edited).info.version, '1.0.1');
    assert.notEqual(loadOpenApi().info.version, '1.0.1');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
