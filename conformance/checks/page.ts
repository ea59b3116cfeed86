// PS-PAGE-*: a list's pages, followed from the first to the last in
// whichever style the document and the answers give (a Link header's
// rel="next", RFC 8288; an envelope's cursor; an offset; a page number:
// model/list-model.ts, resource-calls.ts nextPage), small enough that the
// items the check created span several pages.
import type { JsonValue } from '../model/json.js';
import { operationName } from '../model/operation-model.js';
import { RuledOut } from '../model/ruled-out.js';
import type { ListModel, ResourceModel } from '../model/resource.js';
import { describe } from './grades.js';
import { createdId } from './created.js';
import {
  answerJson,
  chainAfterCreate,
  createCall,
  followCalls,
  idText,
  isSuccess,
  namedItemBody,
  type Call,
  type Chain,
  type Indexed,
  type OpSent,
} from './op-cases.js';
import { callTo } from './op-requests.js';
import {
  isItem,
  limitValue,
  LIST_ASK,
  listItems,
  listPages,
  nextPage,
  PAGE,
  readableList,
  switchedOff,
  usable,
} from './resource-calls.js';
import { at, combined, created, skipAll, steps } from './state-verdicts.js';
import type { Case, CheckContext, ExchangeCheck, Verdict } from './types.js';
import type { Body } from './requests.js';

/** The most pages the check follows before it gives up: a list of thousands of items is walked at its largest page size. */
export const MAX_WALK_PAGES = 60;
/** About how many pages the walk takes when the whole list fits the first page asked for at its largest. */
const WANTED_PAGES = 8;
const MORE = 'create another item';
const PROBE = 'count the items';
/** The most items the check creates to fill pages whose size it cannot ask. */
export const MAX_FILL = 60;

/** The page size to walk with: the largest when one page of it does not hold the list, else about an eighth of it. */
function walkSize(ctx: CheckContext, list: ListModel, probe: Indexed | undefined): number | undefined {
  const largest = limitValue(ctx, list, LIST_ASK);
  if (!probe || largest === undefined) return largest;
  const items = listItems(list, answerJson(probe.exchange)) ?? [];
  const how = nextPage(ctx, list, probe.exchange, { n: 1, seen: items.length, limit: largest });
  if (how.path !== undefined || how.set !== undefined) return largest;
  return limitValue(ctx, list, Math.max(1, Math.ceil(items.length / WANTED_PAGES)));
}

/** The ids of the items a chain created: its create's, and those of the creates after it. */
function createdIds(
  ctx: CheckContext,
  r: ResourceModel,
  chain: Indexed[],
): Array<{ id?: JsonValue; body?: JsonValue; step: Indexed }> {
  const first = chain[0]!;
  const out = [{ id: createdId(ctx, r, first.sent.create, first.exchange).id, body: first.sent.create, step: first }];
  for (const s of steps(chain, MORE))
    out.push({ id: createdId(ctx, r, s.sent.made, s.exchange).id, body: s.sent.made, step: s });
  return out;
}

const walked: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-PAGE-001',
  title:
    'Following a list\'s pages from the first to the last (Link rel="next", HAL _links.next, cursor, offset, page number) gives every item once (every resource)',
  level: 'MUST',
  source: {
    document: 'RFC 8288',
    section: '§3.3 Relation Types; IANA Link Relations: next',
    url: 'https://www.rfc-editor.org/rfc/rfc8288#section-3.3',
  },
  requirement:
    "next: \"Indicates that the link's context is a part of a series, and that the next in the series is the link target.\" (HAL's _links.next names the same relation type, draft-kelly-json-hal §4.1.1. The document's own paging parameters, a cursor its envelope names, an offset or a page number, are read the same way: inference pages.)",
  grading:
    'MUST (inference pages; a Link rel="next" is RFC 8288\'s own): with three items created and pages small enough to span several, an item created missing from a walk that ended (the last page names no next one), an item on two pages, or pages that never end (a page repeats an earlier one within 60 pages) fail. A list that fits one page of the smallest size the harness can ask, or that names no way to a next page, is skip, saying so.',
  evidence:
    'For each resource with a create and a list: three creates answered 2xx, the list asked at its largest page size to count it, then walked page by page at a size that makes several pages (the largest, where one page does not hold it), to a page that says it is the last, with each of the three items on exactly one page.',
  stage: 'alone',
  precondition: (ctx) => switchedOff(ctx, 'pages'),
  cases: (ctx) => {
    const found = ctx.model.resources.filter((r) => r.create && usable(ctx, r.list) && r.list.shape);
    if (found.length === 0) readableList(ctx);
    const out: Array<Case<OpSent>> = [];
    for (const resource of found) {
      const list = readableList(ctx, resource);
      const another = (chain: Chain): Call => {
        const body = namedItemBody(ctx, resource, {}, 'paged');
        return {
          operation: operationName(resource.create!),
          label: MORE,
          request: createCall(ctx, resource, body, `${operationName(resource.create!)}: ${MORE}`, chain.parent),
          made: body,
        };
      };
      const largest = limitValue(ctx, list, LIST_ASK);
      const probe = (): Call =>
        callTo(ctx, list.op, PROBE, {
          ...(largest !== undefined ? { set: { [list.limit!.parameter.name]: String(largest) } } : {}),
          note: `${operationName(list.op)}: ${PROBE}`,
        });
      // A list whose page size cannot be asked, and whose first page holds it all: items enough for three pages of that size.
      const fill = (chain: Chain): Call[] => {
        const [counted] = chain.steps.filter((s) => s.sent.label === PROBE) as Indexed[];
        if (largest !== undefined || !counted || !isSuccess(counted.exchange)) return [];
        const items = listItems(list, answerJson(counted.exchange)) ?? [];
        const how = nextPage(ctx, list, counted.exchange, { n: 1, seen: items.length, limit: undefined });
        const count = 2 * items.length + 1;
        if (how.path !== undefined || how.set !== undefined || count > MAX_FILL) return [];
        return Array.from({ length: count }, () => another(chain));
      };
      const walk = (chain: Chain) => {
        const [counted] = chain.steps.filter((s) => s.sent.label === PROBE) as Indexed[];
        const size = walkSize(ctx, list, counted);
        return listPages(
          ctx,
          list,
          {},
          { ...(size !== undefined ? { size } : {}), max: MAX_WALK_PAGES, untilFound: false },
        )(chain);
      };
      out.push(chainAfterCreate(ctx, out.length, 'paged', [another, another, probe, fill, walk], {}, { resource }));
    }
    if (out.length === 0) throw new RuledOut('no collection of the document has a list and a create');
    return out;
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const verdicts: Verdict[] = [];
    for (const chain of created(cases)) {
      const r = ctx.model.resources.find((x) => x.collection === chain[0]!.sent.collection) ?? ctx.model.resource;
      verdicts.push(walkVerdict(ctx, r, chain));
    }
    return combined(verdicts, skipAll(cases));
  },
};

/** What a chain's walk says: each created item on exactly one page of a walk that ended. */
function walkVerdict(ctx: CheckContext, r: ResourceModel, chain: Indexed[]): Verdict {
  const list = r.list!;
  const pages = steps(chain, PAGE);
  const mine = createdIds(ctx, r, chain);
  if (pages.length === 0 || mine.some((m) => !isSuccess(m.step.exchange))) return skipAll(chain);
  if (mine.some((m) => m.id === undefined))
    return {
      outcome: 'skip',
      actual: 'the id of a created item is nowhere the harness looks: the items cannot be told apart',
    };
  const bad = pages.find((p) => !isSuccess(p.exchange) || !listItems(list, answerJson(p.exchange)));
  if (bad)
    return at(bad, {
      outcome: 'skip',
      actual: `a page was not answered 2xx with the declared list: ${describe(bad.exchange)}`,
    });
  const last = pages[pages.length - 1]!;
  const seen = mine.map((m) =>
    pages.filter((p) =>
      (listItems(list, answerJson(p.exchange)) ?? []).some((i) =>
        isItem(ctx, i, { resource: r, id: m.id, created: m.body as Body }),
      ),
    ),
  );
  const name = operationName(list.op);
  const repeated = repeats(list, pages);
  const ended = pageEnded(
    ctx,
    list,
    pages,
    walkSize(
      ctx,
      list,
      chain.find((s) => s.sent.label === PROBE),
    ),
  );
  if (!ended.ended && repeated !== undefined)
    return at(pages[repeated]!, {
      outcome: 'fail',
      expected: `the pages of ${name} end`,
      actual: `page ${repeated + 1} holds what an earlier page held, and its next page is named again: ${describe(pages[repeated]!.exchange)}`,
      cause: `the pages of ${name} never end`,
    });
  const twice = seen.findIndex((s) => s.length > 1);
  if (twice >= 0)
    return at(seen[twice]![1]!, {
      outcome: 'fail',
      expected: `each item of ${name} on one page`,
      actual: `the item ${idText(mine[twice]!.id!)} is on ${seen[twice]!.length} pages: ${describe(seen[twice]![1]!.exchange)}`,
      cause: `the pages of ${name} hold an item twice`,
    });
  if (!ended.ended) {
    if (seen.every((s) => s.length === 1)) return { outcome: 'pass' };
    return at(last, { outcome: 'skip', actual: `${pages.length} pages read without reaching the last: ${ended.why}` });
  }
  const missing = seen.findIndex((s) => s.length === 0);
  if (missing >= 0)
    return at(last, {
      outcome: 'fail',
      expected: `each item created on a page of ${name}, followed to its last page`,
      actual: `the item ${idText(mine[missing]!.id!)} is on none of the ${pages.length} pages (the last: ${ended.why}): ${describe(last.exchange)}`,
      cause: `the pages of ${name} leave out an item`,
    });
  if (pages.length < 2)
    return at(last, {
      outcome: 'skip',
      actual: `the whole list fits one page of the smallest size the harness can ask (${ended.why}): no next page to follow`,
    });
  return { outcome: 'pass' };
}

/** The index of the first page whose items an earlier page held too (a cursor that names a page again), if any. */
function repeats(list: ListModel, pages: Indexed[]): number | undefined {
  const texts = pages.map((p) =>
    JSON.stringify(listItems(list, answerJson(p.exchange)), (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
  );
  const i = texts.findIndex((t, k) => t !== '[]' && texts.indexOf(t) < k);
  return i >= 0 ? i : undefined;
}

/** Whether the walk's last page says it is the last, and what says so. */
function pageEnded(
  ctx: CheckContext,
  list: ListModel,
  pages: Indexed[],
  size: number | undefined,
): { ended: boolean; why: string } {
  const last = pages[pages.length - 1]!;
  const seen = pages.reduce((n, p) => n + (listItems(list, answerJson(p.exchange))?.length ?? 0), 0);
  const how = nextPage(ctx, list, last.exchange, { n: pages.length, seen, limit: size });
  if (how.path !== undefined || how.set !== undefined) return { ended: false, why: 'it names a next page' };
  return how.last !== undefined
    ? { ended: true, why: how.last }
    : {
        ended: false,
        why: 'it holds as many items as asked, and the list names no way to a next page (no Link, cursor, offset or page number)',
      };
}

export const pageChecks = [walked];
