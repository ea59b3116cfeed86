// The rules of the applicators (JSON Schema Core 2020-12 §10): the
// subschemas of `properties`, `patternProperties`, `dependentSchemas`,
// `prefixItems` and the branches of `allOf`, `anyOf`, `oneOf` are compared
// as the walk compares schemas (Walk.compareNode); what a name, an item or a
// branch added or removed does, each rule says.
import { resolveReference, type OpenApiDocument } from '../../spec/openapi.js';
import { isSchemaObject, type JsonSchema } from '../../spec/schema-keywords.js';
import type { Effect } from './change.js';
import { covers, stringList, typesOf } from './schema-assertions.js';
import {
  canonical,
  emit,
  keywordDelta,
  sameJson,
  shown,
  verb,
  within,
  type Closed,
  type Walk,
} from './schema-delta.js';
import { plain } from './effective-schema.js';
import { keywordPointer, selfPointer } from './origins.js';

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
export function propertiesDelta(
  w: Walk,
  b: JsonSchema,
  bp: string,
  h: JsonSchema,
  hp: string,
  under: boolean,
  closed: Closed,
): void {
  const before = isSchemaObject(b.properties) ? b.properties : {};
  const after = isSchemaObject(h.properties) ? h.properties : {};
  const closedBase = closed.base || b.additionalProperties === false;
  const closedHead = closed.head || h.additionalProperties === false;
  const inner: Closed = { base: false, head: false };
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const pb = keywordPointer(b, bp, 'properties', name);
    const ph = keywordPointer(h, hp, 'properties', name);
    if (Object.hasOwn(before, name) && Object.hasOwn(after, name)) {
      within(w, name, () => w.compareNode(before[name], pb, after[name], ph, under, inner));
      continue;
    }
    const added = Object.hasOwn(after, name);
    const base = {
      keyword: 'properties',
      pointer: added ? ph : pb,
      basePointer: pb,
      ...(added ? { after: plain(after[name]) } : { before: plain(before[name]) }),
      detail: name,
      member: name,
      presence: added ? ('added' as const) : ('removed' as const),
    };
    if (added && closedBase) {
      emit(w, under, {
        ...base,
        what: `property ${name} added to an object that refused undeclared names`,
        effect: 'looser',
        reason: 'the name was refused (the object is closed), and is now allowed',
      });
    } else if (!added && closedHead) {
      emit(w, under, {
        ...base,
        what: `property ${name} removed from an object that refuses undeclared names`,
        effect: 'tighter',
        reason: 'the name was allowed, and is now refused (the object is closed)',
      });
    } else if (added) {
      const reason = `${name} was not described by the old document: no client or server following it sends ${name}, so no valid exchange changes (by decision: JSON Schema alone would let ${name} have held any value)`;
      emit(w, under, { ...base, what: `property ${name} added`, effect: 'none', reason });
    } else {
      emit(w, under, {
        ...base,
        what: `property ${name} removed`,
        effect: 'looser',
        byRole: {
          request: {
            effect: 'none',
            reason: `the object stays open: a request that still carries ${name} is valid, and a client following the new document does not send it`,
          },
          response: {
            effect: 'looser',
            reason: `clients written from the old document read ${name} in the answer; the new document no longer describes it, so an answer may leave it out or hold anything under that name`,
          },
        },
      });
    }
  }
}

/** `patternProperties`, `dependentSchemas`: a map of schemas, each added one a constraint more. */
export function schemaMapDelta(
  w: Walk,
  b: JsonSchema,
  bp: string,
  h: JsonSchema,
  hp: string,
  under: boolean,
  k: string,
): void {
  const before = isSchemaObject(b[k]) ? b[k] : {};
  const after = isSchemaObject(h[k]) ? h[k] : {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const pb = keywordPointer(b, bp, k, key);
    const ph = keywordPointer(h, hp, k, key);
    if (Object.hasOwn(before, key) && Object.hasOwn(after, key))
      within(w, undefined, () => w.compareNode(before[key], pb, after[key], ph, under, { base: false, head: false }));
    else {
      const added = Object.hasOwn(after, key);
      emit(w, under, {
        keyword: k,
        pointer: added ? ph : pb,
        basePointer: pb,
        ...(added ? { after: plain(after[key]) } : { before: plain(before[key]) }),
        what: `${k} ${key} ${added ? 'added' : 'removed'}`,
        effect: added ? 'tighter' : 'looser',
        detail: key,
      });
    }
  }
}

export function prefixItemsDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  const before = Array.isArray(b.prefixItems) ? b.prefixItems : [];
  const after = Array.isArray(h.prefixItems) ? h.prefixItems : [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const pb = keywordPointer(b, bp, 'prefixItems', i);
    const ph = keywordPointer(h, hp, 'prefixItems', i);
    if (i < before.length && i < after.length)
      within(w, i, () => w.compareNode(before[i], pb, after[i], ph, under, { base: false, head: false }));
    else {
      const added = i < after.length;
      // The item at i was governed by `items` (or nothing) before, and is now by its own schema: taken as a constraint more.
      emit(w, under, {
        keyword: 'prefixItems',
        pointer: added ? ph : pb,
        basePointer: pb,
        ...(added ? { after: after[i] } : { before: before[i] }),
        what: `prefixItems/${i} ${added ? 'added' : 'removed'}`,
        effect: added ? 'tighter' : 'looser',
        reason: added ? undefined : 'the item is now governed by items (or nothing)',
        detail: String(i),
      });
    }
  }
}

export function ifDelta(w: Walk, b: JsonSchema, bp: string, h: JsonSchema, hp: string, under: boolean): void {
  const inert = (s: JsonSchema) => !Object.hasOwn(s, 'then') && !Object.hasOwn(s, 'else');
  if (inert(b) && inert(h)) {
    keywordDelta(
      w,
      under,
      bp,
      hp,
      'if',
      b,
      h,
      'none',
      `if ${verb(b, h, 'if')}`,
      'without then or else, if asserts nothing (JSON Schema Core 2020-12 §10.2.2.1)',
    );
    return;
  }
  keywordDelta(
    w,
    under,
    bp,
    hp,
    'if',
    b,
    h,
    'unknown',
    `if ${verb(b, h, 'if')}`,
    'a changed condition moves instances between then and else: which way each goes is not compared here',
  );
}

// ---- applicators of several schemas ----

/** Pairs the old branches with the new: equal ones first, then the same $ref, then (as many left on each side) by position. */
function pairBranches(
  before: unknown[],
  after: unknown[],
): { pairs: Array<[number, number]>; removed: number[]; added: number[] } {
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
  for (let i = 0; i < branches.length; i++)
    for (let j = i + 1; j < branches.length; j++) if (!disjoint(doc, branches[i], branches[j], pointer)) return false;
  return true;
}

/** A branch's pointer: where its author wrote it (a branch of what did not merge keeps its part's pointer: origins.ts). */
function branchPointer(s: JsonSchema, pointer: string, k: string, i: number): string {
  const branch = (s[k] as unknown[])[i];
  return (k === 'allOf' ? selfPointer(branch) : undefined) ?? keywordPointer(s, pointer, k, i);
}

export function branchesDelta(
  w: Walk,
  b: JsonSchema,
  bp: string,
  h: JsonSchema,
  hp: string,
  under: boolean,
  k: 'allOf' | 'anyOf' | 'oneOf',
  closed: Closed,
): void {
  const before = Array.isArray(b[k]) ? (b[k] as unknown[]) : undefined;
  const after = Array.isArray(h[k]) ? (h[k] as unknown[]) : undefined;
  if (before === undefined || after === undefined) {
    // allOf added is a constraint more, removed one less; anyOf and oneOf likewise (an instance must now, or no longer, match a branch).
    keywordDelta(
      w,
      under,
      bp,
      hp,
      k,
      b,
      h,
      before === undefined ? 'tighter' : 'looser',
      `${k} ${before === undefined ? 'added' : 'removed'}`,
    );
    return;
  }
  // oneOf: exactly one branch. Where the branches may overlap, a tighter branch can make valid an instance that matched two.
  const exclusive = k === 'oneOf' && !(pairwiseDisjoint(w.base, before, bp) && pairwiseDisjoint(w.head, after, hp));
  const overlap =
    'oneOf asks for exactly one matching branch, and these branches may overlap: a branch that accepts fewer can make an instance that matched two valid, and one that accepts more can make an instance that matched one invalid';
  const { pairs, removed, added } = pairBranches(before, after);
  // unevaluatedProperties: false above sees the properties each branch evaluates: the branches stay closed.
  const inner = closed;
  for (const [i, j] of pairs) {
    const start = w.out.length;
    w.compareNode(before[i], branchPointer(b, bp, k, i), after[j], branchPointer(h, hp, k, j), under, inner);
    if (exclusive) {
      for (const d of w.out.slice(start)) {
        if (d.effect === 'tighter' || d.effect === 'looser' || d.effect === 'both')
          Object.assign(d, { effect: 'unknown', reason: overlap, byRole: undefined });
      }
    }
  }
  for (const i of removed) {
    const effect: Effect = k === 'allOf' ? 'looser' : exclusive ? 'unknown' : 'tighter';
    const at = branchPointer(b, bp, k, i);
    emit(w, under, {
      keyword: k,
      pointer: at,
      basePointer: at,
      before: before[i],
      what:
        k === 'allOf' && selfPointer(before[i])
          ? `constraints removed: ${shown(before[i])}`
          : `${k}/${i} removed: a branch less`,
      effect,
      reason: exclusive ? overlap : undefined,
      detail: `-${i}`,
    });
  }
  for (const j of added) {
    const effect: Effect = k === 'allOf' ? 'tighter' : exclusive ? 'unknown' : 'looser';
    emit(w, under, {
      keyword: k,
      pointer: branchPointer(h, hp, k, j),
      basePointer: keywordPointer(b, bp, k, j),
      after: after[j],
      what:
        k === 'allOf' && selfPointer(after[j])
          ? `constraints added: ${shown(after[j])}`
          : `${k}/${j} added: a branch more`,
      effect,
      reason: exclusive ? overlap : undefined,
      detail: `+${j}`,
    });
  }
}
