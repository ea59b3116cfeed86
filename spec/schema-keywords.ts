// The keywords a schema of the document may use, and one schema-aware walk
// over them. OpenAPI 3.1's Schema Object is JSON Schema 2020-12 (its default
// dialect) plus a few OpenAPI keywords; the server refuses any other keyword,
// the harness reports it as not exercised. Knowing which keywords hold
// subschemas keeps data apart from schemas: a property named `example` or an
// `enum` value is never mistaken for a keyword.
// https://json-schema.org/draft/2020-12/json-schema-core and -validation;
// https://spec.openapis.org/oas/v3.1.0#schema-object

export type JsonSchema = Record<string, unknown>;

/** What a keyword does, after the vocabularies of JSON Schema 2020-12. */
export type KeywordKind =
  /** Says whether an instance is valid (minLength, required, type, ...). */
  | 'assertion'
  /** Applies subschemas (allOf, properties, items, ...). */
  | 'applicator'
  /** Identifies or references schemas ($ref, $defs, ...). */
  | 'core'
  /** Says something about an instance without judging it (description, examples, format by default, ...). */
  | 'annotation';

/** Where a keyword's subschemas are: one schema, an array of them, or a map of them. */
type Holds = 'schema' | 'array' | 'map';

interface KeywordInfo {
  kind: KeywordKind;
  /** The vocabulary (2020-12) or the document that defines it. */
  vocabulary: string;
  holds?: Holds;
}

const core = (holds?: Holds): KeywordInfo => ({ kind: 'core', vocabulary: 'core', holds });
const applicator = (holds: Holds, vocabulary = 'applicator'): KeywordInfo => ({
  kind: 'applicator',
  vocabulary,
  holds,
});
const assertion = (): KeywordInfo => ({ kind: 'assertion', vocabulary: 'validation' });
const annotation = (vocabulary: string, holds?: Holds): KeywordInfo => ({ kind: 'annotation', vocabulary, holds });

/** Every keyword of JSON Schema 2020-12 and of the OpenAPI 3.1 base vocabulary. */
export const KEYWORDS: Readonly<Record<string, KeywordInfo>> = {
  $schema: core(),
  $id: core(),
  $ref: core(),
  $anchor: core(),
  $dynamicRef: core(),
  $dynamicAnchor: core(),
  $vocabulary: core(),
  $comment: core(),
  $defs: core('map'),
  allOf: applicator('array'),
  anyOf: applicator('array'),
  oneOf: applicator('array'),
  not: applicator('schema'),
  if: applicator('schema'),
  then: applicator('schema'),
  else: applicator('schema'),
  dependentSchemas: applicator('map'),
  prefixItems: applicator('array'),
  items: applicator('schema'),
  contains: applicator('schema'),
  properties: applicator('map'),
  patternProperties: applicator('map'),
  additionalProperties: applicator('schema'),
  propertyNames: applicator('schema'),
  unevaluatedItems: applicator('schema', 'unevaluated'),
  unevaluatedProperties: applicator('schema', 'unevaluated'),
  type: assertion(),
  enum: assertion(),
  const: assertion(),
  multipleOf: assertion(),
  maximum: assertion(),
  exclusiveMaximum: assertion(),
  minimum: assertion(),
  exclusiveMinimum: assertion(),
  maxLength: assertion(),
  minLength: assertion(),
  pattern: assertion(),
  maxItems: assertion(),
  minItems: assertion(),
  uniqueItems: assertion(),
  maxContains: assertion(),
  minContains: assertion(),
  maxProperties: assertion(),
  minProperties: assertion(),
  required: assertion(),
  dependentRequired: assertion(),
  // 2020-12 §7.2.1: format is an annotation unless the format-assertion
  // vocabulary is in use; OpenAPI's integer formats and the formats a
  // validator knows are asserted (validator.ts says which).
  format: annotation('format-annotation'),
  contentEncoding: annotation('content'),
  contentMediaType: annotation('content'),
  contentSchema: annotation('content', 'schema'),
  title: annotation('meta-data'),
  description: annotation('meta-data'),
  default: annotation('meta-data'),
  deprecated: annotation('meta-data'),
  readOnly: annotation('meta-data'),
  writeOnly: annotation('meta-data'),
  examples: annotation('meta-data'),
  // OpenAPI 3.1 §4.8.24: the base vocabulary's fixed fields, all annotations.
  discriminator: annotation('OpenAPI 3.1'),
  xml: annotation('OpenAPI 3.1'),
  externalDocs: annotation('OpenAPI 3.1'),
  example: annotation('OpenAPI 3.1'),
};

/** OpenAPI annotations that are not JSON Schema keywords: a JSON Schema validator must not see them. */
export const OPENAPI_ONLY = new Set(['discriminator', 'xml', 'externalDocs', 'example']);

/** OpenAPI §4.9 specification extensions (`x-...`): annotations to every tool but the one that reads them. */
export function isExtension(keyword: string): boolean {
  return keyword.startsWith('x-');
}

export function keywordInfo(keyword: string): KeywordInfo | undefined {
  return Object.hasOwn(KEYWORDS, keyword) ? KEYWORDS[keyword] : undefined;
}

/** RFC 6901 escaping of one reference token. */
export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `pointer` with one more reference token. */
export function childPointer(pointer: string, ...tokens: Array<string | number>): string {
  return tokens.reduce<string>((p, t) => `${p}/${escapePointer(String(t))}`, pointer);
}

export function isSchemaObject(node: unknown): node is JsonSchema {
  return node !== null && typeof node === 'object' && !Array.isArray(node);
}

/** The subschemas directly inside `node`, with their pointers and the keyword holding them. */
export function subschemas(
  node: JsonSchema,
  pointer: string,
): Array<{ keyword: string; schema: unknown; pointer: string; key?: string | number }> {
  const out: Array<{ keyword: string; schema: unknown; pointer: string; key?: string | number }> = [];
  for (const [keyword, value] of Object.entries(node)) {
    const holds = keywordInfo(keyword)?.holds;
    if (holds === 'schema') out.push({ keyword, schema: value, pointer: childPointer(pointer, keyword) });
    else if (holds === 'array' && Array.isArray(value))
      value.forEach((s, i) => out.push({ keyword, schema: s, pointer: childPointer(pointer, keyword, i), key: i }));
    else if (holds === 'map' && isSchemaObject(value)) {
      for (const [key, s] of Object.entries(value))
        out.push({ keyword, schema: s, pointer: childPointer(pointer, keyword, key), key });
    }
  }
  return out;
}

/**
 * Rebuilds a schema bottom-up: every schema object inside it (subschemas
 * first) goes through `transform` with its pointer. Data (enum values,
 * examples, defaults) is copied as it is; boolean schemas stay booleans.
 */
export function mapSchema(
  node: unknown,
  pointer: string,
  transform: (node: JsonSchema, pointer: string) => JsonSchema,
): unknown {
  if (!isSchemaObject(node)) return node;
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    const holds = keywordInfo(keyword)?.holds;
    if (holds === 'schema') out[keyword] = mapSchema(value, childPointer(pointer, keyword), transform);
    else if (holds === 'array' && Array.isArray(value))
      out[keyword] = value.map((s, i) => mapSchema(s, childPointer(pointer, keyword, i), transform));
    else if (holds === 'map' && isSchemaObject(value)) {
      out[keyword] = Object.fromEntries(
        Object.entries(value).map(([key, s]) => [key, mapSchema(s, childPointer(pointer, keyword, key), transform)]),
      );
    } else out[keyword] = value;
  }
  return transform(out, pointer);
}

/** One keyword written in one schema of the document. */
export interface KeywordUse {
  keyword: string;
  value: unknown;
  /** JSON pointer (as a URI fragment) of the keyword in the document, e.g. `#/components/schemas/Plant/properties/name/maxLength`. */
  pointer: string;
  /** The pointer of the schema object that holds it. */
  schemaPointer: string;
}

/** Every keyword of the schema at `pointer` and of its subschemas, in document order (references are not followed). */
export function keywordUses(schema: unknown, pointer: string): KeywordUse[] {
  const uses: KeywordUse[] = [];
  const visit = (node: unknown, at: string): void => {
    if (!isSchemaObject(node)) return;
    for (const [keyword, value] of Object.entries(node))
      uses.push({ keyword, value, pointer: childPointer(at, keyword), schemaPointer: at });
    for (const sub of subschemas(node, at)) visit(sub.schema, sub.pointer);
  };
  visit(schema, pointer);
  return uses;
}
