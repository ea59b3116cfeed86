// A request to any operation of the document: its parameters (the required
// ones, or every one) filled and written as parameters.ts says, and a body
// of one of its declared media types: a create's is a valid item with a
// fresh id and the stored items its members name (item-bodies.ts); any
// other is drawn from its schema (operation-bodies.ts).
import type { RequestSpec } from './exchange.js';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { toJson, type JsonValue } from '../model/json.js';
import { operationName, type OperationModel, type RequestBodyModel } from '../model/operation-model.js';
import { validBody } from '../cases/operation-bodies.js';
import { itemBody } from './item-bodies.js';
import { fillParameters, type ParameterOptions } from './parameters.js';
import type { Call } from './chain.js';

export { freshParameterValue, UNMATCHED_ETAG } from './parameters.js';
import type { CheckContext } from './types.js';
import { requestCredentials, type SentCredential } from './credentials.js';

/** What a request to an operation carries; whatever a check does not set is drawn from the document. */
export interface CallOptions extends ParameterOptions {
  /** The body: a value of a media type, raw text, none (null), or drawn from the document (undefined). */
  body?: { contentType: string; value: JsonValue } | { contentType: string; raw: string } | null;
  /** The Authorization value; null: no credentials of any scheme; undefined: the operation's own (credentials.ts). */
  auth?: string | null;
  /** The credentials of these schemes instead of the operation's own; null: none (credentials.ts requestCredentials). */
  credentials?: readonly SentCredential[] | null;
  note?: string;
}

/** Whether a media type carries JSON text (RFC 8259 §11; a +json suffix, RFC 6839 §3.1). */
export function isJsonMedia(contentType: string): boolean {
  const essence = mediaTypeEssence(contentType) ?? contentType.toLowerCase();
  return essence === 'application/json' || essence.endsWith('+json');
}

/** A body value written in its media type: JSON text, form fields (application/x-www-form-urlencoded), or plain text. */
export function encodeBody(contentType: string, value: JsonValue): string {
  const essence = mediaTypeEssence(contentType) ?? contentType;
  if (
    essence === 'application/x-www-form-urlencoded' &&
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value)
  ) {
    return Object.entries(value as Record<string, JsonValue>)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : toJson(v))}`)
      .join('&');
  }
  if (essence.startsWith('text/') && typeof value === 'string') return value;
  return toJson(value);
}

/** The media types the harness can write a body in; a body of another (multipart, say) is not sent. */
export function writable(body: RequestBodyModel): boolean {
  const essence = mediaTypeEssence(body.contentType) ?? body.contentType;
  return isJsonMedia(essence) || essence === 'application/x-www-form-urlencoded' || essence === 'text/plain';
}

/** A valid body for the operation in this media type: a create's is a valid item with a fresh id (item-bodies.ts). */
export function validOperationBody(ctx: CheckContext, op: OperationModel, body: RequestBodyModel): JsonValue {
  const creates = ctx.model.resources.find((r) => r.create?.pointer === op.pointer);
  if (creates && body.contentType === op.requestContentTypes[0])
    return itemBody(ctx, creates, {}, op.pointer === ctx.model.create?.pointer ? 'required' : 'full');
  return validBody(ctx.model, body);
}

/** A request to `op` as the document describes it, with what the check sets. Throws RuledOut when the document allows no value it needs. */
export function operationCall(ctx: CheckContext, op: OperationModel, opts: CallOptions = {}): RequestSpec {
  const { path, query, headers } = fillParameters(ctx, op, opts);
  let body: string | undefined;
  const declared = op.requestBodies.find(writable);
  const chosen =
    opts.body === undefined
      ? declared
        ? { contentType: declared.contentType, value: validOperationBody(ctx, op, declared) }
        : null
      : opts.body;
  if (chosen) {
    body = 'raw' in chosen ? chosen.raw : encodeBody(chosen.contentType, chosen.value);
    headers['content-type'] = chosen.contentType;
  }
  return requestCredentials(
    ctx.target,
    op,
    { method: op.method, path: `${path}${query}`, headers, body, note: opts.note ?? operationName(op) },
    opts,
  );
}

/** A call to `op` (a step of a chain): its request as operationCall builds it, its note `METHOD /path: label` unless `opts` says another. */
export function callTo(ctx: CheckContext, op: OperationModel, label: string, opts: CallOptions = {}): Call {
  const operation = operationName(op);
  return {
    operation,
    label,
    request: operationCall(ctx, op, { ...opts, note: opts.note ?? `${operation}: ${label}` }),
  };
}
