// The meta-schema's check generated at build time (spec/meta-schema.ts,
// written by scripts/bundle-server.mjs): the build writes it, the validators
// use it instead of compiling the meta-schema in every process, and it
// finds in every schema what Ajv's own check finds, with the same errors.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { ajvModules } from '../../spec/ajv.js';
import { exactKeyword } from '../../spec/exact-keyword.js';
import { ajvRegExp } from '../../spec/linear-pattern.js';
import { generatedMetaSchemaValidator, META_SCHEMA_VALIDATOR_FILE, metaSchemaErrors } from '../../spec/meta-schema.js';
import { DocumentError, loadOpenApi } from '../../spec/openapi.js';
import { checkedStringFormats, schemaValidators } from '../../spec/validator.js';
import { VALIDATOR_OPTIONS } from '../../server/http/request-body.js';

/** An Ajv as the validators make one (spec/validator.ts newAjv), which compiles the meta-schema to check a schema. */
function ajvAsTheValidatorsMakeIt() {
  const { ajv: ajvModule, addFormats } = ajvModules();
  const ajv = new ajvModule.default({
    allErrors: true,
    strict: false,
    logger: false,
    verbose: true,
    passContext: true,
    code: { regExp: ajvRegExp },
  });
  addFormats(ajv, checkedStringFormats() as Parameters<typeof addFormats>[1]);
  ajv.addKeyword(exactKeyword());
  return ajv;
}

const VALID: unknown[] = [
  {},
  true,
  false,
  { type: ['string', 'null'], maxLength: 5 },
  { $defs: { Plant: { type: 'integer', minimum: 1 } }, $ref: '#/$defs/Plant' },
  { pattern: '^[a-z]+$', $anchor: 'plant_1' },
  { properties: { tag: { enum: ['a', 'b'] } }, required: ['tag'], unevaluatedProperties: false },
  { prefixItems: [{ type: 'string' }], items: { const: 1 }, dependentSchemas: { a: { required: ['b'] } } },
  { format: 'x-unknown', deprecated: true, examples: [1], 'x-extension': { anything: [] } },
];
const INVALID: unknown[] = [
  { type: 'strin' },
  { type: 5 },
  { minimum: '1' },
  { maxLength: -1 },
  { maxLength: 1.5 },
  { required: 'name' },
  { required: [1] },
  { enum: 'tropical' },
  { multipleOf: 0 },
  { $anchor: '1-not-an-anchor' },
  { allOf: [] },
  { anyOf: [{ minimum: 'x' }] },
  { properties: { name: { type: 'text' } } },
  { items: { items: { pattern: 5 } } },
  { $defs: { Plant: { type: 5 } } },
  { additionalProperties: 5 },
  { dependentRequired: { a: 'b' } },
  { uniqueItems: 'yes', minProperties: -2 },
  { $ref: 5 },
  { deprecated: 'no', examples: 'x' },
  5,
];

const shown = (errors: readonly { instancePath: string; keyword: string; message?: string; schemaPath: string }[]) =>
  errors.map(({ instancePath, keyword, message, schemaPath }) => ({ instancePath, keyword, message, schemaPath }));

test('the build wrote the meta-schema check, and the validators use it', () => {
  assert.ok(existsSync(META_SCHEMA_VALIDATOR_FILE), `${META_SCHEMA_VALIDATOR_FILE} is written by npm run build`);
  assert.notEqual(generatedMetaSchemaValidator(), null);
});

test('the generated check finds in every schema what Ajv compiling the meta-schema finds, with the same errors', () => {
  const ajv = ajvAsTheValidatorsMakeIt();
  const generated = generatedMetaSchemaValidator()!;
  for (const schema of [...VALID, ...INVALID]) {
    const expected = ajv.validateSchema(schema as object) === true ? undefined : shown(ajv.errors ?? []);
    const actual = generated(schema) ? undefined : shown(generated.errors ?? []);
    assert.deepEqual(actual, expected, JSON.stringify(schema));
    assert.deepEqual(
      metaSchemaErrors(ajv, schema) === undefined,
      VALID.includes(schema),
      `${JSON.stringify(schema)} is ${VALID.includes(schema) ? 'valid' : 'invalid'}`,
    );
  }
});

test('a schema the meta-schema refuses is a DocumentError naming the keyword and its pointer', () => {
  const validators = schemaValidators(loadOpenApi(), VALIDATOR_OPTIONS);
  assert.throws(
    () => validators.compile({ type: 'object', properties: { name: { maxLength: -1 } } }, '#/x-test'),
    (error: unknown) =>
      error instanceof DocumentError &&
      /#\/x-test\/properties\/name\/maxLength/.test(error.message) &&
      /not a valid JSON Schema 2020-12 value/.test(error.message),
  );
});
