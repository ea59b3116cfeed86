// References inside a document (RFC 6901 JSON pointers in `$ref`): checked
// once when the document is read, so that one that resolves to nothing, or
// names another document, is a DocumentError where its author wrote it;
// then resolved on demand. Other documents are never fetched.
import { DocumentError, type OpenApiDocument } from './document.js';
import { childPointer, escapePointer, isSchemaObject } from './schema-keywords.js';

/** Keywords whose values are data (examples, defaults, constants), not document structure: a "$ref" in them is not a reference. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum', 'value']);

/**
 * Every reference into the document resolves: one that does not is reported
 * where its author wrote it (the `$ref` and its pointer), not where a
 * validator that bundled the schemas first stumbles on it.
 */
export function checkReferences(doc: OpenApiDocument): void {
  const visit = (node: unknown, pointer: string, namesHere: boolean): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, childPointer(pointer, i), false));
    if (!isSchemaObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (!namesHere && key === '$ref' && typeof value === 'string') {
        // Another document (`plant.yaml#/Plant`, `https://…`) is never fetched: reading on without it would be guessing.
        if (!value.startsWith('#'))
          throw new DocumentError(
            childPointer(pointer, '$ref'),
            '$ref',
            `${JSON.stringify(value)} refers to another document, which is not fetched: only references into this document (#/…) are read`,
          );
        if (resolvePointer(doc, value) === undefined)
          throw new DocumentError(
            childPointer(pointer, '$ref'),
            '$ref',
            `${JSON.stringify(value)} resolves to nothing`,
          );
      } else if (namesHere || !DATA_KEYWORDS.has(key))
        visit(value, childPointer(pointer, key), !namesHere && NAME_MAPS.has(key));
    }
  };
  visit(doc, '#', false);
}

/** Keywords whose value maps names (a property's, a definition's) to schemas: there a key is a name, whatever it spells. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'schemas']);

/** The value at a JSON pointer of the document (`#/…`, RFC 6901), or undefined. */
function resolvePointer(doc: OpenApiDocument, ref: string): unknown {
  if (ref === '#') return doc;
  if (!ref.startsWith('#/')) return undefined;
  let value: unknown = doc;
  for (const token of ref.slice(2).split('/')) {
    const key = decodedToken(token)?.replace(/~1/g, '/').replace(/~0/g, '~'); // RFC 6901 §4, §6 (a URI fragment)
    if (key === undefined) return undefined;
    value = isSchemaObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined) return undefined;
  }
  return value;
}

/** A pointer's token as a URI fragment holds it, percent-decoded; undefined for malformed percent-encoding. */
function decodedToken(token: string): string | undefined {
  try {
    return decodeURIComponent(token);
  } catch {
    return undefined;
  }
}

/** The document pointer of a component schema. */
export function componentPointer(name: string): string {
  return `#/components/schemas/${escapePointer(name)}`;
}

/** A Reference Object (`{$ref: '#/...'}`) of the document, resolved; anything else as it is. */
export function resolveReference<T>(doc: OpenApiDocument, node: T, pointer: string): { value: T; pointer: string } {
  const ref = (node as { $ref?: unknown })?.$ref;
  if (typeof ref !== 'string') return { value: node, pointer };
  if (!ref.startsWith('#/'))
    throw new DocumentError(
      childPointer(pointer, '$ref'),
      '$ref',
      `${JSON.stringify(ref)} refers to another document; only references into this document are read`,
    );
  let value: unknown = doc;
  for (const token of ref.slice(2).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~'); // RFC 6901 §4
    value = isSchemaObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (value === undefined)
    throw new DocumentError(childPointer(pointer, '$ref'), '$ref', `${JSON.stringify(ref)} resolves to nothing`);
  return resolveReference(doc, value as T, ref);
}
