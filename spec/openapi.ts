// Loads the OpenAPI document that both the server and the conformance harness
// derive their behaviour from. Both read spec/; neither imports the other.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The path of spec/openapi.yaml, from both the source tree and dist/. */
export const OPENAPI_PATH = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '../../spec/openapi.yaml' : './openapi.yaml', import.meta.url),
);

export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes?: Record<string, Record<string, unknown>> };
  security?: Array<Record<string, string[]>>;
}

export interface OperationObject {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

export function loadOpenApi(path: string = OPENAPI_PATH): OpenApiDocument {
  const doc = parse(readFileSync(path, 'utf8')) as OpenApiDocument;
  if (!doc || typeof doc !== 'object' || !doc.paths || !doc.components?.schemas) {
    throw new Error(`${path} is not an OpenAPI document with paths and components.schemas`);
  }
  return doc;
}

const COMPONENT_REF = /^#\/components\/schemas\//;

/**
 * A self-contained JSON Schema (2020-12) for one schema of the document:
 * every `#/components/schemas/X` reference becomes `#/$defs/X`, and all
 * component schemas travel along under `$defs`, so a validator needs nothing
 * else. `transform` may rewrite each schema node (after references are
 * rewritten), e.g. to replace a keyword a validator cannot check exactly.
 */
export function bundleSchema(
  doc: OpenApiDocument,
  schema: JsonSchema,
  transform: (node: JsonSchema) => JsonSchema = (node) => node,
): JsonSchema {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== 'object') return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      // OpenAPI annotations that are not JSON Schema 2020-12 keywords.
      if (key === 'example' || key === 'examples' || key === 'xml' || key === 'externalDocs' || key === 'discriminator') continue;
      out[key] = key === '$ref' && typeof value === 'string' ? value.replace(COMPONENT_REF, '#/$defs/') : rewrite(value);
    }
    return transform(out);
  };
  const defs: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(doc.components.schemas)) defs[name] = rewrite(def);
  return { ...(rewrite(schema) as JsonSchema), $defs: defs };
}
