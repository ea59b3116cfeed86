// Validators compiled once per process (spec/compiled-schemas.ts): a schema
// compiled again, from another reading of the document or another
// validator set, reuses the function; anything that makes two schemas
// differ (a keyword, a pointer, a bigint for a number) compiles anew, and a
// schema that cannot be compiled is refused every time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compiledSchemaCount, schemaKey } from '../../spec/compiled-schemas.js';
import { DocumentError, loadOpenApi } from '../../spec/openapi.js';
import { schemaValidators } from '../../spec/validator.js';
import { VALIDATOR_OPTIONS } from '../../server/http/request-body.js';

const schema = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 3 } } };

test('the same schema from two readings of the document is compiled once; another pointer or keyword compiles anew', () => {
  const before = compiledSchemaCount();
  const first = schemaValidators(loadOpenApi(), VALIDATOR_OPTIONS).compile(schema, '#/x-first');
  assert.equal(compiledSchemaCount(), before + 1);
  const again = schemaValidators(loadOpenApi(), VALIDATOR_OPTIONS).compile(structuredClone(schema), '#/x-first');
  assert.equal(compiledSchemaCount(), before + 1, 'the second reading found the first compile');
  const elsewhere = schemaValidators(loadOpenApi(), VALIDATOR_OPTIONS).compile(schema, '#/x-second');
  assert.equal(compiledSchemaCount(), before + 2, 'another pointer is another schema');
  schemaValidators(loadOpenApi(), VALIDATOR_OPTIONS).compile(
    { ...schema, properties: { name: { type: 'string', maxLength: 4 } } },
    '#/x-first',
  );
  assert.equal(compiledSchemaCount(), before + 3, 'another bound is another schema');

  // Each validator reports its own schema's pointers, and the shared function gives the same verdicts.
  const tooLong = { name: 'abcd' };
  assert.deepEqual(first(tooLong), again(tooLong));
  assert.deepEqual(
    first(tooLong).map((v) => v.pointer),
    ['#/x-first/properties/name/maxLength'],
  );
  assert.deepEqual(
    elsewhere(tooLong).map((v) => v.pointer),
    ['#/x-second/properties/name/maxLength'],
  );
  assert.deepEqual(first({ name: 'abc' }), []);
  assert.deepEqual(
    first({}).map((v) => v.keyword),
    ['required'],
  );
});

test('a schema that cannot be compiled is a DocumentError each time it is asked for', () => {
  const before = compiledSchemaCount();
  for (let attempt = 0; attempt < 2; attempt++)
    assert.throws(
      () => schemaValidators(loadOpenApi(), VALIDATOR_OPTIONS).compile({ type: 'string', minLength: 'x' }, '#/x-bad'),
      DocumentError,
    );
  assert.equal(compiledSchemaCount(), before);
});

test('the key tells apart what JSON would write alike: a bigint and its number, NaN and null, an object of a class and a plain one', () => {
  class Bound {
    constructor(readonly text: string) {}
  }
  const keys = [
    { maximum: 9007199254740993n },
    // eslint-disable-next-line no-loss-of-precision -- the double a parser would read it as, on purpose
    { maximum: 9007199254740993 },
    { maximum: '9007199254740993' },
    { const: NaN },
    { const: null },
    { const: new Bound('5.0') },
    { const: { text: '5.0' } },
  ].map(schemaKey);
  assert.equal(new Set(keys).size, keys.length, keys.join('\n'));
});
