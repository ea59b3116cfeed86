// PS-STATE-004 and 005: what the document's shape and RFC 9110 §9.3 say
// each resource keeps between requests (docs/checks.md, "What the harness
// infers"; each inference can be switched off with --no-infer): a created
// item is read back and listed (state-gone.ts: after a DELETE it is gone).
// Each runs on every resource of the document that has a create and the
// operation it needs, a nested one under a parent stored before the checks.
import { noteText, type JsonValue } from '../model/json.js';
import { operationName } from '../model/operation-model.js';
import type { ResourceModel } from '../model/resource.js';
import { RuledOut } from '../model/ruled-out.js';
import { describe, noAnswer } from './grades.js';
import { requireIdField } from '../cases/bodies.js';
import { unknownIdOf } from './item-bodies.js';
import {
  answerJson,
  chainAfterCreate,
  chainOf,
  chains,
  followCalls,
  idText,
  isSuccess,
  type Chain,
  type Indexed,
  type OpSent,
} from './op-cases.js';
import { allowedEdgeIds, idAboveDoublesWithNeighbours } from '../cases/bodies.js';
import {
  isItem,
  itemCall,
  listItems,
  listPages,
  PAGE,
  readableList,
  readPages,
  resourcesWith,
  switchedOff,
  usable,
} from './resource-calls.js';
import { at, combined, created, differences, forbidden, skipAll, steps } from './state-verdicts.js';
import { rfc } from './sources.js';
import { callTo } from './op-requests.js';
import type { Case, CheckContext, ExchangeCheck, Verdict } from './types.js';

const GET = rfc(9110, '§9.3.1 GET', 'section-9.3.1');
const BEYOND = 'read back, an id beyond 2^53';
const NEVER = 'never stored';
/** The label of a read of an id never stored beside one created beyond 2^53, then that id. */
const NEIGHBOUR = 'a never-stored neighbour: ';
/** The label of a chain that creates an item with an id at an edge of what the schema allows, then its id. */
const EDGE = 'read back, at an edge: ';

/** The chain a verdict is about: its resource, from its create, or from the operation of its first step. */
export const chainResource = (ctx: CheckContext, collection: string | undefined) =>
  ctx.model.resources.find((r) => r.collection === collection) ?? ctx.model.resource;

const readBack: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-STATE-004',
  title: 'A created item is read back: GET on its item answers what the create answered (every resource)',
  level: 'MUST',
  source: GET,
  requirement:
    "The GET method requests transfer of a current selected representation for the target resource. (The item path is the collection path and one parameter, or the create's links name it: a created item is its resource, named by the id the client chose, the answer's id member or the Location it was answered; an id never stored: 404, RFC 9110 §15.5.5.)",
  grading:
    "MUST (inference read-back): a created item missing from GET on its item right after its 2xx, or answered with other values than the create answered (a dropped tag), fails; so does the created item answered for a never-stored neighbour of an id beyond 2^53 (one below, one above, its double-rounding partner: each an id of its own, RFC 8259 §6). An id never stored answered 2xx or 400 is non-strict (404 is our decision and the RFC's status, not the document's); a 5xx fails. A read refused with 403 (the token may not read: authorization per operation) shows nothing of the item: skip; so does a created item whose id is nowhere the harness looks.",
  evidence:
    "For each resource with a create and a read: a create answered 2xx, then GET of its item answered 2xx with every member of the create's answer, same values (for the create checks' own resource, once more with an id beyond 2^53 that no double holds, then GET of its never-stored neighbours, each answered 404, and once with each integer id at an edge of what its schema allows: a negative one, zero, its least and its greatest, where the document allows them and the client picks ids); GET of an id never stored answered 404.",
  precondition: (ctx) => switchedOff(ctx, 'read-back'),
  cases: (ctx) => {
    const found = resourcesWith(ctx, (r) => r.read);
    if (found.length === 0) throw new RuledOut(`the document declares no operation that would read an item back`);
    const out: Array<Case<OpSent>> = [];
    for (const { resource, op: read } of found) {
      const read1 = (chain: Chain) => itemCall(ctx, read, chain, 'read the item just created');
      out.push(chainAfterCreate(ctx, out.length, 'read back', [read1], {}, { resource }));
      const unknown = unknownIdOf(ctx, resource);
      const label = `an id never stored (${idText(unknown)})`;
      out.push({
        request: callTo(ctx, read.op, label, { set: { [read.id!.parameter]: idText(unknown) } }).request,
        sent: { operation: operationName(read.op), label: NEVER, chain: out.length, step: 0, rest: [] },
      });
      if (resource !== ctx.model.resource || resource.identity.request === undefined) continue;
      // A path id read as a double (JavaScript's Number) finds none of the items whose ids lie beyond 2^53 (RFC 8259 §6);
      // one keyed by a double in the store too finds the item, and answers it for its never-stored neighbours as well.
      const beyond = idAboveDoublesWithNeighbours(ctx.model, ctx.ids);
      if (beyond) {
        const parameter = read.id!.parameter;
        out.push(
          chainAfterCreate(
            ctx,
            out.length,
            BEYOND,
            [
              (chain) => itemCall(ctx, read, chain, `read the item just created, id ${beyond.id}`),
              ...beyond.neighbours.map(
                (n) => () =>
                  callTo(ctx, read.op, `${NEIGHBOUR}${n} (beside ${beyond.id})`, { set: { [parameter]: idText(n) } }),
              ),
            ],
            { [requireIdField(ctx.model)]: beyond.id },
          ),
        );
      }
      // The ids at the edges of what the schema allows (negative, zero, its bounds): a route that takes only digits, or a
      // store keyed by an unsigned number, loses them.
      for (const { id, what } of allowedEdgeIds(ctx.model, ctx.ids))
        out.push(
          chainAfterCreate(
            ctx,
            out.length,
            `${EDGE}${what}`,
            [(chain) => itemCall(ctx, read, chain, `read the item just created, ${what}`)],
            { [requireIdField(ctx.model)]: id },
          ),
        );
    }
    return out;
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases) => {
    const verdicts: Verdict[] = [];
    // The reads of created items: where none could be graded (each refused with 403, say), an id never stored
    // answered 404 says nothing of whether an item is read back, and does not make the check pass.
    const reads: Verdict[] = [];
    for (const chain of chains(cases)) {
      if (chain[0]!.sent.label === NEVER) {
        const c = chain[0]!;
        const missing = noAnswer(c.exchange);
        const status = c.exchange.response?.status ?? 0;
        const expected = `404 for ${c.sent.operation} with an id never stored`;
        verdicts.push(
          at(
            c,
            missing ??
              (status === 404
                ? { outcome: 'pass' }
                : {
                    outcome: status >= 500 ? 'fail' : 'non-strict',
                    expected,
                    actual: `${c.sent.operation}: ${describe(c.exchange)}`,
                    cause: `${c.sent.operation} answers ${status} for an id never stored`,
                  }),
          ),
        );
        continue;
      }
      const [create, read] = chain;
      // The id this chain's create chose at an edge of what the schema allows (a negative id, zero…), where it did.
      const edge = create!.sent.label.startsWith(`create (${EDGE}`)
        ? create!.sent.label.slice(`create (${EDGE}`.length, -1)
        : undefined;
      for (const n of chain.slice(2).filter((c) => c.sent.label.startsWith(NEIGHBOUR)))
        verdicts.push(neighbourVerdict(n, create!));
      // An id beyond 2^53 (or at an edge) refused at the create is for the create checks (PS-ACCEPT-009) to grade.
      if (!read && (create!.sent.label === `create (${BEYOND})` || edge !== undefined)) continue;
      if (!read) {
        reads.push(skipAll(chain));
        continue;
      }
      const missing = noAnswer(read.exchange);
      if (missing) {
        reads.push(at(read, missing));
        continue;
      }
      const expected = `${read.sent.operation} answers 2xx with the item the create answered`;
      const family =
        create!.sent.label === `create (${BEYOND})`
          ? { family: 'an id beyond 2^53' }
          : edge !== undefined
            ? { family: 'an id at an edge of what its schema allows' }
            : {};
      const refused = forbidden(read);
      if (refused) {
        reads.push(refused);
        continue;
      }
      if (!isSuccess(read.exchange)) {
        reads.push(
          at(read, {
            outcome: 'fail',
            ...family,
            expected,
            actual: `${read.sent.operation}: the item just created${edge !== undefined ? `, ${edge},` : ''} is missing: ${describe(read.exchange)}`,
            cause: `a created item${edge !== undefined ? ` with ${edge}, an id its schema allows,` : ''} is missing from ${read.sent.operation}`,
          }),
        );
        continue;
      }
      const diff = differences(answerJson(create!.exchange), answerJson(read.exchange));
      reads.push(
        at(
          read,
          diff.length === 0
            ? { outcome: 'pass' }
            : {
                outcome: 'fail',
                ...family,
                expected,
                actual: `${read.sent.operation}: ${diff.join(', ')} not as the create answered: ${describe(read.exchange)}`,
                cause: `${read.sent.operation} answers another item than the create did`,
              },
        ),
      );
    }
    const readBack = reads.filter((v) => v.outcome !== 'skip');
    if (readBack.length === 0 && reads.length > 0) {
      const departures = verdicts.filter((v) => v.outcome === 'fail' || v.outcome === 'non-strict');
      return departures.length > 0 ? combined(departures, reads[0]!) : reads[0]!;
    }
    return combined([...verdicts, ...reads], skipAll(cases));
  },
};

/**
 * A read of an id never stored beside one created beyond 2^53: 404 passes;
 * the created item answered for it fails (the server reads ids through a
 * double: RFC 8259 §6, the id an int64 of its own); another answer is graded
 * as any id never stored (2xx or 400 non-strict, 5xx fail).
 */
function neighbourVerdict(c: Indexed, create: Indexed): Verdict {
  const missing = noAnswer(c.exchange);
  if (missing) return at(c, missing);
  const status = c.exchange.response!.status;
  if (status === 404) return { outcome: 'pass' };
  const neighbour = c.sent.label.slice(NEIGHBOUR.length);
  const sameItem =
    isSuccess(c.exchange) && differences(answerJson(create.exchange), answerJson(c.exchange)).length === 0;
  const verdict: Verdict = {
    outcome: sameItem || status >= 500 ? 'fail' : 'non-strict',
    expected: `404 for ${c.sent.operation} with ${neighbour}, an id never stored`,
    actual: `${c.sent.operation} with ${neighbour}: ${describe(c.exchange)}`,
    cause: sameItem
      ? `${c.sent.operation} answers the item just created for ${neighbour}, a never-stored neighbour of its id: ids beyond 2^53 read through a double`
      : `${c.sent.operation} answers ${status} for an id never stored`,
    ...(sameItem ? { family: 'an id beyond 2^53' } : {}),
  };
  return at(c, verdict);
}

/** A string member of the create's request a filter of the list selects by, where it has one (inference filter). */
function filterOf(ctx: CheckContext, r: ResourceModel) {
  const list = r.list;
  if (!list || !ctx.inferences.has('filter') || !r.create) return undefined;
  return list.filters.find((f) =>
    r.create!.request.fields.some((x) => x.name === f.property && x.types.includes('string')),
  );
}

const listed: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-STATE-005',
  title:
    'A created item is in the list, as the create answered it; a filter named after an item property lists only the items that have its value (every resource)',
  level: 'MUST',
  source: GET,
  requirement:
    'The GET method requests transfer of a current selected representation for the target resource. (GET on the collection path lists the stored items; a query parameter named after an item property selects the items whose property equals it.)',
  grading:
    'MUST (inference listed): a created item missing from a list whose pages are all read (the last page\'s cursor is null or absent, its Link names no rel="next", or a page holds fewer items than the limit asked), or listed with other values than the create answered, fails; a list the harness cannot read to its end is skip for the item (the server may bound a page). Filter (inference filter): a listed item whose property differs from the filter\'s value fails.',
  evidence:
    'For each resource with a create and a list: a create answered 2xx (with a tag of its own where the list has a filter by it), then the list read page by page (its limit at 100 or its maximum; its Link rel="next", cursor, offset or page number) until the item is found or the list ends.',
  precondition: (ctx) => switchedOff(ctx, 'listed'),
  cases: (ctx) => {
    const found = ctx.model.resources.filter((r) => r.create && usable(ctx, r.list) && r.list.shape);
    if (found.length === 0) readableList(ctx);
    return found.map((resource, i) => {
      const list = readableList(ctx, resource);
      const filter = filterOf(ctx, resource);
      const value = `listed-${ctx.seed}-${ctx.ids.fresh()}`;
      const fields = filter ? { [filter.property]: value } : {};
      const step = listPages(ctx, list, filter ? { [filter.parameter.name]: value } : {});
      return chainAfterCreate(ctx, i, 'listed', [step], fields, { resource });
    });
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const verdicts: Verdict[] = [];
    for (const chain of created(cases)) {
      const resource = chainResource(ctx, chain[0]!.sent.collection);
      const list = resource.list!;
      const pages = steps(chain, PAGE);
      if (pages.length === 0) {
        verdicts.push(skipAll(chain));
        continue;
      }
      const bad = pages.find((p) => !isSuccess(p.exchange) || !listItems(list, answerJson(p.exchange)));
      if (bad) {
        verdicts.push(
          at(bad, {
            outcome: bad.exchange.response && bad.exchange.response.status < 500 ? 'skip' : 'fail',
            expected: `${bad.sent.operation} answers 2xx with its declared list`,
            actual: describe(bad.exchange),
          }),
        );
        continue;
      }
      const sent = chain[0]!.sent.create!;
      const state = chainOf(chain, ctx);
      const filter = filterOf(ctx, resource);
      const filtered = filter && noteText(sent[filter.property]).startsWith('listed-') ? filter : undefined;
      const wrong = filtered ? filterMiss(ctx, list, pages, filtered.property, sent, state) : undefined;
      if (wrong) {
        verdicts.push(wrong(filtered!.parameter.name));
        continue;
      }
      const read = readPages(ctx, list, pages, state);
      const last = pages[pages.length - 1]!;
      const expected = `the item just created, in ${last.sent.operation}, as the create answered it`;
      if (read.found !== undefined) {
        const diff = differences(answerJson(chain[0]!.exchange), read.found);
        verdicts.push(
          diff.length === 0
            ? { outcome: 'pass' }
            : at(last, {
                outcome: 'fail',
                expected,
                actual: `listed with ${diff.join(', ')} not as the create answered: ${describe(last.exchange)}`,
                cause: 'the list holds another item than the create answered',
              }),
        );
      } else if (!read.complete)
        verdicts.push(
          at(last, {
            outcome: 'skip',
            expected,
            actual: `not in the ${read.count} items of ${pages.length} page(s) read, and ${read.why}`,
          }),
        );
      else
        verdicts.push(
          at(last, {
            outcome: 'fail',
            expected,
            actual: `${last.sent.operation}: the item just created is missing from the whole list (${read.count} items, ${read.why}): ${describe(last.exchange)}`,
            cause: 'a created item is missing from the list',
          }),
        );
    }
    return combined(verdicts, skipAll(cases));
  },
};

/** A listed item whose filtered property differs from the value asked: a verdict maker, or undefined. */
function filterMiss(
  ctx: CheckContext,
  list: NonNullable<ResourceModel['list']>,
  pages: ReturnType<typeof steps>,
  property: string,
  sent: Record<string, JsonValue>,
  state: Chain,
): ((parameter: string) => Verdict) | undefined {
  for (const p of pages) {
    // The item just created, listed without the property, is the comparison's to grade below, not the filter's.
    const other = listItems(list, answerJson(p.exchange))!.find(
      (i) =>
        (i as Record<string, JsonValue>)?.[property] !== sent[property] &&
        !((i as Record<string, JsonValue>)?.[property] === undefined && isItem(ctx, i, state)),
    );
    if (other !== undefined)
      return (parameter) =>
        at(p, {
          outcome: 'fail',
          expected: `only items whose ${property} is ${JSON.stringify(sent[property])}`,
          actual: `${p.sent.operation}?${parameter}=…: an item with another ${property}: ${describe(p.exchange)}`,
          cause: `the list's filter ${parameter} lists items whose ${property} differs`,
        });
  }
  return undefined;
}

export const stateReadChecks = [readBack, listed];
