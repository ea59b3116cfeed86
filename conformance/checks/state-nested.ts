// PS-STATE-009: an item of a nested collection exists under its own parent
// only (inference nested): created under one parent, it is not read nor
// listed under another (RFC 3986 §3.3: the path's hierarchy names it).
import { RuledOut } from '../model/ruled-out.js';
import type { ResourceModel } from '../model/resource.js';
import { describe, noAnswer } from './grades.js';
import { answerJson, chainAfterCreate, chainOf, followCalls, isSuccess, type Chain, type OpSent } from './op-cases.js';
import { itemCall, listItems, listPages, PAGE, readPages, switchedOff, usable } from './resource-calls.js';
import { at, combined, created, skipAll, steps } from './state-verdicts.js';
import type { CheckContext, ExchangeCheck, Verdict } from './types.js';

const ELSEWHERE = 'read under another parent';

/** The nested resources whose parent has two items stored, with a create and a read or a list. */
function nested(ctx: CheckContext): ResourceModel[] {
  return ctx.model.resources.filter((r) => {
    const inner = r.parents[r.parents.length - 1];
    const stored = inner?.collection !== undefined ? (ctx.prerequisites?.stored.get(inner.collection)?.length ?? 0) : 0;
    return r.create && stored >= 2 && (usable(ctx, r.read) || (usable(ctx, r.list) && r.list.shape));
  });
}

const ownParent: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-STATE-009',
  title: 'An item of a nested collection is found under its own parent only: not read, not listed under another',
  level: 'MUST',
  source: {
    document: 'RFC 3986',
    section: '§3.3 Path',
    url: 'https://www.rfc-editor.org/rfc/rfc3986#section-3.3',
  },
  requirement:
    "The path component contains data, usually organized in hierarchical form, that, along with data in the non-hierarchical query component, serves to identify a resource within the scope of the URI's scheme and naming authority. (`/gardens/1/plants/7` and `/gardens/2/plants/7` name two resources: a plant planted in garden 1 is not in garden 2.)",
  grading:
    "MUST (inferences resource and nested): an item created under one parent read 2xx under another parent, or listed in another parent's list, fails; its read under another parent answered with any 4xx passes (404 is the RFC's status). Without two parents stored before the checks: skip.",
  evidence:
    "For each nested collection: an item created under the first parent stored before the checks, then GET of it under the second parent refused with a 4xx, and the second parent's list, read to its end, without it.",
  precondition: (ctx) => switchedOff(ctx, 'nested', 'resource'),
  cases: (ctx) => {
    const found = nested(ctx);
    if (found.length === 0)
      throw new RuledOut('no nested collection of the document has a create, a read or a list, and two parents stored');
    return found.map((resource, i) => {
      const read = usable(ctx, resource.read) ? resource.read : undefined;
      const list = usable(ctx, resource.list) && resource.list.shape ? resource.list : undefined;
      return chainAfterCreate(
        ctx,
        i,
        'own parent',
        [
          ...(read ? [(chain: Chain) => itemCall(ctx, read, chain, ELSEWHERE, { parent: 1 })] : []),
          ...(list ? [listPages(ctx, list, {}, { parent: 1 })] : []),
        ],
        {},
        { resource, parent: 0 },
      );
    });
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const verdicts: Verdict[] = [];
    for (const chain of created(cases)) {
      const state = chainOf(chain, ctx);
      const r = state.resource!;
      const [elsewhere] = steps(chain, ELSEWHERE);
      const pages = steps(chain, PAGE);
      if (!elsewhere && pages.length === 0) {
        verdicts.push(skipAll(chain));
        continue;
      }
      if (elsewhere) {
        const missing = noAnswer(elsewhere.exchange);
        const status = elsewhere.exchange.response?.status ?? 0;
        verdicts.push(
          missing
            ? at(elsewhere, missing)
            : status >= 400 && status < 500
              ? { outcome: 'pass' }
              : at(elsewhere, {
                  outcome: 'fail',
                  expected: `a 4xx (404) for ${elsewhere.sent.operation} of the item under a parent it does not live under`,
                  actual: describe(elsewhere.exchange),
                  cause: `${elsewhere.sent.operation} finds an item under a parent it does not live under`,
                }),
        );
      }
      if (
        pages.length > 0 &&
        r.list &&
        pages.every((p) => isSuccess(p.exchange) && listItems(r.list!, answerJson(p.exchange)))
      ) {
        const seen = readPages(ctx, r.list, pages, state);
        const last = pages[pages.length - 1]!;
        if (seen.found !== undefined)
          verdicts.push(
            at(last, {
              outcome: 'fail',
              expected: `${last.sent.operation} of another parent leaves the item out`,
              actual: `listed under a parent it does not live under: ${describe(last.exchange)}`,
              cause: `${last.sent.operation} lists an item under a parent it does not live under`,
            }),
          );
      }
    }
    return combined(verdicts, skipAll(cases));
  },
};

export const stateNestedChecks = [ownParent];
