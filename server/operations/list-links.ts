// The list's Link header (RFC 8288 §3): a link per relation, each target a
// URI reference (RFC 3986 §4.2) made of the request's own path and query
// with the page's parameters changed, every other pair as the request wrote
// it, and a new pair written as the request writes its others (a deepObject
// member's brackets raw where the request's are: `page[number]=2`).
//
//   next   while a page follows: the cursor the page gives, the next page
//          number, the offset past the page
//   first  the first page: no cursor, the first page number, offset 0
//   prev   the page before, where there is one: the page number before, the
//          offset a page back (never below 0); none for a cursor, which
//          goes forward only
//   last   the last page, from the items' count: pages or offsets only, and
//          only unfiltered (the count is of every item)
//
// `first`, `prev` and `last` are sent where the Link's declaration names
// them (list-rules.ts), `next` always (docs/server.md, "The list's
// parameters").
import type { ListRules, LinkRelation } from './list-rules.js';

/** Where a page is, as the Link's targets need it. */
export interface PagePlace {
  /** The request's path and query, as sent. */
  url: string;
  /** The page number asked for (the first where none was), for pages by number. */
  pageNumber: number | undefined;
  /** The offset asked for (0 where none was). */
  offset: number;
  limit: number;
  /** Items on this page; the following page's cursor (null on the last). */
  items: number;
  next: number | string | null;
  /** Every item of the list, where counted; undefined where not. */
  count: number | undefined;
  filtered: boolean;
}

/** Whether the Link's relations need the items' count (`last`, for pages or offsets). */
export function linkNeedsCount(rules: ListRules): boolean {
  return rules.link && rules.relations.has('last') && rules.cursor === undefined;
}

/** The Link header's value, or undefined when it has no link. */
export function linkHeader(rules: ListRules, at: PagePlace): string | undefined {
  const links: string[] = [];
  const add = (relation: LinkRelation | 'next', changes: Map<string, string | undefined>) =>
    links.push(`<${withQuery(at.url, changes)}>; rel="${relation}"`);
  const first = rules.page?.first ?? 0;
  const lastIndex =
    at.count === undefined || at.filtered || at.limit <= 0
      ? undefined
      : Math.max(0, Math.ceil(at.count / at.limit) - 1);
  if (rules.relations.has('first')) {
    if (rules.cursor !== undefined) add('first', new Map([[rules.cursor, undefined]]));
    else if (rules.page !== undefined) add('first', new Map([[rules.page.name, String(first)]]));
    else if (rules.offset !== undefined) add('first', new Map([[rules.offset, '0']]));
  }
  if (rules.relations.has('prev') && rules.cursor === undefined) {
    if (rules.page !== undefined && at.pageNumber !== undefined && at.pageNumber > first)
      add('prev', new Map([[rules.page.name, String(at.pageNumber - 1)]]));
    else if (rules.page === undefined && rules.offset !== undefined && at.offset > 0 && at.limit > 0)
      add('prev', new Map([[rules.offset, String(Math.max(0, at.offset - at.limit))]]));
  }
  const next = nextTarget(rules, at);
  if (next !== undefined) links.push(`<${next}>; rel="next"`);
  if (rules.relations.has('last') && lastIndex !== undefined && rules.cursor === undefined) {
    if (rules.page !== undefined) add('last', new Map([[rules.page.name, String(first + lastIndex)]]));
    else if (rules.offset !== undefined) add('last', new Map([[rules.offset, String(lastIndex * at.limit)]]));
  }
  return links.length === 0 ? undefined : links.join(', ');
}

/**
 * The next page's target while a page follows (the cursor the page gives, the next page number, the offset past
 * the page): the Link's rel="next", and a HAL page's `_links.next.href`; undefined on the last page.
 */
export function nextTarget(rules: ListRules, at: PagePlace): string | undefined {
  if (at.next === null) return undefined;
  const first = rules.page?.first ?? 0;
  if (rules.cursor !== undefined) return withQuery(at.url, new Map([[rules.cursor, String(at.next)]]));
  if (rules.page !== undefined)
    return withQuery(at.url, new Map([[rules.page.name, String((at.pageNumber ?? first) + 1)]]));
  if (rules.offset !== undefined) return withQuery(at.url, new Map([[rules.offset, String(at.offset + at.items)]]));
  return undefined;
}

/** `url` with each named pair set to its value (undefined: removed), the rest of its query as it was. */
function withQuery(url: string, changes: ReadonlyMap<string, string | undefined>): string {
  const at = url.indexOf('?');
  const path = at === -1 ? url : url.slice(0, at);
  const pairs = at === -1 || at === url.length - 1 ? [] : url.slice(at + 1).split('&');
  const nameOf = (pair: string) => (pair.includes('=') ? pair.slice(0, pair.indexOf('=')) : pair);
  const decoded = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  // RFC 3986 §3.4 leaves `[` and `]` out of a query; many clients send a deepObject's raw: write them as sent.
  const rawBrackets = pairs.some((pair) => /[[\]]/.test(nameOf(pair)));
  const written = new Set<string>();
  const out: string[] = [];
  for (const pair of pairs) {
    const name = decoded(nameOf(pair));
    if (!changes.has(name)) {
      out.push(pair);
      continue;
    }
    if (written.has(name)) continue;
    written.add(name);
    const value = changes.get(name);
    if (value !== undefined) out.push(`${nameOf(pair)}=${encodeURIComponent(value)}`);
  }
  for (const [name, value] of changes) {
    if (written.has(name) || value === undefined) continue;
    const encoded = encodeURIComponent(name);
    out.push(
      `${rawBrackets ? encoded.replace(/%5B/g, '[').replace(/%5D/g, ']') : encoded}=${encodeURIComponent(value)}`,
    );
  }
  return out.length === 0 ? path : `${path}?${out.join('&')}`;
}
