// A grammar of small changes a spec author makes to the document, as
// fast-check arbitraries: each draws spec/openapi.yaml with one to three
// changes (a new optional property of Plant of any JSON Schema 2020-12 shape,
// nested up to two levels; a tighter bound on name, tag or the id). The
// documents stay valid OpenAPI 3.1 with valid examples, so that the
// reference server can serve each one and the harness can check it.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { OPENAPI_PATH } from '../../spec/openapi.js';

type Schema = Record<string, unknown>;

const PATTERNS = ['^[A-Za-z][A-Za-z ]*$', '^\\S(.*\\S)?$', '^[a-z0-9-]+$', '^[A-Z]{2}[0-9]{2}$'];
const FORMATS = ['date', 'email', 'uuid', 'date-time'];

const stringSchema: fc.Arbitrary<Schema> = fc.oneof(
  fc.record(
    {
      type: fc.constant('string'),
      minLength: fc.integer({ min: 0, max: 3 }),
      maxLength: fc.integer({ min: 4, max: 40 }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constant('string'), pattern: fc.constantFrom(...PATTERNS) }),
  fc.record({ type: fc.constant('string'), format: fc.constantFrom(...FORMATS) }),
  fc.record({
    type: fc.constant('string'),
    enum: fc.uniqueArray(fc.constantFrom('green', 'red', 'variegated', 'white'), { minLength: 1, maxLength: 3 }),
  }),
);

const integerSchema: fc.Arbitrary<Schema> = fc.record(
  {
    type: fc.constant('integer'),
    format: fc.constantFrom('int32', 'int64'),
    minimum: fc.integer({ min: -10, max: 5 }),
    maximum: fc.integer({ min: 50, max: 1000 }),
    multipleOf: fc.integer({ min: 2, max: 7 }),
  },
  { requiredKeys: ['type'] },
);

const numberSchema: fc.Arbitrary<Schema> = fc.record(
  {
    type: fc.constant('number'),
    exclusiveMinimum: fc.constantFrom(0, -1.5),
    exclusiveMaximum: fc.constantFrom(100, 9.75),
    multipleOf: fc.constantFrom(0.5, 0.25, 0.01),
  },
  { requiredKeys: ['type'] },
);

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  stringSchema,
  integerSchema,
  numberSchema,
  fc.constant({ type: 'boolean' }),
  fc.constant({ enum: [0, 0.5, true, null, 'none'] }),
  fc.constant({ const: 2 }),
);

/** Schemas nested up to `depth` levels: objects with required members, arrays of them, oneOf of two objects. */
function schemaOf(depth: number): fc.Arbitrary<Schema> {
  if (depth === 0) return leaf;
  const inner = schemaOf(depth - 1);
  const object = fc
    .tuple(
      fc.uniqueArray(fc.constantFrom('colour', 'size', 'count', 'note', 'zone'), { minLength: 1, maxLength: 3 }),
      fc.array(inner, { minLength: 3, maxLength: 3 }),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([names, schemas, requireFirst, closed]): Schema => ({
      type: 'object',
      properties: Object.fromEntries(names.map((n, i) => [n, schemas[i]!])),
      ...(requireFirst ? { required: [names[0]] } : {}),
      ...(closed ? { additionalProperties: false } : {}),
    }));
  const array = fc
    .tuple(inner, fc.integer({ min: 0, max: 2 }), fc.integer({ min: 3, max: 5 }), fc.boolean())
    .map(([items, minItems, maxItems, unique]): Schema => ({
      type: 'array',
      items,
      minItems,
      maxItems,
      ...(unique && items.type === 'string' && !('enum' in items) ? { uniqueItems: true } : {}),
    }));
  const oneOf = fc.tuple(inner, inner).map(([a, b]): Schema => ({
    oneOf: [
      {
        type: 'object',
        required: ['kind', 'a'],
        properties: { kind: { const: 'first' }, a: a },
        additionalProperties: false,
      },
      {
        type: 'object',
        required: ['kind', 'b'],
        properties: { kind: { const: 'second' }, b: b },
        additionalProperties: false,
      },
    ],
  }));
  return fc.oneof(inner, object, array, oneOf);
}

/** One change to the parsed document, and what it is. */
type Change = { what: string; apply: (doc: Schema) => void };

const schemas = (doc: Schema) => (doc.components as Schema).schemas as Record<string, Schema>;
const plantProps = (doc: Schema) => schemas(doc).Plant!.properties as Record<string, Schema>;
const idSchema = (doc: Schema) =>
  ((schemas(doc).NewPlant!.allOf as Schema[])[1]!.properties as Record<string, Schema>).id!;

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.tuple(fc.constantFrom('extra', 'habitat', 'care', 'leaves'), schemaOf(2)).map(([name, schema]) => ({
    what: `Plant gets an optional ${name}: ${JSON.stringify(schema)}`,
    apply: (doc: Schema) => {
      plantProps(doc)[name] = schema;
    },
  })),
  fc.record({ minLength: fc.integer({ min: 1, max: 4 }), maxLength: fc.integer({ min: 20, max: 60 }) }).map((b) => ({
    what: `Plant.name gets minLength ${b.minLength} and maxLength ${b.maxLength}`,
    apply: (doc: Schema) => Object.assign(plantProps(doc).name!, b),
  })),
  fc.constantFrom(...PATTERNS.slice(0, 2)).map((pattern) => ({
    what: `Plant.name gets the pattern ${pattern}`,
    apply: (doc: Schema) => Object.assign(plantProps(doc).name!, { pattern }),
  })),
  fc.constant({
    what: 'Plant.tag gets an enum',
    apply: (doc: Schema) => Object.assign(plantProps(doc).tag!, { enum: ['tropical', 'succulent', 'fern'] }),
  }),
  fc.constant({
    what: 'Plant.tag may be null',
    apply: (doc: Schema) => Object.assign(plantProps(doc).tag!, { type: ['string', 'null'] }),
  }),
  fc
    .record({
      minimum: fc.constantFrom(0, 1),
      maximum: fc.constantFrom(10 ** 6, 10 ** 15),
      multipleOf: fc.constantFrom(1, 2, 3),
    })
    .map((b) => ({
      what: `NewPlant.id gets minimum ${b.minimum}, maximum ${b.maximum} and multipleOf ${b.multipleOf}`,
      apply: (doc: Schema) => {
        Object.assign(idSchema(doc), b);
        // The author keeps the examples valid: their ids become multiples too.
        const examples = (((doc.paths as Schema)['/plants'] as Schema).post as Schema).requestBody as Schema;
        const media = (examples.content as Schema)['application/json'] as Schema;
        Object.values(media.examples as Record<string, Schema>).forEach((e, i) =>
          Object.assign(e.value as Schema, { id: b.multipleOf * (i + 1) }),
        );
      },
    })),
);

export interface EvolvedDraw {
  /** What was changed, one line each. */
  changes: string[];
  /** The document, as JSON text (JSON is YAML: the server and the harness read it as they read spec/openapi.yaml). */
  text: string;
}

/** spec/openapi.yaml with one to three changes of the grammar. */
export const evolvedDocument: fc.Arbitrary<EvolvedDraw> = fc
  .array(change, { minLength: 1, maxLength: 3 })
  .map((changes) => {
    const doc = parse(readFileSync(OPENAPI_PATH, 'utf8')) as Schema;
    for (const c of changes) c.apply(doc);
    const what = changes.map((c) => c.what);
    // A counterexample prints as its changes, not as the whole document.
    return {
      changes: what,
      text: JSON.stringify(doc, null, 2),
      [fc.toStringMethod]: () => `the document with: ${what.join('; ')}`,
    };
  });
