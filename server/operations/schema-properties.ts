// The top-level properties a schema of the document declares, read through
// `$ref` and `allOf` only (a property declared in one branch of `anyOf` or
// `oneOf`, or under `if`/`then`, is not one every instance has): their
// schemas, where they are, and which are required. What the resources
// (resources.ts) read of an item's schema: its id, its references.
import { resolveReference, type OpenApiDocument } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';

export interface DeclaredProperty {
  /** The property's schema, references followed, and where it is. */
  schema: Record<string, unknown>;
  pointer: string;
  required: boolean;
}

/** Each property `schema` declares (the first declaration of a name wins for its schema; any part may require it). */
export function declaredProperties(
  doc: OpenApiDocument,
  schema: unknown,
  pointer: string,
): Map<string, DeclaredProperty> {
  const properties = new Map<string, DeclaredProperty>();
  const required = new Set<string>();
  const seen = new Set<string>();
  const visit = (node: unknown, at: string): void => {
    if (!isSchemaObject(node) || seen.has(at)) return;
    seen.add(at);
    if (typeof node.$ref === 'string') {
      const target = resolveReference(doc, { $ref: node.$ref }, at);
      visit(target.value, target.pointer);
    }
    if (Array.isArray(node.required))
      for (const name of node.required) if (typeof name === 'string') required.add(name);
    if (isSchemaObject(node.properties)) {
      for (const [name, raw] of Object.entries(node.properties)) {
        if (properties.has(name)) continue;
        const { value, pointer: where } = resolveReference(doc, raw, childPointer(at, 'properties', name));
        properties.set(name, { schema: isSchemaObject(value) ? value : {}, pointer: where, required: false });
      }
    }
    if (Array.isArray(node.allOf)) node.allOf.forEach((part, i) => visit(part, childPointer(at, 'allOf', i)));
  };
  visit(schema, pointer);
  for (const [name, property] of properties) property.required = required.has(name);
  return properties;
}

/** The JSON types a schema allows (empty: any), references followed. */
export function schemaTypes(doc: OpenApiDocument, schema: unknown, pointer = '#'): Set<string> {
  const { value } = resolveReference(doc, schema, pointer);
  if (!isSchemaObject(value)) return new Set();
  const type = value.type;
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === 'string'));
  if (Array.isArray(value.allOf))
    for (const part of value.allOf) {
      const types = schemaTypes(doc, part);
      if (types.size > 0) return types;
    }
  return new Set();
}

/** The words of a name, lower case: split at anything not a letter or digit and where a lower-case letter meets an upper-case one (plantId). */
export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** A plural noun in the singular, as English forms most (plants: plant, categories: category, boxes: box). */
export function singular(word: string): string {
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}
