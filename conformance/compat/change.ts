// What `compat` says of one change between two documents: where it is (its
// JSON pointer in each document), what it was and is, where it bears (a
// request body, an answer, a parameter, an operation's security), and for
// each side (existing clients, existing servers) whether it breaks them, is
// compatible with them, or cannot be told, with the reason and the source of
// the rule. Changes are data; reporters render them.
import type { Source } from '../checks/types.js';

/** Who is already deployed: clients written from the old document, or servers that implement it. */
export type Side = 'clients' | 'servers';
export const SIDES: readonly Side[] = ['clients', 'servers'];

export type SideVerdict = 'breaks' | 'compatible' | 'unknown';

/**
 * What a change does to the set of instances a schema accepts (or to what a
 * part of the document admits): fewer (`tighter`), more (`looser`), some
 * fewer and some more (`both`), the same (`none`), or cannot be told.
 */
export type Effect = 'tighter' | 'looser' | 'both' | 'none' | 'unknown';

/** Where a change bears: what travels from client to server (a request) or back (an answer), or the operation as a whole. */
export type Role = 'request' | 'response' | 'operation';

export interface Bearing {
  /** e.g. "request body of POST /plants", "200 answer of POST /plants". */
  usage: string;
  role: Role;
  effect: Effect;
  clients: SideVerdict;
  servers: SideVerdict;
  /** Why, for the side(s) it breaks or cannot tell, in a sentence. */
  why: string;
  /** For a schema: the pointers of the schema the usage starts at in each document (the request body's, the answer's, the parameter's), where a witness is judged. */
  site?: { old: string; new: string };
}

export interface Change {
  /** C1, C2, … in document order: how the report refers to it. */
  id: string;
  /** The keyword or part of the document, e.g. `maxLength`, `required`, `operation`, `response`, `security`. */
  keyword: string;
  /** Its JSON pointer (URI fragment) in the new document, or in the old one when it is gone from the new. */
  pointer: string;
  /** Its pointer in the old document, when not the same. */
  basePointer?: string;
  /** Absent: the keyword or part was not there. */
  before?: unknown;
  after?: unknown;
  /** Where in a body the keyword applies (property names, item indexes), when one place is known. */
  instancePath?: Array<string | number>;
  /** The property it is about (a required name, a property added or removed, one the answer carries back), at instancePath's object. */
  member?: string;
  /** A rename: the property's name in the old document (member is its name in the new one). */
  renamedFrom?: string;
  /** One sentence: `maxLength added: 50`. */
  what: string;
  source: Source;
  /** Every place it bears (a component schema can be both a request body and an answer). */
  bearings: Bearing[];
  /** The verdict per side over every bearing: breaks wins over cannot tell, which wins over compatible. */
  clients: SideVerdict;
  servers: SideVerdict;
}

const RANK: Record<SideVerdict, number> = { compatible: 0, unknown: 1, breaks: 2 };

/** The worse of two verdicts: breaks > unknown > compatible. */
export function worse(a: SideVerdict, b: SideVerdict): SideVerdict {
  return RANK[a] >= RANK[b] ? a : b;
}

/** `tighter` read from the other side of a `not` is `looser`, and the other way round. */
export function inverted(effect: Effect): Effect {
  return effect === 'tighter' ? 'looser' : effect === 'looser' ? 'tighter' : effect;
}

/** Two effects of one change together (e.g. a lower and an upper bound moved). */
export function combined(a: Effect, b: Effect): Effect {
  if (a === 'none') return b;
  if (b === 'none' || a === b) return a;
  if (a === 'unknown' || b === 'unknown') return 'unknown';
  return 'both';
}

/**
 * What an effect on what a request or an answer may hold does to each side.
 * A request is written by clients and judged by servers: fewer valid requests
 * refuse some that existing clients send (breaks clients); more let new
 * clients send what existing servers refuse (breaks servers). An answer is
 * written by servers and read by clients: more valid answers let a server
 * send what existing clients were told could not come (breaks clients);
 * fewer make some answers of existing servers invalid (breaks servers).
 */
export function sidesOf(effect: Effect, role: Role): { clients: SideVerdict; servers: SideVerdict } {
  if (effect === 'none') return { clients: 'compatible', servers: 'compatible' };
  if (effect === 'unknown') return { clients: 'unknown', servers: 'unknown' };
  if (effect === 'both') return { clients: 'breaks', servers: 'breaks' };
  const fewer = effect === 'tighter';
  if (role === 'response')
    return { clients: fewer ? 'compatible' : 'breaks', servers: fewer ? 'breaks' : 'compatible' };
  return { clients: fewer ? 'breaks' : 'compatible', servers: fewer ? 'compatible' : 'breaks' };
}

/** The sentence that says why an effect breaks a side, for a bearing. */
export function whyOf(effect: Effect, role: Role, reason?: string): string {
  if (reason) return reason;
  const what = role === 'response' ? 'an answer' : 'a request';
  switch (effect) {
    case 'tighter':
      return role === 'response'
        ? `fewer answers are valid: an existing server's answer can now be invalid`
        : `fewer requests are valid: a request an existing client sends can now be refused`;
    case 'looser':
      return role === 'response'
        ? `more answers are valid: an answer can now hold what existing clients were told cannot come`
        : `more requests are valid: a new client can send what an existing server refuses`;
    case 'both':
      return `${what} valid before can be invalid now, and the other way round`;
    case 'unknown':
      return 'cannot tell';
    default:
      return 'the same instances are valid';
  }
}
