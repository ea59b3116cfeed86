// The effective constraints at one place of an instance: the schema there
// with its `$ref`s followed and its `allOf` branches merged into one set of
// constraints. JSON Schema Core 2020-12 §10.2.1.1: an instance is valid
// against `allOf` when it is valid against every branch; §8.2.3.1: `$ref`
// applies the schema it names in place, as one more branch. So how a schema
// is written (a component renamed, a `$ref` inlined, a branch split in two,
// a constraint moved from one branch to another) changes nothing an instance
// must meet, and the comparison (schema-diff.ts) sees no change.
//
// Each keyword of the merged schema remembers the schema object it comes
// from, its pointer in the document (`keywordPointer`), so that a change is
// reported where its author wrote it. The subschemas of a place (a
// property's, the items') are merged when the comparison reaches them: a
// Conjunction lists the schemas that apply there, so a recursive schema is
// merged one level at a time. What cannot be merged into one keyword (two
// `oneOf`s, two different `format`s, an `additionalProperties` that would
// cover names its own branch does not declare) stays as it is, a branch of
// a remaining `allOf`: the merged schema still accepts exactly what the
// branches accept together.
import { resolveReference, type OpenApiDocument } from '../../spec/openapi.js';
import { childPointer, isSchemaObject, type JsonSchema } from '../../spec/schema-keywords.js';
import { recordOrigins, registerSelf } from './origins.js';
import { Conjunction, mergeGroup, mergeOrder, stray, type Contribution, type Part } from './effective-merge.js';

export { Conjunction };

/** The merged schema at a place, the parts it was merged from, and where each of its keywords comes from. */
export interface Effective {
  schema: JsonSchema | false;
  /** The pointer that stands for the place: its first part's. */
  pointer: string;
  /** The pointer of every schema object merged (what the comparison accounts for). */
  parts: string[];
}

/** A Conjunction as the document wrote it (for a report): the one schema, or the schemas as an allOf. */
export function plain(value: unknown): unknown {
  if (!(value instanceof Conjunction)) return value;
  return value.parts.length === 1 ? value.parts[0]!.schema : { allOf: value.parts.map((p) => p.schema) };
}

/**
 * The schemas that apply at the place of `node`, in the order an author
 * reads them: the node itself, then what its `$ref` names, then its `allOf`
 * branches, each followed the same way. A schema reached twice is one part.
 */
function expand(doc: OpenApiDocument, start: Part[]): Part[] | false {
  const out: Part[] = [];
  const seen = new Set<string>();
  const visit = (node: unknown, pointer: string, root: boolean): boolean => {
    if (node === true || node === undefined) return true;
    if (node === false) return false;
    if (!isSchemaObject(node) || seen.has(pointer)) return true;
    seen.add(pointer);
    out.push({ schema: node, pointer, root });
    if (typeof node.$ref === 'string') {
      let target: { value: unknown; pointer: string } | undefined;
      try {
        target = resolveReference(doc, { $ref: node.$ref }, pointer);
      } catch {
        // A reference the document cannot resolve stays a keyword of its own (loadOpenApi refuses such documents).
      }
      if (target && !visit(target.value, target.pointer, false)) return false;
    }
    if (Array.isArray(node.allOf)) {
      for (let i = 0; i < node.allOf.length; i++)
        if (!visit(node.allOf[i], childPointer(pointer, 'allOf', i), false)) return false;
    }
    return true;
  };
  for (const p of start) if (!visit(p.schema, p.pointer, p.root)) return false;
  return out;
}

/** Whether the `$ref` of a part was followed (it is then a branch, not a keyword). */
function followed(doc: OpenApiDocument, part: Part): boolean {
  const ref = (part.schema as JsonSchema).$ref;
  if (typeof ref !== 'string') return false;
  try {
    resolveReference(doc, { $ref: ref }, part.pointer);
    return true;
  } catch {
    return false;
  }
}

/**
 * The effective schema at a place: `node` at `pointer`, or a Conjunction of
 * the schemas that apply there. `false` when nothing is valid there (a
 * `false` branch, types or values that no instance can have at once).
 */
export function effective(doc: OpenApiDocument, node: unknown, pointer: string): Effective {
  const start = node instanceof Conjunction ? node.parts : [{ schema: node, pointer, root: true }];
  const first = start[0]?.pointer ?? pointer;
  const parts = expand(doc, start);
  if (parts === false) return { schema: false, pointer: first, parts: start.map((p) => p.pointer) };
  const pointers = parts.map((p) => p.pointer);
  const { merged, residual } = stray(parts);
  const schema: JsonSchema = {};
  const origins = new Map<string, string>();
  const byKeyword = new Map<string, Contribution[]>();
  for (const part of merged) {
    for (const [keyword, value] of Object.entries(part.schema as JsonSchema)) {
      if (keyword === 'allOf' || (keyword === '$ref' && followed(doc, part))) continue;
      byKeyword.set(keyword, [...(byKeyword.get(keyword) ?? []), { value, pointer: part.pointer }]);
    }
  }
  const branches: JsonSchema[] = residual.map((p) => residualOf(p));
  for (const group of mergeOrder([...byKeyword.keys()])) {
    const result = mergeGroup(group, byKeyword);
    if (result === false) return { schema: false, pointer: first, parts: pointers };
    for (const [keyword, value] of result.values) schema[keyword] = value;
    for (const [key, at] of result.origins) origins.set(key, at);
    for (const r of result.residual) branches.push(registerSelf(r.schema, r.pointer));
  }
  if (branches.length > 0) schema.allOf = branches;
  recordOrigins(schema, origins);
  return { schema, pointer: first, parts: pointers };
}

/** A part kept whole as a branch: what it asks, without the `$ref` and `allOf` already followed; its pointer stays its own. */
function residualOf(part: Part): JsonSchema {
  const own = Object.fromEntries(
    Object.entries(part.schema as JsonSchema).filter(([k]) => k !== 'allOf' && k !== '$ref'),
  );
  return registerSelf(own, part.pointer);
}
