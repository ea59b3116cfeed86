// Cases for checks that reach every operation of the document (PS-OP-*,
// the resources' PS-STATE-*, and the checks of what a document declares): a
// call to an operation, sent at once or right after a create of the item it
// acts on. A call that needs a stored item (its path names one item of a
// resource) is planned as a create of that resource, under a parent stored
// before the checks where the resource is nested; the runner sends it, and
// `followCalls` builds the call from its answer (the id sent, or the id the
// answer carries, its Location, or where the document's links say so),
// round after round for calls that follow calls.
import type { RequestSpec } from './exchange.js';
import { noteText, type JsonValue } from '../model/json.js';
import { operationName, type OperationModel, type ParameterModel } from '../model/operation-model.js';
import type { IdSource, ResourceModel } from '../model/resource.js';
import { RuledOut } from '../model/ruled-out.js';
import { answerJson, createdId, etagOf, valueAt } from './created.js';
import { itemBody } from './item-bodies.js';
import { idText, placeOf } from './prerequisites.js';
import { operationCall, type CallOptions } from './op-requests.js';
import { preferring, stringFields, type Body } from './requests.js';
import type { Case, CaseExchange, CheckContext } from './types.js';
import type { BoundaryValue, Call, Chain, OpSent, Step } from './chain.js';

export type { BoundaryValue, Call, Chain, OpSent, Step };

export { answerJson, idText, valueAt };

/** The resource whose item an operation acts on, where its path names one item of a resource (`/plants/{id}`, `/plants/{id}/watering`). */
export function itemResource(ctx: CheckContext, op: OperationModel): ResourceModel | undefined {
  const place = placeOf(ctx.model, op);
  return place?.onItem ? place.resource : undefined;
}

/** The path parameter of an operation that names the item it acts on: its link's or its resource's, else the one at the item's place in its path. */
export function idParameter(ctx: CheckContext, op: OperationModel): ParameterModel | undefined {
  const r = itemResource(ctx, op);
  if (!r) return undefined;
  const known = r.operations.find((x) => x.op.pointer === op.pointer)?.id?.parameter;
  const path = op.parameters.filter((p) => p.in === 'path');
  if (known !== undefined) return path.find((p) => p.name === known);
  const segments = op.path.split('/').filter((s) => s !== '');
  const at = (r.collection ?? '').split('/').filter((s) => s !== '').length;
  const name = /^\{([^{}/]+)\}$/.exec(segments[at] ?? '')?.[1];
  return path.find((p) => p.name === name);
}

/** Where an operation's item id comes from after a create: its link, else the item the chain created. */
export function idSourceOf(ctx: CheckContext, op: OperationModel): IdSource | undefined {
  const r = itemResource(ctx, op);
  const known = r?.operations.find((x) => x.op.pointer === op.pointer)?.id;
  if (known) return known;
  const p = idParameter(ctx, op);
  return p ? { parameter: p.name } : undefined;
}

export const isSuccess = (ex: CaseExchange<unknown>['exchange']) =>
  ex.response !== undefined && ex.response.status >= 200 && ex.response.status < 300;

/** The request that creates an item of `r` with `body` (under the `parent`-th stored parent). */
export function createCall(
  ctx: CheckContext,
  r: ResourceModel,
  body: Body,
  note: string,
  parent = 0,
  opts: CallOptions = {},
): RequestSpec {
  const create = r.create;
  if (!create) throw new RuledOut(`${r.collection ?? 'the document'} declares no create: there is no item to act on`);
  return operationCall(ctx, create, {
    ...opts,
    body: { contentType: create.requestContentTypes[0]!, value: body },
    parent,
    note,
  });
}

/**
 * A chain that starts with a create of a fresh valid item of `resource` (the
 * create checks' own by default; `fields` set) and continues with `steps`,
 * each sent after the one before was answered. Throws RuledOut where the
 * document allows no such item.
 */
export function chainAfterCreate(
  ctx: CheckContext,
  chain: number,
  label: string,
  steps: Step[],
  fields: Record<string, JsonValue> = {},
  opts: { resource?: ResourceModel; parent?: number; call?: CallOptions } = {},
): Case<OpSent> {
  const r = opts.resource ?? ctx.model.resource;
  if (!r.create)
    throw new RuledOut(
      `the document declares no create operation${ctx.model.createMissing ? ` (${ctx.model.createMissing})` : ''}: there is no item to act on`,
    );
  const body = namedItemBody(ctx, r, fields, label);
  const parent = opts.parent ?? 0;
  return {
    request: createCall(ctx, r, body, `${label}: create the item first`, parent, opts.call),
    sent: {
      operation: operationName(r.create),
      label: `create (${label})`,
      chain,
      step: 0,
      rest: steps,
      create: body,
      collection: r.collection,
      parent,
    },
  };
}

/**
 * A valid body of a create of `r` with every member the document declares (a
 * tag too, so that a read that drops one shows) and a name of its own (the
 * first required string member `fields` does not set: `label` and the id),
 * so that a list whose items carry no id still shows it.
 */
export function namedItemBody(
  ctx: CheckContext,
  r: ResourceModel,
  fields: Record<string, JsonValue> = {},
  label = 'item',
): Body {
  const plain = itemBody(ctx, r, fields, 'full');
  const strings = r === ctx.model.resource ? stringFields(ctx).required : requiredStrings(r);
  const name = strings.find((n) => !(n in fields));
  const id = r.identity.request !== undefined ? plain[r.identity.request] : undefined;
  const own = `${label} ${id !== undefined ? noteText(id) : ctx.ids.fresh().toString()}`;
  return name ? preferOwn(ctx, r, plain, name, own) : plain;
}

/** The required string members of a create's request. */
function requiredStrings(r: ResourceModel): string[] {
  return (r.create?.request.fields ?? []).filter((f) => f.required && f.types.includes('string')).map((f) => f.name);
}

/** The body with `name` set to `value` where the document allows it. */
function preferOwn(ctx: CheckContext, r: ResourceModel, body: Body, name: string, value: string): Body {
  if (r === ctx.model.resource) return preferring(ctx, body, { [name]: value });
  const tried = { ...body, [name]: value };
  return (r.create!.requestBodies[0]?.validate?.(tried) ?? []).length === 0 ? tried : body;
}

/** A chain that starts with a call sent at once. */
export function startWith(chain: number, call: Call, rest: Step[] = []): Case<OpSent> {
  return {
    request: { ...call.request, note: call.request.note ?? `${call.operation}: ${call.label}` },
    sent: {
      operation: call.operation,
      label: call.label,
      chain,
      step: 0,
      rest,
      ...(call.boundary ? { boundary: call.boundary } : {}),
      ...(call.outOfFormat ? { outOfFormat: call.outOfFormat } : {}),
    },
  };
}

/** The chain's state from its exchanges so far. */
export function chainOf(steps: Array<CaseExchange<OpSent>>, ctx: CheckContext): Chain {
  const first = steps[0]!;
  const out: Chain = { steps };
  if (first.sent.create) {
    const r = ctx.model.resources.find((x) => x.collection === first.sent.collection) ?? ctx.model.resource;
    out.resource = r;
    out.created = first.sent.create;
    out.createdAnswer = answerJson(first.exchange);
    out.parent = first.sent.parent ?? 0;
    const { id } = createdId(ctx, r, first.sent.create, first.exchange);
    if (id !== undefined) out.id = id;
  }
  return out;
}

/** The latest entity tag the chain's item was answered with (its create's, or a read's, or a change's): RFC 9110 §8.8.3. */
export function chainEtag(chain: Chain): string | undefined {
  const item = chain.resource?.item;
  for (const s of [...chain.steps].reverse()) {
    const onItem = s.sent.create !== undefined || (item !== undefined && s.sent.operation.endsWith(` ${item}`));
    const tag = onItem && isSuccess(s.exchange) ? etagOf(s.exchange) : undefined;
    if (tag !== undefined) return tag;
  }
  return undefined;
}

/**
 * The next step of every chain whose last case was answered in the round
 * just sent: chains run one step per round. A create refused ends its chain
 * (what follows needs the item).
 */
export function followCalls(sent: Array<CaseExchange<unknown>>, ctx: CheckContext): Array<Case<OpSent>> {
  const all = sent as Array<CaseExchange<OpSent>>;
  const chains = new Map<number, Array<CaseExchange<OpSent>>>();
  for (const c of all) chains.set(c.sent.chain, [...(chains.get(c.sent.chain) ?? []), c]);
  const out: Array<Case<OpSent>> = [];
  for (const [chain, steps] of chains) {
    const last = steps[steps.length - 1]!;
    if (last.sent.rest.length === 0) continue;
    if (last.sent.create && !isSuccess(last.exchange)) continue;
    // A step with nothing to send (a list read to its end) hands over to the next.
    let rest = last.sent.rest;
    let requests: Call[] = [];
    while (requests.length === 0 && rest.length > 0) {
      let built: Call | Call[] | undefined;
      try {
        built = rest[0]!(chainOf(steps, ctx));
      } catch (err) {
        // What the document rules out for this step (no id to name the item by, say) ends the chain: its verdict says so.
        if (!(err instanceof RuledOut)) throw err;
        built = undefined;
        rest = [];
        break;
      }
      rest = rest.slice(1);
      requests = built === undefined ? [] : Array.isArray(built) ? built : [built];
    }
    // A step that gives several requests sends them one after the other; the last carries the rest of the chain.
    requests.forEach((call, i) =>
      out.push({
        request: { ...call.request, note: call.request.note ?? `${call.operation}: ${call.label}` },
        sent: {
          operation: call.operation,
          label: call.label,
          chain,
          step: last.sent.step + 1 + i,
          rest: i === requests.length - 1 ? [...(call.then ? [call.then] : []), ...rest] : [],
          ...(call.made ? { made: call.made } : {}),
          ...(call.boundary ? { boundary: call.boundary } : {}),
          ...(call.outOfFormat ? { outOfFormat: call.outOfFormat } : {}),
        },
      }),
    );
  }
  return out;
}

/** The id a created item is known by for an operation's id parameter, from its chain; throws RuledOut where none was found. */
export function chainId(chain: Chain, source: IdSource): JsonValue {
  const id = source.link
    ? valueAt(source.link.from === 'response' ? chain.createdAnswer : chain.created, source.link.pointer)
    : chain.id;
  if (id === undefined || id === null)
    throw new RuledOut(
      `the id of the item just created was not found (${source.link ? `the link's ${source.link.from} body at ${source.link.pointer}` : whereIdsAre(chain.resource)})`,
    );
  return id;
}

/** Where the harness looks for a created item's id, in words. */
function whereIdsAre(r: ResourceModel | undefined): string {
  if (!r) return 'no create';
  const { identity } = r;
  const places = [
    identity.request !== undefined ? `the request's ${identity.request}` : undefined,
    identity.answer ? `the answer's ${identity.answer.member}` : undefined,
    identity.parameter && r.item ? `a Location naming ${r.item}` : undefined,
  ].filter(Boolean);
  return places.length > 0 ? `looked in ${places.join(', ')}` : 'the document says nowhere where it is';
}

/** A case with its index among the cases sent (a verdict's `exchange`). */
export type Indexed = CaseExchange<OpSent> & { index: number };

/** The cases of each chain, in order, each with its index among all sent. */
export function chains(cases: Array<CaseExchange<unknown>>): Indexed[][] {
  const map = new Map<number, Indexed[]>();
  (cases as Array<CaseExchange<OpSent>>).forEach((c, index) =>
    map.set(c.sent.chain, [...(map.get(c.sent.chain) ?? []), { ...c, index }]),
  );
  return [...map.values()];
}
