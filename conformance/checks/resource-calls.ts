// Requests to the plant resource's operations (the list, the item's read,
// replace, merge and delete: model/resource.ts) for the state checks, and
// how a list's pages are read: its items, the next page's cursor, and
// whether the pages seen hold every plant.
import { sameValue, type JsonValue } from '../model/json.js';
import { operationName, type ParameterModel } from '../model/operation-model.js';
import type { ListModel, ResourceOperation } from '../model/resource.js';
import { RuledOut } from '../model/ruled-out.js';
import { resolveSchema } from '../model/schema-shape.js';
import { isSchemaObject } from '../../spec/schema-keywords.js';
import { Numeral } from '../model/json.js';
import type { Exchange } from './exchange.js';
import { answerJson, chainId, idText, type Call, type Chain, type Step } from './op-cases.js';
import { callTo, type CallOptions } from './op-requests.js';
import { idField, stringFields, type Body } from './requests.js';
import type { CheckContext, Inference } from './types.js';

/** The most pages of a list a state check reads before it gives up looking. */
export const MAX_LIST_PAGES = 20;
/** The most plants a state check asks a page to hold (a page shorter than the limit asked is the whole rest of the list). */
export const LIST_ASK = 100;

/** Why a check that needs an inference does not run, or undefined. */
export function switchedOff(ctx: CheckContext, ...inferences: Inference[]): string | undefined {
  const off = inferences.filter((i) => !ctx.inferences.has(i));
  return off.length > 0
    ? `the inference${off.length > 1 ? 's' : ''} ${off.join(', ')} switched off (--inferences)`
    : undefined;
}

/** A resource operation, unless it was found by its path's shape and that inference is switched off; throws RuledOut saying why not. */
export function resourceOp<R extends ResourceOperation>(ctx: CheckContext, r: R | undefined, what: string): R {
  if (!ctx.model.create)
    throw new RuledOut(
      `the document declares no create operation (${ctx.model.createMissing}): there is no plant to ${what}`,
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

/** The list, where the document declares one whose answer the harness can read; throws RuledOut saying why not. */
export function readableList(ctx: CheckContext): ListModel & { shape: NonNullable<ListModel['shape']> } {
  const list = resourceOp(ctx, ctx.model.resource.list, 'list the plants');
  if (!list.shape) throw new RuledOut(`${operationName(list.op)} cannot be read: ${list.unreadable}`);
  return list as ListModel & { shape: NonNullable<ListModel['shape']> };
}

/** A request to an item operation on the chain's plant. */
export function itemCall(
  ctx: CheckContext,
  r: ResourceOperation,
  chain: Chain,
  label: string,
  opts: CallOptions = {},
): Call {
  const id = chainId(chain, r.id!);
  return callTo(ctx, r.op, label, {
    ...opts,
    set: { ...(opts.set ?? {}), [r.id!.parameter]: id === undefined ? '0' : idText(id) },
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

/** The plants of a list's answer, or undefined when it is not the declared shape. */
export function listItems(list: ListModel, body: JsonValue | undefined): JsonValue[] | undefined {
  if (list.shape?.kind === 'array') return Array.isArray(body) ? body : undefined;
  if (
    list.shape?.kind === 'page' &&
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    !(body instanceof Numeral)
  ) {
    const items = (body as Record<string, JsonValue>)[list.shape.items];
    return Array.isArray(items) ? items : undefined;
  }
  return undefined;
}

/** The cursor of the page after this one; undefined on the last page (null or absent). */
function nextOf(list: ListModel, body: JsonValue | undefined): string | undefined {
  if (
    list.shape?.kind !== 'page' ||
    list.shape.next === undefined ||
    body === null ||
    typeof body !== 'object' ||
    Array.isArray(body)
  )
    return undefined;
  const next = (body as Record<string, JsonValue>)[list.shape.next];
  return next === null || next === undefined ? undefined : idText(next);
}

/**
 * Whether a listed item is the plant a chain created: its id, where the
 * Plant carries one; else its own name (chainAfterCreate gives each plant
 * one), where the answer's Plant has no id (the starter's).
 */
export function isPlant(ctx: CheckContext, item: JsonValue, created: Body | undefined): boolean {
  if (!created || item === null || typeof item !== 'object' || Array.isArray(item)) return false;
  const listed = item as Record<string, JsonValue>;
  const id = created[idField(ctx)];
  if (listed[idField(ctx)] !== undefined) return id !== undefined && sameValue(listed[idField(ctx)]!, id);
  const name = stringFields(ctx).required[0];
  return name !== undefined && typeof created[name] === 'string' && listed[name] === created[name];
}

export const PAGE = 'list page';

/**
 * A step that reads the list page after page (by its cursor, or its offset)
 * until a page holds the plant `id` gives, the list ends, or MAX_LIST_PAGES.
 * `query` sets parameters of every page (a filter).
 */
export function listPages(ctx: CheckContext, list: ListModel, query: Record<string, string> = {}): Step {
  const name = operationName(list.op);
  const limit = limitValue(ctx, list, LIST_ASK);
  const page = (n: number, extra: Record<string, string>): Call => ({
    ...callTo(ctx, list.op, `${PAGE} ${n}`, {
      set: { ...query, ...(limit !== undefined ? { [list.limit!.parameter.name]: String(limit) } : {}), ...extra },
      note: `${name}: ${PAGE} ${n}${limit !== undefined ? ` (limit ${limit})` : ''}`,
    }),
    then: (c) => more(c, n + 1),
  });
  const more = (chain: Chain, n: number): Call | undefined => {
    const last = chain.steps[chain.steps.length - 1]!;
    const body = answerJson(last.exchange);
    const items = listItems(list, body) ?? [];
    if (n > MAX_LIST_PAGES || items.some((i) => isPlant(ctx, i, chain.created))) return undefined;
    const next = nextOf(list, body);
    if (next !== undefined && list.cursor) return page(n, { [list.cursor.name]: next });
    if (list.shape?.kind === 'array' && list.offset && limit !== undefined && items.length >= limit) {
      const seen = chain.steps
        .filter((s) => s.sent.label.startsWith(PAGE))
        .reduce((sum, s) => sum + (listItems(list, answerJson(s.exchange))?.length ?? 0), 0);
      return page(n, { [list.offset.name]: String(seen) });
    }
    return undefined;
  };
  return () => page(1, {});
}

/** What the pages of a list a chain read say: the plant found there (if), and whether they hold the whole list. */
export function readPages(
  ctx: CheckContext,
  list: ListModel,
  pages: Array<{ exchange: Exchange }>,
  created: Body | undefined,
): { found?: JsonValue; complete: boolean; count: number; why: string } {
  let count = 0;
  for (const p of pages) {
    const items = listItems(list, answerJson(p.exchange)) ?? [];
    count += items.length;
    const found = items.find((i) => isPlant(ctx, i, created));
    if (found !== undefined) return { found, complete: true, count, why: 'found' };
  }
  const last = pages[pages.length - 1];
  if (!last?.exchange.response || last.exchange.response.status >= 300)
    return { complete: false, count, why: 'the last page was not answered 2xx' };
  const body = answerJson(last.exchange);
  const items = listItems(list, body);
  if (!items) return { complete: false, count, why: 'the last page is not the declared list' };
  if (list.shape?.kind === 'page' && list.shape.next !== undefined) {
    return nextOf(list, body) === undefined
      ? { complete: true, count, why: `the last page's ${list.shape.next} is null or absent` }
      : { complete: false, count, why: `${MAX_LIST_PAGES} pages read, and there are more` };
  }
  const limit = limitValue(ctx, list, LIST_ASK);
  if (limit !== undefined && items.length < limit)
    return {
      complete: true,
      count,
      why: `the last page holds ${items.length} plants, fewer than the limit ${limit} asked`,
    };
  return {
    complete: false,
    count,
    why:
      limit !== undefined
        ? `the page holds as many plants as the limit asked (${limit}), and the document declares no way to the next page`
        : 'the list has no limit the harness can set, so a page may be bounded by the server',
  };
}
