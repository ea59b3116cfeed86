// One schema of the document as a self-contained JSON Schema, for a
// validator: the component schemas travel along under $defs.
import type { OpenApiDocument } from './document.js';
import { componentPointer } from './references.js';
import { isExtension, isSchemaObject, mapSchema, OPENAPI_ONLY, type JsonSchema } from './schema-keywords.js';

const COMPONENT_SCHEMA_REF = /^#\/components\/schemas\//;

/**
 * A self-contained JSON Schema (2020-12) for one schema of the document:
 * every `#/components/schemas/X` reference becomes `#/$defs/X`, and all
 * component schemas travel along under `$defs`, so a validator needs nothing
 * else. OpenAPI's own annotations and `x-` extensions are left out (a JSON
 * Schema validator does not know them). `transform` may rewrite each schema
 * object (after that), knowing its pointer in the document, e.g. to replace
 * a keyword a validator cannot check exactly.
 */
export function bundleSchema(
  doc: OpenApiDocument,
  schema: unknown,
  pointer: string,
  transform: (node: JsonSchema, pointer: string) => JsonSchema = (node) => node,
): JsonSchema {
  const rewrite = (node: JsonSchema, at: string): JsonSchema => {
    const out: JsonSchema = {};
    for (const [keyword, value] of Object.entries(node)) {
      if (OPENAPI_ONLY.has(keyword) || isExtension(keyword)) continue;
      out[keyword] =
        keyword === '$ref' && typeof value === 'string' ? value.replace(COMPONENT_SCHEMA_REF, '#/$defs/') : value;
    }
    return transform(out, at);
  };
  const defs: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(doc.components.schemas))
    defs[name] = mapSchema(def, componentPointer(name), rewrite);
  const root = mapSchema(schema, pointer, rewrite);
  // A boolean schema (true / false) is a schema too; it holds no $defs.
  return isSchemaObject(root) ? { ...root, $defs: defs } : { allOf: [root], $defs: defs };
}

/** Back from a location in a bundled schema (`/$defs/Plant/...` or the root) to the document's pointer. */
export function documentPointer(bundledPath: string, rootPointer: string): string {
  const m = /^\/\$defs\/([^/]+)(.*)$/.exec(bundledPath);
  return m ? `#/components/schemas/${m[1]}${m[2]}` : `${rootPointer}${bundledPath}`;
}
