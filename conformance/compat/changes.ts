// The changes a comparison finds, as the rules of diff.ts and its parts
// write them: each rule adds a Draft bearing on one place (a request, an
// answer, an operation), and Changes merges the bearings of one change and
// remembers what the rules accounted for, so that the generic comparison
// lists only the rest.
import { resolveReference, type OpenApiDocument } from '../../spec/openapi.js';
import { childPointer } from '../../spec/schema-keywords.js';
import type { Source } from '../checks/types.js';
import {
  combined,
  sidesOf,
  whyOf,
  worse,
  type Bearing,
  type Change,
  type Effect,
  type Role,
  type SideVerdict,
} from './change.js';
import { compareSchemas } from './schema-diff.js';
import type { SchemaDelta } from './schema-delta.js';

/** One change as a rule finds it, bearing on one place; Changes merges the bearings of one change. */
export type Draft = Pick<
  Change,
  'keyword' | 'pointer' | 'basePointer' | 'before' | 'after' | 'what' | 'source' | 'instancePath' | 'member'
> & { detail?: string; bearing: Bearing };

export class Changes {
  private readonly byKey = new Map<string, Omit<Change, 'id'>>();
  /** Pointers, in each document, that a rule accounted for: the generic comparison skips what is under them. */
  readonly claimedBase = new Set<string>();
  readonly claimedHead = new Set<string>();

  add(d: Draft): void {
    // A keyword added is where it is in the new document, one removed where it was in the old: the other pointer is only where its schema is used (one per use, said once).
    const added = d.before === undefined && d.after !== undefined;
    const removed = d.after === undefined && d.before !== undefined;
    const key = `${d.keyword}|${removed ? '' : d.pointer}|${added ? '' : (d.basePointer ?? '')}|${d.detail ?? ''}`;
    let change = this.byKey.get(key);
    if (!change) {
      change = {
        keyword: d.keyword,
        pointer: d.pointer,
        ...(d.basePointer !== undefined && d.basePointer !== d.pointer ? { basePointer: d.basePointer } : {}),
        ...(d.before !== undefined ? { before: d.before } : {}),
        ...(d.after !== undefined ? { after: d.after } : {}),
        ...(d.instancePath !== undefined ? { instancePath: d.instancePath } : {}),
        ...(d.member !== undefined ? { member: d.member } : {}),
        what: d.what,
        source: d.source,
        bearings: [],
        clients: 'compatible',
        servers: 'compatible',
      };
      this.byKey.set(key, change);
    }
    bear(change, d.bearing);
  }

  /** The same fact said by another rule (what the answer carries back, of a property added or removed): `d`'s bearing joins the change `matches` finds, else `d` is a change of its own. */
  addOrJoin(d: Draft, matches: (c: Omit<Change, 'id'>) => boolean): void {
    const found = [...this.byKey.values()].find(matches);
    if (found) bear(found, d.bearing);
    else this.add(d);
  }

  /** A part of the document gone (there in the old document only) or come (in the new only): accounted for, and a change. */
  presence(gone: boolean, d: Omit<Draft, 'before' | 'after'> & { value: unknown }): void {
    const { value, ...rest } = d;
    this.claim(gone ? d.pointer : undefined, gone ? undefined : d.pointer);
    this.add({ ...rest, ...(gone ? { before: value } : { after: value }) });
  }

  claim(base: string | undefined, head: string | undefined): void {
    if (base !== undefined) this.claimedBase.add(base);
    if (head !== undefined) this.claimedHead.add(head);
  }

  list(): Change[] {
    return renamesJoined([...this.byKey.values()]).map((c, i) => ({ id: `C${i + 1}`, ...c }));
  }
}

/** The annotations a rename may reword (JSON Schema Validation 2020-12 §9): they take no part in validation. */
const REWORDABLE = new Set(['title', 'description', 'examples', 'example', '$comment', 'deprecated']);

/** A property's schema without its annotations, as JSON: two properties of one schema write the same text. */
function constraintsOf(schema: unknown): string {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return JSON.stringify(schema);
  return JSON.stringify(Object.fromEntries(Object.entries(schema).filter(([k]) => !REWORDABLE.has(k))));
}

const parentOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf('/'));

/**
 * A rename: a property removed and one of the same schema added in the same
 * place (the same object, one of each) is one change, `property tag renamed
 * to label`, with the bearings of both: what it does to each side is what
 * the removal and the addition do together, and one proof shows it. Where
 * the place gains or loses more than one property of that schema, which
 * became which cannot be told: they stay apart.
 */
function renamesJoined(changes: Array<Omit<Change, 'id'>>): Array<Omit<Change, 'id'>> {
  const property = (c: Omit<Change, 'id'>, how: 'removed' | 'added') =>
    c.keyword === 'properties' &&
    c.member !== undefined &&
    (how === 'removed'
      ? c.before !== undefined && c.after === undefined
      : c.after !== undefined && c.before === undefined);
  const out = [...changes];
  for (const removed of changes.filter((c) => property(c, 'removed'))) {
    const same = (c: Omit<Change, 'id'>, how: 'removed' | 'added') =>
      property(c, how) &&
      parentOf(c.pointer) === parentOf(removed.pointer) &&
      constraintsOf(how === 'removed' ? c.before : c.after) === constraintsOf(removed.before);
    const added = changes.filter((c) => same(c, 'added'));
    if (added.length !== 1 || changes.filter((c) => same(c, 'removed')).length !== 1) continue;
    const now = added[0]!;
    const joined: Omit<Change, 'id'> = {
      ...now,
      basePointer: removed.pointer,
      before: removed.before,
      renamedFrom: removed.member!,
      what: `property ${removed.member} renamed to ${now.member}`,
      bearings: [],
      clients: 'compatible',
      servers: 'compatible',
    };
    for (const b of [...removed.bearings, ...now.bearings]) joinBearing(joined, b);
    out.splice(out.indexOf(removed), 1, joined);
    out.splice(out.indexOf(now), 1);
  }
  return out;
}

/** A bearing of a rename: where the removal and the addition bear on one usage, their effects together. */
function joinBearing(change: Omit<Change, 'id'>, b: Bearing): void {
  const at = change.bearings.find((x) => x.usage === b.usage && x.role === b.role);
  if (!at) {
    change.bearings.push({ ...b });
  } else {
    at.effect = combined(at.effect, b.effect);
    at.clients = worse(at.clients, b.clients);
    at.servers = worse(at.servers, b.servers);
    if (b.clients === 'breaks' || b.servers === 'breaks')
      at.why = at.clients === 'breaks' || at.servers === 'breaks' ? `${at.why}; ${b.why}` : b.why;
  }
  change.clients = worse(change.clients, b.clients);
  change.servers = worse(change.servers, b.servers);
}

function bear(change: Omit<Change, 'id'>, b: Bearing): void {
  if (change.bearings.some((x) => x.usage === b.usage && x.role === b.role)) return;
  change.bearings.push(b);
  change.clients = worse(change.clients, b.clients);
  change.servers = worse(change.servers, b.servers);
}

export function bearing(
  usage: string,
  role: Role,
  effect: Effect,
  why?: string,
  sides?: { clients: SideVerdict; servers: SideVerdict },
): Bearing {
  const s = sides ?? sidesOf(effect, role);
  return { usage, role, effect, ...s, why: whyOf(effect, role, why) };
}

/** Schema deltas as changes: each bears on the place the schema describes, as a request or an answer. */
export function addSchema(
  changes: Changes,
  base: OpenApiDocument,
  head: OpenApiDocument,
  b: { schema: unknown; pointer: string },
  h: { schema: unknown; pointer: string },
  usage: string,
  role: Role,
): void {
  const { deltas, visitedBase, visitedHead } = compareSchemas(base, head, b.schema, b.pointer, h.schema, h.pointer);
  for (const p of visitedBase) changes.claimedBase.add(p);
  for (const p of visitedHead) changes.claimedHead.add(p);
  for (const d of deltas) changes.add(fromDelta(d, usage, role, { old: b.pointer, new: h.pointer }));
}

function fromDelta(d: SchemaDelta, usage: string, role: Role, site: { old: string; new: string }): Draft {
  const own = d.byRole?.[role];
  const effect = own?.effect ?? d.effect;
  return {
    keyword: d.keyword,
    pointer: d.pointer,
    basePointer: d.basePointer,
    ...(Object.hasOwn(d, 'before') ? { before: d.before } : {}),
    ...(Object.hasOwn(d, 'after') ? { after: d.after } : {}),
    what: d.what,
    source: d.source,
    detail: d.detail,
    ...(d.instancePath !== undefined ? { instancePath: d.instancePath } : {}),
    ...(d.member !== undefined ? { member: d.member } : {}),
    bearing: { ...bearing(usage, role, effect, own?.reason ?? d.reason), site },
  };
}

export function resolveObject<T>(doc: OpenApiDocument, node: T, pointer: string): { value: T; pointer: string } {
  return resolveReference(doc, node, pointer);
}

export function requiredFlip(
  changes: Changes,
  b: { pointer: string; was?: boolean },
  h: { pointer: string; is?: boolean },
  name: string,
  usage: string,
  source: Source,
  why: { tighter: string; looser: string },
): void {
  const nowRequired = h.is === true;
  changes.add({
    keyword: 'required',
    pointer: childPointer(h.pointer, 'required'),
    basePointer: childPointer(b.pointer, 'required'),
    before: b.was ?? false,
    after: h.is ?? false,
    what: `${name} ${nowRequired ? 'became required' : 'became optional'}`,
    source,
    bearing: bearing(usage, 'request', nowRequired ? 'tighter' : 'looser', nowRequired ? why.tighter : why.looser),
  });
}
