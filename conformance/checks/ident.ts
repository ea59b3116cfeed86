// PS-IDENT-*: what names a created item. A 201's Location names the item
// created, and reading it answers that item (RFC 9110 §10.2.2, §15.3.2);
// where the server assigns ids, two creates of one body are two items, each
// under an id of its own.
import { operationName } from '../model/operation-model.js';
import { RuledOut } from '../model/ruled-out.js';
import type { ResourceModel } from '../model/resource.js';
import { describe, noAnswer } from './grades.js';
import { createdId } from './created.js';
import {
  answerJson,
  chainAfterCreate,
  createCall,
  followCalls,
  idText,
  isSuccess,
  type Call,
  type Chain,
  type OpSent,
} from './op-cases.js';
import { callTo } from './op-requests.js';
import { defaultCredentials, withCredentials } from './credentials.js';
import { pathWithin, switchedOff, usable } from './resource-calls.js';
import { rfc } from './sources.js';
import { at, combined, created, differences, skipAll, steps } from './state-verdicts.js';
import type { Case, CheckContext, ExchangeCheck, Verdict } from './types.js';

const READ_LOCATION = 'read the Location';
const AGAIN = 'create the same body again';

/** Whether a resource's create may answer 201 with a Location: it declares a 201 or a Location header. */
const mayLocate = (r: ResourceModel) =>
  r.create !== undefined && (r.create.responses.has('201') || r.identity.location);

/** A GET of the Location a chain's create was answered with, through the read operation where it has one. */
function readLocation(ctx: CheckContext, r: ResourceModel, chain: Chain): Call | undefined {
  const create = chain.steps[0]!.exchange;
  const location = create.response?.headers.location;
  if (create.response?.status !== 201 || location === undefined) return undefined;
  const path = pathWithin(ctx, location, create.url);
  if (path === undefined) return undefined;
  const read = usable(ctx, r.read) ? r.read : undefined;
  const base = read
    ? callTo(ctx, read.op, READ_LOCATION, { parent: chain.parent ?? 0, set: { [read.id!.parameter]: 'x' } })
    : {
        operation: `GET ${location}`,
        label: READ_LOCATION,
        // No read operation to carry its own: the credentials the create was sent with.
        request: withCredentials({ method: 'GET', path, headers: {} }, defaultCredentials(ctx.target, r.create!)),
      };
  return {
    ...base,
    label: READ_LOCATION,
    request: { ...base.request, path, note: `GET ${location}: ${READ_LOCATION}` },
  };
}

const locationNamesItem: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-IDENT-001',
  title: "A 201's Location names the item created: GET of it answers what the create answered (every resource)",
  level: 'MUST',
  source: rfc(9110, '§10.2.2 Location', 'section-10.2.2'),
  requirement:
    'For 201 (Created) responses, the Location value refers to the primary resource created by the request. (§15.3.2: "the primary resource created by the request is identified by either a Location header field in the response or, if no Location header field is received, by the target URI.")',
  grading:
    "MUST: a 201 whose Location, read with GET, is not answered 2xx with the item the create answered (another item, or none) fails. A 201 without Location: skip (the target URI identifies what was created; a Location the document declares required is PS-HEAD-001's). A Location outside the target's base URL cannot be read: skip.",
  evidence:
    "For each resource whose create declares 201 or a Location: a create answered 201 with a Location, then GET of that URI answered 2xx with every member of the create's answer, same values.",
  cases: (ctx) => {
    const found = ctx.model.resources.filter(mayLocate);
    if (found.length === 0) throw new RuledOut('no create of the document declares 201 or a Location header');
    return found.map((resource, i) =>
      chainAfterCreate(ctx, i, 'located', [(chain) => readLocation(ctx, resource, chain)], {}, { resource }),
    );
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases) => {
    const verdicts: Verdict[] = [];
    for (const chain of created(cases)) {
      const create = chain[0]!;
      const [read] = steps(chain, READ_LOCATION);
      const location = create.exchange.response?.headers.location;
      if (!read) {
        verdicts.push(
          at(create, {
            outcome: 'skip',
            actual:
              create.exchange.response?.status !== 201
                ? `the create was answered ${create.exchange.response?.status}, not 201: no Location to read`
                : location === undefined
                  ? 'the 201 carries no Location: the target URI identifies what was created (RFC 9110 §15.3.2)'
                  : `its Location ${JSON.stringify(location)} is outside the target's base URL`,
          }),
        );
        continue;
      }
      const missing = noAnswer(read.exchange);
      if (missing) {
        verdicts.push(at(read, missing));
        continue;
      }
      const expected = `GET of the 201's Location (${location}) answers 2xx with the item the create answered`;
      const diff = isSuccess(read.exchange)
        ? differences(answerJson(create.exchange), answerJson(read.exchange))
        : ['(not found)'];
      verdicts.push(
        diff.length === 0
          ? at(read, { outcome: 'pass' })
          : at(read, {
              outcome: 'fail',
              expected,
              actual: `${isSuccess(read.exchange) ? `${diff.join(', ')} not as the create answered` : 'the Location names nothing'}: ${describe(read.exchange)}`,
              cause: `the Location of a 201 of ${create.sent.operation} does not name the item created`,
            }),
      );
    }
    return combined(verdicts, skipAll(cases));
  },
};

const twoCreatesTwoItems: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-IDENT-002',
  title: 'Where the server assigns ids, two creates of one body are two items, each under an id of its own',
  level: 'MUST',
  source: rfc(9110, '§15.3.2 201 Created', 'section-15.3.2'),
  requirement:
    "The 201 (Created) status code indicates that the request has been fulfilled and has resulted in one or more new resources being created. (§9.3.3: POST is not idempotent; the create's request carries no id, so the server names each item it creates.)",
  grading:
    'MUST (inference identity): two creates of one body, both answered 201, naming one id (the second overwrote the first, or was not created) fail: a 201 says a new resource was created. Both answered 2xx, not both 201, with one id is non-strict (a find-or-create may answer the item it already stores with 200). Ids the harness cannot find: skip.',
  evidence:
    "For each resource whose create's request carries no id: two creates of one body, both answered 2xx, their ids (the answer's id member, or the Location) found and different.",
  precondition: (ctx) => switchedOff(ctx, 'identity'),
  cases: (ctx) => {
    const found = ctx.model.resources.filter((r) => r.create && r.identity.request === undefined);
    if (found.length === 0) throw new RuledOut("every create's request carries its id: the client names its items");
    const out: Array<Case<OpSent>> = [];
    for (const resource of found) {
      const again = (chain: Chain): Call => ({
        operation: operationName(resource.create!),
        label: AGAIN,
        request: createCall(
          ctx,
          resource,
          chain.created!,
          `${operationName(resource.create!)}: ${AGAIN}`,
          chain.parent,
        ),
      });
      out.push(chainAfterCreate(ctx, out.length, 'twice', [again], {}, { resource }));
    }
    return out;
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const verdicts: Verdict[] = [];
    for (const chain of created(cases)) {
      const first = chain[0]!;
      const [second] = steps(chain, AGAIN);
      if (!second || !isSuccess(second.exchange)) {
        verdicts.push(
          second
            ? at(second, {
                outcome: 'skip',
                actual: `the second create was not accepted: ${describe(second.exchange)}`,
              })
            : skipAll(chain),
        );
        continue;
      }
      const r = ctx.model.resources.find((x) => x.collection === first.sent.collection) ?? ctx.model.resource;
      const a = createdId(ctx, r, first.sent.create, first.exchange).id;
      const b = createdId(ctx, r, first.sent.create, second.exchange).id;
      if (a === undefined || b === undefined) {
        verdicts.push(at(second, { outcome: 'skip', actual: 'the id of a created item is nowhere the harness looks' }));
        continue;
      }
      if (idText(a) !== idText(b)) {
        verdicts.push({ outcome: 'pass' });
        continue;
      }
      const both201 = first.exchange.response!.status === 201 && second.exchange.response!.status === 201;
      verdicts.push(
        at(second, {
          outcome: both201 ? 'fail' : 'non-strict',
          expected: 'two items under two ids',
          actual: `both creates of one body name the id ${idText(a)}: ${describe(second.exchange)}`,
          cause: `two creates of ${second.sent.operation} answered ${both201 ? '201' : '2xx'} name one item`,
        }),
      );
    }
    return combined(verdicts, skipAll(cases));
  },
};

export const identChecks = [locationNamesItem, twoCreatesTwoItems];
