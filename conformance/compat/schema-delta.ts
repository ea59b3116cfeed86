// The record of one difference between two schemas (a SchemaDelta), and the
// walk's state as every keyword's rule writes to it: schema-diff.ts walks
// the two schemas side by side, schema-assertions.ts and
// schema-applicators.ts hold the rules of the keywords. A rule under `not`
// is read the other way round (emit inverts its effect).
import { rationalOf } from '../../spec/exact-number.js';
import { childPointer, type JsonSchema } from '../../spec/schema-keywords.js';
import { originOf } from './origins.js';
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
  /** The property the change is about (a required name, a property added or removed), at instancePath's object. */
  member?: string;
  /** Whether that property (or the name's requirement) came or went. */
  presence?: 'added' | 'removed';
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
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export const sameJson = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

/** A value as a message shows it (bigints keep their digits). */
export function shown(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? typeof value;
  return text.replace(/"(-?\d+)n"/g, '$1');
}

export function emit(w: Walk, under: boolean, d: Omit<SchemaDelta, 'source'> & { source?: Source }): void {
  const effect = under ? inverted(d.effect) : d.effect;
  const byRole = under && d.byRole ? undefined : d.byRole;
  w.out.push({
    ...d,
    effect,
    byRole,
    source: d.source ?? keywordSource(d.keyword),
    ...(w.inst ? { instancePath: [...w.inst] } : {}),
  });
}

export function keywordDelta(
  w: Walk,
  under: boolean,
  bp: string,
  hp: string,
  keyword: string,
  b: JsonSchema,
  h: JsonSchema,
  effect: Effect,
  what: string,
  reason?: string,
  detail?: string,
  about?: Pick<SchemaDelta, 'member' | 'presence'>,
): void {
  const has = (s: JsonSchema) => Object.hasOwn(s, keyword);
  // Where the keyword was written in each document (a merged schema remembers it: origins.ts); `detail` names one entry of it (a required name).
  const at = (s: JsonSchema, p: string) => childPointer(originOf(s, keyword, detail) ?? p, keyword);
  emit(w, under, {
    keyword,
    pointer: has(h) || !has(b) ? at(h, hp) : at(b, bp),
    basePointer: at(b, bp),
    ...(has(b) ? { before: b[keyword] } : {}),
    ...(has(h) ? { after: h[keyword] } : {}),
    what,
    effect,
    reason,
    detail,
    ...about,
  });
}

export function verb(b: JsonSchema, h: JsonSchema, k: string): string {
  if (!Object.hasOwn(b, k)) return `added: ${shown(h[k])}`;
  if (!Object.hasOwn(h, k)) return `removed (was ${shown(b[k])})`;
  return `changed: ${shown(b[k])} → ${shown(h[k])}`;
}

/**
 * A property added with its requirement (or removed with it) is one change
 * to the author: the requirement's, which says both. Folded only where the
 * object is open (the property alone changes no valid instance there).
 */
export function foldMembers(out: SchemaDelta[], from: number): void {
  const samePlace = (x: SchemaDelta, y: SchemaDelta) =>
    JSON.stringify(x.instancePath) === JSON.stringify(y.instancePath);
  for (let i = out.length - 1; i >= from; i--) {
    const p = out[i]!;
    if (p.keyword !== 'properties' || !p.member || !p.presence) continue;
    const r = out
      .slice(from)
      .find((d) => d.keyword === 'required' && d.member === p.member && d.presence === p.presence && samePlace(d, p));
    const open = p.presence === 'added' ? p.effect === 'none' : p.byRole !== undefined;
    if (!r || !open || r.effect !== (p.presence === 'added' ? 'tighter' : 'looser')) continue;
    const name = p.member;
    r.what = `required property ${name} ${p.presence}`;
    r.byRole =
      p.presence === 'added'
        ? {
            request: { effect: 'tighter', reason: `existing clients do not send ${name}, which is now required` },
            response: {
              effect: 'tighter',
              reason: `an existing server's answer may lack ${name}, which is now required`,
            },
          }
        : {
            request: { effect: 'looser', reason: `a new client may leave ${name} out, which existing servers require` },
            response: {
              effect: 'looser',
              reason: `an answer may now leave ${name} out (or hold anything under that name), and existing clients read it`,
            },
          };
    out.splice(i, 1);
  }
}
