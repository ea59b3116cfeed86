// A request to any operation of the document: its path with each path
// parameter filled in, its query, header and cookie parameters (the
// required ones, or every one), and a body of one of its declared media
// types, each value drawn from the document (parameter-values.ts,
// operation-bodies.ts) unless the check sets it. The create operation's body
// is a valid NewPlant with a fresh id (bodies.ts), as every create check's.
import type { RequestSpec } from './exchange.js';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { toJson, type JsonValue } from '../model/json.js';
import {
  operationName,
  type OperationModel,
  type ParameterModel,
  type RequestBodyModel,
} from '../model/operation-model.js';
import { validParameterValues } from '../cases/parameter-values.js';
import { validBody } from '../cases/operation-bodies.js';
import { validPlant } from './requests.js';
import type { Call } from './op-cases.js';
import type { CheckContext } from './types.js';
import { requestCredentials, type SentCredential } from './credentials.js';

/** What a request to an operation carries; whatever a check does not set is drawn from the document. */
export interface CallOptions {
  /** Also every optional parameter (the required ones always). */
  optional?: boolean;
  /** Texts of parameters the check sets, by name (a path id, an invalid value). */
  set?: Record<string, string>;
  /** A parameter left out (a required one, for a check that refuses its absence). */
  omit?: string;
  /** The valid value to take of each parameter the check does not set (its index among the valid ones, wrapped). */
  pick?: number;
  /** The body: a value of a media type, raw text, none (null), or drawn from the document (undefined). */
  body?: { contentType: string; value: JsonValue } | { contentType: string; raw: string } | null;
  /** The Authorization value; null: no credentials of any scheme; undefined: the operation's own (credentials.ts). */
  auth?: string | null;
  /** The credentials of these schemes instead of the operation's own; null: none (credentials.ts requestCredentials). */
  credentials?: readonly SentCredential[] | null;
  /** Headers beside the parameters (a cookie-free request never has one). */
  headers?: Record<string, string>;
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

/** A valid body for the operation in this media type: the create's is a valid NewPlant with a fresh id. */
export function validOperationBody(ctx: CheckContext, op: OperationModel, body: RequestBodyModel): JsonValue {
  if (op.pointer === ctx.model.create?.pointer && body.contentType === op.requestContentTypes[0])
    return validPlant(ctx);
  return validBody(ctx.model, body);
}

/** The text of a parameter the check does not set: its first valid value (or the `pick`-th). */
function drawn(ctx: CheckContext, p: ParameterModel, pick: number): string {
  const values = validParameterValues(ctx.model, p);
  return values[pick % values.length]!.text;
}

/** A request to `op` as the document describes it, with what the check sets. Throws RuledOut when the document allows no value it needs. */
export function operationCall(ctx: CheckContext, op: OperationModel, opts: CallOptions = {}): RequestSpec {
  let path = op.path;
  const query: string[] = [];
  const cookies: string[] = [];
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  for (const p of op.parameters) {
    if (p.name === opts.omit) continue;
    const given = opts.set?.[p.name];
    if (given === undefined && !p.required && !opts.optional) continue;
    const text = given ?? drawn(ctx, p, opts.pick ?? 0);
    if (p.in === 'path') path = path.split(`{${p.name}}`).join(encodeURIComponent(text));
    else if (p.in === 'query') query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(text)}`);
    else if (p.in === 'header') headers[p.name.toLowerCase()] = text;
    else cookies.push(`${p.name}=${encodeURIComponent(text)}`);
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
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
    {
      method: op.method,
      path: `${path}${query.length > 0 ? `?${query.join('&')}` : ''}`,
      headers,
      body,
      note: opts.note ?? operationName(op),
    },
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
