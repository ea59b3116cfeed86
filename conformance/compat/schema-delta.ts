// The record of one difference between two schemas (a SchemaDelta), and the
// walk's state as every keyword's rule writes to it: schema-diff.ts walks
// the two schemas side by side, schema-assertions.ts and
// schema-applicators.ts hold the rules of the keywords. A rule under `not`
// is read the other way round (emit inverts its effect).
import { rationalOf } from '../../spec/exact-number.js';
import { childPointer, type JsonSchema } from '../../spec/schema-keywords.js';
import type { OpenApiDocument } from '../../spec/openapi.js';
import type { Source } from '../checks/types.js';
import { inverted, type Effect, type Role } from './change.js';
import { keywordSource } from './sources.js';

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

export interface Walk {
  base: OpenApiDocument;
  head: OpenApiDocument;
  out: SchemaDelta[];
  visitedBase: Set<string>;
  visitedHead: Set<string>;
  seen: Set<string>;
  /** The instance location of the schemas being compared; undefined below a keyword that applies at no one place (additionalProperties, contains, …). */
  inst: Array<string | number> | undefined;
  /** Compares two subschemas, as the walk compares the schemas it starts at (schema-diff.ts): how the rules of applicators recurse. */
  compareNode(bRaw: unknown, bp: string, hRaw: unknown, hp: string, under: boolean, closed: Closed): void;
}

/** Runs `compare` one step into the instance (a property name, an item index), or at no known place. */
export function within(w: Walk, segment: string | number | undefined, compare: () => void): void {
  const saved = w.inst;
  w.inst = segment === undefined || saved === undefined ? undefined : [...saved, segment];
  try {
    compare();
  } finally {
    w.inst = saved;
  }
}

/** Whether the object's names not declared are refused here (`unevaluatedProperties: false` above reaches down through applicators and references). */
export interface Closed {
  base: boolean;
  head: boolean;
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

export function emit(w: Walk, under: boolean, d: Omit<SchemaDelta, 'source'> & { source?: Source }): void {
  const effect = under ? inverted(d.effect) : d.effect;
  const byRole = under && d.byRole ? undefined : d.byRole;
  w.out.push({ ...d, effect, byRole, source: d.source ?? keywordSource(d.keyword), ...(w.inst ? { instancePath: [...w.inst] } : {}) });
}

export function keywordDelta(w: Walk, under: boolean, bp: string, hp: string, keyword: string, b: JsonSchema, h: JsonSchema, effect: Effect, what: string, reason?: string, detail?: string): void {
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

export function verb(b: JsonSchema, h: JsonSchema, k: string): string {
  if (!Object.hasOwn(b, k)) return `added: ${shown(h[k])}`;
  if (!Object.hasOwn(h, k)) return `removed (was ${shown(b[k])})`;
  return `changed: ${shown(b[k])} → ${shown(h[k])}`;
}
