// The mutation tables. MUTANTS: check id → the fake-server switch that breaks
// its rule, and the outcome the grading policy gives that break (read by the
// mutation test and by the catalog test: every check must have a row).
// WRONG_REASON_MUTANTS: for every check, a fake server that breaks its rule
// for another reason, which a naive check is fooled by; ALLOWED_CHOICES: for
// every non-strict grade, a correct server that makes the choice a source
// allows (both read by test/conformance/checks.wrong-reason.test.ts).
import type { Outcome } from '../../conformance/checks/types.js';
import { INT64_MAX, INT64_MIN } from '../../spec/formats.js';
import type { FakeOptions, Mutation } from './fake-mutations.js';

/** check id → the mutant that breaks its rule, and the outcome the policy gives. */
export const MUTANTS: Array<[string, Mutation, Outcome]> = [
  ['PS-ACCEPT-001', 'dropTag', 'fail'],
  ['PS-ACCEPT-001', 'status201', 'fail'],
  ['PS-ACCEPT-002', 'requireTag', 'fail'],
  ['PS-ACCEPT-003', 'rejectEmptyName', 'fail'],
  ['PS-ACCEPT-004', 'nameMaxLength', 'non-strict'],
  ['PS-ACCEPT-005', 'latin1Body', 'fail'],
  ['PS-ACCEPT-006', 'rejectUnknownProps', 'fail'],
  ['PS-ACCEPT-007', 'positiveIdsOnly', 'fail'],
  ['PS-ACCEPT-008', 'positiveIdsOnly', 'fail'],
  ['PS-ACCEPT-009', 'int53Ids', 'fail'],
  ['PS-ACCEPT-010', 'int53Ids', 'fail'],
  ['PS-ACCEPT-011', 'rejectIntegralNumerals', 'fail'],
  ['PS-ACCEPT-011', 'integralNumeralsAsDouble', 'fail'],
  ['PS-ACCEPT-013', 'trimStrings', 'fail'],
  ['PS-REJECT-013', 'caseInsensitiveNames', 'fail'],
  ['PS-AUTH-009', 'acceptTokenAnyScheme', 'fail'],
  ['PS-REJECT-001', 'acceptMissingName', 'fail'],
  ['PS-REJECT-002', 'coerceStrings', 'fail'],
  ['PS-REJECT-003', 'acceptNull', 'fail'],
  ['PS-REJECT-004', 'noInt64Bound', 'fail'],
  ['PS-REJECT-005', 'noInt64Bound', 'fail'],
  ['PS-REJECT-006', 'truncateFractions', 'fail'],
  ['PS-REJECT-007', 'unwrapArray', 'fail'],
  ['PS-REJECT-008', 'emptyBodyOk', 'fail'],
  ['PS-REJECT-009', 'acceptMalformed', 'non-strict'],
  ['PS-REJECT-010', 'acceptTrailingGarbage', 'non-strict'],
  ['PS-REJECT-011', 'ignoreContentType', 'non-strict'],
  ['PS-AUTH-001', 'noAuth', 'fail'],
  ['PS-AUTH-001', 'noWwwAuthenticate', 'fail'],
  ['PS-AUTH-002', 'acceptAnyScheme', 'fail'],
  ['PS-AUTH-003', 'acceptEmptyToken', 'fail'],
  ['PS-AUTH-004', 'acceptMalformedToken', 'fail'],
  ['PS-AUTH-005', 'lowercaseBearerRejected', 'fail'],
  ['PS-AUTH-006', 'acceptAnyToken', 'fail'],
  ['PS-AUTH-007', 'bodyBeforeAuth', 'non-strict'],
  ['PS-HTTP-001', 'no405Allow', 'fail'],
  ['PS-HTTP-001', 'no405', 'non-strict'],
  ['PS-HTTP-002', 'unknownPath200', 'non-strict'],
  ['PS-STATE-001', 'duplicatesAccepted', 'non-strict'],
  ['PS-STATE-002', 'roundIds', 'fail'],
  ['PS-STATE-002', 'duplicatesAccepted', 'skip'],
  ['PS-GEN-001', 'dropTag', 'fail'],
  ['PS-GEN-002', 'acceptMissingName', 'fail'],
  ['PS-RESP-001', 'status422', 'non-strict'],
  ['PS-RESP-002', 'wrongContentType', 'fail'],
  ['PS-RESP-003', 'errorBodyWrongShape', 'fail'],
  ['PS-ACCEPT-012', 'int53Ids', 'fail'],
  ['PS-REJECT-012', 'acceptNull', 'fail'],
  ['PS-DOC-001', 'noAuth', 'fail'],
  ['PS-DOC-002', 'wrongContentType', 'fail'],
  ['PS-ACCEPT-004', 'truncateLongStrings', 'fail'],
  ['PS-JSON-001', 'tabAndCrNotWhitespace', 'fail'],
  ['PS-JSON-002', 'idFirstOnly', 'fail'],
  ['PS-JSON-003', 'undecodedEscapes', 'fail'],
  ['PS-HTTP-003', 'exactMediaType', 'fail'],
  ['PS-HTTP-004', 'decodeEachChunk', 'fail'],
  ['PS-HTTP-004', 'lengthRequired', 'fail'],
  ['PS-HTTP-005', 'exactFieldNames', 'fail'],
  ['PS-AUTH-008', 'oneSpaceAfterBearer', 'fail'],
  ['PS-AUTH-006', 'tokenPrefixMatch', 'fail'],
  ['PS-AUTH-006', 'tokenIgnoreCase', 'fail'],
  ['PS-ROBUST-001', 'fatalOnBadUtf8', 'fail'],
  ['PS-ROBUST-001', 'dropDeepNesting', 'fail'],
  ['PS-ROBUST-002', 'deepNesting500', 'fail'],
  ['PS-ROBUST-003', 'storeBeforeValidate', 'fail'],
  ['PS-STATE-003', 'raceDuplicates', 'non-strict'],
  ['PS-STATE-003', 'duplicatesAccepted', 'skip'],
  ['PS-RESP-004', 'otherMethods500', 'fail'],
  ['PS-ROBUST-004', 'charsetCrash', 'fail'],
  ['PS-HTTP-001', 'otherMethods500', 'fail'],
  ['PS-HTTP-006', 'strictAccept', 'fail'],
  ['PS-AUTH-001', 'bareBearerChallenge', 'fail'],
];

/** A fake server for a row of the tables below: its switches and state (the test adds the token). */
export interface FakeRow {
  check: string;
  fake: FakeOptions;
  /** An evolved document of test/fixtures/ the run reads instead of spec/openapi.yaml. */
  document?: string;
}

/**
 * A mutant that breaks the check's rule for a reason other than the obvious
 * one (MUTANTS holds that), in a way a naive check is fooled by: a refusal
 * that another rule explains, an answer with the right status and content
 * type but the wrong body, a challenge that is there but unreadable.
 */
export interface WrongReasonRow extends FakeRow {
  /** `fail`, or `non-strict`/`skip` where the grading policy gives that (docs/checks.md, audit). */
  expected: Outcome;
  /** How the server breaks the rule, and what a naive check would take for evidence. */
  why: string;
  /** For a skip: what the reason must say (the check says that it cannot tell). */
  reason?: RegExp;
}

/** Ids a long-lived target holds from earlier runs: PS-ACCEPT-007's 0, the document's examples 1 and 2, the int64 ends. */
export const EARLIER_RUNS: bigint[] = [0n, 1n, 2n, INT64_MAX, INT64_MIN];

// Each check ID of the catalog has at least one row (test/conformance/checks.wrong-reason.test.ts).
export const WRONG_REASON_MUTANTS: WrongReasonRow[] = [
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
    check: 'PS-REJECT-013',
    fake: { acceptMissingName: true },
    expected: 'fail',
    why: 'accepts a body without name, so NAME for name is accepted too: a check that renames every required member at once sees the id missing and passes it',
  },
  {
    check: 'PS-AUTH-009',
    fake: { acceptBareToken: true },
    expected: 'fail',
    why: 'accepts the token with no scheme at all (Authorization: <token>) but refuses it after another scheme: a check that sends only Basic and Token passes it',
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
  // Challenges that are there but unreadable, and credentials compared too loosely.
  {
    check: 'PS-AUTH-001',
    fake: { malformedChallenge: true },
    expected: 'fail',
    why: '401 with a WWW-Authenticate that names Bearer but does not parse (an unquoted realm with a space)',
  },
  {
    check: 'PS-AUTH-002',
    fake: { challengeForScheme: true },
    expected: 'fail',
    why: 'Basic refused with 401, but challenged with Basic, not Bearer',
  },
  {
    check: 'PS-AUTH-003',
    fake: { malformedToken400Bare: true },
    expected: 'fail',
    why: 'an empty token refused with 400 (allowed), but without any WWW-Authenticate',
  },
  {
    check: 'PS-AUTH-004',
    fake: { malformedToken400Bare: true },
    expected: 'fail',
    why: 'a malformed token refused with 400 (allowed), but without any WWW-Authenticate',
  },
  {
    check: 'PS-AUTH-005',
    fake: { schemeCaseList: true },
    expected: 'fail',
    why: 'accepts bearer and BEARER, not bEaReR: a list of spellings, not a case-insensitive comparison',
  },
  {
    check: 'PS-AUTH-006',
    fake: { tokenIsPrefixOfKnown: true },
    expected: 'fail',
    why: 'refuses random tokens and longer ones, but accepts the real token without its last character',
  },
  {
    check: 'PS-AUTH-007',
    fake: { bodyBeforeAuth: true, parseError401: true },
    expected: 'fail',
    why: 'the body is read first and its failure answered 401: the status a naive check wants, but without a challenge',
  },
  {
    check: 'PS-AUTH-008',
    fake: { upToTwoSpaces: true },
    expected: 'fail',
    why: 'two spaces after Bearer accepted, four not: a check that tries two passes it',
  },
  // Methods, paths and header fields.
  {
    check: 'PS-HTTP-001',
    fake: { allowOnGetOnly: true },
    expected: 'fail',
    why: '405 for every other method, but Allow only on the answer to GET',
  },
  {
    check: 'PS-HTTP-002',
    fake: { subpath500: true },
    expected: 'fail',
    why: "an unknown path answered 404, a path below the operation's 500",
  },
  {
    check: 'PS-HTTP-003',
    fake: { charsetCaseSensitive: true },
    expected: 'fail',
    why: 'the media type in any case and charset=utf-8 accepted, charset=UTF-8 refused (a parameter value compared case-sensitively)',
  },
  {
    check: 'PS-HTTP-004',
    fake: { contentLengthOnly: true },
    expected: 'fail',
    why: 'the body read by Content-Length alone: a chunked body is read as empty and refused',
  },
  {
    check: 'PS-HTTP-005',
    fake: { exactContentTypeName: true },
    expected: 'fail',
    why: 'Authorization found in any case, but Content-Type looked up as "content-type" only',
  },
  {
    check: 'PS-HTTP-006',
    fake: { noTypeWildcardAccept: true },
    expected: 'fail',
    why: 'application/json and */* served, application/* answered 406',
  },
  // What the store keeps.
  {
    check: 'PS-STATE-001',
    fake: { lastIdOnly: true },
    expected: 'non-strict',
    why: 'a repeated id refused only right after its first create (a one-entry memory): a check that repeats the id at once is fooled; a second 200 is non-strict by the policy',
  },
  {
    check: 'PS-STATE-001',
    fake: { duplicatesByName: true },
    expected: 'non-strict',
    why: 'refuses a repeated name, not a repeated id: a check that repeats the body unchanged is fooled',
  },
  {
    check: 'PS-STATE-001',
    fake: { duplicatePlain400: true },
    expected: 'fail',
    why: 'the repeated id refused with 400, but text/plain, not an Error',
  },
  {
    check: 'PS-STATE-002',
    fake: { doubleIds: true, duplicatesByName: true },
    expected: 'skip',
    reason: /duplicate/,
    why: 'ids kept as doubles, duplicates refused by name: the probe that resends a body unchanged is refused, so the target seems to refuse repeated ids while merged ids never show',
  },
  {
    check: 'PS-STATE-003',
    fake: { uniqueViolation500: true },
    expected: 'non-strict',
    why: 'of the creates sent at once one is accepted, the others answered 500 where the repeat got 400 (a unique constraint caught the race): a check that counts 2xx passes it; the level is SHOULD (PS-RESP-004 fails the 500)',
  },
  // Generated bodies.
  {
    check: 'PS-GEN-001',
    fake: { dropEmptyStrings: true },
    expected: 'fail',
    why: 'every drawn body accepted with 200, but an empty string is dropped from the answer',
  },
  {
    check: 'PS-GEN-002',
    fake: { errorBodyWrongShape: true },
    expected: 'fail',
    why: 'every drawn invalid body refused with 400, but not with an Error body',
  },
  // No row for lenient id readings on PS-GEN-002: it draws no id mutation a stored id could explain
  // (generated.ts invalidArb); PS-REJECT-001..006 and -012 send those, after learning the duplicate answer.
  // Every operation of the document.
  {
    check: 'PS-DOC-001',
    fake: { malformedChallenge: true },
    expected: 'fail',
    why: '401 without credentials, but its challenge does not parse',
  },
  {
    check: 'PS-DOC-002',
    fake: { nullForUnsentTag: true },
    expected: 'fail',
    why: 'a declared status and content type, but a body its schema refuses (tag null)',
  },
  // Every answer of the run (aggregate checks: the whole catalog runs).
  {
    check: 'PS-RESP-001',
    fake: { duplicate409: true },
    expected: 'non-strict',
    why: 'a repeated id answered 409: an undeclared status. The check can only be non-strict (the specification shows no other status), so this is the one way it departs',
  },
  {
    check: 'PS-RESP-002',
    fake: { problemJsonErrors: true },
    expected: 'fail',
    why: 'every error an Error record, but application/problem+json, the declared 400 included',
  },
  {
    check: 'PS-RESP-003',
    fake: { errorCodeBeyondInt32: true },
    expected: 'fail',
    why: 'every error an object with an integer error and a message, but the error beyond int32',
  },
  {
    check: 'PS-RESP-004',
    fake: { duplicate500: true },
    expected: 'fail',
    why: 'every request answered below 500 but a repeated id, answered 500',
  },
];

/**
 * A correct server that decides where a source lets it (RFC 8259 §9, an
 * RFC's SHOULD or MAY, the specification's silence): the check grades it
 * `non-strict` (or `pass`, or `skip` where it cannot tell), never `fail`
 * or `error`. One row per non-strict grade of the audit (docs/checks.md).
 */
export interface AllowedChoiceRow extends FakeRow {
  expected: 'pass' | 'non-strict' | 'skip';
  /** The choice the server makes. */
  choice: string;
  /** The source that allows it. */
  source: string;
  /** The target is not said to restrict tokens (--invalid-token not given). */
  restrictsTokens?: false;
  /** For a skip: what the reason must say. */
  reason?: RegExp;
}

const RFC8259_9 = 'RFC 8259 §9: a JSON parser MAY accept non-JSON forms or extensions';
const NOT_SHOWN_400 =
  'Plant Store specification, Errors: the conditions of a 400 are not shown, so another 4xx is a choice';
const RFC6750_3_1 = 'RFC 6750 §3.1: invalid_token SHOULD be 401 (another 4xx, with the Bearer challenge, is allowed)';
const STATE_SILENT =
  'Plant Store specification: "States of a plant: not shown"; refusing a repeated id is our decision (docs/server.md)';
const OTHER_OPS =
  'Plant Store specification: other operations "not shown"; 405 for other methods is our decision (docs/server.md)';
const UNDECLARED =
  'Plant Store specification: other statuses "not shown"; it binds the content type and body of declared statuses only';

/** Where the status 422 answers invalid data (with an Error body) instead of the declared 400. */
const status422 = (check: string): AllowedChoiceRow => ({
  check,
  fake: { status422: true },
  expected: 'non-strict',
  choice: 'invalid data answered 422 with an Error body',
  source: NOT_SHOWN_400,
});
/** Where refused credentials are answered 403, with the Bearer challenge. */
const status403 = (check: string): AllowedChoiceRow => ({
  check,
  fake: { credentials403: true },
  expected: 'non-strict',
  choice: 'refused credentials answered 403 with the Bearer challenge',
  source: RFC6750_3_1,
});

export const ALLOWED_CHOICES: AllowedChoiceRow[] = [
  {
    check: 'PS-REJECT-009',
    fake: { acceptMalformed: true },
    expected: 'non-strict',
    choice: 'a body that is not JSON accepted',
    source: RFC8259_9,
  },
  {
    check: 'PS-REJECT-010',
    fake: { acceptTrailingGarbage: true },
    expected: 'non-strict',
    choice: 'text after the JSON value ignored',
    source: RFC8259_9,
  },
  {
    check: 'PS-ROBUST-001',
    fake: { latin1Body: true },
    expected: 'non-strict',
    choice: 'bytes that are not UTF-8 read as Latin-1 and accepted',
    source: RFC8259_9,
  },
  {
    check: 'PS-ROBUST-001',
    fake: { stripBom: true },
    expected: 'pass',
    choice: 'a byte order mark before the text ignored',
    source: 'RFC 8259 §8.1: a parser MAY ignore the presence of a byte order mark rather than treating it as an error',
  },
  {
    check: 'PS-ROBUST-001',
    fake: { repeatedNameLastWins: true },
    expected: 'pass',
    choice: 'a repeated member name: the last value kept',
    source: 'RFC 8259 §4: the names SHOULD be unique; with repeated names the behaviour is unpredictable',
  },
  {
    check: 'PS-REJECT-011',
    fake: { ignoreContentType: true },
    expected: 'non-strict',
    choice: 'the body read whatever its media type',
    source: 'RFC 9110 §15.5.16 defines 415 without requiring a server to refuse',
  },
  {
    check: 'PS-REJECT-011',
    fake: { unsupportedMediaType400: true },
    expected: 'pass',
    choice: 'another media type refused with the declared 400 and an Error, not 415',
    source: 'Plant Store specification, Errors, rule 1: the error response has status 400',
  },
  ...[
    'PS-REJECT-001',
    'PS-REJECT-002',
    'PS-REJECT-003',
    'PS-REJECT-004',
    'PS-REJECT-005',
    'PS-REJECT-006',
    'PS-REJECT-007',
    'PS-REJECT-008',
    'PS-REJECT-009',
    'PS-REJECT-010',
    'PS-REJECT-012',
    'PS-REJECT-013',
    'PS-GEN-002',
    'PS-RESP-001',
  ].map(status422),
  ...['PS-AUTH-001', 'PS-AUTH-002', 'PS-AUTH-003', 'PS-AUTH-004', 'PS-AUTH-006', 'PS-AUTH-007', 'PS-AUTH-009'].map(
    status403,
  ),
  {
    check: 'PS-AUTH-003',
    fake: { malformedToken400: true },
    expected: 'non-strict',
    choice: 'an empty token answered 400 invalid_request with the Bearer challenge',
    source:
      'RFC 6750 §3.1: invalid_request, "The resource server SHOULD respond with the HTTP 400 (Bad Request) status code"',
  },
  {
    check: 'PS-AUTH-004',
    fake: { malformedToken400: true },
    expected: 'non-strict',
    choice: 'a malformed token answered 400 invalid_request with the Bearer challenge',
    source:
      'RFC 6750 §3.1: invalid_request, "The resource server SHOULD respond with the HTTP 400 (Bad Request) status code"',
  },
  {
    check: 'PS-AUTH-006',
    fake: { tokens: undefined },
    restrictsTokens: false,
    expected: 'skip',
    reason: /accepts a random token/,
    choice: 'any token accepted (no token list)',
    source: 'Plant Store specification: how a token is obtained and checked is not specified',
  },
  {
    check: 'PS-AUTH-007',
    fake: { bodyBeforeAuth: true },
    expected: 'non-strict',
    choice: 'the body read before the credentials: a malformed body without credentials answered 400',
    source: 'RFC 9110 does not order the checks; answering 401 first is our decision (docs/server.md)',
  },
  {
    check: 'PS-HTTP-001',
    fake: { no405: true },
    expected: 'non-strict',
    choice: 'other methods answered 404',
    source: OTHER_OPS,
  },
  {
    check: 'PS-HTTP-001',
    fake: { extraOperations: true },
    expected: 'non-strict',
    choice: 'GET /plants lists the plants (an operation the specification does not show)',
    source: OTHER_OPS,
  },
  {
    check: 'PS-HTTP-001',
    fake: { allowWithoutPost: true },
    expected: 'non-strict',
    choice: '405 with an Allow that omits POST',
    source: OTHER_OPS,
  },
  ...['PS-JSON-003', 'PS-HTTP-004'].map((check): AllowedChoiceRow => ({
    check,
    fake: { refuseNul: true },
    expected: 'pass',
    choice: 'NUL in a string refused with 400: the checks that need escapes do not depend on it',
    source: 'RFC 8259 §9: an implementation may set limits on the length and character contents of strings',
  })),
  {
    check: 'PS-ACCEPT-013',
    fake: { refuseNul: true },
    expected: 'non-strict',
    choice: 'NUL in a string refused with 400 and an Error',
    source: 'RFC 8259 §9: an implementation may set limits on the length and character contents of strings',
  },
  {
    check: 'PS-HTTP-002',
    fake: { itemPath405: true },
    document: 'get-plant-by-id.yaml',
    expected: 'pass',
    choice: 'POST /plants/xyz answered 405 with Allow where the document declares /plants/{id}: the path is known',
    source: 'RFC 9110 §15.5.6: 405 for a method the target resource does not support',
  },
  {
    check: 'PS-HTTP-002',
    fake: { itemPath405: true },
    expected: 'non-strict',
    choice: 'POST /plants/xyz answered 405 with Allow where the document declares no such path',
    source: 'RFC 9110 §15.5.5 defines 404 without making it binding for a path the document does not show',
  },
  {
    check: 'PS-HTTP-002',
    fake: { unknownPath200: true },
    expected: 'non-strict',
    choice: 'unknown paths answered 200',
    source: 'RFC 9110 §15.5.5 defines 404 without making it binding for a path the document does not show',
  },
  {
    check: 'PS-STATE-001',
    fake: { duplicatesAccepted: true },
    expected: 'non-strict',
    choice: 'a repeated id accepted',
    source: STATE_SILENT,
  },
  {
    check: 'PS-STATE-001',
    fake: { duplicate409: true },
    expected: 'non-strict',
    choice: 'a repeated id refused with 409 and an Error',
    source: STATE_SILENT,
  },
  {
    check: 'PS-STATE-002',
    fake: { duplicatesAccepted: true },
    expected: 'skip',
    reason: /duplicate/,
    choice: 'a repeated id accepted (merged ids cannot be observed)',
    source: STATE_SILENT,
  },
  {
    check: 'PS-STATE-003',
    fake: { raceDuplicates: true },
    expected: 'non-strict',
    choice: 'creates of one id sent at once both stored (a check-then-insert race)',
    source: "no binding rule forbids a race: the check's rule is a SHOULD",
  },
  {
    check: 'PS-STATE-003',
    fake: { duplicatesAccepted: true },
    expected: 'skip',
    reason: /repeated id/,
    choice: 'a repeated id accepted (nothing to compare concurrent creates with)',
    source: STATE_SILENT,
  },
  {
    check: 'PS-RESP-001',
    fake: { duplicate409: true },
    expected: 'non-strict',
    choice: 'a repeated id refused with 409',
    source: UNDECLARED,
  },
  {
    check: 'PS-RESP-002',
    fake: { problemJsonUndeclared: true },
    expected: 'non-strict',
    choice: 'undeclared error statuses (401, 404, 405, 415) answered application/problem+json',
    source: UNDECLARED,
  },
  {
    check: 'PS-RESP-003',
    fake: { problemJsonUndeclared: true },
    expected: 'non-strict',
    choice: 'undeclared error statuses answered with a problem details body, not an Error',
    source: UNDECLARED,
  },
  {
    check: 'PS-ACCEPT-004',
    fake: { nameMaxLength: true },
    expected: 'non-strict',
    choice: 'names over 100 characters refused, where the document states no maxLength',
    source: 'RFC 8259 §9: an implementation may set limits on the length and character contents of strings',
  },
  {
    check: 'PS-ACCEPT-004',
    fake: { bodyLimit413: true },
    expected: 'non-strict',
    choice: 'bodies over 8 KiB answered 413',
    source: 'RFC 8259 §9: limits on the size of texts; RFC 9110 §15.5.14 413',
  },
  {
    check: 'PS-ACCEPT-002',
    fake: { defaultTag: true },
    expected: 'non-strict',
    choice: 'an unsent tag echoed as ""',
    source:
      'Plant Store specification: what an unsent optional field reads back as is not said; no tag key is our decision (docs/server.md)',
  },
  {
    check: 'PS-ROBUST-002',
    fake: { depthLimit: 400 },
    expected: 'pass',
    choice: 'nesting beyond 1 000 refused with the declared 400 and an Error',
    source: 'RFC 8259 §9: an implementation may set limits on the maximum depth of nesting',
  },
  {
    check: 'PS-ROBUST-002',
    fake: { depthLimit: 413 },
    expected: 'pass',
    choice: 'nesting beyond 1 000 answered 413',
    source: 'RFC 9110 §15.5.14 413 Content Too Large',
  },
  {
    check: 'PS-ROBUST-002',
    fake: { depthLimit: 422 },
    expected: 'non-strict',
    choice: 'nesting beyond 1 000 refused with 422 and an Error',
    source: 'RFC 8259 §9 allows the limit; the specification declares 400 for errors',
  },
  {
    check: 'PS-ROBUST-004',
    fake: { strictAccept: true },
    expected: 'pass',
    choice: 'Accept: text/html answered 406',
    source: 'RFC 9110 §12.5.1: a server may answer 406 or disregard the header; any answer below 500 is its choice',
  },
  {
    check: 'PS-DOC-001',
    fake: {},
    document: 'get-plant-by-id.yaml',
    expected: 'non-strict',
    choice: 'a declared operation the server does not implement answered 404 before credentials are looked at',
    source: "the order of the checks is a server's own decision (docs/server.md)",
  },
  {
    check: 'PS-DOC-002',
    fake: { readsForbidden: true },
    document: 'get-plant-by-id.yaml',
    expected: 'non-strict',
    choice: 'GET /plants/{id} answered 403 (the token may create but not read)',
    source:
      'Plant Store specification: other statuses "not shown"; 403 is no RFC status for the condition, so undeclared',
  },
  {
    check: 'PS-ACCEPT-007',
    fake: { preStored: EARLIER_RUNS },
    expected: 'pass',
    choice: 'a long-lived target that holds 0 from an earlier run, refused as a duplicate that names the id',
    source: 'the evidence rule of PS-ACCEPT-007 (docs/checks.md): an earlier run stored it',
  },
  {
    check: 'PS-ACCEPT-009',
    fake: { preStored: EARLIER_RUNS, duplicateWithoutId: true },
    expected: 'skip',
    reason: /does not name the id/,
    choice: 'a long-lived target that holds int64 max, whose duplicate answer does not name the id',
    source: 'the evidence rule of PS-ACCEPT-009: a refusal that does not name the id cannot be told from one',
  },
  {
    check: 'PS-REJECT-004',
    fake: { preStored: EARLIER_RUNS },
    expected: 'pass',
    choice: 'a long-lived target that holds int64 max (ids exact)',
    source: "Plant Store specification, Create plant rule 2: the refusal is the rule's, not a duplicate's",
  },
];
