// The allowed choices the Plant Store specification leaves a server by what
// it does not show (the conditions of a 400, the states of a plant, other
// operations and statuses, how a token is checked), and what a check's
// evidence rule cannot tell apart (ALLOWED_CHOICES, gathered in mutants.ts).
// A correct server that makes the choice must not fail the check.
import { EARLIER_RUNS, type AllowedChoiceRow } from './mutant-rows.js';

const NOT_SHOWN_400 =
  'Plant Store specification, Errors: the conditions of a 400 are not shown, so another 4xx is a choice';
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

export const SPEC_CHOICES: AllowedChoiceRow[] = [
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
    check: 'PS-ACCEPT-002',
    fake: { defaultTag: true },
    expected: 'non-strict',
    choice: 'an unsent tag echoed as ""',
    source:
      'Plant Store specification: what an unsent optional field reads back as is not said; no tag key is our decision (docs/server.md)',
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
