// Where each compatibility rule comes from: the section of JSON Schema
// 2020-12 (Validation for the assertions, Core for the applicators) or of
// OpenAPI 3.1.0 that defines what the keyword or the part of the document
// means. The rule is read from that definition: a keyword that makes fewer
// instances valid tightens, one that makes more valid loosens.
import type { Source } from '../checks/types.js';

const VALIDATION = 'https://json-schema.org/draft/2020-12/json-schema-validation';
const CORE = 'https://json-schema.org/draft/2020-12/json-schema-core';
const OPENAPI = 'https://spec.openapis.org/oas/v3.1.0';

const validation = (section: string, keyword: string): Source => ({
  document: 'JSON Schema Validation 2020-12',
  section: `§${section} ${keyword}`,
  url: `${VALIDATION}#section-${section}`,
});
const core = (section: string, keyword: string): Source => ({
  document: 'JSON Schema Core 2020-12',
  section: `§${section} ${keyword}`,
  url: `${CORE}#section-${section}`,
});
export const openapi = (section: string, object: string): Source => ({
  document: 'OpenAPI 3.1.0',
  section: `§${section} ${object}`,
  url: `${OPENAPI}#${object.toLowerCase().replace(/ /g, '-')}`,
});

/** The section that defines each keyword of the document's schemas. */
const KEYWORD_SOURCES: Record<string, Source> = {
  type: validation('6.1.1', 'type'),
  enum: validation('6.1.2', 'enum'),
  const: validation('6.1.3', 'const'),
  multipleOf: validation('6.2.1', 'multipleOf'),
  maximum: validation('6.2.2', 'maximum'),
  exclusiveMaximum: validation('6.2.3', 'exclusiveMaximum'),
  minimum: validation('6.2.4', 'minimum'),
  exclusiveMinimum: validation('6.2.5', 'exclusiveMinimum'),
  maxLength: validation('6.3.1', 'maxLength'),
  minLength: validation('6.3.2', 'minLength'),
  pattern: validation('6.3.3', 'pattern'),
  maxItems: validation('6.4.1', 'maxItems'),
  minItems: validation('6.4.2', 'minItems'),
  uniqueItems: validation('6.4.3', 'uniqueItems'),
  maxContains: validation('6.4.4', 'maxContains'),
  minContains: validation('6.4.5', 'minContains'),
  maxProperties: validation('6.5.1', 'maxProperties'),
  minProperties: validation('6.5.2', 'minProperties'),
  required: validation('6.5.3', 'required'),
  dependentRequired: validation('6.5.4', 'dependentRequired'),
  format: validation('7.2', 'format'),
  contentEncoding: validation('8.3', 'contentEncoding'),
  contentMediaType: validation('8.4', 'contentMediaType'),
  contentSchema: validation('8.5', 'contentSchema'),
  title: validation('9.1', 'title'),
  description: validation('9.1', 'description'),
  default: validation('9.2', 'default'),
  deprecated: validation('9.3', 'deprecated'),
  readOnly: validation('9.4', 'readOnly'),
  writeOnly: validation('9.4', 'writeOnly'),
  examples: validation('9.5', 'examples'),
  $schema: core('8.1.1', '$schema'),
  $vocabulary: core('8.1.2', '$vocabulary'),
  $id: core('8.2.1', '$id'),
  $anchor: core('8.2.2', '$anchor'),
  $dynamicAnchor: core('8.2.2', '$dynamicAnchor'),
  $ref: core('8.2.3.1', '$ref'),
  $dynamicRef: core('8.2.3.2', '$dynamicRef'),
  $defs: core('8.2.4', '$defs'),
  $comment: core('8.3', '$comment'),
  allOf: core('10.2.1.1', 'allOf'),
  anyOf: core('10.2.1.2', 'anyOf'),
  oneOf: core('10.2.1.3', 'oneOf'),
  not: core('10.2.1.4', 'not'),
  if: core('10.2.2.1', 'if'),
  then: core('10.2.2.2', 'then'),
  else: core('10.2.2.3', 'else'),
  dependentSchemas: core('10.2.2.4', 'dependentSchemas'),
  prefixItems: core('10.3.1.1', 'prefixItems'),
  items: core('10.3.1.2', 'items'),
  contains: core('10.3.1.3', 'contains'),
  properties: core('10.3.2.1', 'properties'),
  patternProperties: core('10.3.2.2', 'patternProperties'),
  additionalProperties: core('10.3.2.3', 'additionalProperties'),
  propertyNames: core('10.3.2.4', 'propertyNames'),
  unevaluatedItems: core('11.2', 'unevaluatedItems'),
  unevaluatedProperties: core('11.3', 'unevaluatedProperties'),
  discriminator: openapi('4.8.25', 'Discriminator Object'),
  xml: openapi('4.8.26', 'XML Object'),
  externalDocs: openapi('4.8.11', 'External Documentation Object'),
  example: openapi('4.8.24', 'Schema Object'),
};

export function keywordSource(keyword: string): Source {
  if (keyword.startsWith('x-')) return openapi('4.9', 'Specification Extensions');
  return KEYWORD_SOURCES[keyword] ?? openapi('4.8.24', 'Schema Object');
}

export const SOURCES = {
  paths: openapi('4.8.8', 'Paths Object'),
  operation: openapi('4.8.10', 'Operation Object'),
  parameter: openapi('4.8.12', 'Parameter Object'),
  requestBody: openapi('4.8.13', 'Request Body Object'),
  mediaType: openapi('4.8.14', 'Media Type Object'),
  responses: openapi('4.8.16', 'Responses Object'),
  response: openapi('4.8.17', 'Response Object'),
  example: openapi('4.8.19', 'Example Object'),
  header: openapi('4.8.21', 'Header Object'),
  info: openapi('4.8.2', 'Info Object'),
  server: openapi('4.8.5', 'Server Object'),
  tag: openapi('4.8.22', 'Tag Object'),
  securityScheme: openapi('4.8.27', 'Security Scheme Object'),
  securityRequirement: openapi('4.8.30', 'Security Requirement Object'),
  echo: {
    document: 'Plant Store specification',
    section:
      'What the service does: "returns the stored plant record"; docs/document.md, What the answer must carry back',
  },
} satisfies Record<string, Source>;
