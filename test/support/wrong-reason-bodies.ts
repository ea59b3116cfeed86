// The wrong-reason rows of the checks of what a body gets (PS-ACCEPT,
// PS-JSON, PS-REJECT, PS-ROBUST): a fake server that breaks the check's rule
// in a way a naive check is fooled by: the right status with the wrong body,
// a body written another way, a refusal that another rule explains, what a
// hostile input leaves behind. Gathered in mutants.ts WRONG_REASON_MUTANTS.
import { EARLIER_RUNS, type WrongReasonRow } from './mutant-rows.js';

export const BODY_WRONG_REASONS: WrongReasonRow[] = [
  // What a valid body gets: the answer, not only its status.
  {
    check: 'PS-ACCEPT-001',
    fake: { staticExample: true },
    expected: 'fail',
    why: "a mock: 200, application/json and a valid Plant, but the document's example, not the plant sent",
  },
  {
    check: 'PS-ACCEPT-002',
    fake: { nullForUnsentTag: true },
    expected: 'fail',
    why: 'the plant echoed with tag null when none was sent (a nullable column): 200 and the right content type, but not a valid Plant',
  },
  {
    check: 'PS-ACCEPT-003',
    fake: { dropEmptyStrings: true },
    expected: 'fail',
    why: 'accepts an empty string but drops it from the answer (a truthiness test): a check that looks at the status alone passes it',
  },
  {
    check: 'PS-ACCEPT-004',
    fake: { dropLongTag: true },
    expected: 'fail',
    why: 'accepts a long tag with 200 but silently stores and echoes no tag',
  },
  {
    check: 'PS-ACCEPT-005',
    fake: { normalizeNfc: true },
    expected: 'fail',
    why: 'accepts non-ASCII text but stores it normalized (NFC): e and a combining accent come back as é',
  },
  {
    check: 'PS-ACCEPT-006',
    fake: { refuseProtoNames: true },
    expected: 'fail',
    why: 'accepts unknown properties but refuses the names __proto__ and constructor: a check that sends only ordinary unknown names passes it',
  },
  {
    check: 'PS-ACCEPT-007',
    fake: { zeroIdMissing: true },
    expected: 'fail',
    why: "reads the id 0 as no id (a truthiness test) and refuses it as missing: a 400 that is not the target's answer to a duplicate",
  },
  {
    check: 'PS-ACCEPT-008',
    fake: { signDropped: true, echoId: true },
    expected: 'fail',
    why: 'accepts a negative id with 200 but holds it without its sign: the echoed id shows it (non-strict alone: the Plant does not declare id), and its positive counterpart is refused as a duplicate',
  },
  {
    check: 'PS-ACCEPT-008',
    fake: { signDropped: true },
    expected: 'fail',
    why: 'accepts a negative id with 200 and echoes no id, but holds it without its sign: its positive counterpart is then refused as a duplicate',
  },
  {
    check: 'PS-ACCEPT-009',
    fake: { doubleIds: true, preStored: EARLIER_RUNS },
    expected: 'fail',
    why: "ids kept as doubles on a target that holds an earlier run's plants: int64 max is refused as a duplicate of the double 2^63, a message that does not name the id digit for digit",
  },
  {
    check: 'PS-ACCEPT-009',
    fake: { doubleIds: true, echoId: true },
    expected: 'non-strict',
    why: 'ids kept as doubles: 200 with the Plant, but the id echoed back rounded to 9223372036854775808; the Plant does not declare id, so the echo binds nothing: non-strict (issue 30)',
  },
  {
    check: 'PS-ACCEPT-010',
    fake: { doubleIds: true, echoId: true },
    expected: 'non-strict',
    why: 'ids kept as doubles: 200 with the Plant, but the id echoed back as -9223372036854776000; the Plant does not declare id, so the echo binds nothing: non-strict (issue 30)',
  },
  {
    check: 'PS-ACCEPT-010',
    fake: { doubleIds: true, preStored: EARLIER_RUNS },
    expected: 'fail',
    why: "ids kept as doubles on a target that holds an earlier run's plants: int64 min is refused as a duplicate named -9223372036854776000, not digit for digit",
  },
  {
    check: 'PS-ACCEPT-011',
    fake: { idByParseInt: true, echoId: true },
    expected: 'non-strict',
    why: 'accepts 50e-1 with 200 but reads it as its integer prefix (parseInt), a different id, as the echo shows; the Plant does not declare id, so the echo binds nothing: non-strict (issue 30)',
  },
  {
    check: 'PS-ACCEPT-012',
    fake: { doubleIds: true, preStored: EARLIER_RUNS },
    expected: 'fail',
    why: "the int64 ends refused as duplicates of doubles an earlier run stored: refusals that look like a duplicate's but do not name the id exactly",
  },
  {
    check: 'PS-ACCEPT-013',
    fake: { nonCharactersReplaced: true },
    expected: 'fail',
    why: 'keeps white space but echoes the noncharacters U+FFFF and U+FDD0 as U+FFFD: a check that sends white space only passes it',
  },
  {
    check: 'PS-ACCEPT-013',
    fake: { fatalOnEscapedNoncharacters: true },
    expected: 'fail',
    why: 'stores and echoes raw noncharacters, but answers 500 to the same string written as JSON escapes: a check that sends the raw form only passes it',
    reason: /written as escapes/,
  },
  {
    check: 'PS-REJECT-013',
    fake: { acceptMissingName: true },
    expected: 'fail',
    why: 'accepts a body without name, so NAME for name is accepted too: a check that renames every required member at once sees the id missing and passes it',
  },
  // Ways of writing the same body.
  {
    check: 'PS-JSON-001',
    fake: { stripWhitespaceEverywhere: true },
    expected: 'fail',
    why: 'accepts every whitespace but removes it inside strings too: 200, and the names come back without their spaces',
  },
  {
    check: 'PS-JSON-002',
    fake: { stringsByPosition: true },
    expected: 'fail',
    why: 'accepts members in any order but reads name and tag by position: 200, with the values swapped',
  },
  {
    check: 'PS-JSON-003',
    fake: { undecodedEscapedNames: true },
    expected: 'fail',
    why: 'decodes escapes in values but not in member names: a check that escapes values only passes it',
  },
  // Refusals that another rule explains are no evidence.
  {
    check: 'PS-REJECT-001',
    fake: { zeroValueIds: true, preStored: EARLIER_RUNS },
    expected: 'skip',
    reason: /duplicate/,
    why: 'a missing id read as 0 (a Go or Jackson zero value) on a target that stored 0 in an earlier run: the body without id is refused as a duplicate of 0, which is no evidence; on a fresh target it is accepted',
  },
  {
    check: 'PS-REJECT-002',
    fake: { booleanIds: true, preStored: EARLIER_RUNS },
    expected: 'skip',
    reason: /duplicate/,
    why: "the id true read as 1 on a target that holds the document's example 1: refused as a duplicate, no evidence of the type rule",
  },
  {
    check: 'PS-REJECT-003',
    fake: { zeroValueIds: true, preStored: EARLIER_RUNS },
    expected: 'skip',
    reason: /duplicate/,
    why: 'the id null read as 0 on a target that stored 0 in an earlier run: refused as a duplicate, no evidence of the null rule',
  },
  {
    check: 'PS-REJECT-004',
    fake: { doubleIds: true, preStored: EARLIER_RUNS },
    expected: 'fail',
    why: 'ids kept as doubles on a target that holds int64 max: 2^63 is refused as a duplicate of the double 2^63, and the run-unique id further past int64 is accepted',
  },
  {
    check: 'PS-REJECT-005',
    fake: { doubleIds: true, preStored: EARLIER_RUNS },
    expected: 'fail',
    why: 'ids kept as doubles on a target that holds int64 min: -2^63-1 is refused as a duplicate, and the run-unique id further past int64 is accepted',
  },
  {
    check: 'PS-REJECT-006',
    fake: { doubleIds: true },
    expected: 'fail',
    why: 'ids read as doubles: n.5 is refused (not an integer), but n.000001 is the double n and is accepted',
  },
  {
    check: 'PS-REJECT-006',
    fake: { truncateFractions: true, preStored: EARLIER_RUNS },
    expected: 'fail',
    why: 'fractions truncated on a target that holds 0: 1e-7 meets the stored 0 and is refused as a duplicate, n.5 is accepted',
  },
  {
    check: 'PS-REJECT-007',
    fake: { errorBodyWrongShape: true },
    expected: 'fail',
    why: 'refuses every body that is not an object with 400, but not with an Error body: a check that looks at the status alone passes it (one way to break the rule itself: accepting such a body, MUTANTS)',
  },
  {
    check: 'PS-REJECT-008',
    fake: { frameworkParseErrors: true },
    expected: 'fail',
    why: "an empty body refused with 400 by the framework, whose error body is not the document's Error",
  },
  {
    check: 'PS-REJECT-009',
    fake: { frameworkParseErrors: true },
    expected: 'fail',
    why: "malformed JSON refused with 400 by the framework, whose error body is not the document's Error (as Prism does)",
  },
  {
    check: 'PS-REJECT-010',
    fake: { frameworkParseErrors: true },
    expected: 'fail',
    why: "trailing garbage refused with 400 by the framework, whose error body is not the document's Error",
  },
  {
    check: 'PS-REJECT-011',
    fake: { unsupportedMediaType400: true, errorBodyWrongShape: true },
    expected: 'fail',
    why: 'another media type refused with the declared 400, but its body is not an Error',
  },
  {
    check: 'PS-REJECT-012',
    fake: { truncateFractions: true, preStored: EARLIER_RUNS },
    expected: 'skip',
    reason: /duplicate/,
    why: "the id 1.5 truncated to 1 on a target that holds the document's example 1: refused as a duplicate, no evidence of the type keyword; on a fresh target it is accepted",
  },
  {
    check: 'PS-REJECT-012',
    fake: { booleanIds: true },
    expected: 'fail',
    why: 'the id true read as 1 and accepted, where every other type is refused',
  },
  // Hostile and extreme inputs, and what a refusal leaves behind.
  {
    check: 'PS-ROBUST-001',
    fake: { doubleIds: true },
    expected: 'fail',
    why: 'ids read as doubles: -1e-999999999 is -0, an integer, and the body is accepted (as Prism does)',
  },
  {
    check: 'PS-ROBUST-001',
    fake: { fatalOnEscapedSurrogate: true },
    expected: 'fail',
    why: 'refuses the raw surrogate bytes (not UTF-8) with 400, but answers 500 to a lone surrogate written as an escape: a check that sends the raw form only passes it',
    reason: /surrogate escape/,
  },
  {
    check: 'PS-ROBUST-002',
    fake: { echoExtras: true },
    expected: 'non-strict',
    why: '200 to each extreme body, but the unnamed property echoed as a double: 5 000 digits and 1e400 come back null; the Plant does not declare the property, so its echo binds nothing: non-strict (issue 30)',
  },
  {
    check: 'PS-ROBUST-003',
    fake: { storeThenRefuseGarbage: true },
    expected: 'fail',
    why: 'a valid plant followed by garbage is refused with 400, but the plant was stored first: its id is then a duplicate',
  },
  {
    check: 'PS-ROBUST-004',
    fake: { longTokenDrop: true },
    expected: 'fail',
    why: 'every odd head answered but the 8 KiB token, whose connection is closed',
  },
];
