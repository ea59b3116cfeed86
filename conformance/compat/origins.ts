// Where each keyword of a merged schema was written (effective-schema.ts):
// the pointer of the schema object that holds it in the document, so that a
// change is reported at the place its author wrote it, not at the merged
// place it was compared at.
import { childPointer, isSchemaObject, type JsonSchema } from '../../spec/schema-keywords.js';

const ORIGINS = new WeakMap<object, Map<string, string>>();

/** Records where the keywords of a merged schema (`keyword`, or `keyword/key` for one entry of it) were written. */
export function recordOrigins(schema: JsonSchema, origins: Iterable<[string, string]>): JsonSchema {
  ORIGINS.set(schema, new Map(origins));
  return schema;
}

/** Where `keyword` of a merged schema was written, `key` narrowing to one of its entries (a property's name, a required name, a pattern). */
export function originOf(node: unknown, keyword: string, key?: string | number): string | undefined {
  if (!isSchemaObject(node)) return undefined;
  const origins = ORIGINS.get(node);
  return (key !== undefined ? origins?.get(`${keyword}/${key}`) : undefined) ?? origins?.get(keyword);
}

/** The pointer of `keyword` (and below it, `tokens`) of a schema: where it was written when merged, else under `fallback`. */
export function keywordPointer(
  node: unknown,
  fallback: string,
  keyword: string,
  ...tokens: Array<string | number>
): string {
  return childPointer(originOf(node, keyword, tokens[0]) ?? fallback, keyword, ...tokens);
}

/** A branch made of what did not merge: its pointer is the part it comes from. */
export function registerSelf(branch: JsonSchema, pointer: string): JsonSchema {
  return recordOrigins(branch, [['', pointer]]);
}

/** The pointer of a branch made of what did not merge, if it is one. */
export function selfPointer(branch: unknown): string | undefined {
  return originOf(branch, '');
}
