// The one table of the names a list's paging parameters and its cursor member
// are recognised by: the reference server serves by it
// (server/operations/list-rules.ts) and the harness reads lists by it
// (conformance/model/list-model.ts), so the server serves every name the
// harness knows. These are inferences from names, not rules of the OpenAPI
// specification or of an RFC (docs/server.md, "The list's parameters";
// docs/checks.md, "What the harness infers"); each role has its switch.
// Names are compared in any letter case (`pageSize` is `pagesize`); they are
// written here as the docs show them, and test/server/list-names-doc.test.ts
// holds the docs' rows to this table.

/** What a query parameter named so does to a list. */
export type ListParameterRole = 'limit' | 'offset' | 'page' | 'cursor';

export const LIST_PARAMETER_NAMES: Readonly<Record<ListParameterRole, readonly string[]>> = {
  /** An integer: at most that many items in the page. */
  limit: ['limit', 'max', 'size', 'pageSize', 'page_size', 'per_page', 'perPage', 'count', 'top', 'first'],
  /** An integer: leaves out that many items first. */
  offset: ['offset', 'skip', 'start'],
  /** An integer: the page of that number. */
  page: ['page', 'page_number', 'pageNumber', 'page_no', 'pageNo', 'page_index', 'pageIndex'],
  /** A string or an integer: the items after the page whose cursor it is. */
  cursor: [
    'cursor',
    'after',
    'page_token',
    'pageToken',
    'next',
    'starting_after',
    'startingAfter',
    'start_after',
    'continuation',
    'continuation_token',
    'continuationToken',
    'next_token',
    'nextToken',
  ],
};

/** A page object's member (at its top or one object down) that carries the following page's cursor. */
export const NEXT_MEMBER_NAMES: readonly string[] = [
  'next',
  'nextCursor',
  'next_cursor',
  'nextPageToken',
  'next_page_token',
  'nextToken',
  'next_token',
  'cursor',
  'after',
  'end_cursor',
  'endCursor',
];

const lowered = (names: readonly string[]): ReadonlySet<string> => new Set(names.map((name) => name.toLowerCase()));
const ROLE_SETS = Object.fromEntries(
  Object.entries(LIST_PARAMETER_NAMES).map(([role, names]) => [role, lowered(names)]),
) as Record<ListParameterRole, ReadonlySet<string>>;
const NEXT_MEMBER_SET = lowered(NEXT_MEMBER_NAMES);

/** Whether a query parameter's name is one of the role's, in any letter case. */
export function isListParameterNamed(role: ListParameterRole, name: string): boolean {
  return ROLE_SETS[role].has(name.toLowerCase());
}

/** Whether a page object's member is named like a cursor to the following page, in any letter case. */
export function isNextMemberNamed(name: string): boolean {
  return NEXT_MEMBER_SET.has(name.toLowerCase());
}
