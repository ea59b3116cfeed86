// Two schemas, the old and the new, walked side by side keyword by keyword
// (references followed in both documents), and for each keyword that differs
// what the difference does to the set of valid instances: fewer (tighter),
// more (looser), both, none, or cannot tell. The rule of each keyword is read
// from its definition in JSON Schema 2020-12 (sources.ts names the section):
// a keyword is a constraint, so adding it, or moving its bound inward, can
// only refuse instances; removing it, or moving its bound outward, can only
// accept more. Under `not` the two swap. Whether fewer or more valid
// instances break clients or servers depends on where the schema is (a
// request or an answer): change.ts says that, not this file. This file walks
// the two schemas; the rules of the assertion keywords are in
// schema-assertions.ts, those of the applicators in schema-applicators.ts,
// the record they write in schema-delta.ts.
import { resolveReference, type OpenApiDocument } from '../../spec/openapi.js';
import { childPointer, isSchemaObject, keywordInfo, type JsonSchema } from '../../spec/schema-keywords.js';
import type { Effect } from './change.js';
import { branchesDelta, ifDelta, prefixItemsDelta, propertiesDelta, schemaMapDelta } from './schema-applicators.js';
import { countBound, dependentRequiredDelta, formatDelta, LOWER, MAXIMA, MINIMA, multipleOfDelta, numericBound, requiredDelta, typeDelta, UPPER, valueSetDelta } from './schema-assertions.js';
import { emit, keywordDelta, sameJson, verb, within, type Closed, type SchemaComparison, type Walk } from './schema-delta.js';

const ANNOTATIONS = new Set(['title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples', 'example', 'discriminator', 'xml', 'externalDocs', '$comment', 'contentEncoding', 'contentMediaType', 'contentSchema', '$defs']);
/** Keywords whose meaning depends on where the schema is resolved from, not on its text. */
const IDENTIFIERS = new Set(['$id', '$schema', '$anchor', '$dynamicAnchor', '$dynamicRef', '$vocabulary']);

export function compareSchemas(base: OpenApiDocument, head: OpenApiDocument, baseSchema: unknown, basePointer: string, headSchema: unknown, headPointer: string): SchemaComparison {
  const walk: Walk = {
    base,
    head,
    out: [],
    visitedBase: new Set(),
    visitedHead: new Set(),
    seen: new Set(),
    inst: [],
    compareNode: (bRaw, bp, hRaw, hp, under, closed) => compareNode(walk, bRaw, bp, hRaw, hp, under, closed),
  };
  compareNode(walk, baseSchema, basePointer, headSchema, headPointer, false, { base: false, head: false });
  return { deltas: walk.out, visitedBase: walk.visitedBase, visitedHead: walk.visitedHead };
}

/** A `$ref` with nothing beside it but annotations: the schema it names stands for it. */
function onlyReference(node: unknown): node is JsonSchema & { $ref: string } {
  if (!isSchemaObject(node) || typeof node.$ref !== 'string') return false;
  return Object.keys(node).every((k) => k === '$ref' || ANNOTATIONS.has(k) || k.startsWith('x-'));
}

function resolved(doc: OpenApiDocument, node: JsonSchema & { $ref: string }, pointer: string): { schema: unknown; pointer: string } {
  const r = resolveReference(doc, node, pointer);
  return { schema: r.value, pointer: r.pointer };
}

/** `true` and an empty object accept everything; `false` nothing. */
function asSchema(node: unknown): JsonSchema | false {
  if (node === true || node === undefined) return {};
  if (node === false) return false;
  return isSchemaObject(node) ? node : {};
}

function compareNode(w: Walk, bRaw: unknown, bp: string, hRaw: unknown, hp: string, under: boolean, closed: Closed): void {
  const key = `${bp}|${hp}|${under}|${closed.base}|${closed.head}`;
  if (w.seen.has(key)) return;
  w.seen.add(key);
  w.visitedBase.add(bp);
  w.visitedHead.add(hp);
  // An inline schema replaced by a reference to one like it (or back) changes nothing: compare what the reference names.
  const bRef = onlyReference(bRaw);
  const hRef = onlyReference(hRaw);
  if (bRef && hRef && bRaw.$ref === hRaw.$ref) {
    compareAnnotations(w, bRaw, bp, hRaw, hp, under);
    const t = resolved(w.base, bRaw, bp);
    const u = resolved(w.head, hRaw, hp);
    return compareNode(w, t.schema, t.pointer, u.schema, u.pointer, under, closed);
  }
  if (bRef || hRef) {
    const t = bRef ? resolved(w.base, bRaw, bp) : { schema: bRaw, pointer: bp };
    const u = hRef ? resolved(w.head, hRaw, hp) : { schema: hRaw, pointer: hp };
    const b = isSchemaObject(bRaw) ? bRaw : {};
    const h = isSchemaObject(hRaw) ? hRaw : {};
    const what = bRef && hRef ? `$ref retargeted: ${bRaw.$ref} → ${hRaw.$ref}` : bRef ? `$ref ${bRaw.$ref} replaced by an inline schema` : `inline schema replaced by $ref ${(hRaw as JsonSchema).$ref}`;
    keywordDelta(w, under, bp, hp, '$ref', b, h, 'none', what, 'the schemas it names are compared keyword by keyword: each difference between them is a change of its own');
    return compareNode(w, t.schema, t.pointer, u.schema, u.pointer, under, closed);
  }
  const b = asSchema(bRaw);
  const h = asSchema(hRaw);
  if (b === false || h === false) {
    if (b === false && h === false) return;
    const effect: Effect = h === false ? 'tighter' : 'looser';
    emit(w, under, { keyword: 'schema', pointer: hp, basePointer: bp, before: bRaw, after: hRaw, what: h === false ? 'schema became false: nothing is valid' : 'schema was false: nothing was valid', effect });
    return;
  }
  compareObjects(w, b, bp, h, hp, under, closed);
}

function compareAnnotations(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  for (const k of new Set([...Object.keys(b), ...Object.keys(h)])) {
    if (k === '$ref' || sameJson(b[k], h[k])) continue;
    keywordDelta(w, under, bp, hp, k, b, h, 'none', `${k} ${verb(b, h, k)}`, annotationReason(k));
  }
}

function annotationReason(k: string): string {
  if (k.startsWith('x-')) return 'a specification extension: an annotation for the tools that read it, which validation ignores (OpenAPI 3.1 §4.9)';
  if (k === 'readOnly' || k === 'writeOnly') return `an annotation: validation ignores ${k} (JSON Schema Validation 2020-12 §9.4); a client may read it as advice on what to send`;
  if (k === 'default') return 'an annotation: validation does not fill in defaults (JSON Schema Validation 2020-12 §9.2); a server that applies one may now store another value for an absent field';
  if (k === '$defs') return 'definitions are compared where a $ref names them';
  return 'an annotation: it does not take part in validation';
}

function compareObjects(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean, parentClosed: Closed): void {
  // unevaluatedProperties: false here closes the object for every subschema applied at this place.
  const closed: Closed = { base: parentClosed.base || b.unevaluatedProperties === false, head: parentClosed.head || h.unevaluatedProperties === false };
  const keys = new Set([...Object.keys(b), ...Object.keys(h)]);
  const differs = (k: string) => !sameJson(b[k], h[k]);
  if (LOWER.some(differs)) numericBound(w, b, bp, h, hp, under, 'lower');
  if (UPPER.some(differs)) numericBound(w, b, bp, h, hp, under, 'upper');
  for (const k of keys) {
    if (LOWER.includes(k) || UPPER.includes(k)) continue;
    // Subschemas are walked even when equal as text: a reference inside may name a schema that changed.
    const holds = keywordInfo(k)?.holds;
    if (!differs(k) && holds === undefined && k !== '$ref') continue;
    if (ANNOTATIONS.has(k) || k.startsWith('x-')) {
      if (differs(k)) keywordDelta(w, under, bp, hp, k, b, h, 'none', `${k} ${verb(b, h, k)}`, annotationReason(k));
      continue;
    }
    if (IDENTIFIERS.has(k)) {
      keywordDelta(w, under, bp, hp, k, b, h, 'unknown', `${k} ${verb(b, h, k)}`, `${k} changes how references resolve, which is not compared here`);
      continue;
    }
    if (keywordInfo(k) === undefined) {
      keywordDelta(w, under, bp, hp, k, b, h, 'unknown', `${k} ${verb(b, h, k)}`, `${k} is not a keyword of JSON Schema 2020-12 or OpenAPI 3.1: its meaning cannot be compared`);
      continue;
    }
    const rule = KEYWORD_RULES[k];
    if (rule) {
      rule(w, b, bp, h, hp, under, closed, k);
      continue;
    }
    if (MAXIMA.has(k) || MINIMA.has(k)) countBound(w, b, bp, h, hp, under, k);
    else if (holds === 'schema' && (b[k] === false || h[k] === false)) {
      if (!differs(k)) continue;
      // additionalProperties: false, unevaluatedProperties: false, items: false: the names or items it covers are refused.
      keywordDelta(w, under, bp, hp, k, b, h, h[k] === false ? 'tighter' : 'looser', `${k} ${verb(b, h, k)}`, h[k] === false ? `what ${k} covers is now refused` : `what ${k} covered was refused, and is now allowed${h[k] === undefined ? '' : ' where its schema says'}`);
    } else if (holds === 'schema') {
      // additionalProperties, items, unevaluated*, propertyNames, then, else: an absent one accepts everything, as `true` does.
      const inner = k === 'additionalProperties' || k === 'unevaluatedProperties' ? { base: false, head: false } : closed;
      const conditional = k === 'then' || k === 'else';
      // then and else apply where the schema does; items to every item (the first stands for them, unless prefixItems takes it); the others at no one place.
      const segment = conditional ? null : k === 'items' && b.prefixItems === undefined && h.prefixItems === undefined ? 0 : undefined;
      const compare = () => compareNode(w, b[k], childPointer(bp, k), h[k], childPointer(hp, k), under, conditional ? closed : inner);
      if (segment === null) compare();
      else within(w, segment, compare);
    } else keywordDelta(w, under, bp, hp, k, b, h, 'unknown', `${k} ${verb(b, h, k)}`, `${k} is not compared here`);
  }
}

type KeywordRule = (w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean, closed: Closed, k: string) => void;

/** The rule of each keyword that has one of its own; the others are bounds or subschemas (compareObjects). */
const KEYWORD_RULES: Record<string, KeywordRule> = {
  $ref: (w, b, bp, h, hp, under, closed) => referenceWithSiblings(w, b, bp, h, hp, under, closed),
  type: (w, b, bp, h, hp, under) => typeDelta(w, b, bp, h, hp, under),
  enum: (w, b, bp, h, hp, under) => valueSetDelta(w, b, bp, h, hp, under, 'enum'),
  const: (w, b, bp, h, hp, under) => valueSetDelta(w, b, bp, h, hp, under, 'const'),
  multipleOf: (w, b, bp, h, hp, under) => multipleOfDelta(w, b, bp, h, hp, under),
  pattern: (w, b, bp, h, hp, under, _closed, k) => {
    const both = Object.hasOwn(b, k) && Object.hasOwn(h, k);
    keywordDelta(w, under, bp, hp, k, b, h, !Object.hasOwn(b, k) ? 'tighter' : !Object.hasOwn(h, k) ? 'looser' : 'unknown', `pattern ${verb(b, h, k)}`, both ? 'the languages of two regular expressions are not compared here: neither need include the other' : undefined);
  },
  format: (w, b, bp, h, hp, under) => formatDelta(w, b, bp, h, hp, under),
  uniqueItems: (w, b, bp, h, hp, under, _closed, k) => keywordDelta(w, under, bp, hp, k, b, h, h.uniqueItems === true ? 'tighter' : b.uniqueItems === true ? 'looser' : 'none', `uniqueItems ${verb(b, h, k)}`),
  required: (w, b, bp, h, hp, under) => requiredDelta(w, b, bp, h, hp, under),
  dependentRequired: (w, b, bp, h, hp, under) => dependentRequiredDelta(w, b, bp, h, hp, under),
  properties: (w, b, bp, h, hp, under, closed) => propertiesDelta(w, b, bp, h, hp, under, closed),
  patternProperties: (w, b, bp, h, hp, under, _closed, k) => schemaMapDelta(w, b, bp, h, hp, under, k),
  dependentSchemas: (w, b, bp, h, hp, under, _closed, k) => schemaMapDelta(w, b, bp, h, hp, under, k),
  prefixItems: (w, b, bp, h, hp, under) => prefixItemsDelta(w, b, bp, h, hp, under),
  allOf: (w, b, bp, h, hp, under, closed) => branchesDelta(w, b, bp, h, hp, under, 'allOf', closed),
  anyOf: (w, b, bp, h, hp, under, closed) => branchesDelta(w, b, bp, h, hp, under, 'anyOf', closed),
  oneOf: (w, b, bp, h, hp, under, closed) => branchesDelta(w, b, bp, h, hp, under, 'oneOf', closed),
  // Under not, what accepts fewer accepts more: the walk below is read the other way round.
  not: (w, b, bp, h, hp, under, _closed, k) =>
    Object.hasOwn(b, k) && Object.hasOwn(h, k)
      ? compareNode(w, b.not, childPointer(bp, 'not'), h.not, childPointer(hp, 'not'), !under, { base: false, head: false })
      : keywordDelta(w, under, bp, hp, k, b, h, Object.hasOwn(h, k) ? 'tighter' : 'looser', `not ${Object.hasOwn(h, k) ? 'added' : 'removed'}`),
  // An absent `contains` asks nothing; `contains: {}` asks for one item at least: absent is not an empty schema here.
  contains: (w, b, bp, h, hp, under, _closed, k) =>
    Object.hasOwn(b, k) && Object.hasOwn(h, k)
      ? within(w, undefined, () => compareNode(w, b.contains, childPointer(bp, k), h.contains, childPointer(hp, k), under, { base: false, head: false }))
      : keywordDelta(w, under, bp, hp, k, b, h, Object.hasOwn(h, k) ? 'tighter' : 'looser', `contains ${Object.hasOwn(h, k) ? 'added' : 'removed'}`),
  if: (w, b, bp, h, hp, under) => ifDelta(w, b, bp, h, hp, under),
};

/** `$ref` beside other keywords: an applicator of one schema (JSON Schema Core 2020-12 §8.2.3.1). */
function referenceWithSiblings(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean, closed: Closed): void {
  const bRef = typeof b.$ref === 'string' ? b.$ref : undefined;
  const hRef = typeof h.$ref === 'string' ? h.$ref : undefined;
  if (bRef && hRef) {
    const t = resolved(w.base, b as JsonSchema & { $ref: string }, bp);
    const u = resolved(w.head, h as JsonSchema & { $ref: string }, hp);
    if (bRef !== hRef) keywordDelta(w, under, bp, hp, '$ref', b, h, 'none', `$ref retargeted: ${bRef} → ${hRef}`, 'the schemas it names are compared keyword by keyword: each difference between them is a change of its own');
    compareNode(w, t.schema, t.pointer, u.schema, u.pointer, under, closed);
    return;
  }
  keywordDelta(w, under, bp, hp, '$ref', b, h, hRef ? 'tighter' : 'looser', hRef ? `$ref added beside other keywords: ${hRef}` : `$ref removed (was ${bRef})`, hRef ? 'every instance must now also be valid against the schema it names' : 'instances no longer need to be valid against the schema it named');
}
