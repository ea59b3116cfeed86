// The request-body validator generated at build time (Ajv standalone code,
// dist/spec/openapi.validator.js) against the one compiled at run time for
// the same document: the same violations, messages and pointers, for valid
// and invalid bodies, int64 edges, bigints and numerals kept exact. The
// server uses the generated one for the shipped document's text only, and
// then loads neither Ajv's compiler nor the YAML parser.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { NonIntegralNumber, parseJson } from '../../server/json/json.js';
import { requestBodySchema, VALIDATOR_OPTIONS } from '../../server/http/request-body.js';
import { loadOperationContract } from '../../server/http/validation.js';
import { loadOpenApi, OPENAPI_PATH } from '../../spec/openapi.js';
import * as shipped from '../../spec/openapi.validator.js';
import { schemaValidators, validatorModule, validatorOf, type Validate } from '../../spec/validator.js';
import { fixturePath } from '../support/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-generated-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const shippedText = readFileSync(OPENAPI_PATH, 'utf8');

/** Files loaded through require() so far (Node's module cache, which createRequire shares). */
function loadedFiles(): string[] {
  return Object.keys(createRequire(import.meta.url).cache);
}
const AJV_COMPILER = /[\\/]ajv[\\/]dist[\\/]2020\.js$/;
const YAML_PARSER = /[\\/]node_modules[\\/]yaml[\\/]/;

// First in this file: nothing here has compiled a schema or parsed YAML yet.
test('the shipped document is served by the generated validator: neither Ajv’s compiler nor the YAML parser is loaded', () => {
  const contract = loadOperationContract();
  assert.deepEqual(contract.validateRequestBody({ id: 1, name: 'Monstera' }), []);
  assert.deepEqual(contract.validateRequestBody({ id: '1' }), ['/name is required', '/id must be an integer (int64)']);
  assert.equal(
    loadedFiles().filter((file) => AJV_COMPILER.test(file) || YAML_PARSER.test(file)).length,
    0,
    loadedFiles().join('\n'),
  );
  // Any other text is compiled: the same document with one more comment line loads both.
  const copy = join(dir, 'openapi.yaml');
  writeFileSync(copy, `${shippedText}# a copy\n`);
  loadOperationContract(copy);
  assert.ok(loadedFiles().some((file) => AJV_COMPILER.test(file)));
  assert.ok(loadedFiles().some((file) => YAML_PARSER.test(file)));
});

test('the generated validator was generated from the shipped text, for the request body’s schema', () => {
  assert.equal(shipped.source, shippedText);
  assert.equal(shipped.schemaPointer, requestBodySchema(loadOpenApi()).schemaPointer);
});

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

/** Values a field may hold: right and wrong types, int64 edges, bigints, numerals kept exact, nested values. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    0,
    -0,
    1,
    -1,
    0.5,
    99.5,
    100,
    1.5,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31),
    -(2 ** 31) - 1,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    2 ** 53,
    1e300,
    INT64_MAX,
    INT64_MAX + 1n,
    INT64_MIN,
    INT64_MIN - 1n,
    2n ** 100n,
    -(2n ** 100n),
    new NonIntegralNumber('1e-400'),
    new NonIntegralNumber('1.0000000000000000001'),
    new NonIntegralNumber('-0.5e-330'),
    '',
    'x',
    'ab',
    'Monstera',
    'green',
    'red',
    'dark',
    '2024-02-29',
    '2024-02-30',
    'n'.repeat(51),
    'тропический',
    '\u{1F331}',
    null,
    true,
    false,
    [],
    ['ab'],
    ['ab', 'ab'],
    ['ab', 'cd', 'ef', 'gh'],
    {},
    { id: 1 },
  ),
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: INT64_MIN - 10n, max: INT64_MAX + 10n }),
  fc.string(),
  fc.jsonValue({ maxDepth: 2 }),
);
const FIELDS = [
  'id',
  'name',
  'tag',
  'height',
  'leaves',
  'colour',
  'since',
  'code',
  'light',
  'extra',
  'a-very-long-property-name-over-twenty',
];
const body: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), anyValue, { maxKeys: 6 }) },
  { weight: 1, arbitrary: anyValue },
);

/** Bodies as the server's parser reads them (numbers, bigints beyond 2^53, NonIntegralNumber). */
const PARSED = [
  '{"id": 1, "name": "Monstera", "tag": "tropical"}',
  '{"id": 9223372036854775807, "name": "x"}',
  '{"id": 9223372036854775808, "name": "x"}',
  '{"id": -9223372036854775808, "name": "x"}',
  '{"id": -9223372036854775809, "name": "x"}',
  '{"id": 9007199254740993, "name": "x"}',
  '{"id": 5.0, "name": "x"}',
  '{"id": 5e0, "name": "x"}',
  '{"id": 1e-400, "name": "x"}',
  '{"id": 1.0000000000000000001, "name": "x"}',
  '{"id": 1e400, "name": "x"}',
  '{"id": "7", "name": 42, "tag": null}',
  '{"name": "x", "height": 99.5, "leaves": ["ab"]}',
  '[]',
  'null',
  '"a string"',
  '42',
  '{}',
].map((text) => parseJson(text));

function assertSameViolations(
  generated: Validate,
  compiled: Validate,
  bodies: unknown[],
): { valid: number; invalid: number } {
  let valid = 0;
  for (const value of bodies) {
    const expected = compiled(value);
    assert.deepEqual(
      generated(value),
      expected,
      `${String(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)))}`,
    );
    if (expected.length === 0) valid++;
  }
  return { valid, invalid: bodies.length - valid };
}

const samples = (count: number) => [...PARSED, ...fc.sample(body, { numRuns: count, seed: 42 })];

test('the shipped document: the generated validator reports what the compiled one reports, message and pointer', () => {
  const doc = loadOpenApi();
  const { schema, schemaPointer } = requestBodySchema(doc);
  const compiled = schemaValidators(doc, VALIDATOR_OPTIONS).compile(schema, schemaPointer);
  const generated = validatorOf(shipped.validate, schemaPointer, VALIDATOR_OPTIONS);
  const { valid, invalid } = assertSameViolations(generated, compiled, samples(3000));
  assert.ok(valid > 0 && invalid > 0, `both valid (${valid}) and invalid (${invalid}) bodies were compared`);
  assert.deepEqual(generated(parseJson('{"id": 9223372036854775808, "name": "x"}')), [
    {
      instancePath: '/id',
      keyword: 'format',
      message: 'must be an integer from -9223372036854775808 to 9223372036854775807 (int64)',
      pointer: '#/components/schemas/NewPlant/allOf/1/properties/id/format',
    },
  ]);
  assert.deepEqual(
    generated(parseJson('{"id": 1e-400, "name": "x"}')).map((v) => v.message),
    ['must be an integer (int64)'],
  );
});

test('the server’s answers: the shipped document and a copy compiled at run time say the same sentences', () => {
  const copy = join(dir, 'same-text-plus-comment.yaml');
  writeFileSync(copy, `${shippedText}# a copy\n`);
  const generated = loadOperationContract();
  const compiled = loadOperationContract(copy);
  for (const value of samples(1000)) {
    assert.deepEqual(generated.validateRequestBody(value as never), compiled.validateRequestBody(value as never));
  }
});

/** A module made by validatorModule, written beside spec/exact-keyword.js (which it imports), then loaded. */
async function generatedModule(specPath: string): Promise<{ validate: Validate; compiled: Validate }> {
  const doc = loadOpenApi(specPath);
  const { schema, schemaPointer } = requestBodySchema(doc);
  const file = fileURLToPath(
    new URL(`../../spec/openapi.validator.test-${process.pid}-${specPath.split(/[\\/]/).pop()}.js`, import.meta.url),
  );
  writeFileSync(file, validatorModule(doc, schema, schemaPointer, VALIDATOR_OPTIONS));
  try {
    const loaded = (await import(file)) as typeof shipped;
    return {
      validate: validatorOf(loaded.validate, schemaPointer, VALIDATOR_OPTIONS),
      compiled: schemaValidators(doc, VALIDATOR_OPTIONS).compile(schema, schemaPointer),
    };
  } finally {
    rmSync(file, { force: true });
  }
}

test('generated for other documents (Ajv’s runtime helpers imported, bounds beyond 2^53): the same violations', async () => {
  const bigBound = join(dir, 'big-bound.yaml');
  writeFileSync(
    bigBound,
    shippedText.replace(
      '              format: int64\n',
      '              format: int64\n              maximum: 9223372036854775806\n              multipleOf: 3\n',
    ),
  );
  for (const specPath of [
    fixturePath('every-keyword.yaml'),
    fixturePath('name-max-length.yaml'),
    fixturePath('tag-enum.yaml'),
    fixturePath('id-minimum.yaml'),
    bigBound,
  ]) {
    const { validate, compiled } = await generatedModule(specPath);
    const { valid, invalid } = assertSameViolations(validate, compiled, samples(1500));
    assert.ok(
      valid > 0 && invalid > 0,
      `${specPath}: both valid (${valid}) and invalid (${invalid}) bodies were compared`,
    );
  }
});
