// The bodies of the acceptance checks that take more than a line to make:
// a long value for each string field and how its refusal is graded
// (PS-ACCEPT-004), and a negative id with its positive counterpart
// (PS-ACCEPT-008).
import { noteText } from '../model/json.js';
import type { Exchange } from './exchange.js';
import type { Candidate } from './accept-check.js';
import { gradeAccepted } from './body-grades.js';
import { baseBodies } from '../cases/bodies.js';
import { stringsOfLength } from '../cases/schema-values.js';
import { keywordDerivations } from '../cases/keyword-cases.js';
import { freshIdBelow, idField, stringFields, validPlant, type Body } from './requests.js';
import { RuledOut } from '../cases/draw.js';
import type { CheckContext, Verdict } from './types.js';

/**
 * RFC 8259 §9 lets a JSON parser limit string length: where the document
 * states no maxLength, refusing a 10 000-character value is allowed
 * (non-strict); where it states one, its value is the length to accept.
 */
export function gradeLong(ctx: CheckContext, ex: Exchange, sent: Body): Verdict {
  const v = gradeAccepted(ctx, ex, sent);
  const status = ex.response?.status ?? 0;
  const unstated = Object.entries(sent).some(
    ([, value]) => typeof value === 'string' && Array.from(value).length === LONG,
  );
  if (v.outcome === 'fail' && unstated && status >= 400 && status < 500) {
    return {
      ...v,
      outcome: 'non-strict',
      expected: `${v.expected} (no maxLength stated; RFC 8259 §9 lets a server limit string length)`,
    };
  }
  return v;
}

/** The length of a long string where the document states no maxLength. */
const LONG = 10_000;

/** A long value for each string field: its maxLength, else 10 000 characters. */
export function longStrings(ctx: CheckContext): Candidate[] {
  const { required, optional } = stringFields(ctx);
  return [...required, ...optional].map((name) => {
    const stated = maxLengthOf(ctx, name);
    const n = stated ?? LONG;
    const stems = [noteText(baseBodies(ctx.model).full[name]), 'Ficus '];
    return {
      note:
        stated === undefined
          ? `${name} of ${LONG} characters: the schema states no maxLength for ${name}`
          : `${name} of ${n} characters: its maxLength`,
      // The first string of that length the document allows (a pattern may rule out some).
      body: () => firstAllowed(stringsOfLength(n, stems).map((value) => () => validPlant(ctx, { [name]: value }))),
    };
  });
}

/** The first of several ways to make a body that the document allows; RuledOut with the last reason when none is. */
function firstAllowed(makers: Array<() => Body>): Body {
  let last: RuledOut | undefined;
  for (const make of makers) {
    try {
      return make();
    } catch (err) {
      if (!(err instanceof RuledOut)) throw err;
      last = err;
    }
  }
  throw last ?? new RuledOut('no value to try');
}

/** The smallest maxLength the document states for a request field, if any. */
function maxLengthOf(ctx: CheckContext, name: string): number | undefined {
  const stated = keywordDerivations(ctx.model)
    .filter(
      (d) =>
        d.use.keyword === 'maxLength' && d.path.length === 1 && d.path[0] === name && typeof d.use.value === 'number',
    )
    .map((d) => d.use.value as number);
  return stated.length > 0 ? Math.min(...stated) : undefined;
}

/**
 * A fresh id below 0 the document allows (a fresh one negated, else one
 * folded into the negative ids it allows; RuledOut when it allows none),
 * and its positive counterpart, when this run has sent no plant with it.
 */
export function negativeId(ctx: CheckContext): { body: Body; positive?: bigint } {
  const id = idField(ctx);
  // The allocator hands out r and keeps it for this caller: -r is sent, r is this check's to send next.
  const r = ctx.ids.fresh();
  try {
    return { body: validPlant(ctx, { [id]: -r }), positive: r };
  } catch (err) {
    if (!(err instanceof RuledOut)) throw err;
  }
  const k = freshIdBelow(ctx, 0n);
  return { body: validPlant(ctx, { [id]: k }), ...(ctx.ids.claim(-k) ? { positive: -k } : {}) };
}
