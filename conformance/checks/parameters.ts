// The parameters of a request to an operation, each filled and written as
// its style says (parameter-style.ts): what the check sets; what the
// protocol defines (If-Match: the entity tag a read gave, else `*`;
// If-None-Match: an entity tag no representation has; an idempotency key
// fresh for this request: model/parameter-roles.ts); a parent's id, from the
// items stored before the checks (prerequisites.ts); else a value drawn from
// the document, a typical one (parameter-bounds.ts). Every request builder goes through it:
// the create checks' (requests.ts) and every other (op-requests.ts).
import type { JsonValue } from '../model/json.js';
import type { OperationModel, ParameterModel } from '../model/operation-model.js';
import { parameterRole } from '../model/parameter-roles.js';
import { resolveSchema } from '../model/schema-shape.js';
import { isSchemaObject } from '../../spec/schema-keywords.js';
import { typicalParameterValues } from '../cases/parameter-bounds.js';
import { freshIdOf } from '../cases/fresh-ids.js';
import { primitiveText, queryString, writeParameter } from '../cases/parameter-style.js';
import { parentValues } from './prerequisites.js';
import type { CheckContext } from './types.js';

/** What a check sets of a request's parameters; whatever it does not set is filled as above. */
export interface ParameterOptions {
  /** Also every optional parameter (the required ones always). */
  optional?: boolean;
  /** Texts of parameters the check sets, by name (a path id, an invalid value), sent as they are. */
  set?: Record<string, string>;
  /** Values of parameters the check sets, by name, written as their style says (an array of a filter). */
  values?: Record<string, JsonValue>;
  /** A parameter left out (a required one, for a check that refuses its absence). */
  omit?: string;
  /** The valid value to take of each parameter the check does not set (its index among the valid ones, wrapped). */
  pick?: number;
  /** Which of the stored parents the path names (0: the first; prerequisites.ts). */
  parent?: number;
  /** The If-Match value (an entity tag a read gave); default `*`, which any current representation matches (RFC 9110 §13.1.1). */
  ifMatch?: string;
  /** The If-None-Match value; default an entity tag no representation has. */
  ifNoneMatch?: string;
  /** The idempotency key; default a fresh one. */
  idempotencyKey?: string;
  /** Headers beside the parameters. */
  headers?: Record<string, string>;
}

/**
 * The value of a parameter the check does not set: its first typical value
 * (or the `pick`-th), one a client would send; never a boundary of its range
 * where another value is allowed (the boundaries are cases of their own, PS-OP-002).
 */
function drawn(ctx: CheckContext, p: ParameterModel, pick: number): JsonValue {
  const values = typicalParameterValues(ctx.model, p);
  return values[pick % values.length]!.value;
}

/** A fresh value of a parameter's schema (an idempotency key): a UUID for format uuid, else letters and digits. */
export function freshParameterValue(ctx: CheckContext, p: ParameterModel): string {
  const { schema } = p.schema ? resolveSchema(ctx.model.doc, p.schema.schema, p.schema.pointer) : { schema: {} };
  const v = freshIdOf(
    isSchemaObject(schema) ? [schema] : [],
    'string',
    ctx.ids,
    (x) => (p.validate?.(x) ?? []).length === 0,
  );
  return typeof v === 'string' ? v : primitiveText(v);
}

/** An entity tag (RFC 9110 §8.8.3) no representation has: for an If-None-Match that is to match nothing. */
export const UNMATCHED_ETAG = '"conformance-matches-nothing"';

/** What the protocol defines for a parameter, where it does (parameter-roles.ts), or undefined. */
function protocolValue(ctx: CheckContext, p: ParameterModel, opts: ParameterOptions): string | undefined {
  const role = parameterRole(p);
  if (!role) return undefined;
  if (role.role === 'if-match') return opts.ifMatch ?? '*';
  if (role.role === 'if-none-match') return opts.ifNoneMatch ?? UNMATCHED_ETAG;
  // By its name the key is filled either way (a drawn, fixed value would make every create a retry); by its description, with the inference on.
  if (role.by !== 'description' || ctx.inferences.has('idempotency'))
    return opts.idempotencyKey ?? freshParameterValue(ctx, p);
  return undefined;
}

/** The path (parameters filled), the query string (with its `?`, or empty) and the headers (a Cookie among them) of a request to `op`. */
export function fillParameters(
  ctx: CheckContext,
  op: OperationModel,
  opts: ParameterOptions = {},
): { path: string; query: string; headers: Record<string, string> } {
  let path = op.path;
  const query: Array<[string, string]> = [];
  const cookies: string[] = [];
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const parents = parentValues(ctx, op, opts.parent ?? 0);
  for (const p of op.parameters) {
    if (p.name === opts.omit) continue;
    const text = opts.set?.[p.name];
    const typed = opts.values?.[p.name];
    if (text === undefined && typed === undefined && !p.required && !opts.optional) continue;
    const fixed = text ?? (typed === undefined ? (protocolValue(ctx, p, opts) ?? parents[p.name]) : undefined);
    const written = writeParameter(p, fixed ?? typed ?? drawn(ctx, p, opts.pick ?? 0));
    if (written.in === 'path') path = path.split(`{${p.name}}`).join(written.segment);
    else if (written.in === 'query') query.push(...written.pairs);
    else if (written.in === 'header') headers[p.name.toLowerCase()] = written.value;
    else cookies.push(...written.pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`));
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  return { path, query: query.length > 0 ? `?${queryString(query)}` : '', headers };
}
