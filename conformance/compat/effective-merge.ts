// How the keywords of the schemas that apply at one place merge into one
// (effective-schema.ts): each keyword is a constraint every instance there
// must meet (JSON Schema Core 2020-12 §7.6), so two of them together are
// their intersection. `type`s meet (an integer is a number, Validation
// §6.1.1), value sets (`enum`, `const`) intersect, the stricter bound wins
// (§6.2, §6.3, §6.4, §6.5), `required` names add up, patterns all apply; a
// property declared in two branches gets both schemas (a Conjunction). What
// has no single merged keyword (two `oneOf`s, two different formats or
// steps) stays a branch of its own. Annotations and identifiers do not take
// part in validation: the first one written at the place describes it.
import { compare, rationalOf } from '../../spec/exact-number.js';
import { isSchemaObject, type JsonSchema } from '../../spec/schema-keywords.js';
import { canonical } from './schema-delta.js';

export interface Part {
  schema: unknown;
  pointer: string;
  root: boolean;
}

/** The schemas that apply together at one place (a property declared in two branches), merged when the comparison reaches them. */
export class Conjunction {
  constructor(readonly parts: Part[]) {}
}

/** One value of a keyword, as one part wrote it. */
export interface Contribution {
  value: unknown;
  pointer: string;
}

export interface GroupResult {
  values: Array<[string, unknown]>;
  /** Where each keyword (or `keyword/key`: a property, a required name, a pattern) was written. */
  origins: Array<[string, string]>;
  /** What does not merge: a branch of its own, with the pointer of the part it comes from. */
  residual: Array<{ schema: JsonSchema; pointer: string }>;
}

/** Keywords merged together, as one constraint. */
const GROUPS: string[][] = [
  ['enum', 'const'],
  ['prefixItems', 'items'],
  ['contains', 'minContains', 'maxContains'],
  ['if', 'then', 'else'],
];
const LOWEST = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);
const HIGHEST = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);
const SCHEMA_CONJUNCTIONS = new Set([
  'propertyNames',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
]);
/** Keywords two of which cannot be one: the first stays, the others become branches. */
const ONE_EACH = new Set(['oneOf', 'anyOf', 'not', '$dynamicRef', '$ref', 'multipleOf', 'format']);

/** The keywords present, as the groups they merge in, in the order they were first written. */
export function mergeOrder(keywords: string[]): string[][] {
  const out: string[][] = [];
  const done = new Set<string>();
  for (const k of keywords) {
    if (done.has(k)) continue;
    const group = (GROUPS.find((g) => g.includes(k)) ?? [k]).filter((g) => keywords.includes(g));
    for (const g of group) done.add(g);
    out.push(group);
  }
  return out;
}

const one = (keyword: string, c: Contribution): GroupResult => ({
  values: [[keyword, c.value]],
  origins: [[keyword, c.pointer]],
  residual: [],
});

/** A schema of several parts as one value: the one part's schema, or a Conjunction of them. */
function conjunction(cs: Contribution[], tokens: (c: Contribution) => string): unknown {
  if (cs.length === 1) return cs[0]!.value;
  // None is the place's own any more: an unevaluated* of one sees only what that one evaluates.
  return new Conjunction(cs.map((c) => ({ schema: c.value, pointer: tokens(c), root: false })));
}

/** Merges the contributions of one group of keywords; false when no instance can meet them together. */
export function mergeGroup(group: string[], by: Map<string, Contribution[]>): GroupResult | false {
  const k = group[0]!;
  const cs = by.get(k)!;
  if (group.length > 1 || GROUPS.some((g) => g.includes(k))) return mergeTogether(group, by);
  if (cs.length === 1 && !SCHEMA_MAPS.has(k) && k !== 'required' && k !== 'dependentRequired' && k !== 'pattern')
    return one(k, cs[0]!);
  if (k === 'type') return mergeTypes(cs);
  if (LOWEST.has(k) || HIGHEST.has(k)) return mergeBound(k, cs, LOWEST.has(k) ? -1 : 1);
  if (k === 'required') return mergeNames(k, cs);
  if (k === 'pattern') return mergePatterns(cs);
  if (k === 'uniqueItems') return one(k, cs.find((c) => c.value === true) ?? cs[0]!);
  if (k === 'dependentRequired') return mergeDependentRequired(cs);
  if (SCHEMA_MAPS.has(k)) return mergeSchemaMap(k, cs);
  if (SCHEMA_CONJUNCTIONS.has(k))
    return { values: [[k, conjunction(cs, (c) => `${c.pointer}/${k}`)]], origins: [[k, cs[0]!.pointer]], residual: [] };
  if (ONE_EACH.has(k)) return firstAndBranches([k], cs, by);
  // Annotations, identifiers, keywords of no vocabulary: the first one written describes the place.
  return one(k, cs[0]!);
}

/** `type`s meet: an instance must be of a type every part allows (an integer is a number). */
function mergeTypes(cs: Contribution[]): GroupResult | false {
  const sets = cs.map((c) => (Array.isArray(c.value) ? c.value : [c.value]).map(String));
  let met = sets[0]!;
  for (const s of sets.slice(1)) {
    const next: string[] = [];
    for (const t of met) {
      const kept = s.includes(t)
        ? t
        : (t === 'integer' && s.includes('number')) || (t === 'number' && s.includes('integer'))
          ? 'integer'
          : undefined;
      if (kept && !next.includes(kept)) next.push(kept);
    }
    met = next;
  }
  if (met.length === 0) return false;
  const same = cs.find((_, i) => sets[i]!.length === met.length && met.every((t) => sets[i]!.includes(t)));
  return same
    ? one('type', same)
    : {
        values: [['type', met.length === 1 ? met[0] : met]],
        origins: [['type', cs[cs.length - 1]!.pointer]],
        residual: [],
      };
}

/** The stricter bound: the lowest maximum, the highest minimum (exactly, as rationals). */
function mergeBound(k: string, cs: Contribution[], sign: -1 | 1): GroupResult {
  let best = cs[0]!;
  const residual: GroupResult['residual'] = [];
  for (const c of cs.slice(1)) {
    const a = rationalOf(c.value);
    const b = rationalOf(best.value);
    if (!a || !b) residual.push({ schema: { [k]: c.value }, pointer: c.pointer });
    else if (compare(a, b) === sign) best = c;
  }
  return { ...one(k, best), residual };
}

/** `required`: every name any part requires, each where it was first written. */
function mergeNames(k: string, cs: Contribution[]): GroupResult {
  const names: string[] = [];
  const origins: Array<[string, string]> = [[k, cs[0]!.pointer]];
  for (const c of cs) {
    for (const n of Array.isArray(c.value) ? c.value : []) {
      if (typeof n !== 'string' || names.includes(n)) continue;
      names.push(n);
      origins.push([`${k}/${n}`, c.pointer]);
    }
  }
  return { values: [[k, names]], origins, residual: [] };
}

/** `pattern`s all apply: one, or the list of them (schema-diff.ts compares them as a set). */
function mergePatterns(cs: Contribution[]): GroupResult {
  const patterns: string[] = [];
  const origins: Array<[string, string]> = [['pattern', cs[0]!.pointer]];
  for (const c of cs) {
    if (typeof c.value !== 'string' || patterns.includes(c.value)) continue;
    patterns.push(c.value);
    origins.push([`pattern/${c.value}`, c.pointer]);
  }
  return { values: [['pattern', patterns.length === 1 ? patterns[0] : patterns]], origins, residual: [] };
}

function mergeDependentRequired(cs: Contribution[]): GroupResult {
  const out: Record<string, string[]> = {};
  const origins: Array<[string, string]> = [['dependentRequired', cs[0]!.pointer]];
  for (const c of cs) {
    if (!isSchemaObject(c.value)) continue;
    for (const [key, names] of Object.entries(c.value)) {
      if (!out[key]) origins.push([`dependentRequired/${key}`, c.pointer]);
      out[key] = [
        ...new Set([
          ...(out[key] ?? []),
          ...(Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : []),
        ]),
      ];
    }
  }
  return { values: [['dependentRequired', out]], origins, residual: [] };
}

/** `properties` and the other maps of schemas: per key, the schema of each part that names it. */
function mergeSchemaMap(k: string, cs: Contribution[]): GroupResult {
  const byKey = new Map<string, Contribution[]>();
  for (const c of cs) {
    if (!isSchemaObject(c.value)) continue;
    for (const [key, schema] of Object.entries(c.value))
      byKey.set(key, [...(byKey.get(key) ?? []), { value: schema, pointer: c.pointer }]);
  }
  const out: Record<string, unknown> = {};
  const origins: Array<[string, string]> = [[k, cs[0]!.pointer]];
  for (const [key, list] of byKey) {
    out[key] = conjunction(list, (c) => `${c.pointer}/${k}/${escape(key)}`);
    origins.push([`${k}/${key}`, list[0]!.pointer]);
  }
  return { values: [[k, out]], origins, residual: [] };
}

const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** Keywords that only mean something together (`if` with `then`, `contains` with its counts, `prefixItems` with `items`): one part's set stays, the others are branches. */
function mergeTogether(group: string[], by: Map<string, Contribution[]>): GroupResult | false {
  if (group.includes('enum') || group.includes('const')) return mergeValues(by);
  // Without prefixItems, every part's items apply to every item: they merge.
  if (!group.includes('prefixItems') && group.length === 1 && group[0] === 'items') {
    const cs = by.get('items')!;
    return {
      values: [['items', conjunction(cs, (c) => `${c.pointer}/items`)]],
      origins: [['items', cs[0]!.pointer]],
      residual: [],
    };
  }
  return firstAndBranches(group, by.get(group[0]!)!, by);
}

/** The first part that writes the keywords keeps them; each other part's become a branch. */
function firstAndBranches(group: string[], cs: Contribution[], by: Map<string, Contribution[]>): GroupResult {
  const owners = [...new Set(group.flatMap((g) => (by.get(g) ?? []).map((c) => c.pointer)))];
  const [keeper, ...others] = owners.length > 0 ? owners : [cs[0]!.pointer];
  const of = (pointer: string) =>
    group.flatMap((g) =>
      (by.get(g) ?? []).filter((c) => c.pointer === pointer).map((c): [string, unknown] => [g, c.value]),
    );
  const kept = of(keeper!);
  // Two equal values (the same format, the same step) are one.
  const residual = others
    .map((p) => ({ schema: Object.fromEntries(of(p)), pointer: p }))
    .filter((r) => canonical(r.schema) !== canonical(Object.fromEntries(kept)));
  return { values: kept, origins: kept.map(([g]) => [g, keeper!]), residual };
}

/** `enum` and `const`: the values every part allows. */
function mergeValues(by: Map<string, Contribution[]>): GroupResult | false {
  const all = [
    ...(by.get('enum') ?? []).map((c) => ({
      c,
      keyword: 'enum',
      values: Array.isArray(c.value) ? (c.value as unknown[]) : [],
    })),
    ...(by.get('const') ?? []).map((c) => ({ c, keyword: 'const', values: [c.value] })),
  ];
  if (all.length === 1) return one(all[0]!.keyword, all[0]!.c);
  const allowed = all
    .slice(1)
    .reduce((vals, x) => vals.filter((v) => x.values.some((w) => canonical(w) === canonical(v))), all[0]!.values);
  if (allowed.length === 0) return false;
  const same = all.find((x) => x.values.length === allowed.length);
  if (same) return one(same.keyword, same.c);
  return { values: [['enum', allowed]], origins: [['enum', all[0]!.c.pointer]], residual: [] };
}

/**
 * Parts that must stay whole branches: `additionalProperties` covers the
 * names its own part does not declare, so it merges only where the merged
 * parts declare no name (nor pattern) it does not; `unevaluated*` in a
 * branch sees only what that branch evaluates.
 */
export function stray<P extends Part>(parts: P[]): { merged: P[]; residual: P[] } {
  const residual = new Set<P>(
    parts.filter(
      (p) =>
        !p.root &&
        isSchemaObject(p.schema) &&
        (p.schema.unevaluatedProperties !== undefined || p.schema.unevaluatedItems !== undefined),
    ),
  );
  const keys = (p: P, k: string) =>
    isSchemaObject(p.schema) && isSchemaObject(p.schema[k]) ? Object.keys(p.schema[k]) : [];
  for (let changed = true; changed;) {
    changed = false;
    const merged = parts.filter((p) => !residual.has(p));
    const names = new Set(merged.flatMap((p) => keys(p, 'properties')));
    const patterns = new Set(merged.flatMap((p) => keys(p, 'patternProperties')));
    for (const p of merged) {
      const ap = (p.schema as JsonSchema).additionalProperties;
      if (ap === undefined || ap === true) continue;
      const own = new Set(keys(p, 'properties'));
      const ownPatterns = new Set(keys(p, 'patternProperties'));
      if ([...names].every((n) => own.has(n)) && [...patterns].every((n) => ownPatterns.has(n))) continue;
      residual.add(p);
      changed = true;
    }
  }
  return { merged: parts.filter((p) => !residual.has(p)), residual: parts.filter((p) => residual.has(p)) };
}
