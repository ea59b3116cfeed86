// The list of a resource's items (GET on the collection): the items stored
// under the parent its path names (places.ts: the parent's 404 first), in
// the order created, each as the create answered it, as the declared
// success schema shapes them: an array, or a page object whose one array
// property holds them (with its cursor member where it declares one; in
// HAL's `_embedded`, with `_links` self and next, where it declares them). Its
// query parameters do what their names say (list-rules.ts): bound the page,
// skip, number the pages, continue after a cursor, filter (one value, or any
// of an array's), sort (list-sort.ts). Its answer carries the headers it
// declares that the server can send: Link (RFC 8288 §3.3; list-links.ts)
// with rel="next" while a page follows, and `first`, `prev`, `last` where
// it names them, and the items' count (X-Total-Count).
//
// Every page is bounded as GET /__admin/plants's is (MAX_PLANTS_PAGE items,
// PLANTS_PAGE_BYTES), a filtered page judges at most LIST_MAX_EXAMINED
// items and LIST_MAX_EXAMINED_BYTES of them, and a sort reads at most
// LIST_MAX_SORTED items and LIST_SORTED_BYTES (507 past them): its work is
// bounded whatever the store holds, however large its items.
import { ApiError } from '../http/errors.js';
import { NonIntegralNumber, parseJson, type JsonObject, type JsonValue } from '../json/json.js';
import {
  LIST_MAX_EXAMINED,
  LIST_MAX_EXAMINED_BYTES,
  LIST_MAX_SORTED,
  LIST_SORTED_BYTES,
  MAX_PLANTS_PAGE,
  PLANTS_PAGE_BYTES,
} from '../limits.js';
import type { OperationHandler } from '../http/pipeline.js';
import { andThen, jsonText, type MaybePromise, type Place, type PlantEntry, type PlantPage } from '../store/store.js';
import type { SuccessAnswer } from './item.js';
import { linkHeader, linkNeedsCount, nextTarget, type PagePlace } from './list-links.js';
import { queryValue, type ListRules, type ListShape } from './list-rules.js';
import { sortedTexts, sortKeys, type SortKey } from './list-sort.js';
import type { ResourcePlaces } from './places.js';

export type { ListInference } from './list-rules.js';
export { listRules } from './list-rules.js';

interface ListQuery {
  place: Place;
  after: number;
  limit: number;
  skip: number;
  match: ((json: string) => boolean) | undefined;
  /** Nothing to list: a limit of 0 or below, a page before the first, or a cursor this server did not give. */
  empty: boolean;
  sort: SortKey[];
  /** The request's path and query, for the Link's targets. */
  url: string;
  pageNumber: number | undefined;
  offset: number;
}

/** A page, and what its answer says besides its items: the following page's cursor, whether one follows, the count. */
interface ListPage {
  plants: PlantEntry[];
  /** The cursor of the following page (a seq, or a sorted list's position); null on the last page. */
  next: number | string | null;
  total?: number;
}

/** The list's handler steps: the query read from the checked parameters, a page of the store, the answer's JSON text made of the stored texts. */
export function listHandler(
  rules: ListRules,
  places: ResourcePlaces,
  success: SuccessAnswer,
): OperationHandler<ListQuery, ListPage> {
  return {
    schema(request) {
      const query = request.parameterValues?.query ?? {};
      const given = (name: string | undefined) => (name === undefined ? undefined : queryValue(query, name));
      const limit = Math.min(wholeNumber(given(rules.limit)) ?? rules.defaultLimit, MAX_PLANTS_PAGE);
      const sort = rules.sort === undefined ? [] : sortKeys(given(rules.sort.name), given(rules.sort.direction));
      const cursor = given(rules.cursor);
      const sortedAt = cursor === undefined || sort.length === 0 ? 0 : sortedPosition(cursor);
      const after = cursor === undefined || sort.length > 0 ? 0 : cursorSeq(cursor);
      const pageNumber =
        rules.page === undefined ? undefined : (wholeNumber(given(rules.page.name)) ?? rules.page.first);
      const pages = pageNumber === undefined ? 0 : pageNumber - rules.page!.first;
      const filters = rules.filters
        .filter((name) => query[name] !== undefined)
        .map((name) => [name, query[name]!] as const);
      const offset = Math.max(0, wholeNumber(given(rules.offset)) ?? 0);
      const skip = offset + Math.max(0, pages) * Math.max(limit, 0);
      return {
        place: places.placeOf(request),
        after: after ?? 0,
        limit,
        skip: skip + (sortedAt ?? 0),
        match: filters.length === 0 ? undefined : matching(filters),
        empty: limit <= 0 || after === undefined || sortedAt === undefined || pages < 0,
        sort,
        url: request.url,
        pageNumber,
        offset,
      };
    },
    store: (query) => {
      const page = () =>
        andThen(query.empty ? { plants: [], next: null } : pageOf(query), (found: ListPage) =>
          rules.total === undefined && !linkNeedsCount(rules)
            ? found
            : andThen(places.itemsAt(query.place).count(), (total) => ({ ...found, total })),
        );
      return places.resource.parent === undefined ? page() : andThen(places.checkParent(query.place), page);
    },
    answer(query, page, reply) {
      const plants = `[${page.plants.map(({ json }) => json).join(',')}]`;
      if (rules.total !== undefined) reply.header(rules.total, String(page.total));
      const link = rules.link ? linkHeader(rules, placeOf(query, page)) : undefined;
      if (link !== undefined) reply.header('link', link);
      reply.code(success.status).type(success.contentType ?? 'application/json; charset=utf-8');
      return reply.send(
        rules.shape.kind === 'array'
          ? plants
          : pageText(rules.shape, plants, rules.cursor === undefined ? null : page.next, {
              self: query.url,
              next: nextTarget(rules, placeOf(query, page)),
            }),
      );
    },
  };

  function pageOf(query: ListQuery): MaybePromise<ListPage> {
    const items = places.itemsAt(query.place);
    if (query.sort.length === 0)
      return items.list(query.after, query.limit, PLANTS_PAGE_BYTES, {
        skip: query.skip,
        match: query.match,
        maxExamined: query.match === undefined ? undefined : LIST_MAX_EXAMINED,
        maxExaminedBytes: query.match === undefined ? undefined : LIST_MAX_EXAMINED_BYTES,
      });
    // A sort reads the whole list first: at most LIST_MAX_SORTED items and LIST_SORTED_BYTES of them.
    return andThen(
      items.list(0, LIST_MAX_SORTED, LIST_SORTED_BYTES, {
        match: query.match,
        maxExamined: LIST_MAX_SORTED,
        maxExaminedBytes: LIST_SORTED_BYTES,
      }),
      (all: PlantPage): ListPage => {
        if (all.next !== null)
          throw new ApiError(
            'TOO_MANY_TO_SORT',
            `The list holds more items than the server sorts (${LIST_MAX_SORTED}, ${LIST_SORTED_BYTES} bytes): ask for it unsorted, or filtered to fewer.`,
          );
        const sorted = sortedTexts(all.plants, query.sort);
        const plants = sorted.slice(query.skip, query.skip + query.limit);
        const end = query.skip + plants.length;
        return { plants, next: end < sorted.length && plants.length > 0 ? `~${end}` : null };
      },
    );
  }
}

/** Where the page is, for its Link. */
function placeOf(query: ListQuery, page: ListPage): PagePlace {
  return {
    url: query.url,
    pageNumber: query.pageNumber,
    offset: query.offset,
    limit: query.limit,
    items: page.plants.length,
    next: page.next,
    count: page.total,
    filtered: query.match !== undefined,
  };
}

function pageText(
  shape: Extract<ListShape, { kind: 'page' }>,
  plants: string,
  next: number | string | null,
  links: { self: string; next: string | undefined },
): string {
  const listed = `${JSON.stringify(shape.items)}:${plants}`;
  const members = [shape.within === undefined ? listed : `${JSON.stringify(shape.within)}:{${listed}}`];
  // HAL's links (draft-kelly-json-hal §4.1.1, §5.1): hrefs are the request's own path and query, moved on for next.
  if (shape.hal) {
    const link = (href: string) => `{"href":${JSON.stringify(href)}}`;
    const next = links.next === undefined ? '' : `,"next":${link(links.next)}`;
    members.push(`"_links":{"self":${link(links.self)}${next}}`);
  }
  const { next: member } = shape;
  if (member !== undefined) {
    const written =
      next === null
        ? member.nullable
          ? 'null'
          : undefined
        : member.integer && typeof next === 'number'
          ? String(next)
          : JSON.stringify(String(next));
    const own = written === undefined ? [] : [`${JSON.stringify(member.path.at(-1))}:${written}`];
    if (member.path.length === 1) members.push(...own);
    else {
      const inner = [
        ...own,
        ...Object.entries(shape.nestedExtras).map(([name, value]) => `${JSON.stringify(name)}:${jsonText(value)}`),
      ];
      members.push(`${JSON.stringify(member.path[0])}:{${inner.join(',')}}`);
    }
  }
  for (const [name, value] of Object.entries(shape.extras)) members.push(`${JSON.stringify(name)}:${jsonText(value)}`);
  return `{${members.join(',')}}`;
}

/** A cursor this server gave (a page's seq, as text or number); undefined for any other value. */
function cursorSeq(value: JsonValue): number | undefined {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  return text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

/** A sorted list's cursor this server gave (`~N`, the position of the page's first item; N alone for an integer cursor); undefined for any other value. */
function sortedPosition(value: JsonValue): number | undefined {
  const text =
    typeof value === 'string' ? value.replace(/^~/, '') : typeof value === 'number' ? String(value) : undefined;
  return text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

/** An integer parameter's value as a number, clamped to the safe integers; undefined when absent. */
function wholeNumber(value: JsonValue | undefined): number | undefined {
  if (typeof value === 'bigint') return value > 0n ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
  return typeof value === 'number' ? value : undefined;
}

/** An item's text matches when each filter's member equals its value, or one of its values (numbers by value: 5 and 5.0 are one). */
function matching(filters: ReadonlyArray<readonly [string, JsonValue]>): (json: string) => boolean {
  // A string value is written in the stored text as JSON.stringify writes it: a text without it cannot match.
  const needles = filters.map(([, value]) =>
    (Array.isArray(value) ? value : [value]).filter((one) => typeof one === 'string').map((one) => JSON.stringify(one)),
  );
  const wanted = filters.map(([, value]) => !Array.isArray(value) || value.every((one) => typeof one === 'string'));
  return (json) => {
    for (const [i, list] of needles.entries())
      if (wanted[i] && list.length > 0 && !list.some((needle) => json.includes(needle))) return false;
    const item = parseJson(json) as JsonObject;
    return filters.every(
      ([name, value]) =>
        Object.hasOwn(item, name) &&
        (Array.isArray(value) ? value.some((one) => sameValue(item[name]!, one)) : sameValue(item[name]!, value)),
    );
  };
}

function sameValue(stored: JsonValue, wanted: JsonValue): boolean {
  const numeric = (v: JsonValue) => typeof v === 'number' || typeof v === 'bigint' || v instanceof NonIntegralNumber;
  if (numeric(stored) && numeric(wanted)) {
    const integral = (v: JsonValue) => typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));
    if (integral(stored) && integral(wanted))
      return BigInt(stored as number | bigint) === BigInt(wanted as number | bigint);
    return (
      Number(stored instanceof NonIntegralNumber ? stored.numeral : stored) ===
      Number(wanted instanceof NonIntegralNumber ? wanted.numeral : wanted)
    );
  }
  return stored === wanted;
}
