// The allowed choices of the proof both ways of the checks of what any
// document declares (doc-mutants.ts): each is one a source allows, which the
// check grades as the row says and no check of DOC_CHECKS fails
// (test/conformance/documents.test.ts).
import type { Outcome } from '../../conformance/checks/types.js';
import type { DocBreak } from './fake-doc-config.js';
export interface DocAllowedRow {
  fixture: string;
  breaks: DocBreak[];
  check: string;
  expected: Extract<Outcome, 'pass' | 'non-strict'>;
  choice: string;
  source: string;
  /** What the check's Actual must say where the outcome alone could come for another reason. */
  reason?: RegExp;
}

export const DOC_ALLOWED: DocAllowedRow[] = [
  {
    fixture: 'find-or-create',
    breaks: ['findsStored'],
    check: 'PS-IDENT-002',
    expected: 'non-strict',
    choice: 'a create of a body already stored answered 200 with the stored item (a find-or-create)',
    source: "RFC 9110 §15.3.1: 200 with the target resource's state; §15.3.2 keeps 201 for a resource created",
    reason: /both creates of one body name the id \d+: 200,/,
  },
  {
    fixture: 'server-id',
    breaks: ['locationAbsolute'],
    check: 'PS-IDENT-001',
    expected: 'pass',
    choice: 'Location as an absolute URI',
    source: 'RFC 9110 §10.2.2: Location = URI-reference',
  },
  {
    fixture: 'nested',
    breaks: ['otherParent403'],
    check: 'PS-STATE-009',
    expected: 'pass',
    choice: 'an item under another parent answered 403',
    source: 'RFC 9110 §15.5.4: a server may refuse rather than disclose',
  },
  {
    fixture: 'orders',
    breaks: ['dangling404'],
    check: 'PS-REF-001',
    expected: 'pass',
    choice: 'an order of a plant never stored answered 404, not the declared 422',
    source: 'RFC 9110 §15.5.5',
  },
  {
    fixture: 'conditional',
    breaks: ['staleIfMatch409'],
    check: 'PS-COND-001',
    expected: 'non-strict',
    choice: 'a stale If-Match answered 409',
    source: 'the method is not performed (RFC 9110 §13.1.1); §13.2.2 says 412',
  },
  {
    fixture: 'conditional',
    breaks: ['noIfMatch400'],
    check: 'PS-COND-002',
    expected: 'non-strict',
    choice: 'a PUT without If-Match answered 400',
    source: 'a required header missing is a client error (RFC 9110 §15.5.1); the document declares 428',
  },
  {
    fixture: 'idempotency',
    breaks: ['conflict400'],
    check: 'PS-STATE-001',
    expected: 'non-strict',
    choice: 'a duplicate id answered 400, not the declared 409',
    source: 'RFC 9110 §15.5.1: the client erred',
  },
  {
    fixture: 'idempotency',
    breaks: ['otherBodyReplayed'],
    check: 'PS-IDEM-002',
    expected: 'non-strict',
    choice: 'a reused key with another body answered with the first answer',
    source: "the draft's SHOULD (422)",
  },
  {
    fixture: 'orders',
    breaks: ['dangling403'],
    check: 'PS-REF-001',
    expected: 'non-strict',
    choice: 'a create naming an item never stored answered 403, which the create does not declare',
    source: 'RFC 9110 §15.5.4: a refusal; the document declares 422 for it',
  },
  {
    fixture: 'idempotency',
    breaks: ['replayMarked'],
    check: 'PS-IDEM-001',
    expected: 'non-strict',
    choice: 'a replay answers the first item with a member that marks it a replay',
    source: "the draft leaves what a replay's body holds to the server (its fingerprint is the request's)",
  },
  {
    fixture: 'link-relations',
    breaks: ['relUppercase'],
    check: 'PS-PAGE-001',
    expected: 'pass',
    choice: 'rel="NEXT"',
    source: 'RFC 8288 §2.1.1: relation types compare case-insensitively',
  },
  {
    fixture: 'cursor-envelope',
    breaks: ['emptyLastPage'],
    check: 'PS-PAGE-001',
    expected: 'pass',
    choice: 'a last full page that names an empty next page',
    source: 'RFC 8288: next names the next in the series, which may be empty',
  },
];
