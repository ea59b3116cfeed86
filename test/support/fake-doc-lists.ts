// The lists of fake-doc.ts: a collection's items (under their parent),
// filtered and sorted as the document says, answered in the document's
// paging style: a bare array bounded by a limit, an envelope with a cursor,
// numbered pages linked by a Link header (RFC 8288) with a total count, an
// envelope by offset with its total, pages of a deepObject parameter
// linked by first, prev, next and last, or HAL pages (`_embedded`,
// `_links.next.href`). The breaks of fake-doc-config.ts
// switch one rule each.
import { textOf } from '../../conformance/cases/parameter-values.js';
import { Numeral, type JsonValue } from '../../conformance/model/json.js';
import type { ResourceSpec } from './fake-doc-config.js';
import type { Judged } from './fake-doc.js';
import type { Answer, DocStore } from './fake-doc-store.js';

/** A query value as a number (a Numeral, a bigint), or `fallback`. */
function numberOf(v: JsonValue | undefined, fallback: number): number {
  if (v instanceof Numeral) return Number(v.text);
  if (typeof v === 'bigint' || typeof v === 'number') return Number(v);
  return fallback;
}

/** The value of an item's member as text, for comparing and sorting. */
const member = (item: Record<string, JsonValue>, name: string) =>
  item[name] === undefined ? undefined : textOf(item[name]);

export function listAnswer(store: DocStore, j: Judged, r: ResourceSpec, parent: string | undefined): Answer {
  const broken = store.broken;
  const list = r.list;
  const stored = store.itemsOf(r.collection, parent);
  let items = stored.map((s) => s.answer);
  if (!list) return { status: 200, body: items };
  const idOf = (item: Record<string, JsonValue>) => member(item, r.clientId ?? r.answerId!)!;
  if (list.style === 'array') {
    const f = list.filter;
    const asked = f ? j.query[f.param] : undefined;
    if (f && asked !== undefined) {
      const values = (Array.isArray(asked) ? asked : [asked]).map(textOf);
      const kept = broken.has('firstValueOnly') ? values.slice(0, 1) : values;
      items = items.filter((i) => kept.includes(member(i, f.property) ?? '\u0000'));
    }
    const sort = list.sort ? j.query[list.sort] : undefined;
    if (typeof sort === 'string' && !broken.has('sortIgnored')) {
      const property = sort.replace(/^[+-]/, '');
      const descending = sort.startsWith('-') && !broken.has('descendingAscending');
      items = [...items].sort((a, b) => {
        const x = member(a, property) ?? '';
        const y = member(b, property) ?? '';
        return (x < y ? -1 : x > y ? 1 : 0) * (descending ? -1 : 1);
      });
    }
    const limit = list.limit !== undefined ? j.query[list.limit] : undefined;
    return { status: 200, body: limit === undefined ? items : items.slice(0, numberOf(limit, items.length)) };
  }
  if (list.style === 'cursor') {
    const size = numberOf(j.query[list.size], list.defaultSize);
    const after = j.query[list.cursor];
    let start = 0;
    if (typeof after === 'string' && after !== '') {
      const at = items.findIndex((i) => idOf(i) === after);
      start = at + 1 + (broken.has('cursorSkips') ? 1 : 0);
    }
    const page = items.slice(start, start + size);
    const more = start + size < items.length || (broken.has('emptyLastPage') && page.length === size);
    const next = broken.has('cursorNeverGiven')
      ? undefined
      : more && page.length > 0
        ? idOf(page[page.length - 1]!)
        : broken.has('cursorLoops')
          ? ''
          : undefined;
    return { status: 200, body: { [list.items]: page, page: next !== undefined ? { next_cursor: next } : {} } };
  }
  if (list.style === 'link') {
    const size = numberOf(j.query[list.size], list.defaultSize);
    const n = numberOf(j.query[list.page], 1);
    const page = items.slice((n - 1) * size, n * size);
    const headers: Record<string, string> = {};
    if (!broken.has('noTotal')) headers[list.total] = String(items.length);
    const nextPage = broken.has('linkLoops') ? 1 : n + 1;
    if (n * size < items.length && !broken.has('noLink'))
      headers.link = `<${j.url.pathname}?${list.page}=${nextPage}&${list.size}=${size}>; rel="next"`;
    return { status: 200, body: page, headers };
  }
  if (list.style === 'offset') {
    const size = numberOf(j.query[list.size], list.defaultSize);
    const offset = numberOf(j.query[list.offset], 0);
    const from = offset + (broken.has('offsetSkips') && offset > 0 ? 1 : 0);
    return { status: 200, body: { [list.items]: items.slice(from, from + size), [list.total]: items.length } };
  }
  if (list.style === 'hal') {
    // The next page by a relative reference (`plants?start=…`), which the client resolves against the request's
    // URL (RFC 3986 §5.2); `start` is no parameter of the document, and `page` is not read: a client that built
    // the next page from the page number instead of following the link would read the first page again.
    const size = numberOf(j.query[list.size], list.defaultSize);
    const start = Math.max(0, Number(j.url.searchParams.get('start') ?? 0) || 0);
    const page = items.slice(start, start + size);
    const following = broken.has('halNextLoops') ? 0 : start + size + (broken.has('halNextSkips') ? 1 : 0);
    const last = j.url.pathname.split('/').pop()!;
    const links: Record<string, JsonValue> = { self: { href: `${last}?start=${start}&${list.size}=${size}` } };
    if (start + size < items.length) links.next = { href: `${last}?start=${following}&${list.size}=${size}` };
    return {
      status: 200,
      body: { _embedded: { [list.embedded]: page }, _links: links },
      headers: { 'content-type': 'application/hal+json' },
    };
  }
  // deep-link: page[number], page[size]; Link with first, prev, next and last.
  const asked = j.query[list.param];
  const fields =
    asked !== null && typeof asked === 'object' && !Array.isArray(asked) ? (asked as Record<string, JsonValue>) : {};
  const size = numberOf(fields.size, list.defaultSize);
  const n = numberOf(fields.number, 1);
  const last = Math.max(1, Math.ceil(items.length / size));
  const target = (k: number) => `<${j.url.pathname}?${list.param}%5Bnumber%5D=${k}&${list.param}%5Bsize%5D=${size}>`;
  const rel = (name: string) => `rel="${broken.has('relUppercase') ? name.toUpperCase() : name}"`;
  const links = [`${target(1)}; ${rel('first')}`];
  if (n > 1) links.push(`${target(n - 1)}; ${rel('prev')}`);
  if (n < last) links.push(`${target(broken.has('nextIsLast') ? last : n + 1)}; ${rel('next')}`);
  links.push(`${target(last)}; ${rel('last')}`);
  return { status: 200, body: items.slice((n - 1) * size, n * size), headers: { link: links.join(', ') } };
}
