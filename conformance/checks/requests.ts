// Shared request builders for the catalog: requests to the operation under
// test and valid bodies, both derived from the document's model.
import type { RequestSpec } from '../http.js';
import { toJson, type JsonValue } from '../json.js';
import { integerRange } from '../../spec/formats.js';
import type { Case, CheckContext } from './types.js';

export type Body = Record<string, JsonValue>;

/** A case that needs nothing but its answer to be graded. */
export function caseOf(request: RequestSpec): Case {
  return { request, sent: undefined };
}

/** A request to the operation under test, with credentials and the declared content type unless told otherwise. */
export function createRequest(
  ctx: CheckContext,
  body: JsonValue | { raw: string | Buffer } | undefined,
  opts: { auth?: string | null; contentType?: string | null; note?: string } = {},
): RequestSpec {
  const op = ctx.model.create;
  const headers: Record<string, string> = {};
  const auth = opts.auth === undefined ? ctx.auth() : opts.auth;
  if (auth !== null) headers.authorization = auth;
  const ct = opts.contentType === undefined ? op.requestContentTypes[0]! : opts.contentType;
  if (ct !== null) headers['content-type'] = ct;
  let raw: string | Buffer | undefined;
  if (body === undefined) raw = undefined;
  else if (typeof body === 'object' && body !== null && 'raw' in body && !Array.isArray(body)) raw = (body as { raw: string | Buffer }).raw;
  else raw = toJson(body as JsonValue);
  return { method: op.method, path: op.path, headers, body: raw, note: opts.note };
}

/** A valid request body with a fresh id, built from the document's required fields. */
export function validPlant(ctx: CheckContext, extra: Body = {}): Body {
  const out: Body = {};
  for (const f of ctx.model.create.request.fields) {
    if (!f.required) continue;
    out[f.name] = sampleValue(ctx, f.type, f.name);
  }
  return { ...out, ...extra };
}

function sampleValue(ctx: CheckContext, type: string, name: string): JsonValue {
  switch (type) {
    case 'integer':
      return ctx.ids.fresh();
    case 'string':
      return `conformance ${name}`;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'array':
      return [];
    default:
      return {};
  }
}

/** The field that identifies a plant: the request's required integer (the document's `id`). */
export function idField(ctx: CheckContext): string {
  const f = ctx.model.create.request.fields.find((x) => x.type === 'integer' && x.required);
  if (!f) throw new Error('the request schema has no required integer field');
  return f.name;
}

/** The inclusive range of the id field's integer format (the document's int64). */
export function idRange(ctx: CheckContext): readonly [bigint, bigint] {
  const f = ctx.model.create.request.fields.find((x) => x.name === idField(ctx))!;
  const r = integerRange(f.format);
  if (!r) throw new Error(`the id field has no integer format with a range (${f.format ?? 'none'})`);
  return r;
}

/** The string fields the success schema echoes back (the document's `name` and `tag`). */
export function stringFields(ctx: CheckContext): { required: string[]; optional: string[] } {
  const fields = ctx.model.create.request.fields.filter((f) => f.type === 'string');
  return { required: fields.filter((f) => f.required).map((f) => f.name), optional: fields.filter((f) => !f.required).map((f) => f.name) };
}
