// The rules of the assertion keywords (JSON Schema Validation 2020-12 §6):
// what a change of each does to the set of valid instances. Each bound is
// compared as an exact number (spec/exact-number.ts).
import { compare, isIntegral, isMultipleOf, rationalOf, type Rational } from '../../spec/exact-number.js';
import { integerRange } from '../../spec/formats.js';
import { childPointer, isSchemaObject, type JsonSchema } from '../../spec/schema-keywords.js';
import { keywordPointer, originOf } from './origins.js';
import { isCheckedFormat } from '../../spec/validator.js';
import type { Effect } from './change.js';
import { canonical, emit, keywordDelta, sameJson, shown, verb, type Walk } from './schema-delta.js';

export const LOWER = ['minimum', 'exclusiveMinimum'];
export const UPPER = ['maximum', 'exclusiveMaximum'];
/** Count bounds: a larger maximum, or a smaller minimum, accepts more. */
export const MAXIMA = new Set(['maxLength', 'maxItems', 'maxProperties', 'maxContains']);
export const MINIMA = new Set(['minLength', 'minItems', 'minProperties', 'minContains']);

type JsonTypeName = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';
const ALL_TYPES: JsonTypeName[] = ['string', 'number', 'boolean', 'array', 'object', 'null'];

export function typesOf(s: JsonSchema): JsonTypeName[] {
  const t = s.type;
  return t === undefined ? ALL_TYPES : ((Array.isArray(t) ? t : [t]) as JsonTypeName[]);
}

/** Whether every instance of type `t` is allowed by `types` (an integer is a number: §6.1.1). */
export function covers(types: JsonTypeName[], t: JsonTypeName): boolean {
  return types.includes(t) || (t === 'integer' && types.includes('number'));
}

function setEffect(narrowerOrEqual: boolean, widerOrEqual: boolean): Effect {
  if (narrowerOrEqual && widerOrEqual) return 'none';
  if (narrowerOrEqual) return 'tighter';
  if (widerOrEqual) return 'looser';
  return 'both';
}

export function typeDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  const before = typesOf(b);
  const after = typesOf(h);
  const effect = setEffect(
    after.every((t) => covers(before, t)),
    before.every((t) => covers(after, t)),
  );
  const gainedNull = !before.includes('null') && after.includes('null');
  const lostNull = before.includes('null') && !after.includes('null');
  const note = gainedNull ? ' (null now allowed)' : lostNull ? ' (null no longer allowed)' : '';
  keywordDelta(w, under, bp, hp, 'type', b, h, effect, `type ${verb(b, h, 'type')}${note}`);
}

export function valueSetDelta(
  w: Walk,
  b: JsonSchema,
  bp: string,
  h: JsonSchema,
  hp: string,
  under: boolean,
  k: 'enum' | 'const',
): void {
  const values = (s: JsonSchema): unknown[] | undefined =>
    !Object.hasOwn(s, k) ? undefined : k === 'const' ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined;
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
  const parts = [
    ...(removed.length > 0 ? [`removed ${removed.map(shown).join(', ')}`] : []),
    ...(added.length > 0 ? [`added ${added.map(shown).join(', ')}`] : []),
  ];
  keywordDelta(w, under, bp, hp, k, b, h, effect, `${k}: ${parts.join('; ')}`);
}

/**
 * A keyword with one number: added is a constraint more, removed one less;
 * both there, `order` says (from the two exact values) what the change does.
 */
function numberDelta(
  w: Walk,
  b: JsonSchema,
  bp: string,
  h: JsonSchema,
  hp: string,
  under: boolean,
  k: string,
  order: (before: Rational, after: Rational) => Effect,
  reason?: (effect: Effect) => string | undefined,
): void {
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

export function multipleOfDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  // Every multiple of the new step is a multiple of the old one when the new is a multiple of the old.
  numberDelta(
    w,
    b,
    bp,
    h,
    hp,
    under,
    'multipleOf',
    (before, after) => setEffect(isMultipleOf(after, before), isMultipleOf(before, after)),
    (effect) =>
      effect === 'both'
        ? 'neither step is a multiple of the other: some multiples of the old are refused now, some values refused before are accepted'
        : undefined,
  );
}

export function countBound(
  w: Walk,
  b: JsonSchema,
  bp: string,
  h: JsonSchema,
  hp: string,
  under: boolean,
  k: string,
): void {
  const max = MAXIMA.has(k);
  numberDelta(w, b, bp, h, hp, under, k, (before, after) => {
    const c = compare(after, before);
    return c === 0 ? 'none' : c < 0 === max ? 'tighter' : 'looser';
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
  for (const [key, exclusive] of [
    [inclusiveKey!, false],
    [exclusiveKey!, true],
  ] as const) {
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

export function numericBound(
  w: Walk,
  b: JsonSchema,
  bp: string,
  h: JsonSchema,
  hp: string,
  under: boolean,
  side: 'lower' | 'upper',
): void {
  const before = effectiveBound(b, side);
  const after = effectiveBound(h, side);
  const effect = before === 'invalid' || after === 'invalid' ? 'unknown' : boundEffect(before, after, side);
  const keys = side === 'lower' ? LOWER : UPPER;
  const changed = keys.filter((k) => !sameJson(b[k], h[k]));
  const together = changed.length > 1 ? ` (with ${changed.filter((_, i) => i > 0).join(', ')}: one ${side} bound)` : '';
  for (const k of changed) {
    const note =
      effect === 'none'
        ? 'the effective bound is the same (for integers an exclusive bound is the next integer inside it)'
        : undefined;
    keywordDelta(
      w,
      under,
      bp,
      hp,
      k,
      b,
      h,
      effect,
      `${k} ${verb(b, h, k)}${k === changed[0] ? together : ''}`,
      effect === 'unknown' ? `${k} is not a number` : note,
    );
  }
}

export function formatDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
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

/**
 * `pattern`: every pattern written at a place applies (a merged place may
 * hold several). One added refuses what it does not match; one removed
 * accepts it. Patterns both added and removed: the languages of two regular
 * expressions are not compared, so neither way can be told.
 */
export function patternDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  const list = (s: JsonSchema) =>
    s.pattern === undefined
      ? []
      : Array.isArray(s.pattern)
        ? stringList(s.pattern as unknown[])
        : [typeof s.pattern === 'string' ? s.pattern : JSON.stringify(s.pattern)];
  const before = list(b);
  const after = list(h);
  const added = after.filter((p) => !before.includes(p));
  const removed = before.filter((p) => !after.includes(p));
  if (added.length > 0 && removed.length > 0) {
    keywordDelta(
      w,
      under,
      bp,
      hp,
      'pattern',
      b,
      h,
      'unknown',
      `pattern changed: ${removed.map(shown).join(', ')} → ${added.map(shown).join(', ')}`,
      'the languages of two regular expressions are not compared here: neither need include the other',
    );
    return;
  }
  for (const [p, gone] of [...added.map((p) => [p, false] as const), ...removed.map((p) => [p, true] as const)]) {
    const pointer = childPointer(originOf(gone ? b : h, 'pattern', p) ?? (gone ? bp : hp), 'pattern');
    emit(w, under, {
      keyword: 'pattern',
      pointer,
      basePointer: gone ? pointer : childPointer(originOf(b, 'pattern') ?? bp, 'pattern'),
      ...(gone ? { before: p } : { after: p }),
      what: `pattern ${gone ? 'removed' : 'added'}: ${shown(p)}`,
      effect: gone ? 'looser' : 'tighter',
      detail: p,
    });
  }
}

export function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function requiredDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  const before = stringList(b.required);
  const after = stringList(h.required);
  for (const name of after.filter((n) => !before.includes(n))) {
    keywordDelta(
      w,
      under,
      bp,
      hp,
      'required',
      b,
      h,
      'tighter',
      `required: ${name} added (a new required property)`,
      undefined,
      name,
      { member: name, presence: 'added' },
    );
  }
  for (const name of before.filter((n) => !after.includes(n))) {
    keywordDelta(
      w,
      under,
      bp,
      hp,
      'required',
      b,
      h,
      'looser',
      `required: ${name} removed (no longer required)`,
      undefined,
      name,
      { member: name, presence: 'removed' },
    );
  }
}

export function dependentRequiredDelta(
  w: Walk,
  b: JsonSchema,
  bp: string,
  h: JsonSchema,
  hp: string,
  under: boolean,
): void {
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
      pointer: keywordPointer(h, hp, 'dependentRequired', key),
      basePointer: keywordPointer(b, bp, 'dependentRequired', key),
      before: before[key],
      after: after[key],
      what: `dependentRequired ${key}: ${[...added.map((n) => `${n} added`), ...removed.map((n) => `${n} removed`)].join(', ')}`,
      effect,
      detail: key,
    });
  }
}
