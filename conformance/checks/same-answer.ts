// The checks whose every case is a valid NewPlant written another way the
// RFCs allow (PS-JSON-*, PS-HTTP-003..006, PS-AUTH-005 and -008): each is the
// same request as its plain form, and must get the same answer, with the same
// echo (Plant Store specification, Create plant rule 1). What they share:
// the check's shape and the bodies worth writing another way.
import { noteText } from '../model/json.js';
import { each } from './grades.js';
import { ACCEPT_EVIDENCE, ACCEPT_GRADING, gradeAccepted } from './body-grades.js';
import { idField, preferring, stringFields, validPlant, type Body } from './requests.js';
import type { CheckContext, ExchangeCheck } from './types.js';

export const RULE1 =
  'Plant Store specification, Create plant rule 1: When the request body is a valid NewPlant record, then the service answers 200 with a Plant record.';

/**
 * A valid body with a fresh id and every property of the document's richest
 * example, its strings made unique where the document allows (an answer
 * that echoes a fixed example, as a mock does, is then told apart).
 */
export function richPlant(ctx: CheckContext): Body {
  const plant = validPlant(ctx, {}, 'full');
  const { required, optional } = stringFields(ctx);
  const unique = Object.fromEntries(
    [...required, ...optional].map((name) => [name, `${name} ${noteText(plant[idField(ctx)])}`]),
  );
  return preferring(ctx, plant, unique);
}

/**
 * The rich plant with string values that have something to escape (a quote,
 * a backslash, a solidus, control characters, a letter outside ASCII, a
 * character outside the BMP), where the document allows them.
 */
export function plantWithSpecials(ctx: CheckContext): Body {
  const { required, optional } = stringFields(ctx);
  // The C0 controls must be escaped in JSON text (RFC 8259 §7) and are valid in a string all the same. Not
  // NUL: RFC 8259 §9 lets a server limit the character contents of strings, and a server that refuses NUL
  // would fail every check that sends this body for a reason of its own (PS-ACCEPT-013 sends NUL alone).
  const specials = Object.fromEntries(
    [...required, ...optional].map((name) => [
      name,
      `Ficus "lyrata" / \\ \t\n é \u0001 \u001f \u007f \u2028 🌱 ${name}`,
    ]),
  );
  return preferring(ctx, richPlant(ctx), specials);
}

/** A check whose every case is a valid plant written another legal way: each is graded as its plain form would be (rule 1, echo included). */
export function sameAnswerCheck(
  options: Omit<ExchangeCheck<Body>, 'kind' | 'level' | 'verify' | 'grading' | 'evidence'>,
): ExchangeCheck<Body> {
  return {
    ...options,
    kind: 'exchange',
    level: 'MUST',
    grading: `MUST: the RFC quoted lets a client write the request this way, so it is the same valid NewPlant, and rule 1 binds its answer as the plain form's. ${ACCEPT_GRADING}`,
    evidence: ACCEPT_EVIDENCE,
    verify: (cases, ctx) => each(cases, (c) => gradeAccepted(ctx, c.exchange, c.sent)),
  };
}
