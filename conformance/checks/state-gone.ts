// PS-STATE-006: after a successful DELETE an item is gone (RFC 9110
// §9.3.5; inference delete, docs/checks.md): GET of it refused, the list
// without it, a second DELETE no 5xx. On every resource of the document
// with a create and a delete.
import type { ResourceModel } from '../model/resource.js';
import { RuledOut } from '../model/ruled-out.js';
import { describe, noAnswer } from './grades.js';
import { chainAfterCreate, chainOf, followCalls, idText, isSuccess, type Chain, type OpSent } from './op-cases.js';
import { itemCall, listPages, PAGE, readPages, resourcesWith, switchedOff, usable } from './resource-calls.js';
import { at, combined, created, skipAll, steps } from './state-verdicts.js';
import { chainResource } from './state-read.js';
import { rfc } from './sources.js';
import { allowedEdgeIds, idAboveDoublesWithNeighbours } from '../cases/bodies.js';
import { callTo } from './op-requests.js';
import type { Case, CheckContext, ExchangeCheck, Verdict } from './types.js';

/** The label of a chain that creates an item with a negative id its schema allows, then its id. */
const EDGE = 'gone, at an edge: ';
/** The labels of a DELETE of a never-stored neighbour of an id beyond 2^53, and of the read of that id after it. */
const NEIGHBOUR = 'neighbour: a DELETE of ';
const BESIDE = 'neighbour: a read of the item beside it, ';

const DELETE_SOURCE = rfc(9110, '§9.3.5 DELETE', 'section-9.3.5');

const gone: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-STATE-006',
  title:
    'After a successful DELETE the item is gone: GET of its item is refused, the list leaves it out, a second DELETE gets no 5xx (every resource)',
  level: 'MUST',
  source: DELETE_SOURCE,
  requirement:
    'The DELETE method requests that the origin server remove the association between the target resource and its current functionality. ... If a DELETE method is successfully applied, the origin server SHOULD send a 202, 204 or 200 status code.',
  grading:
    'MUST (inference delete): after a 2xx to DELETE, GET of the item answered 2xx, or the item still in the list, fails (the association is removed); a second DELETE answered 5xx fails, 2xx is non-strict (404 is our decision; DELETE is idempotent, RFC 9110 §9.2.2). A DELETE of an item just created with a negative id its schema allows, answered 404 or 400, fails (the item exists and its id is valid). A DELETE of a never-stored neighbour of an id beyond 2^53 answered 2xx, after which the created item is gone, fails (RFC 8259 §6: the server deleted it through a double); a 2xx that leaves it is non-strict.',
  evidence:
    "For each resource with a create and a delete: a create answered 2xx, its DELETE answered 2xx, then GET of its item (where declared) refused with a 4xx, the list (where declared, read to its end) without it, and a second DELETE answered 4xx; for the create checks' own resource, once more with a negative id its schema allows, where the client picks ids (a DELETE of it answered 404 or 400 fails: the item was just created), and once with an id beyond 2^53 that no double holds, first a DELETE of its never-stored neighbour (the id one below, the double it rounds to), then a read of it, still there.",
  precondition: (ctx) => switchedOff(ctx, 'delete'),
  cases: (ctx) => {
    const found = resourcesWith(ctx, (r) => r.delete);
    if (found.length === 0) throw new RuledOut('the document declares no operation that would delete an item');
    const out: Array<Case<OpSent>> = [];
    for (const { resource, op: del } of found) {
      const read = resource.read;
      const list = resource.list;
      const again = (chain: Chain) => itemCall(ctx, del, chain, 'delete again');
      const chainSteps = [
        (chain: Chain) => itemCall(ctx, del, chain, 'delete'),
        ...(usable(ctx, read) ? [(chain: Chain) => itemCall(ctx, read, chain, 'read after delete')] : []),
        ...(usable(ctx, list) && list.shape ? [listPages(ctx, list)] : []),
        again,
      ];
      out.push(chainAfterCreate(ctx, out.length, 'gone', chainSteps, {}, { resource }));
      if (resource !== ctx.model.resource || resource.identity.request === undefined) continue;
      // A negative id the schema allows (run-unique): a route that takes digits only cannot delete it.
      for (const { id, what } of allowedEdgeIds(ctx.model, ctx.ids, true))
        out.push(chainAfterCreate(ctx, out.length, `${EDGE}${what}`, chainSteps, { [resource.identity.request]: id }));
      // An id beyond 2^53: a DELETE of its never-stored neighbour first, then a read of it (it must still be there).
      const beyond = idAboveDoublesWithNeighbours(ctx.model, ctx.ids);
      const parameter = del.id?.parameter;
      if (beyond && parameter !== undefined && usable(ctx, read)) {
        const neighbour = beyond.neighbours[0]!;
        const probe = [
          () =>
            callTo(ctx, del.op, `${NEIGHBOUR}${neighbour} (beside ${beyond.id})`, {
              set: { [parameter]: idText(neighbour) },
            }),
          (chain: Chain) => itemCall(ctx, read, chain, `${BESIDE}${beyond.id}`),
        ];
        out.push(
          chainAfterCreate(ctx, out.length, 'gone, beside a neighbour', [...probe, ...chainSteps], {
            [resource.identity.request]: beyond.id,
          }),
        );
      }
    }
    return out;
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const verdicts: Verdict[] = [];
    for (const chain of created(cases)) {
      const resource = chainResource(ctx, chain[0]!.sent.collection);
      const [del] = steps(chain, 'delete');
      if (!del) {
        verdicts.push(skipAll(chain));
        continue;
      }
      const label = chain[0]!.sent.label;
      const edge = label.startsWith(`create (${EDGE}`) ? label.slice(`create (${EDGE}`.length, -1) : undefined;
      verdicts.push(...neighbourVerdicts(chain), ...goneVerdicts(ctx, resource, chain, del, edge));
    }
    return combined(verdicts, skipAll(cases));
  },
};

/** What the steps after a DELETE say of one chain. */
function goneVerdicts(
  ctx: CheckContext,
  resource: ResourceModel,
  chain: ReturnType<typeof created>[number],
  del: ReturnType<typeof steps>[number],
  edge?: string,
): Verdict[] {
  const missing = noAnswer(del.exchange);
  if (missing) return [at(del, missing)];
  const status = del.exchange.response!.status;
  // The item was just created with an id its schema allows: a DELETE that does not find it (404), or calls its id bad
  // (400), has lost it (RFC 9110 §15.5.5: 404 says no current representation was found).
  if (edge !== undefined && (status === 404 || status === 400))
    return [
      at(del, {
        outcome: 'fail',
        family: 'an id at an edge of what its schema allows',
        expected: `${del.sent.operation} deletes the item just created with ${edge} (2xx)`,
        actual: `${del.sent.operation}: ${describe(del.exchange)}`,
        cause: `a created item with ${edge}, an id its schema allows, cannot be deleted (${status})`,
      }),
    ];
  if (!isSuccess(del.exchange))
    return [
      at(del, {
        outcome: 'skip',
        actual: `the DELETE was not successful (PS-OP-* grade it): ${describe(del.exchange)}`,
      }),
    ];
  const verdicts: Verdict[] = [{ outcome: 'pass' }];
  for (const read of steps(chain, 'read after delete')) {
    const status = read.exchange.response?.status;
    if (status === undefined) verdicts.push(at(read, noAnswer(read.exchange)!));
    else if (status < 400 || status >= 500)
      verdicts.push(
        at(read, {
          outcome: 'fail',
          expected: `${read.sent.operation} refuses the item deleted (404)`,
          actual: `${read.sent.operation} after a ${del.exchange.response!.status} to its DELETE: ${describe(read.exchange)}`,
          cause: 'a deleted item is still read',
        }),
      );
  }
  const pages = steps(chain, PAGE);
  if (pages.length > 0 && resource.list) {
    const seen = readPages(ctx, resource.list, pages, chainOf(chain, ctx));
    if (seen.found !== undefined) {
      const last = pages[pages.length - 1]!;
      verdicts.push(
        at(last, {
          outcome: 'fail',
          expected: 'the list leaves the deleted item out',
          actual: `${last.sent.operation} after a ${del.exchange.response!.status} to its DELETE still lists it: ${describe(last.exchange)}`,
          cause: 'a deleted item is still listed',
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
          cause: 'a second DELETE of an item is answered 5xx',
        }),
      );
    else if (status < 300)
      verdicts.push(
        at(again, {
          outcome: 'non-strict',
          expected,
          actual: describe(again.exchange),
          cause: 'a second DELETE of an item succeeds',
        }),
      );
  }
  return verdicts;
}

/**
 * A DELETE of an id never stored beside one created beyond 2^53, then a read
 * of the created one: a 5xx fails; a 2xx after which the created item is gone
 * fails (the server deleted it through a double: RFC 8259 §6); a 2xx that
 * leaves it is non-strict, as a DELETE of an id never stored.
 */
function neighbourVerdicts(chain: ReturnType<typeof created>[number]): Verdict[] {
  const [del] = steps(chain, NEIGHBOUR);
  const [read] = steps(chain, BESIDE);
  if (!del) return [];
  const missing = noAnswer(del.exchange);
  if (missing) return [at(del, missing)];
  const status = del.exchange.response!.status;
  const neighbour = del.sent.label.slice(NEIGHBOUR.length);
  const expected = `404 for ${del.sent.operation} of ${neighbour}, an id never stored`;
  const actual = `${del.sent.operation} of ${neighbour}: ${describe(del.exchange)}`;
  if (status >= 500)
    return [
      at(del, {
        outcome: 'fail',
        expected,
        actual,
        cause: `${del.sent.operation} of an id never stored is answered ${status}`,
      }),
    ];
  if (status >= 300) return [{ outcome: 'pass' }];
  const readStatus = read?.exchange.response?.status;
  if (read && readStatus !== undefined && (readStatus === 404 || readStatus === 410))
    return [
      at(read, {
        outcome: 'fail',
        family: 'an id beyond 2^53',
        expected: `${read.sent.operation} still answers the item beside ${neighbour}, which the DELETE did not name`,
        actual: `${actual}; then ${read.sent.operation}: ${describe(read.exchange)}`,
        cause: `${del.sent.operation} of ${neighbour}, a never-stored neighbour, deleted the item just created: ids beyond 2^53 read through a double`,
      }),
    ];
  return [
    at(del, { outcome: 'non-strict', expected, actual, cause: `${del.sent.operation} of an id never stored succeeds` }),
  ];
}

export const stateGoneChecks = [gone];
