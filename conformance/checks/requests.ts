// Shared request builders for the catalog: requests to the operation under
// test and valid bodies, both derived from the document (schema-values.ts):
// a valid body is the document's own (its examples, or one built from its
// schema), checked against the request validator.
import type { RequestSpec } from './exchange.js';
import { Numeral, toJson, type JsonValue } from '../model/json.js';
import type { KeywordCase } from '../cases/keyword-cases.js';
import { integerRange } from '../../spec/formats.js';
import { explain } from '../cases/draw.js';
import {
  baseBodies,
  fieldChanges,
  freshIdFor,
  freshIdValue,
  integerIdField,
  plantBrokenBy,
  plantWith,
  requireIdField,
} from '../cases/bodies.js';
import type { Body, InstancePath } from '../cases/schema-values.js';
import type { Case, CheckContext } from './types.js';
import { fillParameters } from './parameters.js';
import { createOf } from '../model/spec-model.js';
import { requestCredentials, type SentCredential } from './credentials.js';

export type { Body };

/** A case that needs nothing but its answer to be graded. */
export function caseOf(request: RequestSpec): Case {
  return { request, sent: undefined };
}

/**
 * A request to the operation under test, with credentials and the declared
 * content type unless told otherwise, and its parameters filled as every
 * request's are (parameters.ts: the path's parents, a fresh idempotency key):
 * `auth` an Authorization value (null: no credentials of any scheme),
 * `credentials` those of given schemes (credentials.ts requestCredentials).
 */
export function createRequest(
  ctx: CheckContext,
  body: JsonValue | { raw: string | Buffer } | undefined,
  opts: {
    auth?: string | null;
    credentials?: readonly SentCredential[] | null;
    contentType?: string | null;
    note?: string;
  } = {},
): RequestSpec {
  const op = createOf(ctx.model);
  const { path, query, headers: parameterHeaders } = fillParameters(ctx, op);
  const credentialled = requestCredentials(
    ctx.target,
    op,
    { method: op.method, path: `${path}${query}`, headers: parameterHeaders },
    opts,
  );
  const headers: Record<string, string> = credentialled.headers;
  const ct = opts.contentType === undefined ? op.requestContentTypes[0]! : opts.contentType;
  if (ct !== null) headers['content-type'] = ct;
  let raw: string | Buffer | undefined;
  if (body === undefined) raw = undefined;
  else if (typeof body === 'object' && body !== null && 'raw' in body && !Array.isArray(body))
    raw = (body as { raw: string | Buffer }).raw;
  else raw = toJson(body as JsonValue);
  return { method: op.method, path: credentialled.path, headers, body: raw, note: opts.note };
}

/**
 * A valid request body with a fresh id, drawn from the document
 * (bodies.ts): its required properties, then `fields` (what the check
 * varies), then whatever else the document demands of a body holding them.
 * Throws RuledOut (the check is skipped, saying why) when the document
 * allows no such body.
 */
export function validPlant(
  ctx: CheckContext,
  fields: Record<string, JsonValue | undefined> = {},
  base: 'required' | 'full' = 'required',
): Body {
  return plantWith(ctx.model, ctx.ids, fieldChanges(fields), base);
}

/**
 * A body valid but for one change, with a fresh id unless the change is to
 * the id: only the rule under test can explain its refusal. Throws RuledOut
 * when the document allows the change, or cannot keep the rest valid around it.
 */
export function invalidPlant(ctx: CheckContext, path: InstancePath, value: JsonValue | undefined): JsonValue {
  return plantBrokenBy(ctx.model, ctx.ids, [path, value]).body;
}

/** The body with those of `preferred`'s values that keep it valid per the document (the rest stay as they were). */
export function preferring(ctx: CheckContext, body: Body, preferred: Body): Body {
  let out = body;
  for (const [name, value] of Object.entries(preferred)) {
    const tried = { ...out, [name]: value };
    if (createOf(ctx.model).validateRequest(tried).length === 0) out = tried;
  }
  return out;
}

/** A run-unique id the request schema allows (bodies.ts freshIdFor); throws RuledOut when none is left. */
export function freshId(ctx: CheckContext): bigint {
  return freshIdFor(ctx.model, ctx.ids);
}

/** A run-unique id of the create's id member, of whatever kind it is (an integer, a UUID, a string its pattern matches); throws RuledOut when the server assigns ids. */
export function freshIdOfAnyKind(ctx: CheckContext): JsonValue {
  return freshIdValue(ctx.model, ctx.ids);
}

/** A run-unique id below `bound` the request schema allows (a negative one, say); throws RuledOut when none is. */
export function freshIdBelow(ctx: CheckContext, bound: bigint): bigint {
  return freshIdFor(ctx.model, ctx.ids, bound);
}

/** The member in which the client chooses an item's id (the document's `id`; bodies.ts idFieldOf); throws RuledOut where the server assigns ids. */
export function idField(ctx: CheckContext): string {
  return requireIdField(ctx.model);
}

/** The client's id member, or undefined where the server assigns ids. */
export function clientIdField(ctx: CheckContext): string | undefined {
  return baseBodies(ctx.model).idField;
}

/** The inclusive range of the id field's integer format (the document's int64); throws RuledOut where the id is no integer. */
export function idRange(ctx: CheckContext): readonly [bigint, bigint] {
  const f = createOf(ctx.model).request.fields.find((x) => x.name === integerIdField(ctx.model))!;
  const r = integerRange(f.format);
  if (!r) throw new Error(`the id field has no integer format with a range (${f.format ?? 'none'})`);
  return r;
}

/** The string fields of the request (the document's `name` and `tag`), required and optional. */
export function stringFields(ctx: CheckContext): { required: string[]; optional: string[] } {
  const fields = createOf(ctx.model).request.fields.filter((f) => f.types.includes('string'));
  return {
    required: fields.filter((f) => f.required).map((f) => f.name),
    optional: fields.filter((f) => !f.required).map((f) => f.name),
  };
}

/** Why a body is not valid per the document, in one line naming each keyword and its pointer; undefined when it is. */
export function whyInvalid(ctx: CheckContext, body: JsonValue): string | undefined {
  const violations = createOf(ctx.model).validateRequest(body);
  return violations.length === 0 ? undefined : explain(violations);
}

/**
 * The body of a keyword case as sent: a fresh id in place of the base's,
 * unless the id is what the case is about (a boundary value of the id, or an
 * id just outside one).
 */
export function keywordCaseBody(ctx: CheckContext, c: KeywordCase, path: InstancePath): JsonValue {
  const body = c.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || body instanceof Numeral) return body;
  const id = clientIdField(ctx);
  if (id === undefined) return body;
  const aboutId = path.length === 1 && path[0] === id && (c.fixedId !== undefined || c.side === 'outside');
  return !aboutId && typeof body[id] !== 'undefined' ? { ...body, [id]: freshIdOfAnyKind(ctx) } : body;
}

/** A body whose unknown members are literally named __proto__ and constructor (an object literal cannot carry them). */
export function rawWithProto(body: Body): string {
  const json = JSON.stringify(
    Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'bigint' ? `@@${v}@@` : v])),
  );
  return json
    .replace(/"@@(-?\d+)@@"/g, '$1')
    .replace(/}$/, ',"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
}
