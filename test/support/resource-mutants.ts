// The wrong-reason mutants and allowed choices of the checks of every
// operation and of the plant resource (PS-OP-001..004, PS-STATE-004..008),
// on the multi-operation fake of fake-resource.ts (read by
// test/conformance/checks.wrong-reason.test.ts). Each mutant departs from
// one rule where a naive check does not look: the check must fail it, with
// a cause that names that rule, and no other of these checks may fail it.
// Each allowed choice is one the project's shared decisions (BRIEF: 400 for
// an unknown id, a PUT that creates, a second DELETE answered 2xx, 403 and
// 422) or a source allows: graded `non-strict`, `pass` or `skip`, never
// `fail`, and no other of these checks fails it either.
import type { Outcome } from '../../conformance/checks/types.js';
import type { Break } from './fake-resource-breaks.js';

/** The checks these rows are about, run together on every row. */
export const RESOURCE_CHECKS = [
  'PS-OP-001',
  'PS-OP-002',
  'PS-OP-003',
  'PS-OP-004',
  'PS-STATE-004',
  'PS-STATE-005',
  'PS-STATE-006',
  'PS-STATE-007',
  'PS-STATE-008',
];

/** A fake of fake-resource.ts: a document of test/fixtures/operations/ and the breaks it serves with. */
export interface ResourceRow {
  check: string;
  fixture: string;
  breaks: Break[];
}

export interface ResourceWrongReasonRow extends ResourceRow {
  expected: Extract<Outcome, 'fail'>;
  /** What the check's cause must say: the rule broken, not a side effect. */
  cause: RegExp;
  /** How the server breaks the rule, and what a naive check would take for evidence. */
  why: string;
}

export interface ResourceAllowedRow extends ResourceRow {
  expected: 'pass' | 'non-strict' | 'skip';
  /** The choice the server makes. */
  choice: string;
  /** The source or decision that allows it. */
  source: string;
}

export const RESOURCE_WRONG_REASON: ResourceWrongReasonRow[] = [
  {
    check: 'PS-OP-001',
    fixture: 'crud',
    breaks: ['listStub404'],
    expected: 'fail',
    cause: /\(GET \/plants\) is not implemented/,
    why: 'the list judges its parameters (400 to limit=abc, so it looks alive) and answers every valid request 404',
  },
  {
    check: 'PS-OP-001',
    fixture: 'starter',
    breaks: ['listStub404'],
    expected: 'fail',
    cause: /\(GET \/plants\) is not implemented/,
    why: "the starter's list: 400 to invalid parameters, 404 to every valid request",
  },
  {
    check: 'PS-OP-002',
    fixture: 'crud',
    breaks: ['offsetRefused'],
    expected: 'fail',
    cause: /a valid GET \/plants is answered 400/,
    why: 'the list serves a request without parameters, but refuses its declared optional offset with 400: a check that sends required parameters only passes it',
  },
  {
    check: 'PS-OP-003',
    fixture: 'crud',
    breaks: ['limitParseInt'],
    expected: 'fail',
    cause: /a request to GET \/plants invalid in one place is accepted/,
    why: 'the limit read by parseInt: abc is refused with 400, but 1.5 is served as 1: a check that sends letters only passes it',
  },
  {
    check: 'PS-OP-003',
    fixture: 'starter',
    breaks: ['limitParseInt'],
    expected: 'fail',
    cause: /a request to GET \/plants invalid in one place is accepted/,
    why: "the starter's limit read by parseInt: 1.5 served as 1",
  },
  {
    check: 'PS-OP-004',
    fixture: 'crud',
    breaks: ['deleteAnyScheme'],
    expected: 'fail',
    cause: /credentials the target must refuse are answered 204/,
    why: 'DELETE refuses a request without credentials with 401 and the challenge, but serves any Authorization header (Basic, Bearer without a token): a check that only leaves the credentials out passes it',
  },
  {
    check: 'PS-OP-004',
    fixture: 'links',
    breaks: ['deleteAnyScheme'],
    expected: 'fail',
    cause: /credentials the target must refuse are answered 204/,
    why: 'the DELETE that links name, with any Authorization header served',
  },
  {
    check: 'PS-STATE-004',
    fixture: 'crud',
    breaks: ['readIdAsDouble'],
    expected: 'fail',
    cause: /a created item is missing from GET \/plants\/\{id\}/,
    why: "GET item looks the path id up as a double (JavaScript's Number): every plant with an id below 2^53 is read back, one beyond 2^53 is 404",
  },
  {
    check: 'PS-STATE-004',
    fixture: 'links',
    breaks: ['readIdAsDouble'],
    expected: 'fail',
    cause: /a created item is missing from GET \/plants\/\{plantId\}/,
    why: 'the read that links name, its path id read as a double',
  },
  {
    check: 'PS-STATE-005',
    fixture: 'crud',
    breaks: ['listDropsTag'],
    expected: 'fail',
    cause: /the list holds another item than the create answered/,
    why: 'the plant is in the list, by its name, but without its tag (GET item keeps it): a check that looks for the plant only passes it',
  },
  {
    check: 'PS-STATE-005',
    fixture: 'paged',
    breaks: ['listDropsTag'],
    expected: 'fail',
    cause: /the list holds another item than the create answered/,
    why: 'a page object whose items have lost their tag',
  },
  {
    check: 'PS-STATE-006',
    fixture: 'crud',
    breaks: ['listAfterDelete'],
    expected: 'fail',
    cause: /a deleted item is still listed/,
    why: 'after the DELETE, GET item answers 404 but the list (a stale cache) still holds the plant: a check that reads the item only passes it',
  },
  {
    check: 'PS-STATE-006',
    fixture: 'starter',
    breaks: ['secondDelete500'],
    expected: 'fail',
    cause: /a second DELETE of an item is answered 5xx/,
    why: 'the first DELETE answers 204 and the plant is gone; the second answers 500: a check that deletes once passes it',
  },
  {
    check: 'PS-STATE-007',
    fixture: 'crud',
    breaks: ['putMerges'],
    expected: 'fail',
    cause: /a replace keeps members it was not sent/,
    why: 'PUT keeps the members its body leaves out (a merge): a check that PUTs every member sees what it sent and passes it',
  },
  {
    check: 'PS-STATE-008',
    fixture: 'crud',
    breaks: ['limitOffByOne'],
    expected: 'fail',
    cause: /the list holds more items than its limit asks/,
    why: 'the list holds one plant more than its limit: a check that asks for more plants than are stored passes it',
  },
  {
    check: 'PS-STATE-008',
    fixture: 'paged',
    breaks: ['limitOffByOne'],
    expected: 'fail',
    cause: /the list holds more items than its limit asks/,
    why: 'a page object with one item more than its limit',
  },
];

const UNKNOWN_ID =
  "the project's shared decisions: 400 rather than 404 for an id never stored is our decision, non-strict";
const AUTHZ = 'RFC 9110 §15.5.4: 403, the token may create but not read (authorization per operation)';

export const RESOURCE_ALLOWED: ResourceAllowedRow[] = [
  {
    check: 'PS-STATE-004',
    fixture: 'crud',
    breaks: ['unknownId400'],
    expected: 'non-strict',
    choice: 'an id never stored answered 400',
    source: UNKNOWN_ID,
  },
  {
    check: 'PS-STATE-004',
    fixture: 'links',
    breaks: ['unknownId400'],
    expected: 'non-strict',
    choice: 'an id never stored answered 400 (links)',
    source: UNKNOWN_ID,
  },
  {
    check: 'PS-STATE-007',
    fixture: 'crud',
    breaks: ['putCreates'],
    expected: 'pass',
    choice: 'a PUT of an id never stored creates it',
    source: 'RFC 9110 §9.3.4: PUT creates or replaces',
  },
  {
    check: 'PS-OP-002',
    fixture: 'crud',
    breaks: ['putCreates'],
    expected: 'pass',
    choice: 'a PUT of an id never stored creates it',
    source: 'RFC 9110 §9.3.4: PUT creates or replaces',
  },
  {
    check: 'PS-STATE-006',
    fixture: 'crud',
    breaks: ['secondDelete204'],
    expected: 'non-strict',
    choice: 'a second DELETE answered 204',
    source: 'RFC 9110 §9.2.2: DELETE is idempotent; 404 is our decision',
  },
  {
    check: 'PS-STATE-006',
    fixture: 'starter',
    breaks: ['secondDelete204'],
    expected: 'non-strict',
    choice: 'a second DELETE answered 204 (the starter)',
    source: 'RFC 9110 §9.2.2: DELETE is idempotent; 404 is our decision',
  },
  {
    check: 'PS-OP-003',
    fixture: 'crud',
    breaks: ['invalid422'],
    expected: 'non-strict',
    choice: 'a parameter its schema refuses answered 422',
    source: "RFC 9110 §15.5: another 4xx is the client's error too; the document declares 400",
  },
  {
    check: 'PS-OP-004',
    fixture: 'crud',
    breaks: ['auth403'],
    expected: 'non-strict',
    choice: 'refused credentials answered 403 with the Bearer challenge',
    source: 'RFC 6750 §3.1: invalid_token SHOULD be 401',
  },
  {
    check: 'PS-OP-002',
    fixture: 'crud',
    breaks: ['read403'],
    expected: 'non-strict',
    choice: 'a valid read answered 403',
    source: AUTHZ,
  },
  {
    check: 'PS-STATE-004',
    fixture: 'crud',
    breaks: ['read403'],
    expected: 'skip',
    choice: 'a valid read answered 403: the plant cannot be read back',
    source: AUTHZ,
  },
  {
    check: 'PS-STATE-007',
    fixture: 'crud',
    breaks: ['read403'],
    expected: 'skip',
    choice: 'a valid read answered 403: the change cannot be read back',
    source: AUTHZ,
  },
];
