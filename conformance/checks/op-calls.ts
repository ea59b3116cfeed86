// The requests of the checks that reach every operation (op.ts): each
// operation's valid requests (required parameters, then every parameter,
// once per writable media type), sent at once or right after a create of
// the item it acts on (after a read, where it takes If-Match and the create
// gave no entity tag), numbered as one list; and, for the verdicts, the
// operations by name, the calls of each chain, and why no request reached
// an operation.
import { validBody } from '../cases/operation-bodies.js';
import type { JsonValue } from '../model/json.js';
import { operationName, type OperationModel, type RequestBodyModel } from '../model/operation-model.js';
import { parameterRole } from '../model/parameter-roles.js';
import { parameterBoundaries } from '../cases/parameter-bounds.js';
import type { ResourceModel } from '../model/resource.js';
import { RuledOut } from '../model/ruled-out.js';
import { flattenObject } from '../model/schema-shape.js';
import {
  chainAfterCreate,
  chainEtag,
  chainId,
  chains,
  idParameter,
  idSourceOf,
  idText,
  itemResource,
  startWith,
  type Call,
  type BoundaryValue,
  type Chain,
  type OpSent,
  type Step,
} from './op-cases.js';
import { callTo, writable, type CallOptions } from './op-requests.js';
import { fillParameters } from './parameters.js';
import { itemCall } from './resource-calls.js';
import type { Case, CheckContext } from './types.js';

/** The resource whose stored item the operation acts on, so that a valid request to it is sent right after a create of one; undefined: none. */
export function needsItem(ctx: CheckContext, op: OperationModel): ResourceModel | undefined {
  const r = itemResource(ctx, op);
  if (!r?.create || !idParameter(ctx, op)) return undefined;
  const known = r.operations.find((x) => x.op.pointer === op.pointer);
  return known?.by === 'shape' && !ctx.inferences.has('resource') ? undefined : r;
}

/** Whether a request to `op` carries an entity tag the item was answered with (it declares If-Match). */
export const takesEtag = (op: OperationModel) => op.parameters.some((p) => parameterRole(p)?.role === 'if-match');

/** A body of this media type for `op` that carries the item's id where its schema has its member (a replace, say). */
export function bodyFor(
  ctx: CheckContext,
  op: OperationModel,
  media: RequestBodyModel,
  chain: Chain | undefined,
  id: JsonValue | undefined,
): CallOptions['body'] {
  if (ctx.model.resources.some((r) => r.create?.pointer === op.pointer) && media === op.requestBodies[0])
    return undefined;
  const r = chain?.resource;
  const members = r ? [r.identity.request, r.identity.answer?.member] : [];
  const holds =
    id !== undefined && media.schema
      ? flattenObject(ctx.model.doc, media.schema.schema, media.schema.pointer).fields.find(
          (f) => members.includes(f.name) && !f.readOnly,
        )
      : undefined;
  return { contentType: media.contentType, value: validBody(ctx.model, media, holds ? [[[holds.name], id!]] : []) };
}

/** The valid requests to an operation: required parameters only, then every optional one too, once per writable media type. */
export function validCalls(
  ctx: CheckContext,
  op: OperationModel,
  chain: Chain | undefined,
  opts: CallOptions = {},
  withBoundaries = false,
): Call[] {
  const source = chain ? idSourceOf(ctx, op) : undefined;
  const id = chain && source ? chainId(chain, source) : undefined;
  const set = id !== undefined && source ? { [source.parameter]: idText(id) } : {};
  const etag = chain ? chainEtag(chain) : undefined;
  const inChain: CallOptions = chain
    ? { parent: chain.parent ?? 0, ...(etag !== undefined ? { ifMatch: etag } : {}) }
    : {};
  const medias = op.requestBodies.filter(writable);
  const out: Call[] = [];
  const variants: Array<[CallOptions, string, BoundaryValue?]> = [[{}, 'its required parameters']];
  if (op.parameters.some((p) => !p.required)) variants.push([{ optional: true, pick: 1 }, 'every parameter']);
  if (withBoundaries) variants.push(...boundaryVariants(ctx, op));
  for (const [i, media] of (medias.length > 0 ? medias : [undefined]).entries()) {
    for (const [v, label, boundary] of i === 0 ? variants : variants.slice(0, 1)) {
      const body = media ? bodyFor(ctx, op, media, chain, id) : undefined;
      const what = `a valid request with ${label}${media ? `, a ${media.contentType} body` : ''}${id !== undefined ? `, the item just created` : ''}`;
      const call = callTo(ctx, op, what, {
        ...inChain,
        ...v,
        ...opts,
        set: { ...set, ...(v.set ?? {}) },
        ...(body !== undefined ? { body } : {}),
        note: undefined,
      });
      out.push(boundary ? { ...call, boundary } : call);
    }
  }
  return out;
}

/**
 * One variant per boundary of each parameter the harness draws a value of
 * (not a path's id, a parent's, nor one the protocol fills): its other
 * parameters typical, this one at the least or greatest value its schema
 * allows (parameter-bounds.ts).
 */
function boundaryVariants(ctx: CheckContext, op: OperationModel): Array<[CallOptions, string, BoundaryValue]> {
  const out: Array<[CallOptions, string, BoundaryValue]> = [];
  for (const p of op.parameters) {
    if (p.in === 'path' || parameterRole(p)) continue;
    for (const b of parameterBoundaries(ctx.model, p))
      out.push([
        { set: { [p.name]: b.text } },
        `the ${p.in} parameter ${p.name} ${b.label}`,
        { parameter: p.name, text: b.text, declared: b.declared },
      ]);
  }
  return out;
}

/**
 * The cases `add` gives each operation of the document, numbered as one
 * list; an operation the document allows no such request to (RuledOut) is
 * left out, and when every one is, RuledOut saying `none`.
 */
export function eachOperation(
  ctx: CheckContext,
  none: string,
  add: (op: OperationModel, out: Array<Case<OpSent>>) => void,
): Array<Case<OpSent>> {
  const out: Array<Case<OpSent>> = [];
  for (const op of ctx.model.operations) {
    try {
      add(op, out);
    } catch (err) {
      if (!(err instanceof RuledOut)) throw err;
    }
  }
  if (out.length === 0) throw new RuledOut(none);
  return out;
}

/** Valid requests to every operation, each its own chain: a create first where the operation acts on a plant. */
export function validCases(
  ctx: CheckContext,
  opts: CallOptions = {},
  calls: (ctx: CheckContext, op: OperationModel, chain: Chain | undefined) => Call[] = (c, op, ch) =>
    validCalls(c, op, ch, opts),
): Array<Case<OpSent>> {
  return eachOperation(ctx, 'the harness can build no valid request to any operation of the document', (op, out) => {
    const resource = needsItem(ctx, op);
    if (resource) {
      // An If-Match takes the entity tag a read of the item answered (RFC 9110 §13.1.1), where the create gave none.
      const read = resource.read;
      const first: Step[] =
        takesEtag(op) &&
        read &&
        read.op.pointer !== op.pointer &&
        !(read.by === 'shape' && !ctx.inferences.has('resource'))
          ? [(chain) => (chainEtag(chain) === undefined ? itemCall(ctx, read, chain, 'read for its entity tag') : [])]
          : [];
      // One chain (one item) per request: a DELETE removes the item the next request would need.
      const count = calls(ctx, op, undefined).length;
      for (let i = 0; i < count; i++)
        out.push(
          chainAfterCreate(
            ctx,
            out.length,
            operationName(op),
            [...first, (chain) => calls(ctx, op, chain)[i]],
            {},
            {
              resource,
            },
          ),
        );
    } else {
      for (const call of calls(ctx, op, undefined)) out.push(startWith(out.length, call));
    }
  });
}

/**
 * Why no request reached an operation: what the harness cannot fill of it
 * (a parameter it can write no valid value of, a parent none of which was
 * stored), or undefined where nothing stands in the way.
 */
export function whyNoRequest(ctx: CheckContext, name: string): string | undefined {
  const op = ctx.model.operations.find((o) => operationName(o) === name);
  if (!op) return undefined;
  try {
    fillParameters(ctx, op);
    return undefined;
  } catch (err) {
    if (err instanceof RuledOut) return err.message;
    throw err;
  }
}

/** The document's operations by name (`METHOD /path`), for grading a call by its operation. */
export const byName = (ctx: CheckContext) => new Map(ctx.model.operations.map((op) => [operationName(op), op]));

/** The calls of each chain (its create left out), each with its operation. */
export function callsOf(cases: Parameters<typeof chains>[0]) {
  return chains(cases).flatMap((steps) => steps.filter((s) => !s.sent.create));
}

export const allNames = (ctx: CheckContext) => ctx.model.operations.map(operationName);
