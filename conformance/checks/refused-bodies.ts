// The invalid bodies of the rejection checks: each one change that makes an
// otherwise valid body invalid (a required field missing, a wrong type, null,
// an id beyond int64 or not an integer), sent only where the document
// refuses it, with the id as written where a lenient reading may meet a
// stored plant.
import { Numeral, toJson, type JsonValue } from '../model/json.js';
import { RuledOut } from '../cases/draw.js';
import { typeAllowed, typeExemplars, type InstancePath } from '../cases/schema-values.js';
import type { Refusal } from './reject-check.js';
import { createRequest, freshId, idField, idRange, invalidPlant } from './requests.js';
import type { CheckContext } from './types.js';
import { createOf } from '../model/spec-model.js';

/** Values of each JSON type the field's schema does not allow (null has its own check). */
function wrongValues(ctx: CheckContext, types: readonly string[]): Array<[string, JsonValue]> {
  // A string of digits is the coercion trap ("7" read as 7); it carries a
  // fresh id so that a coercing server cannot hit a stored plant.
  return typeExemplars(String(freshId(ctx)))
    .filter((e) => e.type !== 'null' && e.type !== 'number' && !typeAllowed(types, e.type))
    .map((e) => [e.label, e.value]);
}

/** One change that makes an otherwise valid body invalid, with its note. */
type Breaking = [path: InstancePath, value: JsonValue | undefined, note: string, mayMeetStored?: string];

/**
 * Requests for the changes the document refuses, each in a body valid but
 * for it; a change the document allows (a field that may be null, say), or
 * one it cannot isolate, is not sent. RuledOut, with the reasons, when no
 * change is left.
 */
export function refusedBodies(ctx: CheckContext, changes: Breaking[]): Refusal[] {
  const out: Refusal[] = [];
  const excluded: string[] = [];
  for (const [path, value, note, mayMeetStored] of changes) {
    try {
      out.push({
        request: createRequest(ctx, invalidPlant(ctx, path, value), { note }),
        ...(mayMeetStored !== undefined ? { mayMeetStored } : {}),
      });
    } catch (err) {
      if (!(err instanceof RuledOut)) throw err;
      excluded.push(`${note}: ${err.message}`);
    }
  }
  if (out.length === 0)
    throw new RuledOut(`the document leaves nothing of this kind to refuse: ${excluded.join('; ')}`);
  return out;
}

/**
 * The id as written, when a lenient reading of it is an integer a stored
 * plant may have: no id or null (a zero value, as Go and Jackson read
 * them: 0), a boolean (0 or 1), a number (a fraction truncated, beyond
 * int64 read as a double), a string of digits; undefined otherwise.
 */
export function lenientId(value: JsonValue | undefined): string | undefined {
  if (value === undefined) return '(no id)';
  if (
    value === null ||
    typeof value === 'boolean' ||
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    value instanceof Numeral
  )
    return toJson(value);
  return typeof value === 'string' && /^-?\d+$/.test(value) ? JSON.stringify(value) : undefined;
}

// A body without its id, or with the id null or a boolean, may meet a plant an earlier run stored (0, 1)
// on a server that reads it leniently: its refusal must not be a duplicate's.
export const missingRequired = (ctx: CheckContext): Breaking[] =>
  createOf(ctx.model).request.required.map((name): Breaking => [
    [name],
    undefined,
    `without ${name}`,
    name === idField(ctx) ? lenientId(undefined) : undefined,
  ]);

export const wrongTypes = (ctx: CheckContext): Breaking[] =>
  createOf(ctx.model).request.fields.flatMap((f) =>
    wrongValues(ctx, f.types).map(([label, value]): Breaking => [
      [f.name],
      value,
      `${f.name} as ${label}`,
      f.name === idField(ctx) && typeof value === 'boolean' ? lenientId(value) : undefined,
    ]),
  );

export const nulls = (ctx: CheckContext): Breaking[] =>
  createOf(ctx.model)
    .request.fields.filter((f) => !f.types.includes('null'))
    .map((f): Breaking => [[f.name], null, `${f.name} null`, f.name === idField(ctx) ? lenientId(null) : undefined]);

/** The doubles beyond int64's ends are 2048 apart: an id 2048·k past the end (k run-unique) reads as a double no stored id has. */
const DOUBLE_GAP_BEYOND_INT64 = 2048n;

/**
 * Ids just beyond one end of the id's integer format: the first one past it
 * (a server reading ids as doubles rounds it onto the end itself, which an
 * earlier check or run may have stored: its refusal must not be a
 * duplicate's), and one further, run-unique, whose double no stored id has.
 */
export function beyondRange(ctx: CheckContext, end: 'max' | 'min'): Breaking[] {
  const [lo, hi] = idRange(ctx);
  const sign = end === 'max' ? 1n : -1n;
  const edge = end === 'max' ? hi : lo;
  const first = edge + sign;
  const far = edge + sign * DOUBLE_GAP_BEYOND_INT64 * ((ctx.ids.offset % (1n << 40n)) + 1n);
  return [
    [[idField(ctx)], first, `int64 ${end} ${end === 'max' ? '+' : '-'} 1`, String(first)],
    [[idField(ctx)], far, `${far}, further beyond int64 ${end}, a double no stored id has`],
  ];
}

/**
 * Ids that are not integers. A fresh n makes n.5 and n.000001: a server
 * that truncates or rounds them, or reads them as doubles (n.000001 is n as
 * a double), finds n fresh and stores it; 1e-7 rounds to 0 and 1e400 to
 * infinity or the largest int64, ids an earlier check may have stored.
 */
export function nonIntegers(ctx: CheckContext): Breaking[] {
  const n = freshId(ctx);
  const id = idField(ctx);
  return [
    [[id], new Numeral(`${n}.5`), `id ${n}.5`],
    [[id], new Numeral(`${n}.000001`), `id ${n}.000001 (the double nearest is ${n})`],
    [[id], new Numeral('1e-7'), 'id 1e-7', '0'],
    [[id], new Numeral('1e400'), 'id 1e400', '1e400'],
  ];
}
