// The allowed choices the RFCs give a server (ALLOWED_CHOICES, gathered in
// mutants.ts): RFC 8259 §9 lets a JSON parser accept non-JSON forms and set
// limits (length, depth, size), and RFC 9110 and RFC 6750 define statuses
// (415, 404, 405, 406, 413, 401) without binding a server to them. A correct
// server that makes the choice must not fail the check.
import type { AllowedChoiceRow } from './mutant-rows.js';

const RFC8259_9 = 'RFC 8259 §9: a JSON parser MAY accept non-JSON forms or extensions';
const RFC6750_3_1 = 'RFC 6750 §3.1: invalid_token SHOULD be 401 (another 4xx, with the Bearer challenge, is allowed)';

/** Where refused credentials are answered 403, with the Bearer challenge. */
const status403 = (check: string): AllowedChoiceRow => ({
  check,
  fake: { credentials403: true },
  expected: 'non-strict',
  choice: 'refused credentials answered 403 with the Bearer challenge',
  source: RFC6750_3_1,
});

export const RFC_CHOICES: AllowedChoiceRow[] = [
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
    fake: { refuseEscapedSurrogates: true },
    expected: 'pass',
    choice: 'a lone surrogate written as an escape (\\ud800, \\udc00) refused with its declared 400 and an Error',
    source:
      'RFC 8259 §8.2: a string with an unpaired surrogate escape is grammatical, but the behavior of software that receives it is unpredictable',
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
    check: 'PS-AUTH-007',
    fake: { bodyBeforeAuth: true },
    expected: 'non-strict',
    choice: 'the body read before the credentials: a malformed body without credentials answered 400',
    source: 'RFC 9110 does not order the checks; answering 401 first is our decision (docs/server.md)',
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
];
