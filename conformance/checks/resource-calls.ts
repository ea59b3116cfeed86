// Requests to a resource's operations (the list, the item's read, replace,
// merge and delete: model/resource.ts) for the state checks, and how a
// list's pages are read: its items, the next page (a Link header's
// rel="next", RFC 8288; HAL's `_links.next.href`; the envelope's cursor; the
// next offset or page number: model/list-model.ts), and whether the pages
// seen hold every item.
import { sameValue, type JsonValue } from '../model/json.js';
import { operationName, type ParameterModel } from '../model/operation-model.js';
import { HAL_LINKS, type ListModel, type ResourceModel, type ResourceOperation } from '../model/resource.js';
import { RuledOut } from '../model/ruled-out.js';
import { resolveSchema } from '../model/schema-shape.js';
import { isSchemaObject } from '../../spec/schema-keywords.js';
import { Numeral } from '../model/json.js';
import { nextLink } from '../../lib/link-header.js';
import { declaredSchemes } from '../model/security.js';
import { defaultCredentials, withCredentials, withoutCredentials } from './credentials.js';
import type { Exchange } from './exchange.js';
import { answerJson, chainEtag, chainId, idText, valueAt, type Call, type Chain, type Step } from './op-cases.js';
import { callTo, type CallOptions } from './op-requests.js';
import type { CheckContext, Inference } from './types.js';

/** The most pages of a list a state check reads before it gives up looking. */
export const MAX_LIST_PAGES = 20;
/** The most items a state check asks a page to hold (a page shorter than the limit asked is the whole rest of the list). */
export const LIST_ASK = 100;

/** Why a check that needs an inference does not run, or undefined. */
export function switchedOff(ctx: CheckContext, ...inferences: Inference[]): string | undefined {
  const off = inferences.filter((i) => !ctx.inferences.has(i));
  return off.length > 0
    ? `the inference${off.length > 1 ? 's' : ''} ${off.join(', ')} switched off (--inferences)`
    : undefined;
}

/** Whether a resource operation may be used: found by links, or by its path's shape with the inference resource on. */
export const usable = (ctx: CheckContext, r: ResourceOperation | undefined): r is ResourceOperation =>
  r !== undefined && !(r.by === 'shape' && !ctx.inferences.has('resource'));

/** A resource operation, unless it was found by its path's shape and that inference is switched off; throws RuledOut saying why not. */
export function resourceOp<R extends ResourceOperation>(
  ctx: CheckContext,
  r: R | undefined,
  what: string,
  resource: ResourceModel = ctx.model.resource,
): R {
  if (!resource.create)
    throw new RuledOut(
      `${resource === ctx.model.resource ? `the document declares no create operation (${ctx.model.createMissing})` : `${resource.collection} declares no create`}: there is no item to ${what}`,
    );
  if (!r)
    throw new RuledOut(
      `the document declares no operation that would ${what} (docs/checks.md, what the harness infers)`,
    );
  if (r.by === 'shape' && !ctx.inferences.has('resource'))
    throw new RuledOut(
      `${operationName(r.op)} is found by its path's shape, and the inference resource is switched off (--inferences)`,
    );
  return r;
}

/** The resources with a create whose operation `pick` chooses is usable: what a state check runs on. */
export function resourcesWith<R extends ResourceOperation>(
  ctx: CheckContext,
  pick: (r: ResourceModel) => R | undefined,
): Array<{ resource: ResourceModel; op: R }> {
  return ctx.model.resources.flatMap((resource) => {
    const op = pick(resource);
    return resource.create && usable(ctx, op) ? [{ resource, op }] : [];
  });
}

/** The list, where the document declares one whose answer the harness can read; throws RuledOut saying why not. */
export function readableList(
  ctx: CheckContext,
  resource: ResourceModel = ctx.model.resource,
): ListModel & { shape: NonNullable<ListModel['shape']> } {
  const list = resourceOp(ctx, resource.list, `list the items of ${resource.collection ?? 'a collection'}`, resource);
  if (!list.shape) throw new RuledOut(`${operationName(list.op)} cannot be read: ${list.unreadable}`);
  return list as ListModel & { shape: NonNullable<ListModel['shape']> };
}

/** A request to an item operation on the chain's item: its id, its parent's, and the entity tag last answered for it (If-Match). */
export function itemCall(
  ctx: CheckContext,
  r: ResourceOperation,
  chain: Chain,
  label: string,
  opts: CallOptions = {},
): Call {
  const id = chainId(chain, r.id!);
  const etag = chainEtag(chain);
  return callTo(ctx, r.op, label, {
    parent: chain.parent ?? 0,
    ...(etag !== undefined ? { ifMatch: etag } : {}),
    ...opts,
    set: { ...(opts.set ?? {}), [r.id!.parameter]: idText(id) },
    note: undefined,
  });
}

/** The schema keywords of a parameter (resolved). */
function keywords(ctx: CheckContext, p: ParameterModel): Record<string, unknown> {
  if (!p.schema) return {};
  const { schema } = resolveSchema(ctx.model.doc, p.schema.schema, p.schema.pointer);
  return isSchemaObject(schema) ? schema : {};
}

/** The valid value of the limit parameter nearest `want`, or undefined when none is. */
export function limitValue(ctx: CheckContext, list: ListModel, want: number): number | undefined {
  const p = list.limit?.parameter;
  if (!p) return undefined;
  const k = keywords(ctx, p);
  const max = typeof k.maximum === 'number' ? k.maximum : Infinity;
  const min = typeof k.minimum === 'number' ? k.minimum : -Infinity;
  const value = Math.max(Math.min(want, max), min);
  return (p.validate?.(new Numeral(String(value))) ?? []).length === 0 ? value : undefined;
}

/** The items of a list's answer, or undefined when it is not the declared shape. */
export function listItems(list: ListModel, body: JsonValue | undefined): JsonValue[] | undefined {
  if (list.shape?.kind === 'array') return Array.isArray(body) ? body : undefined;
  if (
    list.shape?.kind === 'page' &&
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    !(body instanceof Numeral)
  ) {
    const within = list.shape.within === undefined ? body : (body as Record<string, JsonValue>)[list.shape.within];
    if (within === null || typeof within !== 'object' || Array.isArray(within) || within instanceof Numeral)
      return undefined;
    const items = (within as Record<string, JsonValue>)[list.shape.items];
    return Array.isArray(items) ? items : undefined;
  }
  return undefined;
}

/** The cursor of the page after this one, in an envelope; undefined on the last page (null or absent). */
export function nextCursor(list: ListModel, body: JsonValue | undefined): string | undefined {
  if (list.shape?.kind !== 'page' || list.shape.next === undefined) return undefined;
  const next = valueAt(body, list.shape.next);
  return next === null || next === undefined || typeof next === 'object' ? undefined : idText(next);
}

/**
 * A HAL page's next link (draft-kelly-json-hal §4.1.1: `_links` maps a relation type to a Link Object or an array
 * of them; §5.1: its `href` is a URI reference): the first `next` href, or why there is none to follow.
 */
export function halNext(body: JsonValue | undefined): { href?: string; last?: string } {
  const links = valueAt(body, `/${HAL_LINKS}`);
  const next =
    links !== null && typeof links === 'object' && !(links instanceof Numeral) ? valueAt(links, '/next') : undefined;
  const link = Array.isArray(next) ? next[0] : next;
  if (link === undefined || link === null) return { last: `its ${HAL_LINKS} names no next` };
  const href = valueAt(link, '/href');
  if (typeof href !== 'string') return { last: `its ${HAL_LINKS}.next has no href` };
  // §5.2: a templated href is a URI Template (RFC 6570), not a URI to request as it is.
  if (valueAt(link, '/templated') === true) return { last: `its ${HAL_LINKS}.next is a URI Template (templated)` };
  return { href };
}

/** The path of a URI the target's base URL holds, relative to it (what a RequestSpec carries), or undefined. */
export function pathWithin(ctx: CheckContext, uri: string, from: string): string | undefined {
  let resolved: URL;
  try {
    resolved = new URL(uri, from);
  } catch {
    return undefined;
  }
  const base = new URL(ctx.target.url);
  const prefix = base.pathname.replace(/\/+$/, '');
  if (resolved.origin !== base.origin || !resolved.pathname.startsWith(prefix)) return undefined;
  return `${resolved.pathname.slice(prefix.length) || '/'}${resolved.search}`;
}

/**
 * Whether a listed item is the one a chain created: its id, where the item
 * carries the member the id is in; else its own name (chainAfterCreate gives
 * each item one), where the listed item has no id (the starter's Plant).
 */
export function isItem(ctx: CheckContext, item: JsonValue, chain: Pick<Chain, 'resource' | 'id' | 'created'>): boolean {
  if (!chain.created || item === null || typeof item !== 'object' || Array.isArray(item)) return false;
  const listed = item as Record<string, JsonValue>;
  const r = chain.resource ?? ctx.model.resource;
  const member = r.identity.answer?.member ?? r.identity.request;
  if (member !== undefined && listed[member] !== undefined)
    return (
      chain.id !== undefined && (sameValue(listed[member], chain.id) || idText(listed[member]) === idText(chain.id))
    );
  const name = (r.create?.request.fields ?? []).find((f) => f.required && f.types.includes('string'))?.name;
  return name !== undefined && typeof chain.created[name] === 'string' && listed[name] === chain.created[name];
}

export const PAGE = 'list page';

/** How the page after this one is asked for: the request's path, or undefined on the last page (and why it is the last). */
export function nextPage(
  ctx: CheckContext,
  list: ListModel,
  page: Exchange,
  at: { n: number; seen: number; limit: number | undefined },
): { path?: string; set?: Record<string, string>; last?: string } {
  const link = page.response?.headers.link;
  const next = link !== undefined ? nextLink(link) : undefined;
  if (next !== undefined) {
    const path = pathWithin(ctx, next, page.url);
    return path !== undefined ? { path } : { last: `its Link rel="next" (${next}) is outside the target` };
  }
  // A Link header without rel="next" says this is the last page (RFC 8288: the relation names the next one).
  if (link !== undefined || list.linkHeader) return { last: 'its Link header names no rel="next"' };
  const body = answerJson(page);
  const items = listItems(list, body) ?? [];
  const pages = ctx.inferences.has('pages');
  // HAL: the next page's URI reference, resolved against the page's own URL (RFC 3986 §5).
  if (list.shape?.kind === 'page' && list.shape.hal) {
    const next = halNext(body);
    if (next.href !== undefined) {
      const path = pathWithin(ctx, next.href, page.url);
      return path !== undefined ? { path } : { last: `its ${HAL_LINKS}.next (${next.href}) is outside the target` };
    }
    if (list.shape.next === undefined) return { last: next.last! };
  }
  if (list.shape?.kind === 'page' && list.shape.next !== undefined) {
    const cursor = nextCursor(list, body);
    if (cursor === undefined) return { last: `its ${list.shape.next} is null or absent` };
    if (/^(https?:\/\/|\/|\?)/.test(cursor)) {
      const path = pathWithin(ctx, cursor, page.url);
      if (path !== undefined) return { path };
    }
    if (list.cursor && pages) return { set: { [list.cursor.name]: cursor } };
    return {
      last: `its ${list.shape.next} names a next page, and the document declares no cursor parameter to ask for it`,
    };
  }
  const full = at.limit !== undefined ? items.length >= at.limit : items.length > 0;
  if (!full)
    return {
      last: items.length === 0 ? 'it is empty' : `it holds ${items.length} items, fewer than the ${at.limit} asked`,
    };
  if (list.offset && pages) return { set: { [list.offset.name]: String(at.seen) } };
  if (list.page && pages) return { set: { [list.page.parameter.name]: String(list.page.first + at.n) } };
  return {};
}

/**
 * A step that reads the list page after page (its Link rel="next", its
 * cursor, offset or page number) until a page holds the item the chain
 * created, the list ends, or `max` pages. `query` sets parameters of every
 * page (a filter); `size` asks pages of that many items where the list has a
 * limit (default: 100, or its maximum).
 */
export function listPages(
  ctx: CheckContext,
  list: ListModel,
  query: Record<string, string> = {},
  opts: { size?: number; max?: number; untilFound?: boolean; values?: Record<string, JsonValue>; parent?: number } = {},
): Step {
  const name = operationName(list.op);
  const limit = limitValue(ctx, list, opts.size ?? LIST_ASK);
  const max = opts.max ?? MAX_LIST_PAGES;
  const base = { ...query, ...(limit !== undefined ? { [list.limit!.parameter.name]: String(limit) } : {}) };
  const page = (chain: Chain, n: number, how: { path?: string; set?: Record<string, string> }): Call => {
    const label = `${PAGE} ${n}`;
    const call = callTo(ctx, list.op, label, {
      parent: opts.parent ?? chain.parent ?? 0,
      set: { ...base, ...(how.set ?? {}) },
      ...(opts.values ? { values: opts.values } : {}),
      note: `${name}: ${label}${limit !== undefined ? ` (limit ${limit})` : ''}`,
    });
    // A next page's path comes from the target (Link, a cursor that is a URL): it carries the list's own
    // credentials, not the target's echo of them (an API key in the query would be lost or doubled).
    const request =
      how.path !== undefined
        ? withCredentials(
            withoutCredentials({ ...call.request, path: how.path }, declaredSchemes(ctx.model.doc)),
            defaultCredentials(ctx.target, list.op),
          )
        : call.request;
    return { ...call, request, then: (c) => more(c, n + 1) };
  };
  const more = (chain: Chain, n: number): Call | undefined => {
    const pages = chain.steps.filter((s) => s.sent.label.startsWith(PAGE));
    const last = pages[pages.length - 1]!;
    const items = listItems(list, answerJson(last.exchange)) ?? [];
    if (n > max || (opts.untilFound !== false && items.some((i) => isItem(ctx, i, chain)))) return undefined;
    if (!last.exchange.response || last.exchange.response.status >= 300) return undefined;
    const seen = pages.reduce((sum, s) => sum + (listItems(list, answerJson(s.exchange))?.length ?? 0), 0);
    const how = nextPage(ctx, list, last.exchange, { n: n - 1, seen, limit });
    return how.path !== undefined || how.set !== undefined ? page(chain, n, how) : undefined;
  };
  return (chain) => page(chain, 1, {});
}

/** What the pages of a list a chain read say: the item found there (if), and whether they hold the whole list. */
export function readPages(
  ctx: CheckContext,
  list: ListModel,
  pages: Array<{ exchange: Exchange }>,
  chain: Pick<Chain, 'resource' | 'id' | 'created'>,
  size?: number,
): { found?: JsonValue; complete: boolean; count: number; why: string } {
  let count = 0;
  for (const p of pages) {
    const items = listItems(list, answerJson(p.exchange)) ?? [];
    count += items.length;
    const found = items.find((i) => isItem(ctx, i, chain));
    if (found !== undefined) return { found, complete: true, count, why: 'found' };
  }
  const last = pages[pages.length - 1];
  if (!last?.exchange.response || last.exchange.response.status >= 300)
    return { complete: false, count, why: 'the last page was not answered 2xx' };
  const items = listItems(list, answerJson(last.exchange));
  if (!items) return { complete: false, count, why: 'the last page is not the declared list' };
  const limit = limitValue(ctx, list, size ?? LIST_ASK);
  const how = nextPage(ctx, list, last.exchange, { n: pages.length, seen: count, limit });
  if (how.path !== undefined || how.set !== undefined)
    return { complete: false, count, why: `${pages.length} pages read, and there are more` };
  if (
    how.last !== undefined &&
    (limit !== undefined || list.shape?.kind === 'page' || last.exchange.response.headers.link)
  )
    return { complete: true, count, why: `the last page says so: ${how.last}` };
  return {
    complete: false,
    count,
    why:
      limit !== undefined
        ? `the page holds as many items as the limit asked (${limit}), and the document declares no way to the next page`
        : 'the list has no limit the harness can set, so a page may be bounded by the server',
  };
}
