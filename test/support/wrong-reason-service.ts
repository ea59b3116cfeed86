// The wrong-reason rows of the checks of the service around a body (PS-AUTH,
// PS-HTTP, PS-STATE, PS-GEN, PS-DOC, PS-RESP): challenges that are there but
// unreadable, credentials compared too loosely, methods, paths and header
// fields, what the store keeps, generated bodies, every operation and every
// answer of the run. Gathered in mutants.ts WRONG_REASON_MUTANTS.
import type { WrongReasonRow } from './mutant-rows.js';

export const SERVICE_WRONG_REASONS: WrongReasonRow[] = [
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
  {
    check: 'PS-AUTH-009',
    fake: { acceptBareToken: true },
    expected: 'fail',
    why: 'accepts the token with no scheme at all (Authorization: <token>) but refuses it after another scheme: a check that sends only Basic and Token passes it',
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
