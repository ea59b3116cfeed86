// The one way the harness makes a request body for the document as it is:
// the document's plainest valid body (its examples, else one drawn from its
// schema, repaired by its validator: draw.ts), a fresh id the id's keywords
// allow, then the one thing a check varies, then whatever else the document
// demands of a body holding it. Every check that sends a valid body, and
// every check that sends a body invalid for one reason, builds it here; when
// the document rules out what a check needs, the reason comes back as
// RuledOut and the check is skipped saying so.
import type { Violation } from '../../spec/validator.js';
import { isSchemaObject, type JsonSchema } from '../../spec/schema-keywords.js';
import { aboutFrozen, drawValid, explain, repair, RuledOut } from './draw.js';
import type { IdAllocator } from './ids.js';
import { Numeral, type JsonValue } from '../model/json.js';
import { show, sites, where } from './keyword-sites.js';
import { numberLattice, type NumberLattice } from './number-values.js';
import { foldInto, freshIdOf } from './fresh-ids.js';
import { describeKind } from '../model/identity.js';
import { samplesOf, setAt, type Body, type InstancePath } from './schema-values.js';
import { createOf, type SpecModel } from '../model/spec-model.js';

export interface BaseBodies {
  /** A valid body with every property the document's richest example or schema gives. */
  full: Body;
  /** A valid body with as few properties as the document allows (its required ones, and what they call for). */
  required: Body;
  /** The member in which the client chooses the id; undefined where the server assigns it. */
  idField?: string;
}

const bases = new WeakMap<SpecModel, BaseBodies>();

const isBody = (b: unknown): b is Body => isSchemaObject(b) && !(b instanceof Numeral);

/**
 * The valid bodies every case starts from: the request's examples (richest
 * first), else one drawn from the schema and repaired by the request
 * validator. Throws RuledOut when the document yields no valid body.
 */
export function baseBodies(model: SpecModel): BaseBodies {
  const cached = bases.get(model);
  if (cached) return cached;
  const create = createOf(model);
  const validate = create.validateRequest;
  const built = samplesOf(model, create.requestSchema.schema, create.requestSchema.pointer);
  const candidates = [...create.requestExamples, ...built].filter(isBody);
  candidates.sort((a, b) => Object.keys(b).length - Object.keys(a).length);
  // The richest body the document allows: a candidate drawn from the schema holds every property, and
  // may need a repair (an anyOf, a dependentSchemas) to be valid; it wins over a poorer valid example.
  const richest = candidates
    .map((c) => (validate(c).length === 0 ? c : (repair(model, validate, c).value as Body)))
    .filter((c) => isBody(c) && validate(c).length === 0)
    .sort((a, b) => Object.keys(b).length - Object.keys(a).length)[0];
  const full = richest ?? (drawValid(model, validate, candidates, `a valid ${create.requestSchemaName}`) as Body);
  // The plainest valid candidate gives the required values (the shipped document's "Fern" example).
  const plainest = [...candidates].reverse().find((b) => validate(b).length === 0) ?? full;
  const requiredOnly = Object.fromEntries(
    Object.entries(plainest).filter(([k]) => create.request.required.includes(k)),
  );
  const repaired = repair(model, validate, requiredOnly);
  const idField = idFieldOf(model);
  const result = {
    full,
    required: repaired.violations.length === 0 ? (repaired.value as Body) : full,
    ...(idField !== undefined ? { idField } : {}),
  };
  bases.set(model, result);
  return result;
}

/**
 * The member of the create's request in which the client chooses the id
 * (model/identity.ts: named like the item path's parameter, or `id`, or
 * without an item path the first required integer); undefined where the
 * server assigns the id.
 */
export function idFieldOf(model: SpecModel): string | undefined {
  createOf(model);
  return model.resource.identity.request;
}

/** The client's id member, for a check that sends ids of its own; throws RuledOut where the server assigns them. */
export function requireIdField(model: SpecModel): string {
  const id = idFieldOf(model);
  if (id === undefined)
    throw new RuledOut(
      `the server assigns the id (the create's request has no id member${model.resource.identity.answer ? `; the answer carries it in ${model.resource.identity.answer.member}` : ''}): this check sends ids of its own`,
    );
  return id;
}

/** The client's id member where it is an integer (the int64 checks); throws RuledOut saying what the id is otherwise. */
export function integerIdField(model: SpecModel): string {
  const id = requireIdField(model);
  const field = createOf(model).request.fields.find((f) => f.name === id);
  if (!field?.types.includes('integer'))
    throw new RuledOut(
      `the id ${id} is ${describeKind(model.resource.identity.kind)}, not an integer: this check sends integer ids`,
    );
  return id;
}

/** The resolved schemas that bind the id member in every body (not those of an anyOf or oneOf branch). */
function idNodes(model: SpecModel, id: string): JsonSchema[] {
  return sites(model)
    .filter((s) => !s.conditional && s.path.length === 1 && s.path[0] === id)
    .map((s) => s.node);
}

/** A run-unique id of the create's id member, of whatever kind it is (an integer: freshIdFor); throws RuledOut when none fits. */
export function freshIdValue(model: SpecModel, ids: IdAllocator): JsonValue {
  const id = requireIdField(model);
  const field = createOf(model).request.fields.find((f) => f.name === id);
  if (field?.types.includes('integer')) return freshIdFor(model, ids);
  return freshIdOf(idNodes(model, id), field?.type, ids, (v) => idFits(model, v));
}

interface IdSpace {
  lattice: NumberLattice | undefined;
  /** The ids an enum or a const lists, when one does: then no other id is allowed. */
  listed?: bigint[];
}

const spaces = new WeakMap<SpecModel, IdSpace>();

/** What the keywords that bind the id in every body (not those of an anyOf or oneOf branch) allow it to be. */
function idSpace(model: SpecModel): IdSpace {
  const cached = spaces.get(model);
  if (cached) return cached;
  const nodes = idNodes(model, integerIdField(model));
  let listed: bigint[] | undefined;
  for (const node of nodes) {
    const values = 'const' in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
    if (!values) continue;
    const integers = values
      .filter((v): v is number | bigint => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint')
      .map((v) => BigInt(v));
    listed = listed ? listed.filter((v) => integers.includes(v)) : integers;
  }
  const space = { lattice: numberLattice(nodes, true), ...(listed ? { listed } : {}) };
  spaces.set(model, space);
  return space;
}

/** Whether the plainest body with this id is valid. */
function idFits(model: SpecModel, value: JsonValue): boolean {
  const idField = requireIdField(model);
  return createOf(model).validateRequest({ ...baseBodies(model).required, [idField]: value }).length === 0;
}

/** A fresh id drawn from `r` (the allocator's run-unique number): k·step folded into the allowed range. */
const idFrom = (lattice: NumberLattice, r: bigint): bigint | undefined => foldInto(lattice, r);

/**
 * A run-unique id the document allows: the allocator's next number as it
 * is where the id's keywords allow it (so a rerun against a long-lived
 * target meets fresh ids), else folded into their range and onto their
 * multipleOf. Throws RuledOut when every allowed id is used already (an
 * enum of a few ids).
 */
export function freshIdFor(model: SpecModel, ids: IdAllocator, below?: bigint): bigint {
  const space = idSpace(model);
  const wanted = (v: bigint) => below === undefined || v < below;
  if (space.listed) {
    const free = space.listed.find((v) => wanted(v) && idFits(model, v) && ids.claim(v));
    if (free === undefined)
      throw new RuledOut(
        `the document allows only the ids ${space.listed.join(', ')}, and this run has used each${below !== undefined ? ` below ${below}` : ''}: no fresh id is left`,
      );
    return free;
  }
  // Below a bound: the lattice's upper end moved under it.
  const lattice =
    space.lattice && below !== undefined && space.lattice.step
      ? { ...space.lattice, kMax: minBig(space.lattice.kMax, ceilBig(below, space.lattice.step.n) - 1n) }
      : space.lattice;
  if (lattice?.kMin !== undefined && lattice.kMax !== undefined && lattice.kMin > lattice.kMax)
    throw new RuledOut(`the document allows no id below ${below}`);
  for (let attempt = 0; attempt < 16; attempt++) {
    const r = ids.fresh();
    if (wanted(r) && idFits(model, r)) return r;
    const folded = lattice ? idFrom(lattice, r) : undefined;
    if (folded !== undefined && wanted(folded) && idFits(model, folded) && ids.claim(folded)) return folded;
  }
  const { required } = baseBodies(model);
  const idField = integerIdField(model);
  const tried = space.lattice ? idFrom(space.lattice, ids.fresh()) : undefined;
  throw new RuledOut(
    `the harness cannot find a fresh id the document allows: ${explain(createOf(model).validateRequest({ ...required, [idField]: tried ?? 0n }))}`,
  );
}

/**
 * `count` valid ids, `step` apart, that a server keeping ids as doubles
 * cannot tell apart: above 2^53, where doubles are `gap` apart with gap
 * at least twice the step, so n + step rounds to n (n a multiple of 2·gap,
 * ties going to the even double). Run-unique. Throws RuledOut when the
 * document allows no such ids (a maximum below 2^53, a multipleOf too
 * coarse for any double gap within int64).
 */
export function idsDoublesMerge(model: SpecModel, ids: IdAllocator, count: number): { ids: bigint[]; step: bigint } {
  const space = idSpace(model);
  const lattice = space.lattice;
  if (space.listed || !lattice)
    throw new RuledOut('the document lists the ids it allows: none are ids a double cannot tell apart');
  const step = lattice.step?.n ?? 1n;
  for (let e = 53n; e < 64n; e++) {
    const gap = 2n ** (e - 52n);
    if (gap < 2n * step) continue;
    // n: a multiple of both 2·gap and the step, at 2^e plus a run-unique offset.
    const unit = (2n * gap * step) / gcdBig(2n * gap, step);
    const n = (2n ** e / unit + ids.offset) * unit;
    const wanted = Array.from({ length: count }, (_, i) => n + BigInt(i) * step);
    if (wanted.every((v) => v < 2n ** (e + 1n) && idFits(model, v)) && wanted.every((v) => ids.claim(v)))
      return { ids: wanted, step };
  }
  throw new RuledOut(
    `the document allows no ids that a double cannot tell apart (${count} ids ${step} apart above 2^53, within the id's keywords)`,
  );
}

/** An id above 2^53 that no double holds (the second of idsDoublesMerge's pair, one apart), where the document allows one; none otherwise. */
export function idsAboveDoubles(model: SpecModel, ids: IdAllocator): bigint[] {
  try {
    const { ids: pair, step } = idsDoublesMerge(model, ids, 2);
    return step === 1n ? [pair[1]!] : [];
  } catch (err) {
    if (err instanceof RuledOut) return [];
    throw err;
  }
}

/**
 * An id above 2^53 that no double holds (as idsAboveDoubles), with its
 * never-stored neighbours: one below (the double it rounds to: claimed with
 * it, never created), one above, and the double-rounding partner where that
 * is another id. A server that keys items by a double answers a neighbour as
 * the created item. None where the document allows no such id.
 */
export function idAboveDoublesWithNeighbours(
  model: SpecModel,
  ids: IdAllocator,
): { id: bigint; neighbours: bigint[] } | undefined {
  try {
    const { ids: pair, step } = idsDoublesMerge(model, ids, 2);
    if (step !== 1n) return undefined;
    const [below, id] = pair as [bigint, bigint];
    const neighbours = [below];
    const partner = BigInt(Number(id));
    for (const n of [id + 1n, partner])
      if (n !== id && !neighbours.includes(n) && idFits(model, n) && ids.claim(n)) neighbours.push(n);
    return { id, neighbours };
  } catch (err) {
    if (err instanceof RuledOut) return undefined;
    throw err;
  }
}

/** An id the document allows that a client may well pick and a server may not expect, and what it is. */
export interface AllowedId {
  id: bigint;
  what: string;
}

/**
 * The integer ids the id's keywords allow at their edges: a negative one
 * (run-unique), zero, the least and the greatest the keywords allow (int64's
 * ends where they say no more), each only where the plainest body with it is
 * valid and this run has not used it (`negativeOnly`: the negative one, which
 * is run-unique, for a check that must not depend on which ran before it).
 * None where the document lists its ids.
 */
export function allowedEdgeIds(model: SpecModel, ids: IdAllocator, negativeOnly = false): AllowedId[] {
  let space: IdSpace;
  try {
    space = idSpace(model);
  } catch (err) {
    if (err instanceof RuledOut) return [];
    throw err;
  }
  const { lattice } = space;
  if (space.listed || !lattice?.step) return [];
  const step = lattice.step.n;
  const negative: AllowedId = { id: -ids.fresh() * step, what: 'a negative id' };
  const candidates: AllowedId[] = negativeOnly
    ? [negative]
    : [
        negative,
        { id: 0n, what: 'id zero' },
        ...(lattice.kMin !== undefined ? [{ id: lattice.kMin * step, what: 'the least id its schema allows' }] : []),
        ...(lattice.kMax !== undefined ? [{ id: lattice.kMax * step, what: 'the greatest id its schema allows' }] : []),
      ];
  const out: AllowedId[] = [];
  for (const c of candidates)
    if (!out.some((o) => o.id === c.id) && idFits(model, c.id) && ids.claim(c.id))
      out.push({ id: c.id, what: `${c.what} (${c.id})` });
  return out;
}

const minBig = (a: bigint | undefined, b: bigint) => (a === undefined || b < a ? b : a);
const ceilBig = (a: bigint, b: bigint) => (a % b === 0n ? a / b : a / b + (a > 0n ? 1n : 0n));

function gcdBig(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a < 0n ? -a : a;
}

/** One change a check makes to a body: the value at a place (undefined removes it). */
export type Change = [path: InstancePath, value: JsonValue | undefined];

/** The changes of a record of top-level fields. */
export function fieldChanges(fields: Record<string, JsonValue | undefined>): Change[] {
  return Object.entries(fields).map(([name, value]) => [[name], value]);
}

function describeChanges(changes: readonly Change[]): string {
  return changes
    .map(([path, value]) => (value === undefined ? `without ${where(path)}` : `with ${where(path)} ${show(value)}`))
    .join(', ');
}

/**
 * A valid body: the base (its required properties, or every property), a
 * fresh id unless a change sets it, the changes, then whatever else the
 * document demands of a body holding them, drawn from its schema. The
 * changes and the id are never touched by that repair. Throws RuledOut,
 * naming each keyword, when no such body is valid.
 */
export function plantWith(
  model: SpecModel,
  ids: IdAllocator,
  changes: readonly Change[] = [],
  base: 'required' | 'full' = 'required',
): Body {
  const bodies = baseBodies(model);
  const { idField } = bodies;
  const setsId = idField === undefined || changes.some(([path]) => path.length >= 1 && path[0] === idField);
  let body: JsonValue = { ...bodies[base], ...(setsId ? {} : { [idField]: freshIdValue(model, ids) }) };
  for (const [path, value] of changes) body = setAt(body, path, value);
  const frozen = [...(idField !== undefined ? [[idField]] : []), ...changes.map(([path]) => path)];
  const validate = createOf(model).validateRequest;
  const { value, violations } =
    validate(body).length === 0
      ? { value: body, violations: [] as Violation[] }
      : repair(model, validate, body, frozen);
  if (violations.length > 0)
    throw new RuledOut(
      `the document allows no valid ${createOf(model).requestSchemaName} ${describeChanges(changes)}: ${explain(violations)}`,
    );
  return value as Body;
}

/**
 * A body valid in every respect but one change: a valid body with a fresh
 * id, the change, and everything else repaired so that the only violations
 * left are about the changed place. A refusal of it can then be put down to
 * that change alone. Throws RuledOut when the change breaks nothing (the
 * document allows it) or the rest cannot be kept valid around it.
 */
export function plantBrokenBy(
  model: SpecModel,
  ids: IdAllocator,
  change: Change,
  base: 'required' | 'full' = 'required',
): { body: JsonValue; violations: Violation[] } {
  const bodies = baseBodies(model);
  const { idField } = bodies;
  const [path, value] = change;
  const aboutId = idField === undefined || (path.length >= 1 && path[0] === idField);
  let body: JsonValue = { ...bodies[base], ...(aboutId ? {} : { [idField]: freshIdValue(model, ids) }) };
  body = setAt(body, path, value);
  const frozen = [path, ...(aboutId ? [] : [[idField]])];
  const validate = createOf(model).validateRequest;
  const repaired = repair(model, validate, body, frozen);
  if (repaired.violations.length === 0)
    throw new RuledOut(`the document allows ${describeChanges([change])}: nothing to refuse`);
  const elsewhere = repaired.violations.filter((v) => !aboutFrozen(v, repaired.value, frozen));
  if (elsewhere.length > 0)
    throw new RuledOut(
      `a body ${describeChanges([change])} cannot be kept valid otherwise, so a refusal could have another reason: ${explain(elsewhere)}`,
    );
  return { body: repaired.value, violations: repaired.violations };
}
