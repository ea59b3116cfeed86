// PS-STATE-004 to 008: what the document's shape and RFC 9110 §9.3 say the
// plant resource keeps between requests (docs/checks.md, "What the harness
// infers"; each inference can be switched off with --inferences): a created
// plant is read back and listed; after a successful DELETE it is gone; PUT
// and PATCH change what GET answers; a limit bounds the list.
import { noteText, sameValue, type JsonValue } from '../model/json.js';
import { operationName } from '../model/operation-model.js';
import { flattenObject } from '../model/schema-shape.js';
import { describe, noAnswer, worst } from './grades.js';
import {
  answerJson,
  chainAfterCreate,
  chains,
  followCalls,
  isSuccess,
  type Chain,
  type Indexed,
  type OpSent,
} from './op-cases.js';
import { freshId, idField } from './requests.js';
import { idsAboveDoubles } from '../cases/bodies.js';
import {
  isPlant,
  itemCall,
  listItems,
  listPages,
  PAGE,
  readableList,
  readPages,
  resourceOp,
  switchedOff,
} from './resource-calls.js';
import { rfc } from './sources.js';
import type { CaseExchange, ExchangeCheck, Verdict } from './types.js';

const GET = rfc(9110, '§9.3.1 GET', 'section-9.3.1');
const BEYOND = 'read back, an id beyond 2^53';
const at = (c: Indexed, v: Verdict): Verdict => ({ exchange: c.index, ...v });

/** The members of `expected` that `actual` does not carry with the same value. */
function differences(expected: JsonValue | undefined, actual: JsonValue | undefined, only?: string[]): string[] {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return [];
  const got =
    actual !== null && typeof actual === 'object' && !Array.isArray(actual)
      ? (actual as Record<string, JsonValue>)
      : {};
  return Object.entries(expected as Record<string, JsonValue>)
    .filter(([k]) => !only || only.includes(k))
    .filter(([k, v]) => got[k] === undefined || !sameValue(v, got[k]))
    .map(([k]) => k);
}

/** Each chain's steps by label; a chain whose create was refused is left out (the create checks grade it). */
function created(cases: Array<CaseExchange<unknown>>): Indexed[][] {
  return chains(cases).filter((steps) => !steps[0]!.sent.create || isSuccess(steps[0]!.exchange));
}

/** A chain's steps whose label starts with `label`. */
const steps = (chain: Indexed[], label: string) => chain.filter((s) => s.sent.label.startsWith(label));

/**
 * A read refused with 403: the token may create but not read (authorization
 * per operation, which PS-OP-002 grades non-strict), so the read shows
 * nothing of the plant either way.
 */
function forbidden(read: Indexed): Verdict | undefined {
  if (read.exchange.response?.status !== 403) return undefined;
  return at(read, {
    outcome: 'skip',
    actual: `${read.sent.operation} refuses the token with 403 (authorization per operation, PS-OP-002 grades it): the plant cannot be read back: ${describe(read.exchange)}`,
  });
}

function skipAll(cases: Array<CaseExchange<unknown>>): Verdict {
  const refused = chains(cases).find((s) => s[0]!.sent.create && !isSuccess(s[0]!.exchange));
  return {
    outcome: 'skip',
    actual: refused ? `the create before it was not accepted: ${describe(refused[0]!.exchange)}` : 'nothing was sent',
  };
}

const readBack: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-STATE-004',
  title: 'A created plant is read back: GET on its item answers the Plant the create answered',
  level: 'MUST',
  source: GET,
  requirement:
    "The GET method requests transfer of a current selected representation for the target resource. (The item path is the collection path and one integer parameter, or the create's links name it: a created plant is its resource; an id never stored: 404, RFC 9110 §15.5.5.)",
  grading:
    "MUST (inference read-back): a created plant missing from GET on its item right after its 2xx, or answered with other values than the create answered (a dropped tag), fails. An id never stored answered 2xx or 400 is non-strict (404 is our decision and the RFC's status, not the document's); a 5xx fails. A read refused with 403 (the token may not read: authorization per operation) shows nothing of the plant: skip.",
  evidence:
    "A create answered 2xx, then GET of its item answered 2xx with every member of the create's answer, same values (once more with an id beyond 2^53 that no double holds, where the document allows one); GET of an id never stored answered 404.",
  precondition: (ctx) => switchedOff(ctx, 'read-back'),
  cases: (ctx) => {
    const read = resourceOp(ctx, ctx.model.resource.read, 'read a plant');
    const unknown = String(freshId(ctx));
    // A path id read as a double (JavaScript's Number) finds none of the plants whose ids lie beyond 2^53 (RFC 8259 §6).
    const beyond = idsAboveDoubles(ctx.model, ctx.ids).map((id) =>
      chainAfterCreate(
        ctx,
        2,
        BEYOND,
        [(chain) => itemCall(ctx, read, chain, `read the plant just created, id ${id}`)],
        { [idField(ctx)]: id },
      ),
    );
    return [
      chainAfterCreate(ctx, 0, 'read back', [(chain) => itemCall(ctx, read, chain, 'read the plant just created')]),
      {
        request: itemCall(
          ctx,
          read,
          { steps: [], created: { [idField(ctx)]: unknown } },
          `an id never stored (${unknown})`,
        ).request,
        sent: { operation: operationName(read.op), label: 'never stored', chain: 1, step: 0, rest: [] },
      },
      ...beyond,
    ];
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases) => {
    const verdicts: Verdict[] = [];
    for (const chain of chains(cases)) {
      if (chain[0]!.sent.label === 'never stored') {
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
      // An id beyond 2^53 refused at the create is for the create checks (PS-ACCEPT-009) to grade.
      if (!read && create!.sent.label === `create (${BEYOND})`) continue;
      if (!read) return skipAll(cases);
      const missing = noAnswer(read.exchange);
      if (missing) return at(read, missing);
      const expected = `${read.sent.operation} answers 2xx with the Plant the create answered`;
      const family = create!.sent.label === `create (${BEYOND})` ? { family: 'an id beyond 2^53' } : {};
      const refused = forbidden(read);
      if (refused) {
        verdicts.push(refused);
        continue;
      }
      if (!isSuccess(read.exchange)) {
        verdicts.push(
          at(read, {
            outcome: 'fail',
            ...family,
            expected,
            actual: `${read.sent.operation}: the plant just created is missing: ${describe(read.exchange)}`,
            cause: `a created plant is missing from ${read.sent.operation}`,
          }),
        );
        continue;
      }
      const diff = differences(answerJson(create!.exchange), answerJson(read.exchange));
      verdicts.push(
        at(
          read,
          diff.length === 0
            ? { outcome: 'pass' }
            : {
                outcome: 'fail',
                ...family,
                expected,
                actual: `${read.sent.operation}: ${diff.join(', ')} not as the create answered: ${describe(read.exchange)}`,
                cause: `${read.sent.operation} answers another Plant than the create did`,
              },
        ),
      );
    }
    return worst(verdicts);
  },
};

const listed: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-STATE-005',
  title:
    'A created plant is in the list, as the create answered it; a filter named after a Plant property lists only the plants that have its value',
  level: 'MUST',
  source: GET,
  requirement:
    'The GET method requests transfer of a current selected representation for the target resource. (GET on the collection path lists the stored plants; a query parameter named after a Plant property selects the plants whose property equals it.)',
  grading:
    "MUST (inference listed): a created plant missing from a list whose pages are all read (the last page's cursor is null or absent, or a page holds fewer plants than the limit asked), or listed with other values than the create answered, fails; a list the harness cannot read to its end is skip for the plant (the server may bound a page). Filter (inference filter): a listed plant whose property differs from the filter's value fails.",
  evidence:
    'A create answered 2xx (with a tag of its own where the list has a filter by it), then the list read page by page (its limit at 100 or its maximum, its cursor or offset) until the plant is found or the list ends.',
  precondition: (ctx) => switchedOff(ctx, 'listed'),
  cases: (ctx) => {
    const list = readableList(ctx);
    const filter = ctx.inferences.has('filter')
      ? list.filters.find((f) =>
          flattenObject(
            ctx.model.doc,
            ctx.model.create!.requestSchema.schema,
            ctx.model.create!.requestSchema.pointer,
          ).fields.some((x) => x.name === f.property && x.types.includes('string')),
        )
      : undefined;
    const value = `listed-${ctx.seed}-${String(freshId(ctx))}`;
    const fields = filter ? { [filter.property]: value } : {};
    return [
      chainAfterCreate(
        ctx,
        0,
        'listed',
        [listPages(ctx, list, filter ? { [filter.parameter.name]: value } : {})],
        fields,
      ),
    ];
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const list = ctx.model.resource.list!;
    const chain = created(cases)[0];
    if (!chain) return skipAll(cases);
    const pages = steps(chain, PAGE);
    const bad = pages.find((p) => !isSuccess(p.exchange) || !listItems(list, answerJson(p.exchange)));
    if (bad)
      return at(bad, {
        outcome: bad.exchange.response && bad.exchange.response.status < 500 ? 'skip' : 'fail',
        expected: `${bad.sent.operation} answers 2xx with its declared list`,
        actual: describe(bad.exchange),
      });
    const sent = chain[0]!.sent.create!;
    const filter = list.filters.find(
      (f) => ctx.inferences.has('filter') && noteText(sent[f.property]).startsWith('listed-'),
    );
    if (filter) {
      for (const p of pages) {
        // The plant just created, listed without the property, is the comparison's to grade below, not the filter's.
        const other = listItems(list, answerJson(p.exchange))!.find(
          (i) =>
            (i as Record<string, JsonValue>)?.[filter.property] !== sent[filter.property] &&
            !((i as Record<string, JsonValue>)?.[filter.property] === undefined && isPlant(ctx, i, sent)),
        );
        if (other !== undefined)
          return at(p, {
            outcome: 'fail',
            expected: `only plants whose ${filter.property} is ${JSON.stringify(sent[filter.property])}`,
            actual: `${p.sent.operation}?${filter.parameter.name}=…: a plant with another ${filter.property}: ${describe(p.exchange)}`,
            cause: `the list's filter ${filter.parameter.name} lists plants whose ${filter.property} differs`,
          });
      }
    }
    const read = readPages(ctx, list, pages, sent);
    const last = pages[pages.length - 1]!;
    const expected = `the plant just created, in ${last.sent.operation}, as the create answered it`;
    if (read.found !== undefined) {
      const diff = differences(answerJson(chain[0]!.exchange), read.found);
      return diff.length === 0
        ? { outcome: 'pass' }
        : at(last, {
            outcome: 'fail',
            expected,
            actual: `listed with ${diff.join(', ')} not as the create answered: ${describe(last.exchange)}`,
            cause: 'the list holds another Plant than the create answered',
          });
    }
    if (!read.complete)
      return at(last, {
        outcome: 'skip',
        expected,
        actual: `not in the ${read.count} plants of ${pages.length} page(s) read, and ${read.why}`,
      });
    return at(last, {
      outcome: 'fail',
      expected,
      actual: `${last.sent.operation}: the plant just created is missing from the whole list (${read.count} plants, ${read.why}): ${describe(last.exchange)}`,
      cause: 'a created plant is missing from the list',
    });
  },
};

const DELETE_SOURCE = rfc(9110, '§9.3.5 DELETE', 'section-9.3.5');

const gone: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-STATE-006',
  title:
    'After a successful DELETE the plant is gone: GET of its item is refused, the list leaves it out, a second DELETE gets no 5xx',
  level: 'MUST',
  source: DELETE_SOURCE,
  requirement:
    'The DELETE method requests that the origin server remove the association between the target resource and its current functionality. ... If a DELETE method is successfully applied, the origin server SHOULD send a 202, 204 or 200 status code.',
  grading:
    'MUST (inference delete): after a 2xx to DELETE, GET of the item answered 2xx, or the plant still in the list, fails (the association is removed); a second DELETE answered 5xx fails, 2xx is non-strict (404 is our decision; DELETE is idempotent, RFC 9110 §9.2.2).',
  evidence:
    'A create answered 2xx, its DELETE answered 2xx, then GET of its item (where declared) refused with a 4xx, the list (where declared, read to its end) without it, and a second DELETE answered 4xx.',
  precondition: (ctx) => switchedOff(ctx, 'delete'),
  cases: (ctx) => {
    const del = resourceOp(ctx, ctx.model.resource.delete, 'delete a plant');
    const read = ctx.model.resource.read;
    const list = ctx.model.resource.list;
    const useRead = read && !(read.by === 'shape' && !ctx.inferences.has('resource'));
    const useList = list?.shape && !(list.by === 'shape' && !ctx.inferences.has('resource'));
    const again = (chain: Chain) => itemCall(ctx, del, chain, 'delete again');
    return [
      chainAfterCreate(ctx, 0, 'gone', [
        (chain) => itemCall(ctx, del, chain, 'delete'),
        ...(useRead ? [(chain: Chain) => itemCall(ctx, read, chain, 'read after delete')] : []),
        ...(useList ? [listPages(ctx, list)] : []),
        again,
      ]),
    ];
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const chain = created(cases)[0];
    if (!chain) return skipAll(cases);
    const [del] = steps(chain, 'delete');
    if (!del) return skipAll(cases);
    if (!isSuccess(del.exchange))
      return at(del, {
        outcome: 'skip',
        actual: `the DELETE was not successful (PS-OP-* grade it): ${describe(del.exchange)}`,
      });
    const verdicts: Verdict[] = [];
    for (const read of steps(chain, 'read after delete')) {
      const status = read.exchange.response?.status;
      if (status === undefined) verdicts.push(at(read, noAnswer(read.exchange)!));
      else if (status < 400 || status >= 500)
        verdicts.push(
          at(read, {
            outcome: 'fail',
            expected: `${read.sent.operation} refuses the plant deleted (404)`,
            actual: `${read.sent.operation} after a ${del.exchange.response!.status} to its DELETE: ${describe(read.exchange)}`,
            cause: 'a deleted plant is still read',
          }),
        );
    }
    const pages = steps(chain, PAGE);
    if (pages.length > 0 && ctx.model.resource.list) {
      const seen = readPages(ctx, ctx.model.resource.list, pages, chain[0]!.sent.create);
      if (seen.found !== undefined) {
        const last = pages[pages.length - 1]!;
        verdicts.push(
          at(last, {
            outcome: 'fail',
            expected: 'the list leaves the deleted plant out',
            actual: `${last.sent.operation} after a ${del.exchange.response!.status} to its DELETE still lists it: ${describe(last.exchange)}`,
            cause: 'a deleted plant is still listed',
          }),
        );
      }
    }
    for (const again of steps(chain, 'delete again')) {
      const status = again.exchange.response?.status;
      const expected = `404 to a second DELETE of ${again.sent.operation}`;
      if (status === undefined) verdicts.push(at(again, noAnswer(again.exchange)!));
      else if (status >= 500)
        verdicts.push(
          at(again, {
            outcome: 'fail',
            expected,
            actual: describe(again.exchange),
            cause: 'a second DELETE of a plant is answered 5xx',
          }),
        );
      else if (status < 300)
        verdicts.push(
          at(again, {
            outcome: 'non-strict',
            expected,
            actual: describe(again.exchange),
            cause: 'a second DELETE of a plant succeeds',
          }),
        );
    }
    return worst(verdicts);
  },
};

export const plantStateChecks = [readBack, listed, gone];
export { differences, created, steps, skipAll, at, forbidden };
