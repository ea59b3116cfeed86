// Cases for checks that reach every operation of the document (PS-OP-*,
// the resource's PS-STATE-*): a call to an operation, sent at once or right
// after a create whose plant it acts on. A call that needs a stored plant
// (an item operation: its path carries the plant's id) is planned as a
// create; the runner sends it, and `followCalls` builds the call from its
// answer (the id sent, or the id the answer carries where the document's
// links say so), round after round for calls that follow calls.
import type { RequestSpec } from './exchange.js';
import { noteText, parseExact, type JsonValue } from '../model/json.js';
import { operationName, type OperationModel, type ParameterModel } from '../model/operation-model.js';
import type { IdSource } from '../model/resource.js';
import { parameterTypes, textOf } from '../cases/parameter-values.js';
import { createRequest, idField, preferring, stringFields, validPlant, type Body } from './requests.js';
import type { Case, CaseExchange, CheckContext } from './types.js';

/** What the runner hands the next step: the created plant's id, and every answer so far in this chain. */
export interface Chain {
  /** The id as the create sent it, or as its answer carries it (links with $response.body). */
  id?: JsonValue;
  /** The body the create sent. */
  created?: Body;
  /** The create's answer, parsed (undefined when it was not JSON). */
  createdAnswer?: JsonValue;
  /** Every exchange of the chain so far, in order (the create first). */
  steps: Array<CaseExchange<OpSent>>;
}

/** A request to an operation, and what it is. */
export interface Call {
  /** `METHOD /path` of the operation, as the document declares it. */
  operation: string;
  label: string;
  request: RequestSpec;
  /** A step to take right after this one (a list's next page), before the rest. */
  then?: Step;
}

/** A step of a chain: its requests (sent one after the other), built from what came before. */
export type Step = (chain: Chain) => Call | Call[] | undefined;

/** What a case of these checks carries: which operation and step it is, and the steps left. */
export interface OpSent {
  /** `METHOD /path` of the operation this case is about (the create's own for a create that prepares a call). */
  operation: string;
  /** What this request is, in a few words (also its note). */
  label: string;
  /** The chain it belongs to (every case of a chain has the same). */
  chain: number;
  /** Its place in the chain: 0 for the first. */
  step: number;
  /** The steps that follow it, sent once it is answered. */
  rest: Step[];
  /** The create that starts a chain. */
  create?: Body;
}

/** The integer path parameter of an operation that carries a plant's id: the resource's, else the first integer path parameter. */
export function idParameter(ctx: CheckContext, op: OperationModel): ParameterModel | undefined {
  const known = ctx.model.resource.operations.find((r) => r.op.pointer === op.pointer)?.id?.parameter;
  const path = op.parameters.filter((p) => p.in === 'path');
  return path.find((p) => p.name === known) ?? path.find((p) => parameterTypes(ctx.model, p).includes('integer'));
}

/** Where an operation's id comes from after a create: the resource's link or shape, else the id sent. */
export function idSourceOf(ctx: CheckContext, op: OperationModel): IdSource | undefined {
  const known = ctx.model.resource.operations.find((r) => r.op.pointer === op.pointer)?.id;
  if (known) return known;
  const p = idParameter(ctx, op);
  return p ? { parameter: p.name, from: 'request', pointer: `/${idField(ctx)}` } : undefined;
}

/** The value at a JSON pointer (RFC 6901) in a value, if any. */
export function valueAt(value: JsonValue | undefined, pointer: string): JsonValue | undefined {
  let v: JsonValue | undefined = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (v === null || typeof v !== 'object' || v === undefined) return undefined;
    v = Array.isArray(v) ? v[Number(key)] : (v as Record<string, JsonValue>)[key];
  }
  return v;
}

/** The answer's body as exact JSON, or undefined. */
export function answerJson(ex: CaseExchange<unknown>['exchange']): JsonValue | undefined {
  if (!ex.response) return undefined;
  const parsed = parseExact(ex.response.bodyText);
  return parsed.ok ? parsed.value : undefined;
}

export const isSuccess = (ex: CaseExchange<unknown>['exchange']) =>
  ex.response !== undefined && ex.response.status >= 200 && ex.response.status < 300;

/** The text of an id for a path. */
export const idText = (id: JsonValue) => textOf(id);

/**
 * A chain that starts with a create of a fresh valid plant (`fields` set)
 * and continues with `steps`, each sent after the one before was answered.
 * Throws RuledOut where the document allows no such plant.
 */
export function chainAfterCreate(
  ctx: CheckContext,
  chain: number,
  label: string,
  steps: Step[],
  fields: Record<string, JsonValue> = {},
): Case<OpSent> {
  // A name of its own (the first required string member), so that a list whose Plants carry no id still shows it.
  // Every member the document declares (a tag too), so that a read that drops one shows.
  const plain = validPlant(ctx, fields, 'full');
  const name = stringFields(ctx).required.find((n) => !(n in fields));
  const body = name ? preferring(ctx, plain, { [name]: `${label} ${noteText(plain[idField(ctx)])}` }) : plain;
  const create = ctx.model.create!;
  return {
    request: createRequest(ctx, body, { note: `${label}: create the plant first` }),
    sent: { operation: operationName(create), label: `create (${label})`, chain, step: 0, rest: steps, create: body },
  };
}

/** A chain that starts with a call sent at once. */
export function startWith(chain: number, call: Call, rest: Step[] = []): Case<OpSent> {
  return {
    request: { ...call.request, note: call.request.note ?? `${call.operation}: ${call.label}` },
    sent: { operation: call.operation, label: call.label, chain, step: 0, rest },
  };
}

/** The chain's state from its exchanges so far. */
function chainOf(steps: Array<CaseExchange<OpSent>>, ctx: CheckContext): Chain {
  const first = steps[0]!;
  const out: Chain = { steps };
  if (first.sent.create) {
    out.created = first.sent.create;
    out.createdAnswer = answerJson(first.exchange);
    out.id = first.sent.create[idField(ctx)];
  }
  return out;
}

/**
 * The next step of every chain whose last case was answered in the round
 * just sent: chains run one step per round. A create refused ends its chain
 * (what follows needs the plant).
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
      const built = rest[0]!(chainOf(steps, ctx));
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
        },
      }),
    );
  }
  return out;
}

/** The id a created plant is known by for an operation's id parameter, from its chain. */
export function chainId(chain: Chain, source: IdSource): JsonValue | undefined {
  if (source.from === 'response') return valueAt(chain.createdAnswer, source.pointer);
  return valueAt(chain.created, source.pointer);
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
