// The rules alone (no server): each pair of test/compat/pairs.ts is
// classified as JSON Schema 2020-12 and OpenAPI 3.1 say, every change of the
// pair and no other; and the keyword rules that need care (bounds written
// two ways, formats, steps, references) on small schemas.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sidesOf } from '../../conformance/compat/change.js';
import { diffDocuments } from '../../conformance/compat/diff.js';
import { compareSchemas } from '../../conformance/compat/schema-diff.js';
import { KEYWORDS } from '../../spec/schema-keywords.js';
import { loadOpenApi, type OpenApiDocument } from '../../spec/openapi.js';
import { PAIRS, slugOf, writePair, type Pair } from './pairs.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-compat-rules-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('compat rules', { timeout: 300_000 }, () => {
  for (const pair of PAIRS) {
    it(`${pair.name}: every change classified for clients and servers, with its pointer and source`, () => {
      const paths = writePair(pair, dir, slugOf(pair.name));
      const changes = diffDocuments(loadOpenApi(paths.base), loadOpenApi(paths.head));
      const listed = changes
        .map((c) => `${c.id} ${c.keyword} ${c.pointer} clients ${c.clients} servers ${c.servers}: ${c.what}`)
        .join('\n');
      for (const e of pair.changes) {
        const found = changes.find((c) => c.keyword === e.keyword && c.pointer.includes(e.at));
        assert.ok(found, `no ${e.keyword} change at ${e.at} among:\n${listed}`);
        assert.equal(found.clients, e.clients, `clients, ${found.what}`);
        assert.equal(found.servers, e.servers, `servers, ${found.what}`);
        assert.match(
          found.source.document,
          /JSON Schema (Validation|Core) 2020-12|OpenAPI 3\.1\.0|Plant Store specification/,
        );
        assert.ok(found.bearings.length > 0);
      }
      assert.equal(changes.length, pair.changes.length, `exactly the expected changes:\n${listed}`);
    });
  }

  it('a property removed and one of the same schema added in its place is one change, said as a rename; two candidates stay apart', () => {
    const renamed = (head: Pair['head'], name: string) => {
      const paths = writePair({ name, head, changes: [], exit: 1 }, dir, name);
      return diffDocuments(loadOpenApi(paths.base), loadOpenApi(paths.head));
    };
    const tag = { type: 'string', description: 'A word to sort plants by' };
    const one = renamed(
      [
        { set: '/components/schemas/Plant/properties/label', value: tag },
        { remove: '/components/schemas/Plant/properties/tag' },
      ],
      'rename-one',
    );
    assert.deepEqual(
      one.map((c) => c.what),
      ['property tag renamed to label'],
    );
    assert.equal(one[0]!.renamedFrom, 'tag');
    assert.equal(one[0]!.member, 'label');
    // Its bearings are the removal's and the addition's together: the answer no longer carries tag (clients), new clients' label is dropped by existing servers.
    assert.deepEqual([one[0]!.clients, one[0]!.servers], ['breaks', 'breaks']);
    // Two properties of that schema come where one went: which became which cannot be told.
    const two = renamed(
      [
        { set: '/components/schemas/Plant/properties/label', value: tag },
        { set: '/components/schemas/Plant/properties/kind', value: tag },
        { remove: '/components/schemas/Plant/properties/tag' },
      ],
      'rename-two',
    );
    assert.equal(two.length, 3, two.map((c) => c.what).join('\n'));
    // Another schema in its place is no rename: a removal and an addition.
    const other = renamed(
      [
        { set: '/components/schemas/Plant/properties/label', value: { type: 'integer' } },
        { remove: '/components/schemas/Plant/properties/tag' },
      ],
      'rename-other',
    );
    assert.deepEqual(
      other.map((c) => c.what),
      ['property tag removed', 'property label added'],
    );
  });

  it('a document compared with itself has no change', () => {
    const doc = loadOpenApi();
    assert.deepEqual(diffDocuments(doc, loadOpenApi()), []);
  });

  const doc = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {},
    components: { schemas: {} },
  } as unknown as OpenApiDocument;
  const effects = (before: unknown, after: unknown) =>
    compareSchemas(doc, doc, before, '#/b', after, '#/h').deltas.map((d) => `${d.keyword}:${d.effect}`);

  it('reads a bound written two ways as one bound: for integers, exclusiveMinimum 0 is minimum 1', () => {
    assert.deepEqual(effects({ type: 'integer', minimum: 1 }, { type: 'integer', exclusiveMinimum: 0 }), [
      'minimum:none',
      'exclusiveMinimum:none',
    ]);
    // For numbers it is not: 0.5 passes exclusiveMinimum 0 and not minimum 1.
    assert.deepEqual(effects({ type: 'number', minimum: 1 }, { type: 'number', exclusiveMinimum: 0 }), [
      'minimum:looser',
      'exclusiveMinimum:looser',
    ]);
    assert.deepEqual(effects({ maximum: 10 }, { exclusiveMaximum: 10 }), [
      'maximum:tighter',
      'exclusiveMaximum:tighter',
    ]);
    assert.deepEqual(effects({ maximum: 9223372036854775807n }, { maximum: 9223372036854775806n }), [
      'maximum:tighter',
    ]);
  });

  it('compares steps, formats, types, lengths and required names by what they accept', () => {
    assert.deepEqual(effects({ multipleOf: 2 }, { multipleOf: 4 }), ['multipleOf:tighter']);
    assert.deepEqual(effects({ multipleOf: 0.5 }, { multipleOf: 0.25 }), ['multipleOf:looser']);
    assert.deepEqual(effects({ multipleOf: 2 }, { multipleOf: 3 }), ['multipleOf:both']);
    assert.deepEqual(effects({ type: 'integer', format: 'int64' }, { type: 'integer', format: 'int32' }), [
      'format:tighter',
    ]);
    assert.deepEqual(effects({ type: 'string', format: 'plant-code' }, { type: 'string', format: 'other-code' }), [
      'format:none',
    ]);
    assert.deepEqual(effects({ type: 'number' }, { type: 'integer' }), ['type:tighter']);
    assert.deepEqual(effects({ type: 'integer' }, { type: ['number', 'null'] }), ['type:looser']);
    assert.deepEqual(effects({ type: 'string' }, { type: 'integer' }), ['type:both']);
    assert.deepEqual(effects({ minLength: 0 }, {}), ['minLength:looser']);
    assert.deepEqual(effects({}, { minLength: 0 }), ['minLength:none']);
    assert.deepEqual(effects({ required: ['a', 'b'] }, { required: ['b', 'c'] }), [
      'required:tighter',
      'required:looser',
    ]);
    assert.deepEqual(effects({ enum: [1, 2] }, { enum: [2.0, 1] }), []);
  });

  it('reads a change under not the other way round, and an additionalProperties: false as a closed object', () => {
    assert.deepEqual(effects({ not: { maxLength: 5 } }, { not: { maxLength: 3 } }), ['maxLength:looser']);
    assert.deepEqual(effects({ properties: { a: {} } }, { properties: { a: {} }, additionalProperties: false }), [
      'additionalProperties:tighter',
    ]);
    assert.deepEqual(
      effects(
        { properties: {}, additionalProperties: false },
        { properties: { a: { type: 'string' } }, additionalProperties: false },
      ),
      ['properties:looser'],
    );
  });

  it('has a rule for every keyword of JSON Schema 2020-12 and OpenAPI 3.1 (spec/schema-keywords.ts): adding each says what it does, never "not compared"', () => {
    // A value each keyword may take, added to an empty schema.
    const samples: Record<string, unknown> = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/s',
      $ref: '#/components/schemas/X',
      $anchor: 'a',
      $dynamicRef: '#a',
      $dynamicAnchor: 'a',
      $vocabulary: {},
      $comment: 'c',
      $defs: {},
      allOf: [{ maxLength: 1 }],
      anyOf: [{}],
      oneOf: [{}],
      not: {},
      if: {},
      then: { maxLength: 1 },
      else: { maxLength: 1 },
      dependentSchemas: { a: {} },
      prefixItems: [{}],
      items: false,
      contains: {},
      properties: { a: {} },
      patternProperties: { '^a': {} },
      additionalProperties: false,
      propertyNames: { maxLength: 3 },
      unevaluatedItems: false,
      unevaluatedProperties: false,
      type: 'string',
      enum: [1],
      const: 1,
      multipleOf: 2,
      maximum: 1,
      exclusiveMaximum: 1,
      minimum: 1,
      exclusiveMinimum: 1,
      maxLength: 1,
      minLength: 1,
      pattern: '^a',
      maxItems: 1,
      minItems: 1,
      uniqueItems: true,
      maxContains: 1,
      minContains: 2,
      maxProperties: 1,
      minProperties: 1,
      required: ['a'],
      dependentRequired: { a: ['b'] },
      format: 'int32',
      contentEncoding: 'base64',
      contentMediaType: 'text/plain',
      contentSchema: {},
      title: 't',
      description: 'd',
      default: 1,
      deprecated: true,
      readOnly: true,
      writeOnly: true,
      examples: [1],
      discriminator: { propertyName: 'a' },
      xml: { name: 'a' },
      externalDocs: { url: 'https://example.com' },
      example: 1,
    };
    const withX = { ...doc, components: { schemas: { X: { type: 'string' } } } } as unknown as OpenApiDocument;
    for (const keyword of Object.keys(KEYWORDS)) {
      assert.ok(Object.hasOwn(samples, keyword), `a sample value for ${keyword}`);
      const deltas = compareSchemas(withX, withX, {}, '#/b', { [keyword]: samples[keyword] }, '#/h').deltas;
      assert.ok(deltas.length > 0, `${keyword} added is a change`);
      for (const d of deltas) {
        assert.ok(
          !(d.reason ?? '').startsWith(`${keyword} is not compared here`) && !/not a keyword/.test(d.reason ?? ''),
          `${keyword}: ${d.what}`,
        );
        assert.ok(d.source.section.length > 0, keyword);
      }
    }
  });

  it('maps what a change does to the side it breaks: a request written by clients, an answer read by them', () => {
    assert.deepEqual(sidesOf('tighter', 'request'), { clients: 'breaks', servers: 'compatible' });
    assert.deepEqual(sidesOf('looser', 'request'), { clients: 'compatible', servers: 'breaks' });
    assert.deepEqual(sidesOf('tighter', 'response'), { clients: 'compatible', servers: 'breaks' });
    assert.deepEqual(sidesOf('looser', 'response'), { clients: 'breaks', servers: 'compatible' });
    assert.deepEqual(sidesOf('unknown', 'response'), { clients: 'unknown', servers: 'unknown' });
  });
});
