// Conditional requests on an item (RFC 9110 §13): its entity tag, and the
// preconditions If-Match and If-None-Match judged against the item as
// stored, in the store's step that changes it (so no other change comes
// between the judgement and the change).
//
// The entity tag is strong (§8.8.3), made from the item's JSON text as
// stored: the first 22 characters (132 bits) of the base64url SHA-256 of
// the text, quoted. Two texts differ, their tags differ; the same text has
// the same tag on every replica and across restarts, with nothing more
// stored. Sent where the document declares an ETag header on the answer;
// the preconditions are judged wherever a request carries them (an origin
// server MUST evaluate them, §13.2.1).
import { hash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../http/errors.js';

/** The strong entity tag of an item's JSON text. */
export function entityTag(json: string): string {
  return `"${hash('sha256', json, 'base64url').slice(0, 22)}"`;
}

/** A request's preconditions: each header's value, '*' or its entity tags; undefined when it carries none. */
export interface Preconditions {
  ifMatch: '*' | EntityTag[] | undefined;
  ifNoneMatch: '*' | EntityTag[] | undefined;
}

interface EntityTag {
  weak: boolean;
  /** The opaque tag, with its quotes. */
  tag: string;
}

/** The preconditions of a request's header fields (§13.1.1, §13.1.2). */
export function preconditionsOf(headers: IncomingHttpHeaders): Preconditions {
  const ifMatch = headers['if-match'];
  const ifNoneMatch = headers['if-none-match'];
  return ifMatch === undefined && ifNoneMatch === undefined
    ? NONE
    : { ifMatch: entityTags(ifMatch), ifNoneMatch: entityTags(ifNoneMatch) };
}

/** A request without preconditions (most), one object for all of them. */
const NONE: Preconditions = Object.freeze({ ifMatch: undefined, ifNoneMatch: undefined });

export function isConditional({ ifMatch, ifNoneMatch }: Preconditions): boolean {
  return ifMatch !== undefined || ifNoneMatch !== undefined;
}

// If-Match = "*" / #entity-tag; entity-tag = [ weak ] opaque-tag; weak = %s"W/"; opaque-tag = DQUOTE *etagc DQUOTE
const ENTITY_TAG = /^(W\/)?("[\x21\x23-\x7e\x80-\xff]*")$/;

/** The list of a header's entity tags; '*' for any; undefined when absent. A member that is not an entity tag matches nothing. */
function entityTags(header: string | string[] | undefined): '*' | EntityTag[] | undefined {
  if (header === undefined) return undefined;
  const members = (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((member) => member.trim())
    .filter((member) => member !== '');
  if (members.length === 1 && members[0] === '*') return '*';
  const tags: EntityTag[] = [];
  for (const member of members) {
    const match = ENTITY_TAG.exec(member);
    if (match !== null) tags.push({ weak: match[1] !== undefined, tag: match[2]! });
  }
  return tags;
}

/**
 * Judges the preconditions against the item as stored (`json`; undefined
 * when there is none): throws the 412 where they are false (§13.2.2 steps 1
 * and 3 for a method that changes the item; for GET and HEAD a false
 * If-None-Match is the caller's 304: `notModified` answers whether it is).
 */
export function judgePreconditions(
  conditions: Preconditions,
  json: string | undefined,
  safe: boolean,
): { notModified: boolean } {
  const { ifMatch, ifNoneMatch } = conditions;
  // Most requests carry no precondition: no digest for them.
  if (ifMatch === undefined && ifNoneMatch === undefined) return { notModified: false };
  const current = json === undefined ? undefined : entityTag(json);
  // §13.1.1: true for "*" where a current representation exists, else a strong match of one listed.
  if (ifMatch !== undefined) {
    const holds =
      current !== undefined && (ifMatch === '*' || ifMatch.some(({ weak, tag }) => !weak && tag === current));
    if (!holds)
      throw preconditionFailed(
        ifMatch === '*' ? 'the item does not exist (If-Match: *)' : 'If-Match names another version of the item',
      );
  }
  // §13.1.2: false for "*" where a current representation exists, or where one listed matches weakly.
  if (ifNoneMatch !== undefined) {
    const matches = current !== undefined && (ifNoneMatch === '*' || ifNoneMatch.some(({ tag }) => tag === current));
    if (matches) {
      if (safe) return { notModified: true };
      throw preconditionFailed(
        ifNoneMatch === '*'
          ? 'the item exists (If-None-Match: *)'
          : 'If-None-Match names the current version of the item',
      );
    }
  }
  return { notModified: false };
}

function preconditionFailed(why: string): ApiError {
  return new ApiError('PRECONDITION_FAILED', `Precondition failed: ${why}; nothing was changed.`);
}

/** The 428 of a request that must be conditional and is not (RFC 6585 §3). */
export function preconditionRequired(noun: string): ApiError {
  return new ApiError(
    'PRECONDITION_REQUIRED',
    `This request must be conditional: send If-Match with the entity tag (ETag) of the ${noun} as last read (RFC 6585 §3).`,
  );
}
