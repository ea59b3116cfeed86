// PS-STATE-007 and 008: PUT and PATCH change what GET answers (RFC 9110
// §9.3.4, RFC 7396), and a limit bounds the list (inferences update and
// limit, docs/checks.md), on every resource that declares them.
import { noteText, type JsonValue } from '../model/json.js';
import { operationName } from '../model/operation-model.js';
import { flattenObject } from '../model/schema-shape.js';
import { RuledOut } from '../model/ruled-out.js';
import { validBody } from '../cases/operation-bodies.js';
import { describe, noAnswer } from './grades.js';
import {
  answerJson,
  chainAfterCreate,
  chainOf,
  chains,
  createCall,
  followCalls,
  isSuccess,
  valueAt,
  type Call,
  type Chain,
  type OpSent,
} from './op-cases.js';
import { callTo } from './op-requests.js';
import { at, combined, created, differences, forbidden, skipAll, steps } from './state-verdicts.js';
import { itemBody } from './item-bodies.js';
import { changeable, idMembers, jsonMedia, leanest } from './change-bodies.js';
import { itemCall, listItems, limitValue, readableList, resourcesWith, switchedOff, usable } from './resource-calls.js';
import { rfc } from './sources.js';
import type { Case, CheckContext, ExchangeCheck, Verdict } from './types.js';

/**
 * The change a PUT or PATCH makes: its body, the members GET must then
 * answer, and for a PUT the members of the plant it leaves out (a replace
 * does not keep them, RFC 9110 §9.3.4; a merge would).
 */
function changeCall(
  ctx: CheckContext,
  kind: 'replace' | 'merge',
  chain: Chain,
): { call: Call; expect: Record<string, JsonValue>; left: string[] } {
  const resource = chain.resource ?? ctx.model.resource;
  const r = resource[kind]!;
  const media = jsonMedia(r.op)!;
  const field = changeable(ctx, resource, media)!;
  const id = chain.id;
  const value = `${kind === 'replace' ? 'replaced' : 'merged'} ${id !== undefined ? noteText(id) : ''}`.trim();
  // The id where the body's schema has a member for it (a replace that repeats the id, not readOnly).
  const idMember =
    id !== undefined && media.schema
      ? flattenObject(ctx.model.doc, media.schema.schema, media.schema.pointer).fields.find(
          (f) => idMembers(resource).includes(f.name) && !f.readOnly,
        )?.name
      : undefined;
  const body =
    kind === 'replace'
      ? leanest(
          media,
          validBody(ctx.model, media, [
            [[field], value],
            ...(idMember !== undefined ? [[[idMember], id] as [string[], JsonValue]] : []),
          ]),
          [field, ...(idMember !== undefined ? [idMember] : [])],
        )
      : { [field]: value };
  if (kind === 'merge' && (media.validate?.(body) ?? []).length > 0)
    throw new RuledOut(`the document refuses a ${media.contentType} patch of ${field} alone`);
  // A replace: GET answers the members the PUT sent; a merge: the members it set, the others as the create answered them (RFC 7396 §1).
  const before = answerJson(chain.steps[0]!.exchange);
  const plant =
    before !== null && typeof before === 'object' && !Array.isArray(before)
      ? (before as Record<string, JsonValue>)
      : {};
  const expect = kind === 'replace' ? (body as Record<string, JsonValue>) : { ...plant, [field]: value };
  const readOnly = new Set((resource.create?.answer.fields ?? []).filter((f) => f.readOnly).map((f) => f.name));
  const left =
    kind === 'replace'
      ? Object.keys(plant).filter(
          (k) => !idMembers(resource).includes(k) && !readOnly.has(k) && !(k in (body as Record<string, JsonValue>)),
        )
      : [];
  return {
    call: itemCall(ctx, r, chain, kind === 'replace' ? `replace ${field}` : `merge ${field}`, {
      body: { contentType: media.contentType, value: body },
    }),
    expect,
    left,
  };
}

const updated: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-STATE-007',
  title:
    'PUT and PATCH change what GET answers: a replaced item is read back as sent, a merged one with the members set and the others kept (every resource)',
  level: 'MUST',
  source: rfc(9110, '§9.3.4 PUT', 'section-9.3.4'),
  requirement:
    'The PUT method requests that the state of the target resource be created or replaced with the state defined by the representation enclosed in the request message content. ... a successful PUT of a given representation would suggest that a subsequent GET on that same target resource will result in an equivalent representation being sent. (RFC 7396 §1: "Members that are not explicitly contained in the patch are not changed.")',
  grading:
    'MUST (inference update): after a 2xx to PUT, GET answering other values than sent, or a member the PUT left out with the value it had before (a merge, not a replace), or after a 2xx to PATCH, GET answering the member set otherwise, or another member changed, fails. A PUT or PATCH that is refused: skip (PS-OP-* grade it), and so is a read refused with 403 (the token may not read). Without a read operation: skip.',
  evidence:
    'For each of PUT and PATCH on an item of each resource: a create answered 2xx (with every member), the change answered 2xx (a PUT with the fewest members its schema allows, and the entity tag the item was last answered with where it takes If-Match), then GET of the item answered 2xx with the changed members, and without the members the PUT left out (readOnly members aside).',
  precondition: (ctx) => switchedOff(ctx, 'update'),
  cases: (ctx) => {
    const out: Array<Case<OpSent>> = [];
    for (const { resource, op: read } of resourcesWith(ctx, (r) => r.read)) {
      for (const kind of ['replace', 'merge'] as const) {
        const r = resource[kind];
        if (!usable(ctx, r)) continue;
        const media = jsonMedia(r.op);
        if (!media || !changeable(ctx, resource, media)) continue;
        out.push(
          chainAfterCreate(
            ctx,
            out.length,
            kind,
            [(chain) => changeCall(ctx, kind, chain).call, (chain) => itemCall(ctx, read, chain, `read after ${kind}`)],
            {},
            { resource },
          ),
        );
      }
    }
    if (out.length === 0)
      throw new RuledOut(
        'the document declares no PUT or PATCH on an item it can read back, with a JSON body that changes a string member',
      );
    return out;
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const verdicts: Verdict[] = [];
    for (const chain of created(cases)) {
      const [change, read] = chain.slice(1);
      if (!change || !read) continue;
      const kind = change.sent.label.startsWith('replace') ? 'replace' : 'merge';
      if (!isSuccess(change.exchange)) {
        verdicts.push(
          at(change, {
            outcome: 'skip',
            actual: `the ${kind} was not successful (PS-OP-* grade it): ${describe(change.exchange)}`,
          }),
        );
        continue;
      }
      const missing = noAnswer(read.exchange) ?? forbidden(read);
      if (missing) {
        verdicts.push(at(read, missing));
        continue;
      }
      const chainState: Chain = chainOf(chain.slice(0, 1), ctx);
      const { expect, left } = changeCall(ctx, kind, chainState);
      const body = answerJson(read.exchange);
      const plant = new Set((chainState.resource ?? ctx.model.resource).create!.answer.fields.map((f) => f.name));
      const diff = isSuccess(read.exchange) ? differences(expect, body, [...plant]) : ['(not read)'];
      // A member the PUT left out, read back with the value it had before: kept, as a merge would (another value, a default say, is the server's).
      const before = answerJson(chain[0]!.exchange);
      const kept =
        diff.length === 0
          ? left.filter((k) => plant.has(k) && differences({ [k]: valueAt(before, `/${k}`)! }, body).length === 0)
          : [];
      if (kept.length > 0) {
        verdicts.push(
          at(read, {
            outcome: 'fail',
            expected: `${read.sent.operation} answers the item as the replace left it, without ${kept.join(', ')}`,
            actual: `after a ${change.exchange.response!.status} to ${change.sent.operation} without ${kept.join(', ')}, ${kept.join(', ')} still as before: ${describe(read.exchange)}`,
            cause: 'a replace keeps members it was not sent (a merge)',
          }),
        );
        continue;
      }
      const expected = `${read.sent.operation} answers the item as the ${kind} left it`;
      verdicts.push(
        at(
          read,
          diff.length === 0
            ? { outcome: 'pass' }
            : {
                outcome: 'fail',
                expected,
                actual: `after a ${change.exchange.response!.status} to ${change.sent.operation}, ${diff.join(', ')} not as the ${kind} left it: ${describe(read.exchange)}`,
                cause: `a ${kind} does not change what GET answers`,
              },
        ),
      );
    }
    return combined(verdicts, skipAll(cases));
  },
};

const bounded: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-STATE-008',
  title:
    'A list parameter that bounds the result (limit and its synonyms, or a description that says "maximum") bounds the array (every resource)',
  level: 'MUST',
  source: {
    document: 'OpenAPI 3.1',
    section: '§4.8.12 Parameter Object: description',
    url: 'https://spec.openapis.org/oas/v3.1.0#parameter-object',
  },
  requirement:
    'A brief description of the parameter. (The starter\'s limit: "The maximum number of results to return"; a parameter named limit, max, size, pageSize, page_size, per_page, count, top or first, of integer type, bounds how many items one answer holds.)',
  grading:
    'MUST (inference limit): with two items stored, a list asked for at most 1 (or its minimum) that holds more items fails.',
  evidence:
    'For each resource whose list has a limit: two creates answered 2xx, then the list with its limit at 1 (or the smallest value its schema allows) answered 2xx with at most that many items.',
  precondition: (ctx) => switchedOff(ctx, 'limit'),
  cases: (ctx) => {
    const lists = ctx.model.resources.filter((r) => r.create && usable(ctx, r.list) && r.list.shape && r.list.limit);
    if (lists.length === 0) {
      const list = readableList(ctx);
      throw new RuledOut(`${operationName(list.op)} has no parameter that bounds it`);
    }
    const out: Array<Case<OpSent>> = [];
    for (const resource of lists) {
      const list = readableList(ctx, resource);
      const limit = limitValue(ctx, list, 1);
      if (limit === undefined || limit < 1) continue;
      const name = operationName(list.op);
      const second = itemBody(ctx, resource);
      out.push(
        chainAfterCreate(
          ctx,
          out.length,
          'limit',
          [
            () => ({
              operation: operationName(resource.create!),
              label: 'create a second item',
              request: createCall(ctx, resource, second, 'a second item'),
            }),
            () =>
              callTo(ctx, list.op, `list with ${list.limit!.parameter.name}=${limit}`, {
                set: { [list.limit!.parameter.name]: String(limit) },
                note: `${name}: ${list.limit!.parameter.name}=${limit}`,
              }),
          ],
          {},
          { resource },
        ),
      );
    }
    if (out.length === 0) throw new RuledOut('no list limit allows a small value the harness can send');
    return out;
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const verdicts: Verdict[] = [];
    for (const chain of chains(cases)) {
      const resource = chainOf(chain.slice(0, 1), ctx).resource ?? ctx.model.resource;
      const list = resource.list!;
      const [page] = steps(chain, 'list with');
      if (!page || !chain.slice(0, 2).every((s) => isSuccess(s.exchange))) {
        verdicts.push(skipAll(chain));
        continue;
      }
      const missing = noAnswer(page.exchange);
      if (missing) {
        verdicts.push(at(page, missing));
        continue;
      }
      const limit = limitValue(ctx, list, 1)!;
      const items = isSuccess(page.exchange) ? listItems(list, answerJson(page.exchange)) : undefined;
      if (!items) {
        verdicts.push(
          at(page, {
            outcome: 'skip',
            actual: `the list was not answered with its declared shape (PS-OP-* grade it): ${describe(page.exchange)}`,
          }),
        );
        continue;
      }
      verdicts.push(
        items.length <= limit
          ? { outcome: 'pass' }
          : at(page, {
              outcome: 'fail',
              expected: `at most ${limit} item(s)`,
              actual: `${page.sent.operation} with ${list.limit!.parameter.name}=${limit} holds ${items.length}: ${describe(page.exchange)}`,
              cause: `the list holds more items than its ${list.limit!.parameter.name} asks`,
            }),
      );
    }
    return combined(verdicts, skipAll(cases));
  },
};

export const stateUpdateChecks = [updated, bounded];
