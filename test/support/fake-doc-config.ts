// The fake of fake-doc.ts for the documents of test/fixtures/documents/:
// what each document's operations do, written by hand from the documents
// (their collections, how an item is named, parents, references, how the
// list pages, the conditional requests and the idempotency key), so that
// the harness's inferences are tested, not copied; and the breaks, each
// departing from one rule of a document's feature, or making a choice a
// source allows.

/** How a collection's list answers and pages. */
export type ListSpec =
  | { style: 'array'; limit?: string; filter?: { param: string; property: string }; sort?: string }
  | { style: 'cursor'; items: string; size: string; cursor: string; defaultSize: number }
  | { style: 'link'; page: string; size: string; defaultSize: number; total: string }
  | { style: 'offset'; items: string; total: string; offset: string; size: string; defaultSize: number }
  | { style: 'deep-link'; param: string; defaultSize: number }
  | { style: 'hal'; embedded: string; size: string; defaultSize: number };

export interface ResourceSpec {
  collection: string;
  item?: string;
  /** The item path's parameter. */
  idParam?: string;
  /** The member the client chooses the id in; absent: the server numbers items, in `answerId`. */
  clientId?: string;
  answerId?: string;
  /** The status of a create. */
  created: number;
  /** A 201 names the item in Location. */
  location?: boolean;
  parent?: { param: string; collection: string };
  /** Members naming an item of another collection, and the status of a create naming none stored. */
  references?: Array<{ member: string; collection: string; status: number }>;
  list?: ListSpec;
}

export interface FixtureSpec {
  resources: ResourceSpec[];
  /** ETag on every answer of an item; If-Match on PUT (428 without, 412 when stale); If-None-Match on GET (304). */
  conditional?: boolean;
  /** The header of the idempotency key on creates. */
  idempotency?: string;
  /** The status of a create of an id already stored. */
  conflict: number;
}

const plants = (over: Partial<ResourceSpec> = {}): ResourceSpec => ({
  collection: '/plants',
  item: '/plants/{id}',
  idParam: 'id',
  clientId: 'id',
  created: 200,
  list: { style: 'array', limit: 'limit' },
  ...over,
});

/** Plants whose ids the server assigns, read at /plants/{plantId}, created 201 with a Location. */
const SERVER_ID: FixtureSpec = {
  conflict: 400,
  resources: [
    plants({
      item: '/plants/{plantId}',
      idParam: 'plantId',
      clientId: undefined,
      answerId: 'id',
      created: 201,
      location: true,
    }),
  ],
};

/** fixture (a file of test/fixtures/documents/, without .yaml) → what it does. */
export const DOC_FIXTURES: Readonly<Record<string, FixtureSpec>> = {
  'server-id': SERVER_ID,
  // server-id's fake: it creates a plant each time (201), one of the two choices the document allows; the
  // other, the find-or-create, is the allowed choice findsStored.
  'find-or-create': SERVER_ID,
  'uuid-id': { conflict: 400, resources: [plants()] },
  nested: {
    conflict: 400,
    resources: [
      { collection: '/gardens', item: '/gardens/{gardenId}', idParam: 'gardenId', clientId: 'id', created: 201 },
      {
        collection: '/gardens/{gardenId}/plants',
        item: '/gardens/{gardenId}/plants/{plantId}',
        idParam: 'plantId',
        clientId: 'id',
        created: 201,
        parent: { param: 'gardenId', collection: '/gardens' },
        list: { style: 'array', limit: 'limit' },
      },
    ],
  },
  orders: {
    conflict: 400,
    resources: [
      plants(),
      {
        collection: '/orders',
        item: '/orders/{orderId}',
        idParam: 'orderId',
        clientId: 'id',
        created: 201,
        references: [{ member: 'plantId', collection: '/plants', status: 422 }],
        list: { style: 'array' },
      },
    ],
  },
  conditional: { conflict: 400, conditional: true, resources: [plants({ list: undefined })] },
  'filter-sort': {
    conflict: 400,
    resources: [
      plants({ list: { style: 'array', limit: 'limit', filter: { param: 'tag', property: 'tag' }, sort: 'sort' } }),
    ],
  },
  idempotency: { conflict: 409, idempotency: 'idempotency-key', resources: [plants()] },
  'cursor-envelope': {
    conflict: 400,
    resources: [
      plants({
        list: { style: 'cursor', items: 'data', size: 'page_size', cursor: 'starting_after', defaultSize: 10 },
      }),
    ],
  },
  'link-pages': {
    conflict: 400,
    resources: [
      plants({ list: { style: 'link', page: 'page', size: 'per_page', defaultSize: 30, total: 'x-total-count' } }),
    ],
  },
  'server-id-links': {
    conflict: 400,
    resources: [
      plants({ item: '/plants/{ref}', idParam: 'ref', clientId: undefined, answerId: 'number', created: 201 }),
    ],
  },
  'pattern-id': {
    conflict: 400,
    resources: [
      plants({
        item: '/plants/{code}',
        idParam: 'code',
        clientId: 'code',
        created: 201,
        location: true,
        list: { style: 'array', limit: 'max' },
      }),
    ],
  },
  'offset-pages': {
    conflict: 400,
    resources: [
      plants({
        list: { style: 'offset', items: 'items', total: 'total', offset: 'offset', size: 'count', defaultSize: 20 },
      }),
    ],
  },
  'hal-pages': {
    conflict: 400,
    resources: [plants({ list: { style: 'hal', embedded: 'plants', size: 'size', defaultSize: 10 } })],
  },
  'link-relations': {
    conflict: 400,
    resources: [
      plants({ item: undefined, idParam: undefined, list: { style: 'deep-link', param: 'page', defaultSize: 5 } }),
    ],
  },
};

/**
 * Each break departs from one rule of a document's feature (or, where
 * marked allowed, makes a choice a source allows that differs from ours).
 */
export type DocBreak =
  | 'noLocation' // a 201 without the Location the document declares required
  | 'locationElsewhere' // a 201's Location names another item
  | 'oneId' // the server gives every item the same id: a second create replaces the first
  | 'readMisses' // GET of an item answers 404 whatever its id
  | 'deleteKeeps' // DELETE answers 204 and keeps the item
  | 'anyParent' // an item is read under any parent, not its own only
  | 'listAllParents' // a parent's list holds the items of every parent
  | 'orphans' // a create under a parent never stored is stored
  | 'dangling' // a create naming an item never stored (a reference) is stored
  | 'readOtherStore' // GET of an order looks it up among the plants
  | 'staleIfMatchApplied' // a PUT whose If-Match names an older ETag is performed
  | 'ifMatchOptional' // a PUT without If-Match is performed
  | 'no304' // GET with If-None-Match naming the current ETag answers 200
  | 'noEtag' // reads answer no ETag, which the document declares required
  | 'etagStuck' // the ETag never changes when the item does
  | 'firstValueOnly' // an array filter keeps only its first value
  | 'sortIgnored' // the list ignores its sort order
  | 'descendingAscending' // a descending sort lists in ascending order
  | 'keyIgnored' // the idempotency key is ignored: a retry is a new create (a duplicate)
  | 'duplicateReplaces' // a create of an id already stored replaces it (the declared 409 never comes)
  | 'keyReuse500' // an idempotency key reused with another body answers 500
  | 'cursorNeverGiven' // the envelope never names the next page
  | 'cursorSkips' // the next page starts one item too late
  | 'cursorLoops' // the last page names the first as its next
  | 'noLink' // the list answers no Link header
  | 'linkLoops' // every page's rel="next" names page 1
  | 'noTotal' // the list answers no X-Total-Count, which the document declares required
  | 'offsetSkips' // a page asked from an offset starts one item later
  | 'nextIsLast' // rel="next" names the last page, skipping those between
  | 'patternUnchecked' // a code its pattern does not match is stored
  | 'numberOffByOne' // the item path's number is one more than the number the create answered
  | 'halNextLoops' // every HAL page's _links.next names the first page
  | 'halNextSkips' // a HAL page's _links.next starts one plant too late
  | 'foundAs201' // a find-or-create answers the plant it found 201 Created, as if it had made it
  // Allowed choices, which no check may fail:
  | 'locationAbsolute' // Location as an absolute URI (RFC 9110 §10.2.2 allows any URI reference)
  | 'otherParent403' // an item under another parent answered 403, not 404
  | 'dangling404' // a create naming an item never stored answered 404, not the declared 422
  | 'staleIfMatch409' // a stale If-Match answered 409, not 412 (non-strict)
  | 'noIfMatch400' // a PUT without If-Match answered 400, not 428 (non-strict)
  | 'conflict400' // a duplicate id answered 400, not the declared 409 (non-strict)
  | 'otherBodyReplayed' // an idempotency key reused with another body answers the first answer again (non-strict)
  | 'dangling403' // a create naming an item never stored answered 403, a 4xx the create does not declare (non-strict)
  | 'replayMarked' // a replay answers the first answer with a member that says it is one (`replayed: true`; non-strict)
  | 'relUppercase' // rel="NEXT": relation types are compared case-insensitively (RFC 8288 §2.1.1)
  | 'emptyLastPage' // the last full page names a next one, which is empty and names none
  | 'findsStored'; // a create of a body an item already stored has (but for its server-given id) answers that item with 200 (non-strict)
