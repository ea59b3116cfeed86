// PS-STATE-007 and 008: PUT and PATCH change what GET answers (RFC 9110
// §9.3.4, RFC 7396), and a limit bounds the list (inferences update and
// limit, docs/checks.md).
import { noteText, type JsonValue } from '../model/json.js';
import { operationName, type OperationModel, type RequestBodyModel } from '../model/operation-model.js';
import { flattenObject } from '../model/schema-shape.js';
import { RuledOut } from '../model/ruled-out.js';
import { validBody } from '../cases/operation-bodies.js';
import { describe, noAnswer, worst } from './grades.js';
import {
  answerJson,
  chainAfterCreate,
  chains,
  followCalls,
  isSuccess,
  valueAt,
  type Call,
  type Chain,
  type OpSent,
} from './op-cases.js';
import { callTo, isJsonMedia, writable } from './op-requests.js';
import { at, created, differences, forbidden, skipAll, steps } from './plant-state.js';
import { createRequest, idField, validPlant } from './requests.js';
import { itemCall, listItems, limitValue, readableList, resourceOp, switchedOff } from './resource-calls.js';
import { rfc } from './sources.js';
import type { Case, CheckContext, ExchangeCheck, Verdict } from './types.js';

/** A string property of the body's schema other than the id, which a change can set. */
function changeable(ctx: CheckContext, media: RequestBodyModel): string | undefined {
  if (!media.schema) return undefined;
  return flattenObject(ctx.model.doc, media.schema.schema, media.schema.pointer).fields.find(
    (f) => f.name !== idField(ctx) && f.types.includes('string'),
  )?.name;
}

/** The JSON media type of an operation's body (merge-patch+json first for a PATCH). */
function jsonMedia(op: OperationModel): RequestBodyModel | undefined {
  const medias = op.requestBodies.filter((b) => writable(b) && isJsonMedia(b.contentType));
  return medias.find((b) => b.contentType.includes('merge-patch')) ?? medias[0];
}

/** The body without each member it can do without (its schema still accepting it), `keep` aside. */
function leanest(media: RequestBodyModel, body: JsonValue, keep: string[]): JsonValue {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  let out = body as Record<string, JsonValue>;
  for (const name of Object.keys(out).filter((k) => !keep.includes(k))) {
    const without = Object.fromEntries(Object.entries(out).filter(([k]) => k !== name));
    if ((media.validate?.(without) ?? []).length === 0) out = without;
  }
  return out;
}

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
  const r = ctx.model.resource[kind]!;
  const media = jsonMedia(r.op)!;
  const field = changeable(ctx, media)!;
  const id = chain.created![idField(ctx)]!;
  const value = `${kind === 'replace' ? 'replaced' : 'merged'} ${noteText(id)}`;
  const holdsId =
    media.schema &&
    flattenObject(ctx.model.doc, media.schema.schema, media.schema.pointer).fields.some((f) => f.name === idField(ctx));
  const body =
    kind === 'replace'
      ? leanest(
          media,
          validBody(ctx.model, media, [
            [[field], value],
            ...(holdsId ? [[[idField(ctx)], id] as [string[], JsonValue]] : []),
          ]),
          [field, idField(ctx)],
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
  const left =
    kind === 'replace'
      ? Object.keys(plant).filter((k) => k !== idField(ctx) && !(k in (body as Record<string, JsonValue>)))
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
    'PUT and PATCH change what GET answers: a replaced plant is read back as sent, a merged one with the members set and the others kept',
  level: 'MUST',
  source: rfc(9110, '§9.3.4 PUT', 'section-9.3.4'),
  requirement:
    'The PUT method requests that the state of the target resource be created or replaced with the state defined by the representation enclosed in the request message content. ... a successful PUT of a given representation would suggest that a subsequent GET on that same target resource will result in an equivalent representation being sent. (RFC 7396 §1: "Members that are not explicitly contained in the patch are not changed.")',
  grading:
    'MUST (inference update): after a 2xx to PUT, GET answering other values than sent, or a member the PUT left out with the value it had before (a merge, not a replace), or after a 2xx to PATCH, GET answering the member set otherwise, or another member changed, fails. A PUT or PATCH that is refused: skip (PS-OP-* grade it), and so is a read refused with 403 (the token may not read). Without a read operation: skip.',
  evidence:
    'For each of PUT and PATCH on the item: a create answered 2xx (with every member), the change answered 2xx (a PUT with the fewest members its schema allows), then GET of the item answered 2xx with the changed members, and without the members the PUT left out.',
  precondition: (ctx) => switchedOff(ctx, 'update'),
  cases: (ctx) => {
    const read = resourceOp(ctx, ctx.model.resource.read, 'read a plant back after a change');
    const out: Array<Case<OpSent>> = [];
    for (const kind of ['replace', 'merge'] as const) {
      const r = ctx.model.resource[kind];
      if (!r || (r.by === 'shape' && !ctx.inferences.has('resource'))) continue;
      const media = jsonMedia(r.op);
      if (!media || !changeable(ctx, media)) continue;
      out.push(
        chainAfterCreate(ctx, out.length, kind, [
          (chain) => changeCall(ctx, kind, chain).call,
          (chain) => itemCall(ctx, read, chain, `read after ${kind}`),
        ]),
      );
    }
    if (out.length === 0)
      throw new RuledOut(
        'the document declares no PUT or PATCH on the plant with a JSON body that changes a string member',
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
      const chainState: Chain = {
        steps: chain,
        created: chain[0]!.sent.create,
        createdAnswer: answerJson(chain[0]!.exchange),
      };
      const { expect, left } = changeCall(ctx, kind, chainState);
      const body = answerJson(read.exchange);
      const plant = new Set(ctx.model.create!.answer.fields.map((f) => f.name));
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
            expected: `${read.sent.operation} answers the plant as the replace left it, without ${kept.join(', ')}`,
            actual: `after a ${change.exchange.response!.status} to ${change.sent.operation} without ${kept.join(', ')}, ${kept.join(', ')} still as before: ${describe(read.exchange)}`,
            cause: 'a replace keeps members it was not sent (a merge)',
          }),
        );
        continue;
      }
      const expected = `${read.sent.operation} answers the plant as the ${kind} left it`;
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
    return verdicts.length === 0 ? skipAll(cases) : worst(verdicts);
  },
};

const bounded: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-STATE-008',
  title:
    'A list parameter that bounds the result (limit and its synonyms, or a description that says "maximum") bounds the array',
  level: 'MUST',
  source: {
    document: 'OpenAPI 3.1',
    section: '§4.8.12 Parameter Object: description',
    url: 'https://spec.openapis.org/oas/v3.1.0#parameter-object',
  },
  requirement:
    'A brief description of the parameter. (The starter\'s limit: "The maximum number of results to return"; a parameter named limit, max, size, pageSize, page_size, per_page, count, top or first, of integer type, bounds how many plants one answer holds.)',
  grading:
    'MUST (inference limit): with two plants stored, a list asked for at most 1 (or its minimum) that holds more plants fails.',
  evidence:
    'Two creates answered 2xx, then the list with its limit at 1 (or the smallest value its schema allows) answered 2xx with at most that many plants.',
  precondition: (ctx) => switchedOff(ctx, 'limit'),
  cases: (ctx) => {
    const list = readableList(ctx);
    if (!list.limit) throw new RuledOut(`${operationName(list.op)} has no parameter that bounds it`);
    const limit = limitValue(ctx, list, 1);
    if (limit === undefined || limit < 1)
      throw new RuledOut(`${list.limit.parameter.name} allows no small limit the harness can send`);
    const name = operationName(list.op);
    const second = validPlant(ctx);
    return [
      chainAfterCreate(ctx, 0, 'limit', [
        () => ({
          operation: operationName(ctx.model.create!),
          label: 'create a second plant',
          request: createRequest(ctx, second, { note: 'a second plant' }),
        }),
        () =>
          callTo(ctx, list.op, `list with ${list.limit!.parameter.name}=${limit}`, {
            set: { [list.limit!.parameter.name]: String(limit) },
            note: `${name}: ${list.limit!.parameter.name}=${limit}`,
          }),
      ]),
    ];
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const list = ctx.model.resource.list!;
    const chain = chains(cases)[0]!;
    const [page] = steps(chain, 'list with');
    if (!page || !chain.slice(0, 2).every((s) => isSuccess(s.exchange))) return skipAll(cases);
    const missing = noAnswer(page.exchange);
    if (missing) return at(page, missing);
    const limit = limitValue(ctx, list, 1)!;
    const items = isSuccess(page.exchange) ? listItems(list, answerJson(page.exchange)) : undefined;
    if (!items)
      return at(page, {
        outcome: 'skip',
        actual: `the list was not answered with its declared shape (PS-OP-* grade it): ${describe(page.exchange)}`,
      });
    return items.length <= limit
      ? { outcome: 'pass' }
      : at(page, {
          outcome: 'fail',
          expected: `at most ${limit} plant(s)`,
          actual: `${page.sent.operation} with ${list.limit!.parameter.name}=${limit} holds ${items.length}: ${describe(page.exchange)}`,
          cause: `the list holds more plants than its ${list.limit!.parameter.name} asks`,
        });
  },
};

export const plantUpdateChecks = [updated, bounded];
