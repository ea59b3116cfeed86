// The shape of an object schema, flattened through `allOf` and `$ref`: its
// fields, which are required, and whether it is open to other properties.
// The create's request and answer are read this way (the document's NewPlant
// and Plant), and so are the plant resource's list and item answers.
import { resolveReference, type OpenApiDocument } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

export interface FieldModel {
  name: string;
  /** The first type the schema allows that is not null (what a value of the field is built as). */
  type: JsonType;
  /** Every type the schema allows (`type: [string, "null"]` gives both). */
  types: JsonType[];
  format?: string;
  /** Its `pattern`, where it has one (the kind of a string id). */
  pattern?: string;
  /** `readOnly: true` (JSON Schema validation §9.4): the server sets it; a request need not carry it. */
  readOnly?: boolean;
  required: boolean;
  /** Its schema as the document writes it, and its pointer (the last declaration of it, through allOf). */
  schema: { schema: unknown; pointer: string };
}

/** An object schema flattened through `allOf` and `$ref`: its fields and which are required. */
export interface ObjectModel {
  fields: FieldModel[];
  required: string[];
  /** No `additionalProperties: false` nor `unevaluatedProperties: false` closes it. */
  additionalProperties: boolean;
  /** The patterns of its `patternProperties`: a property whose name one matches is one the schema declares. */
  patterns: string[];
}

/** A schema with its `$ref` followed (within the document), and the pointer it ends at. */
export function resolveSchema(
  doc: OpenApiDocument,
  schema: unknown,
  pointer: string,
): { schema: unknown; pointer: string } {
  let at = { schema, pointer };
  for (let hops = 0; isSchemaObject(at.schema) && typeof at.schema.$ref === 'string' && hops < 32; hops++) {
    const resolved = resolveReference(doc, at.schema, at.pointer);
    at = { schema: resolved.value, pointer: resolved.pointer };
  }
  return at;
}

function asTypes(type: unknown): JsonType[] {
  return (Array.isArray(type) ? type : type === undefined ? [] : [type]) as JsonType[];
}

/** Flattens an object schema (through `allOf` and `$ref`) into its fields. */
export function flattenObject(doc: OpenApiDocument, schema: unknown, pointer: string): ObjectModel {
  const fields = new Map<string, FieldModel>();
  const required = new Set<string>();
  const patterns: string[] = [];
  let additionalProperties = true;
  const visit = (node: unknown, at: string): void => {
    const { schema: s, pointer: p } = resolveSchema(doc, node, at);
    if (!isSchemaObject(s)) return;
    ((s.allOf as unknown[] | undefined) ?? []).forEach((part, i) => visit(part, childPointer(p, 'allOf', i)));
    for (const r of (s.required as string[] | undefined) ?? []) required.add(r);
    if (s.additionalProperties === false || s.unevaluatedProperties === false) additionalProperties = false;
    if (isSchemaObject(s.patternProperties)) patterns.push(...Object.keys(s.patternProperties));
    const props = (s.properties as Record<string, unknown> | undefined) ?? {};
    for (const [name, raw] of Object.entries(props)) {
      const at = childPointer(p, 'properties', name);
      const { schema: prop } = resolveSchema(doc, raw, at);
      const known = fields.get(name);
      const types = isSchemaObject(prop) && prop.type !== undefined ? asTypes(prop.type) : (known?.types ?? []);
      const format = isSchemaObject(prop) && typeof prop.format === 'string' ? prop.format : known?.format;
      const pattern = isSchemaObject(prop) && typeof prop.pattern === 'string' ? prop.pattern : known?.pattern;
      const readOnly = (isSchemaObject(prop) && prop.readOnly === true) || known?.readOnly === true;
      fields.set(name, {
        name,
        type: types.find((t) => t !== 'null') ?? types[0] ?? known?.type ?? 'string',
        types,
        format,
        ...(pattern !== undefined ? { pattern } : {}),
        ...(readOnly ? { readOnly } : {}),
        required: false,
        schema: { schema: raw, pointer: at },
      });
    }
  };
  visit(schema, pointer);
  for (const f of fields.values()) f.required = required.has(f.name);
  return { fields: [...fields.values()], required: [...required], additionalProperties, patterns };
}
