// The proof both ways of the checks of what any document declares (issue
// 42), on the fake of fake-doc.ts and the documents of
// test/fixtures/documents/ (read by test/conformance/documents.test.ts):
// each break departs from one rule of a document's feature, and the check
// for that rule must fail it with a cause that names the rule; each allowed
// choice is one a source allows, which the check grades as the row says and
// no check of DOC_CHECKS fails.
import type { DocBreak } from './fake-doc-config.js';

export { DOC_ALLOWED, type DocAllowedRow } from './doc-allowed.js';

/** The checks these rows are about: run together on every correct fake, none may fail it. */
export const DOC_CHECKS = [
  'PS-OP-001',
  'PS-OP-002',
  'PS-OP-003',
  'PS-OP-004',
  'PS-STATE-001',
  'PS-STATE-004',
  'PS-STATE-005',
  'PS-STATE-006',
  'PS-STATE-007',
  'PS-STATE-008',
  'PS-STATE-009',
  'PS-IDENT-001',
  'PS-IDENT-002',
  'PS-REF-001',
  'PS-PAGE-001',
  'PS-QUERY-001',
  'PS-QUERY-002',
  'PS-COND-001',
  'PS-COND-002',
  'PS-COND-003',
  'PS-IDEM-001',
  'PS-IDEM-002',
  'PS-HEAD-001',
  'PS-RESP-002',
  'PS-RESP-003',
  'PS-RESP-004',
];

/** Every document of test/fixtures/documents/ the fake serves, and the checks its correct fake must pass (not skip): its feature's. */
export const DOC_PASSES: Readonly<Record<string, readonly string[]>> = {
  'server-id': ['PS-STATE-004', 'PS-STATE-005', 'PS-STATE-006', 'PS-IDENT-001', 'PS-IDENT-002', 'PS-HEAD-001'],
  'find-or-create': ['PS-STATE-004', 'PS-STATE-005', 'PS-STATE-006', 'PS-IDENT-001', 'PS-IDENT-002', 'PS-HEAD-001'],
  'uuid-id': ['PS-STATE-001', 'PS-STATE-004', 'PS-STATE-005', 'PS-STATE-006', 'PS-OP-001'],
  nested: ['PS-STATE-004', 'PS-STATE-005', 'PS-STATE-009', 'PS-REF-001', 'PS-OP-001', 'PS-OP-002'],
  orders: ['PS-STATE-004', 'PS-STATE-005', 'PS-STATE-006', 'PS-REF-001', 'PS-OP-001', 'PS-OP-002'],
  conditional: ['PS-COND-001', 'PS-COND-002', 'PS-COND-003', 'PS-STATE-007', 'PS-HEAD-001', 'PS-OP-002'],
  'filter-sort': ['PS-QUERY-001', 'PS-QUERY-002', 'PS-STATE-005'],
  idempotency: ['PS-IDEM-001', 'PS-IDEM-002', 'PS-STATE-001', 'PS-OP-001', 'PS-OP-002'],
  'cursor-envelope': ['PS-PAGE-001', 'PS-STATE-005', 'PS-STATE-008'],
  'link-pages': ['PS-PAGE-001', 'PS-STATE-005', 'PS-HEAD-001'],
  'server-id-links': ['PS-STATE-004', 'PS-STATE-006', 'PS-IDENT-002'],
  'pattern-id': ['PS-STATE-001', 'PS-STATE-004', 'PS-STATE-007', 'PS-IDENT-001', 'PS-HEAD-001'],
  'offset-pages': ['PS-PAGE-001', 'PS-STATE-005', 'PS-STATE-008'],
  'link-relations': ['PS-PAGE-001', 'PS-STATE-005', 'PS-HEAD-001'],
  'hal-pages': ['PS-PAGE-001', 'PS-STATE-005', 'PS-STATE-008'],
};

export interface DocWrongRow {
  fixture: string;
  breaks: DocBreak[];
  check: string;
  /** What the check's cause must say: the rule broken. */
  cause: RegExp;
  why: string;
}

export const DOC_BREAKS: DocWrongRow[] = [
  {
    fixture: 'server-id',
    breaks: ['noLocation'],
    check: 'PS-HEAD-001',
    cause: /lacks its required header Location/,
    why: 'a 201 without the Location the document declares required',
  },
  {
    fixture: 'server-id',
    breaks: ['locationElsewhere'],
    check: 'PS-IDENT-001',
    cause: /Location of a 201 .* does not name the item created/,
    why: "the 201's Location names an item that is not the one created",
  },
  {
    fixture: 'server-id',
    breaks: ['oneId'],
    check: 'PS-IDENT-002',
    cause: /two creates of POST \/plants answered 201 name one item/,
    why: 'every item gets the same id: the second create replaces the first',
  },
  {
    fixture: 'find-or-create',
    breaks: ['foundAs201'],
    check: 'PS-IDENT-002',
    cause: /two creates of POST \/plants answered 201 name one item/,
    why: 'a find-or-create answers the plant it found 201 Created: a 201 says a new resource was made',
  },
  {
    fixture: 'uuid-id',
    breaks: ['readMisses'],
    check: 'PS-STATE-004',
    cause: /a created item is missing from GET \/plants\/\{id\}/,
    why: 'GET by UUID finds nothing',
  },
  {
    fixture: 'uuid-id',
    breaks: ['deleteKeeps'],
    check: 'PS-STATE-006',
    cause: /a deleted item is still read/,
    why: 'DELETE by UUID answers 204 and keeps the plant',
  },
  {
    fixture: 'nested',
    breaks: ['anyParent'],
    check: 'PS-STATE-009',
    cause: /finds an item under a parent it does not live under/,
    why: 'a plant of garden 1 is read under garden 2',
  },
  {
    fixture: 'nested',
    breaks: ['listAllParents'],
    check: 'PS-STATE-009',
    cause: /lists an item under a parent it does not live under/,
    why: "a garden's list holds the plants of every garden",
  },
  {
    fixture: 'nested',
    breaks: ['orphans'],
    check: 'PS-REF-001',
    cause: /stores an item naming an item never stored/,
    why: 'a plant is planted in a garden that does not exist',
  },
  {
    fixture: 'orders',
    breaks: ['dangling'],
    check: 'PS-REF-001',
    cause: /POST \/orders stores an item naming an item never stored/,
    why: 'an order of a plant never stored is accepted',
  },
  {
    fixture: 'orders',
    breaks: ['readOtherStore'],
    check: 'PS-STATE-004',
    cause: /a created item is missing from GET \/orders\/\{orderId\}/,
    why: 'a read of an order looks it up among the plants',
  },
  {
    fixture: 'conditional',
    breaks: ['staleIfMatchApplied'],
    check: 'PS-COND-001',
    cause: /performs a change whose If-Match names an older entity tag/,
    why: 'a PUT with an older ETag is performed',
  },
  {
    fixture: 'conditional',
    breaks: ['etagStuck'],
    check: 'PS-COND-001',
    cause: /performs a change whose If-Match names an older entity tag/,
    why: 'the ETag never changes, so an older one still matches',
  },
  {
    fixture: 'conditional',
    breaks: ['ifMatchOptional'],
    check: 'PS-COND-002',
    cause: /performs a change without the If-Match it requires/,
    why: 'a PUT without If-Match is performed',
  },
  {
    fixture: 'conditional',
    breaks: ['no304'],
    check: 'PS-COND-003',
    cause: /answers If-None-Match naming the current entity tag 200, not 304/,
    why: 'If-None-Match with the current ETag answers the plant again',
  },
  {
    fixture: 'conditional',
    breaks: ['noEtag'],
    check: 'PS-HEAD-001',
    cause: /lacks its required header ETag/,
    why: 'reads answer no ETag',
  },
  {
    fixture: 'filter-sort',
    breaks: ['firstValueOnly'],
    check: 'PS-QUERY-001',
    cause: /the list's filter tag leaves out an item whose tag is one of the values asked/,
    why: '?tag=a&tag=b keeps only the plants tagged a',
  },
  {
    fixture: 'filter-sort',
    breaks: ['sortIgnored'],
    check: 'PS-QUERY-002',
    cause: /the list's sort .* does not order the items by name/,
    why: 'the list ignores sort',
  },
  {
    fixture: 'filter-sort',
    breaks: ['descendingAscending'],
    check: 'PS-QUERY-002',
    cause: /the list's sort -name does not order the items by name/,
    why: '-name lists in ascending order',
  },
  {
    fixture: 'idempotency',
    breaks: ['keyIgnored'],
    check: 'PS-IDEM-001',
    cause: /retried with its idempotency key is not answered as the first time/,
    why: 'a retry with the same key is a new create, refused as a duplicate',
  },
  {
    fixture: 'idempotency',
    breaks: ['duplicateReplaces'],
    check: 'PS-STATE-001',
    cause: /a create of an id already stored is accepted, where POST \/plants declares 409/,
    why: 'a duplicate id under a new key replaces the plant instead of the declared 409',
  },
  {
    fixture: 'idempotency',
    breaks: ['keyReuse500'],
    check: 'PS-IDEM-002',
    cause: /answers a reused idempotency key with another body 500, not 422/,
    why: 'a key reused with another body answers 500',
  },
  {
    fixture: 'cursor-envelope',
    breaks: ['cursorNeverGiven'],
    check: 'PS-PAGE-001',
    cause: /the pages of GET \/plants leave out an item/,
    why: 'the envelope never names a next page',
  },
  {
    fixture: 'cursor-envelope',
    breaks: ['cursorSkips'],
    check: 'PS-PAGE-001',
    cause: /the pages of GET \/plants leave out an item/,
    why: 'the next page starts one plant too late',
  },
  {
    fixture: 'cursor-envelope',
    breaks: ['cursorLoops'],
    check: 'PS-PAGE-001',
    cause: /the pages of GET \/plants never end/,
    why: 'the last page names the first as its next',
  },
  {
    fixture: 'link-pages',
    breaks: ['noLink'],
    check: 'PS-PAGE-001',
    cause: /the pages of GET \/plants leave out an item/,
    why: 'no Link header: the next page is never named',
  },
  {
    fixture: 'hal-pages',
    breaks: ['halNextLoops'],
    check: 'PS-PAGE-001',
    cause: /the pages of GET \/plants never end/,
    why: "every HAL page's _links.next names the first page",
  },
  {
    fixture: 'hal-pages',
    breaks: ['halNextSkips'],
    check: 'PS-PAGE-001',
    cause: /the pages of GET \/plants leave out an item/,
    why: "a HAL page's _links.next starts one plant too late",
  },
  {
    fixture: 'link-pages',
    breaks: ['linkLoops'],
    check: 'PS-PAGE-001',
    cause: /the pages of GET \/plants never end/,
    why: 'every rel="next" names page 1',
  },
  {
    fixture: 'link-pages',
    breaks: ['noTotal'],
    check: 'PS-HEAD-001',
    cause: /lacks its required header X-Total-Count/,
    why: 'the list answers no X-Total-Count',
  },
  {
    fixture: 'offset-pages',
    breaks: ['offsetSkips'],
    check: 'PS-PAGE-001',
    cause: /the pages of GET \/plants leave out an item/,
    why: 'a page asked from an offset starts one plant later',
  },
  {
    fixture: 'link-relations',
    breaks: ['nextIsLast'],
    check: 'PS-PAGE-001',
    cause: /the pages of GET \/plants leave out an item/,
    why: 'rel="next" names the last page, skipping those between',
  },
  {
    fixture: 'pattern-id',
    breaks: ['patternUnchecked'],
    check: 'PS-REJECT-012',
    cause: /invalid data is answered 201, not rejected/,
    why: 'a code its pattern does not match is stored',
  },
  {
    fixture: 'server-id-links',
    breaks: ['numberOffByOne'],
    check: 'PS-STATE-004',
    cause: /GET \/plants\/\{ref\} answers another item than the create did/,
    why: 'the number the create answers is not the one its item path takes',
  },
];
