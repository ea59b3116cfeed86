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
import type { OpenApiDocument } from '../../spec/openapi.js';
import { keywordInfo, type JsonSchema } from '../../spec/schema-keywords.js';
import { effective, plain } from './effective-schema.js';
import { keywordPointer } from './origins.js';
import type { Effect } from './change.js';
import { branchesDelta, ifDelta, prefixItemsDelta, propertiesDelta, schemaMapDelta } from './schema-applicators.js';
import {
  countBound,
  dependentRequiredDelta,
  formatDelta,
  LOWER,
  MAXIMA,
  MINIMA,
  multipleOfDelta,
  numericBound,
  patternDelta,
  requiredDelta,
  typeDelta,
  UPPER,
  valueSetDelta,
} from './schema-assertions.js';
import {
  emit,
  foldMembers,
  keywordDelta,
  sameJson,
  verb,
  within,
  type Closed,
  type SchemaComparison,
  type Walk,
} from './schema-delta.js';

const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'example',
  'discriminator',
  'xml',
  'externalDocs',
  '$comment',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  '$defs',
]);
/** Keywords whose meaning depends on where the schema is resolved from, not on its text. */
const IDENTIFIERS = new Set(['$id', '$schema', '$anchor', '$dynamicAnchor', '$dynamicRef', '$vocabulary']);

export function compareSchemas(
  base: OpenApiDocument,
  head: OpenApiDocument,
  baseSchema: unknown,
  basePointer: string,
  headSchema: unknown,
  headPointer: string,
): SchemaComparison {
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

function compareNode(
  w: Walk,
  bRaw: unknown,
  bp: string,
  hRaw: unknown,
  hp: string,
  under: boolean,
  closed: Closed,
): void {
  // The effective constraints at this place in each document: references followed, allOf merged (effective-schema.ts).
  const b = effective(w.base, bRaw, bp);
  const h = effective(w.head, hRaw, hp);
  const key = `${b.parts.join(',')}|${h.parts.join(',')}|${under}|${closed.base}|${closed.head}`;
  if (w.seen.has(key)) return;
  w.seen.add(key);
  for (const p of b.parts) w.visitedBase.add(p);
  for (const p of h.parts) w.visitedHead.add(p);
  if (b.schema === false || h.schema === false) {
    if (b.schema === false && h.schema === false) return;
    const effect: Effect = h.schema === false ? 'tighter' : 'looser';
    emit(w, under, {
      keyword: 'schema',
      pointer: h.pointer,
      basePointer: b.pointer,
      before: plain(bRaw),
      after: plain(hRaw),
      what: h.schema === false ? 'schema became false: nothing is valid' : 'schema was false: nothing was valid',
      effect,
    });
    return;
  }
  compareObjects(w, b.schema, b.pointer, h.schema, h.pointer, under, closed);
}

function annotationReason(k: string): string {
  if (k.startsWith('x-'))
    return 'a specification extension: an annotation for the tools that read it, which validation ignores (OpenAPI 3.1 §4.9)';
  if (k === 'readOnly' || k === 'writeOnly')
    return `an annotation: validation ignores ${k} (JSON Schema Validation 2020-12 §9.4); a client may read it as advice on what to send`;
  if (k === 'default')
    return 'an annotation: validation does not fill in defaults (JSON Schema Validation 2020-12 §9.2); a server that applies one may now store another value for an absent field';
  if (k === '$defs') return 'definitions are compared where a $ref names them';
  return 'an annotation: it does not take part in validation';
}

function compareObjects(
  w: Walk,
  b: JsonSchema,
  bp: string,
  h: JsonSchema,
  hp: string,
  under: boolean,
  parentClosed: Closed,
): void {
  const start = w.out.length;
  // unevaluatedProperties: false here closes the object for every subschema applied at this place.
  const closed: Closed = {
    base: parentClosed.base || b.unevaluatedProperties === false,
    head: parentClosed.head || h.unevaluatedProperties === false,
  };
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
      keywordDelta(
        w,
        under,
        bp,
        hp,
        k,
        b,
        h,
        'unknown',
        `${k} ${verb(b, h, k)}`,
        `${k} changes how references resolve, which is not compared here`,
      );
      continue;
    }
    if (keywordInfo(k) === undefined) {
      keywordDelta(
        w,
        under,
        bp,
        hp,
        k,
        b,
        h,
        'unknown',
        `${k} ${verb(b, h, k)}`,
        `${k} is not a keyword of JSON Schema 2020-12 or OpenAPI 3.1: its meaning cannot be compared`,
      );
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
      keywordDelta(
        w,
        under,
        bp,
        hp,
        k,
        b,
        h,
        h[k] === false ? 'tighter' : 'looser',
        `${k} ${verb(b, h, k)}`,
        h[k] === false
          ? `what ${k} covers is now refused`
          : `what ${k} covered was refused, and is now allowed${h[k] === undefined ? '' : ' where its schema says'}`,
      );
    } else if (holds === 'schema') {
      // additionalProperties, items, unevaluated*, propertyNames, then, else: an absent one accepts everything, as `true` does.
      const inner =
        k === 'additionalProperties' || k === 'unevaluatedProperties' ? { base: false, head: false } : closed;
      const conditional = k === 'then' || k === 'else';
      // then and else apply where the schema does; items to every item (the first stands for them, unless prefixItems takes it); the others at no one place.
      const segment = conditional
        ? null
        : k === 'items' && b.prefixItems === undefined && h.prefixItems === undefined
          ? 0
          : undefined;
      const compare = () =>
        compareNode(
          w,
          b[k],
          keywordPointer(b, bp, k),
          h[k],
          keywordPointer(h, hp, k),
          under,
          conditional ? closed : inner,
        );
      if (segment === null) compare();
      else within(w, segment, compare);
    } else keywordDelta(w, under, bp, hp, k, b, h, 'unknown', `${k} ${verb(b, h, k)}`, `${k} is not compared here`);
  }
  foldMembers(w.out, start);
}

type KeywordRule = (
  w: Walk,
  b: JsonSchema,
  bp: string,
  h: JsonSchema,
  hp: string,
  under: boolean,
  closed: Closed,
  k: string,
) => void;

/** A subschema keyword present on one side only: added asks more of a value (tighter), removed asks less (looser). */
function presenceDelta(w: Walk, under: boolean, bp: string, hp: string, k: string, b: JsonSchema, h: JsonSchema): void {
  const added = Object.hasOwn(h, k);
  keywordDelta(w, under, bp, hp, k, b, h, added ? 'tighter' : 'looser', `${k} ${added ? 'added' : 'removed'}`);
}

/** The rule of each keyword that has one of its own; the others are bounds or subschemas (compareObjects). */
const KEYWORD_RULES: Record<string, KeywordRule> = {
  // A reference effective-schema.ts could not follow: its target is not compared.
  $ref: (w, b, bp, h, hp, under, _closed, k) =>
    keywordDelta(
      w,
      under,
      bp,
      hp,
      k,
      b,
      h,
      'unknown',
      `$ref ${verb(b, h, k)}`,
      'a reference that does not resolve in the document: what it names is not compared',
    ),
  type: (w, b, bp, h, hp, under) => typeDelta(w, b, bp, h, hp, under),
  enum: (w, b, bp, h, hp, under) => valueSetDelta(w, b, bp, h, hp, under, 'enum'),
  const: (w, b, bp, h, hp, under) => valueSetDelta(w, b, bp, h, hp, under, 'const'),
  multipleOf: (w, b, bp, h, hp, under) => multipleOfDelta(w, b, bp, h, hp, under),
  pattern: (w, b, bp, h, hp, under) => patternDelta(w, b, bp, h, hp, under),
  format: (w, b, bp, h, hp, under) => formatDelta(w, b, bp, h, hp, under),
  uniqueItems: (w, b, bp, h, hp, under, _closed, k) =>
    keywordDelta(
      w,
      under,
      bp,
      hp,
      k,
      b,
      h,
      h.uniqueItems === true ? 'tighter' : b.uniqueItems === true ? 'looser' : 'none',
      `uniqueItems ${verb(b, h, k)}`,
    ),
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
      ? compareNode(w, b.not, keywordPointer(b, bp, 'not'), h.not, keywordPointer(h, hp, 'not'), !under, {
          base: false,
          head: false,
        })
      : presenceDelta(w, under, bp, hp, k, b, h),
  // An absent `contains` asks nothing; `contains: {}` asks for one item at least: absent is not an empty schema here.
  contains: (w, b, bp, h, hp, under, _closed, k) =>
    Object.hasOwn(b, k) && Object.hasOwn(h, k)
      ? within(w, undefined, () =>
          compareNode(w, b.contains, keywordPointer(b, bp, k), h.contains, keywordPointer(h, hp, k), under, {
            base: false,
            head: false,
          }),
        )
      : presenceDelta(w, under, bp, hp, k, b, h),
  if: (w, b, bp, h, hp, under) => ifDelta(w, b, bp, h, hp, under),
};
