// Two schemas, the old and the new, walked side by side keyword by keyword
// (references followed in both documents), and for each keyword that differs
// what the difference does to the set of valid instances: fewer (tighter),
// more (looser), both, none, or cannot tell. The rule of each keyword is read
// from its definition in JSON Schema 2020-12 (sources.ts names the section):
// a keyword is a constraint, so adding it, or moving its bound inward, can
// only refuse instances; removing it, or moving its bound outward, can only
// accept more. Under `not` the two swap. Whether fewer or more valid
// instances break clients or servers depends on where the schema is (a
// request or an answer): change.ts says that, not this file.
import { compare, isIntegral, isMultipleOf, rationalOf, type Rational } from '../../spec/exact-number.js';
import { integerRange } from '../../spec/formats.js';
import { resolveReference, type OpenApiDocument } from '../../spec/openapi.js';
import { childPointer, isSchemaObject, keywordInfo, type JsonSchema } from '../../spec/schema-keywords.js';
import { isCheckedFormat } from '../../spec/validator.js';
import { inverted, type Effect, type Role } from './change.js';
import { keywordSource } from './sources.js';
import type { Source } from '../checks/types.js';

export interface SchemaDelta {
  keyword: string;
  /** The keyword's pointer in the new document (in the old one when the new has no such place). */
  pointer: string;
  basePointer: string;
  before?: unknown;
  after?: unknown;
  what: string;
  effect: Effect;
  /** Why, when the sentence sidesOf would give does not say it (always for `unknown`). */
  reason?: string;
  /** Where the effect depends on whether the schema describes a request or an answer. */
  byRole?: Partial<Record<Role, { effect: Effect; reason: string }>>;
  /** Tells apart deltas of one keyword (a name of `required`, a branch of `oneOf`). */
  detail?: string;
  /** Where in an instance the keyword applies (property names, item indexes), when one place is known: what a witness is built at. */
  instancePath?: Array<string | number>;
  source: Source;
}

export interface SchemaComparison {
  deltas: SchemaDelta[];
  /** Schema objects compared, in each document: everything under them is accounted for. */
  visitedBase: Set<string>;
  visitedHead: Set<string>;
}

interface Walk {
  base: OpenApiDocument;
  head: OpenApiDocument;
  out: SchemaDelta[];
  visitedBase: Set<string>;
  visitedHead: Set<string>;
  seen: Set<string>;
  /** The instance location of the schemas being compared; undefined below a keyword that applies at no one place (additionalProperties, contains, …). */
  inst: Array<string | number> | undefined;
}

/** Runs `compare` one step into the instance (a property name, an item index), or at no known place. */
function within(w: Walk, segment: string | number | undefined, compare: () => void): void {
  const saved = w.inst;
  w.inst = segment === undefined || saved === undefined ? undefined : [...saved, segment];
  try {
    compare();
  } finally {
    w.inst = saved;
  }
}

/** Whether the object's names not declared are refused here (`unevaluatedProperties: false` above reaches down through applicators and references). */
interface Closed {
  base: boolean;
  head: boolean;
}

const ANNOTATIONS = new Set(['title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples', 'example', 'discriminator', 'xml', 'externalDocs', '$comment', 'contentEncoding', 'contentMediaType', 'contentSchema', '$defs']);
/** Keywords whose meaning depends on where the schema is resolved from, not on its text. */
const IDENTIFIERS = new Set(['$id', '$schema', '$anchor', '$dynamicAnchor', '$dynamicRef', '$vocabulary']);
const LOWER = ['minimum', 'exclusiveMinimum'];
const UPPER = ['maximum', 'exclusiveMaximum'];
/** Count bounds: a larger maximum, or a smaller minimum, accepts more. */
const MAXIMA = new Set(['maxLength', 'maxItems', 'maxProperties', 'maxContains']);
const MINIMA = new Set(['minLength', 'minItems', 'minProperties', 'minContains']);

export function compareSchemas(base: OpenApiDocument, head: OpenApiDocument, baseSchema: unknown, basePointer: string, headSchema: unknown, headPointer: string): SchemaComparison {
  const walk: Walk = { base, head, out: [], visitedBase: new Set(), visitedHead: new Set(), seen: new Set(), inst: [] };
  compareNode(walk, baseSchema, basePointer, headSchema, headPointer, false, { base: false, head: false });
  return { deltas: walk.out, visitedBase: walk.visitedBase, visitedHead: walk.visitedHead };
}

/** JSON values equal as JSON Schema's `enum` and `const` compare them: numbers by value (1 and 1.0 alike), members in any order. */
export function canonical(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') {
    const r = rationalOf(value);
    return r ? `n:${r.n}/${r.d}` : `n:${String(value)}`;
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export const sameJson = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

/** A value as a message shows it (bigints keep their digits). */
export function shown(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(value);
  return text.replace(/"(-?\d+)n"/g, '$1');
}

function emit(w: Walk, under: boolean, d: Omit<SchemaDelta, 'source'> & { source?: Source }): void {
  const effect = under ? inverted(d.effect) : d.effect;
  const byRole = under && d.byRole ? undefined : d.byRole;
  w.out.push({ ...d, effect, byRole, source: d.source ?? keywordSource(d.keyword), ...(w.inst ? { instancePath: [...w.inst] } : {}) });
}

function keywordDelta(w: Walk, under: boolean, bp: string, hp: string, keyword: string, b: JsonSchema, h: JsonSchema, effect: Effect, what: string, reason?: string, detail?: string): void {
  const has = (s: JsonSchema) => Object.hasOwn(s, keyword);
  emit(w, under, {
    keyword,
    pointer: has(h) || !has(b) ? childPointer(hp, keyword) : childPointer(bp, keyword),
    basePointer: childPointer(bp, keyword),
    ...(has(b) ? { before: b[keyword] } : {}),
    ...(has(h) ? { after: h[keyword] } : {}),
    what,
    effect,
    reason,
    detail,
  });
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

function verb(b: JsonSchema, h: JsonSchema, k: string): string {
  if (!Object.hasOwn(b, k)) return `added: ${shown(h[k])}`;
  if (!Object.hasOwn(h, k)) return `removed (was ${shown(b[k])})`;
  return `changed: ${shown(b[k])} → ${shown(h[k])}`;
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

// ---- assertions ----

type JsonTypeName = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';
const ALL_TYPES: JsonTypeName[] = ['string', 'number', 'boolean', 'array', 'object', 'null'];

function typesOf(s: JsonSchema): JsonTypeName[] {
  const t = s.type;
  return t === undefined ? ALL_TYPES : ((Array.isArray(t) ? t : [t]) as JsonTypeName[]);
}

/** Whether every instance of type `t` is allowed by `types` (an integer is a number: §6.1.1). */
function covers(types: JsonTypeName[], t: JsonTypeName): boolean {
  return types.includes(t) || (t === 'integer' && types.includes('number'));
}

function setEffect(narrowerOrEqual: boolean, widerOrEqual: boolean): Effect {
  if (narrowerOrEqual && widerOrEqual) return 'none';
  if (narrowerOrEqual) return 'tighter';
  if (widerOrEqual) return 'looser';
  return 'both';
}

function typeDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  const before = typesOf(b);
  const after = typesOf(h);
  const effect = setEffect(after.every((t) => covers(before, t)), before.every((t) => covers(after, t)));
  const gainedNull = !before.includes('null') && after.includes('null');
  const lostNull = before.includes('null') && !after.includes('null');
  const note = gainedNull ? ' (null now allowed)' : lostNull ? ' (null no longer allowed)' : '';
  keywordDelta(w, under, bp, hp, 'type', b, h, effect, `type ${verb(b, h, 'type')}${note}`);
}

function valueSetDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean, k: 'enum' | 'const'): void {
  const values = (s: JsonSchema): unknown[] | undefined => (!Object.hasOwn(s, k) ? undefined : k === 'const' ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined);
  const before = values(b);
  const after = values(h);
  if (before === undefined || after === undefined) {
    keywordDelta(w, under, bp, hp, k, b, h, before === undefined ? 'tighter' : 'looser', `${k} ${verb(b, h, k)}`);
    return;
  }
  const bs = new Set(before.map(canonical));
  const hs = new Set(after.map(canonical));
  const added = after.filter((v) => !bs.has(canonical(v)));
  const removed = before.filter((v) => !hs.has(canonical(v)));
  const effect = setEffect(added.length === 0, removed.length === 0);
  if (effect === 'none') return;
  const parts = [...(removed.length > 0 ? [`removed ${removed.map(shown).join(', ')}`] : []), ...(added.length > 0 ? [`added ${added.map(shown).join(', ')}`] : [])];
  keywordDelta(w, under, bp, hp, k, b, h, effect, `${k}: ${parts.join('; ')}`);
}

/**
 * A keyword with one number: added is a constraint more, removed one less;
 * both there, `order` says (from the two exact values) what the change does.
 */
function numberDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean, k: string, order: (before: Rational, after: Rational) => Effect, reason?: (effect: Effect) => string | undefined): void {
  const before = rationalOf(b[k]);
  const after = rationalOf(h[k]);
  let effect: Effect;
  if (!Object.hasOwn(b, k)) effect = 'tighter';
  else if (!Object.hasOwn(h, k)) effect = 'looser';
  else effect = before && after ? order(before, after) : 'unknown';
  // minContains: 0 and minLength: 0 ask nothing: adding one is no constraint.
  if (MINIMA.has(k) && !Object.hasOwn(b, k) && after?.n === 0n) effect = 'none';
  keywordDelta(w, under, bp, hp, k, b, h, effect, `${k} ${verb(b, h, k)}`, reason?.(effect));
}

function multipleOfDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  // Every multiple of the new step is a multiple of the old one when the new is a multiple of the old.
  numberDelta(w, b, bp, h, hp, under, 'multipleOf', (before, after) => setEffect(isMultipleOf(after, before), isMultipleOf(before, after)), (effect) =>
    effect === 'both' ? 'neither step is a multiple of the other: some multiples of the old are refused now, some values refused before are accepted' : undefined,
  );
}

function countBound(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean, k: string): void {
  const max = MAXIMA.has(k);
  numberDelta(w, b, bp, h, hp, under, k, (before, after) => {
    const c = compare(after, before);
    return c === 0 ? 'none' : (c < 0) === max ? 'tighter' : 'looser';
  });
}

interface Bound {
  value: Rational;
  exclusive: boolean;
}

function floorOf(r: Rational): bigint {
  return r.n >= 0n ? r.n / r.d : -((-r.n + r.d - 1n) / r.d);
}

/**
 * The effective lower (or upper) bound of a schema: the stricter of
 * `minimum` and `exclusiveMinimum` (JSON Schema Validation 2020-12 §6.2.4,
 * §6.2.5). For integers only, an exclusive bound is the next integer
 * inside it, so that `exclusiveMinimum: 0` and `minimum: 1` compare equal.
 */
function effectiveBound(s: JsonSchema, side: 'lower' | 'upper'): Bound | undefined | 'invalid' {
  const [inclusiveKey, exclusiveKey] = side === 'lower' ? LOWER : UPPER;
  const candidates: Bound[] = [];
  for (const [key, exclusive] of [[inclusiveKey!, false], [exclusiveKey!, true]] as const) {
    if (!Object.hasOwn(s, key)) continue;
    const value = rationalOf(s[key]);
    if (!value) return 'invalid';
    candidates.push({ value, exclusive });
  }
  const integers = typesOf(s).every((t) => t === 'integer');
  const normal = candidates.map((c): Bound => {
    if (!integers) return c;
    const f = floorOf(c.value);
    const integral = isIntegral(c.value);
    if (side === 'lower') return { value: { n: c.exclusive || !integral ? f + 1n : f, d: 1n }, exclusive: false };
    return { value: { n: c.exclusive && integral ? f - 1n : f, d: 1n }, exclusive: false };
  });
  // The stricter: for a lower bound the larger, an exclusive one winning a tie; for an upper bound the smaller.
  let best: Bound | undefined;
  for (const c of normal) {
    if (!best) best = c;
    else {
      const cmp = compare(c.value, best.value);
      if ((side === 'lower' ? cmp > 0 : cmp < 0) || (cmp === 0 && c.exclusive)) best = c;
    }
  }
  return best;
}

function boundEffect(before: Bound | undefined, after: Bound | undefined, side: 'lower' | 'upper'): Effect {
  if (!before && !after) return 'none';
  if (!before) return 'tighter';
  if (!after) return 'looser';
  const cmp = compare(after.value, before.value);
  if (cmp === 0) return before.exclusive === after.exclusive ? 'none' : after.exclusive ? 'tighter' : 'looser';
  return (side === 'lower' ? cmp > 0 : cmp < 0) ? 'tighter' : 'looser';
}

function numericBound(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean, side: 'lower' | 'upper'): void {
  const before = effectiveBound(b, side);
  const after = effectiveBound(h, side);
  const effect = before === 'invalid' || after === 'invalid' ? 'unknown' : boundEffect(before, after, side);
  const keys = side === 'lower' ? LOWER : UPPER;
  const changed = keys.filter((k) => !sameJson(b[k], h[k]));
  const together = changed.length > 1 ? ` (with ${changed.filter((_, i) => i > 0).join(', ')}: one ${side} bound)` : '';
  for (const k of changed) {
    const note = effect === 'none' ? 'the effective bound is the same (for integers an exclusive bound is the next integer inside it)' : undefined;
    keywordDelta(w, under, bp, hp, k, b, h, effect, `${k} ${verb(b, h, k)}${k === changed[0] ? together : ''}`, effect === 'unknown' ? `${k} is not a number` : note);
  }
}

function formatDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  const before = typeof b.format === 'string' ? b.format : undefined;
  const after = typeof h.format === 'string' ? h.format : undefined;
  const checked = (f: string | undefined) => f !== undefined && isCheckedFormat(f);
  let effect: Effect;
  let reason: string | undefined;
  if (!checked(before) && !checked(after)) {
    effect = 'none';
    reason = 'neither format is asserted by the validators here: an annotation (JSON Schema Validation 2020-12 §7.2.1)';
  } else if (!checked(before)) effect = 'tighter';
  else if (!checked(after)) effect = 'looser';
  else {
    const br = integerRange(before);
    const ar = integerRange(after);
    if (br && ar) effect = setEffect(ar[0] >= br[0] && ar[1] <= br[1], br[0] >= ar[0] && br[1] <= ar[1]);
    else {
      effect = 'unknown';
      reason = `the sets of ${before} and ${after} values are not compared here`;
    }
  }
  keywordDelta(w, under, bp, hp, 'format', b, h, effect, `format ${verb(b, h, 'format')}`, reason);
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function requiredDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  const before = stringList(b.required);
  const after = stringList(h.required);
  for (const name of after.filter((n) => !before.includes(n))) {
    keywordDelta(w, under, bp, hp, 'required', b, h, 'tighter', `required: ${name} added (a new required property)`, undefined, name);
  }
  for (const name of before.filter((n) => !after.includes(n))) {
    keywordDelta(w, under, bp, hp, 'required', b, h, 'looser', `required: ${name} removed (no longer required)`, undefined, name);
  }
}

function dependentRequiredDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  const map = (s: JsonSchema) => (isSchemaObject(s.dependentRequired) ? s.dependentRequired : {});
  const before = map(b);
  const after = map(h);
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = stringList(before[key]);
    const is = stringList(after[key]);
    const added = is.filter((n) => !was.includes(n));
    const removed = was.filter((n) => !is.includes(n));
    if (added.length === 0 && removed.length === 0) continue;
    const effect = setEffect(removed.length === 0, added.length === 0);
    emit(w, under, {
      keyword: 'dependentRequired',
      pointer: childPointer(hp, 'dependentRequired', key),
      basePointer: childPointer(bp, 'dependentRequired', key),
      before: before[key],
      after: after[key],
      what: `dependentRequired ${key}: ${[...added.map((n) => `${n} added`), ...removed.map((n) => `${n} removed`)].join(', ')}`,
      effect,
      detail: key,
    });
  }
}

/**
 * `properties`: a name in both is compared as a schema. A name added or
 * removed where the object is closed (`additionalProperties: false`, or
 * `unevaluatedProperties: false` here or above) was refused and is now
 * allowed, or the other way round. Where the object is open, the name was
 * (or becomes) undescribed, valid with any value (§10.3.2.1); we take it
 * that no client or server following a document sends a property the
 * document does not describe, so adding one is compatible for both sides,
 * and removing one from a request too. Removing one from an answer breaks
 * clients: they read it, and a server following the new document has no
 * reason to send it any more (nor any constraint on it if it does).
 */
function propertiesDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean, closed: Closed): void {
  const before = isSchemaObject(b.properties) ? b.properties : {};
  const after = isSchemaObject(h.properties) ? h.properties : {};
  const closedBase = closed.base || b.additionalProperties === false;
  const closedHead = closed.head || h.additionalProperties === false;
  const inner: Closed = { base: false, head: false };
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const pb = childPointer(bp, 'properties', name);
    const ph = childPointer(hp, 'properties', name);
    if (Object.hasOwn(before, name) && Object.hasOwn(after, name)) {
      within(w, name, () => compareNode(w, before[name], pb, after[name], ph, under, inner));
      continue;
    }
    const added = Object.hasOwn(after, name);
    const base = { keyword: 'properties', pointer: added ? ph : pb, basePointer: pb, ...(added ? { after: after[name] } : { before: before[name] }), detail: name };
    if (added && closedBase) {
      emit(w, under, { ...base, what: `property ${name} added to an object that refused undeclared names`, effect: 'looser', reason: 'the name was refused (the object is closed), and is now allowed' });
    } else if (!added && closedHead) {
      emit(w, under, { ...base, what: `property ${name} removed from an object that refuses undeclared names`, effect: 'tighter', reason: 'the name was allowed, and is now refused (the object is closed)' });
    } else if (added) {
      const reason = `${name} was not described by the old document: no client or server following it sends ${name}, so no valid exchange changes (by decision: JSON Schema alone would let ${name} have held any value)`;
      emit(w, under, { ...base, what: `property ${name} added`, effect: 'none', reason });
    } else {
      emit(w, under, {
        ...base,
        what: `property ${name} removed`,
        effect: 'looser',
        byRole: {
          request: { effect: 'none', reason: `the object stays open: a request that still carries ${name} is valid, and a client following the new document does not send it` },
          response: { effect: 'looser', reason: `clients written from the old document read ${name} in the answer; the new document no longer describes it, so an answer may leave it out or hold anything under that name` },
        },
      });
    }
  }
}

/** `patternProperties`, `dependentSchemas`: a map of schemas, each added one a constraint more. */
function schemaMapDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean, k: string): void {
  const before = isSchemaObject(b[k]) ? (b[k] as JsonSchema) : {};
  const after = isSchemaObject(h[k]) ? (h[k] as JsonSchema) : {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const pb = childPointer(bp, k, key);
    const ph = childPointer(hp, k, key);
    if (Object.hasOwn(before, key) && Object.hasOwn(after, key)) within(w, undefined, () => compareNode(w, before[key], pb, after[key], ph, under, { base: false, head: false }));
    else {
      const added = Object.hasOwn(after, key);
      emit(w, under, { keyword: k, pointer: added ? ph : pb, basePointer: pb, ...(added ? { after: after[key] } : { before: before[key] }), what: `${k} ${key} ${added ? 'added' : 'removed'}`, effect: added ? 'tighter' : 'looser', detail: key });
    }
  }
}

function prefixItemsDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  const before = Array.isArray(b.prefixItems) ? b.prefixItems : [];
  const after = Array.isArray(h.prefixItems) ? h.prefixItems : [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const pb = childPointer(bp, 'prefixItems', i);
    const ph = childPointer(hp, 'prefixItems', i);
    if (i < before.length && i < after.length) within(w, i, () => compareNode(w, before[i], pb, after[i], ph, under, { base: false, head: false }));
    else {
      const added = i < after.length;
      // The item at i was governed by `items` (or nothing) before, and is now by its own schema: taken as a constraint more.
      emit(w, under, { keyword: 'prefixItems', pointer: added ? ph : pb, basePointer: pb, ...(added ? { after: after[i] } : { before: before[i] }), what: `prefixItems/${i} ${added ? 'added' : 'removed'}`, effect: added ? 'tighter' : 'looser', reason: added ? undefined : 'the item is now governed by items (or nothing)', detail: String(i) });
    }
  }
}

function ifDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  const inert = (s: JsonSchema) => !Object.hasOwn(s, 'then') && !Object.hasOwn(s, 'else');
  if (inert(b) && inert(h)) {
    keywordDelta(w, under, bp, hp, 'if', b, h, 'none', `if ${verb(b, h, 'if')}`, 'without then or else, if asserts nothing (JSON Schema Core 2020-12 §10.2.2.1)');
    return;
  }
  keywordDelta(w, under, bp, hp, 'if', b, h, 'unknown', `if ${verb(b, h, 'if')}`, 'a changed condition moves instances between then and else: which way each goes is not compared here');
}

// ---- applicators of several schemas ----

/** Pairs the old branches with the new: equal ones first, then the same $ref, then (as many left on each side) by position. */
function pairBranches(before: unknown[], after: unknown[]): { pairs: Array<[number, number]>; removed: number[]; added: number[] } {
  const pairs: Array<[number, number]> = [];
  const freeB = new Set(before.map((_, i) => i));
  const freeA = new Set(after.map((_, i) => i));
  const match = (same: (x: unknown, y: unknown) => boolean) => {
    for (const i of [...freeB]) {
      const j = [...freeA].find((j) => same(before[i], after[j]));
      if (j !== undefined) {
        pairs.push([i, j]);
        freeB.delete(i);
        freeA.delete(j);
      }
    }
  };
  match(sameJson);
  match((x, y) => isSchemaObject(x) && isSchemaObject(y) && typeof x.$ref === 'string' && x.$ref === y.$ref);
  if (freeB.size === freeA.size) {
    const bs = [...freeB];
    const as = [...freeA];
    bs.forEach((i, n) => pairs.push([i, as[n]!]));
    freeB.clear();
    freeA.clear();
  }
  return { pairs: pairs.sort((x, y) => x[0] - y[0]), removed: [...freeB], added: [...freeA] };
}

function deref(doc: OpenApiDocument, node: unknown, pointer: string): unknown {
  let at = node;
  for (let hops = 0; isSchemaObject(at) && typeof at.$ref === 'string' && hops < 32; hops++) {
    try {
      at = resolveReference(doc, at, pointer).value;
    } catch {
      return undefined;
    }
  }
  return at;
}

/**
 * Two schemas no instance satisfies both of, as far as can be seen at once:
 * disjoint `type`s, or a property both require with `const`/`enum` values
 * in common to none (a discriminator's usual shape).
 */
function disjoint(doc: OpenApiDocument, x: unknown, y: unknown, pointer: string): boolean {
  const a = deref(doc, x, pointer);
  const b = deref(doc, y, pointer);
  if (a === false || b === false) return true;
  if (!isSchemaObject(a) || !isSchemaObject(b)) return false;
  if (a.type !== undefined && b.type !== undefined) {
    const ta = typesOf(a);
    const tb = typesOf(b);
    if (!ta.some((t) => covers(tb, t) || (t === 'number' && tb.includes('integer')))) return true;
  }
  const values = (s: JsonSchema, name: string): Set<string> | undefined => {
    const p = isSchemaObject(s.properties) ? deref(doc, s.properties[name], pointer) : undefined;
    if (!isSchemaObject(p) || !stringList(s.required).includes(name)) return undefined;
    if (Object.hasOwn(p, 'const')) return new Set([canonical(p.const)]);
    return Array.isArray(p.enum) ? new Set(p.enum.map(canonical)) : undefined;
  };
  for (const name of isSchemaObject(a.properties) ? Object.keys(a.properties) : []) {
    const va = values(a, name);
    const vb = values(b, name);
    if (va && vb && ![...va].some((v) => vb.has(v))) return true;
  }
  return false;
}

function pairwiseDisjoint(doc: OpenApiDocument, branches: unknown[], pointer: string): boolean {
  for (let i = 0; i < branches.length; i++) for (let j = i + 1; j < branches.length; j++) if (!disjoint(doc, branches[i], branches[j], pointer)) return false;
  return true;
}

function branchesDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean, k: 'allOf' | 'anyOf' | 'oneOf', closed: Closed): void {
  const before = Array.isArray(b[k]) ? (b[k] as unknown[]) : undefined;
  const after = Array.isArray(h[k]) ? (h[k] as unknown[]) : undefined;
  if (before === undefined || after === undefined) {
    // allOf added is a constraint more, removed one less; anyOf and oneOf likewise (an instance must now, or no longer, match a branch).
    keywordDelta(w, under, bp, hp, k, b, h, before === undefined ? 'tighter' : 'looser', `${k} ${before === undefined ? 'added' : 'removed'}`);
    return;
  }
  // oneOf: exactly one branch. Where the branches may overlap, a tighter branch can make valid an instance that matched two.
  const exclusive = k === 'oneOf' && !(pairwiseDisjoint(w.base, before, bp) && pairwiseDisjoint(w.head, after, hp));
  const overlap = 'oneOf asks for exactly one matching branch, and these branches may overlap: a branch that accepts fewer can make an instance that matched two valid, and one that accepts more can make an instance that matched one invalid';
  const { pairs, removed, added } = pairBranches(before, after);
  // unevaluatedProperties: false above sees the properties each branch evaluates: the branches stay closed.
  const inner = closed;
  for (const [i, j] of pairs) {
    const start = w.out.length;
    compareNode(w, before[i], childPointer(bp, k, i), after[j], childPointer(hp, k, j), under, inner);
    if (exclusive) {
      for (const d of w.out.slice(start)) {
        if (d.effect === 'tighter' || d.effect === 'looser' || d.effect === 'both') Object.assign(d, { effect: 'unknown' as Effect, reason: overlap, byRole: undefined });
      }
    }
  }
  for (const i of removed) {
    const effect: Effect = k === 'allOf' ? 'looser' : exclusive ? 'unknown' : 'tighter';
    emit(w, under, { keyword: k, pointer: childPointer(bp, k, i), basePointer: childPointer(bp, k, i), before: before[i], what: `${k}/${i} removed: a branch less`, effect, reason: exclusive ? overlap : undefined, detail: `-${i}` });
  }
  for (const j of added) {
    const effect: Effect = k === 'allOf' ? 'tighter' : exclusive ? 'unknown' : 'looser';
    emit(w, under, { keyword: k, pointer: childPointer(hp, k, j), basePointer: childPointer(bp, k, j), after: after[j], what: `${k}/${j} added: a branch more`, effect, reason: exclusive ? overlap : undefined, detail: `+${j}` });
  }
}
