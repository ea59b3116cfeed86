// What a departing case shows of the target's state, as data: the values
// the target accepted though the document refuses them (it may have stored
// them), and the values an answer carries that its declared schema refuses.
// The grouping by root cause (root-causes.ts) links a later failure to the
// departure that explains it by these values, never by the names of checks.
import type { Exchange } from '../checks/exchange.js';
import { operationOf } from '../checks/declared.js';
import { responseFor } from '../checks/op-grades.js';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { escapePointer } from '../../spec/schema-keywords.js';
import { describeViolation, type Violation } from '../../spec/validator.js';
import { Numeral, parseExact, toJson, type JsonValue } from '../model/json.js';
import { operationName, type Validator } from '../model/operation-model.js';
import type { SpecModel } from '../model/spec-model.js';
import { NO_SECRETS, shorten, type Redactor } from '../redact/shorten.js';
import type { CaseTrace, CheckResult, ValueAt } from './target-result.js';
import { idFieldOf } from '../cases/bodies.js';

/** The most values a trace keeps of one body (a list of a hundred plants with a bad tag each). */
export const TRACE_VALUES = 50;
/** What a trace keeps of one value, a pointer or a problem: a target may answer a megabyte there (redacted, then cut: shorten). */
export const TRACE_TEXT = 300;

/** A header of a request, whatever the letter case of its name. */
function header(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** The text of a body, or undefined when it is not UTF-8 (such a body has no JSON values to speak of). */
function utf8(body: string | Buffer): string | undefined {
  if (typeof body === 'string') return body;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return undefined;
  }
}

/** The member a pointer names in a JSON value; undefined when there is none. */
function at(value: JsonValue, pointer: string): JsonValue | undefined {
  let node: JsonValue | undefined = value;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(token)];
    else if (node !== null && typeof node === 'object' && !(node instanceof Numeral))
      node = Object.prototype.hasOwnProperty.call(node, token) ? node[token] : undefined;
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * The values a validator refuses in a body, each at its pointer: the value
 * there as JSON text, or no value for a required member that is missing;
 * `worded`, with the violation as the checks word it.
 * A violation of the whole body (not an object, say) names no member: left
 * out, as it stores no value of a member.
 */
export function refusedValues(
  value: JsonValue,
  validate: Validator,
  worded = false,
  redact: Redactor = NO_SECRETS,
): ValueAt[] {
  const cut = (text: string) => shorten(text, TRACE_TEXT, redact);
  const out: ValueAt[] = [];
  const seen = new Set<string>();
  const add = (v: ValueAt) => {
    const key = `${v.pointer}\u0000${v.value ?? ''}`;
    if (v.pointer === '' || seen.has(key) || out.length >= TRACE_VALUES) return;
    seen.add(key);
    out.push(v);
  };
  for (const violation of validate(value)) {
    const { pointer, value: found } = valueOf(value, violation);
    add({
      pointer: cut(pointer),
      ...(found !== undefined ? { value: cut(found) } : {}),
      ...(worded ? { problem: cut(describeViolation(violation)) } : {}),
    });
  }
  return out;
}

function valueOf(body: JsonValue, v: Violation): ValueAt {
  const missing = v.keyword === 'required' ? v.params?.missingProperty : undefined;
  if (typeof missing === 'string') return { pointer: `${v.instancePath}/${escapePointer(missing)}` };
  const extra = v.params?.additionalProperty ?? v.params?.unevaluatedProperty;
  const pointer = typeof extra === 'string' ? `${v.instancePath}/${escapePointer(extra)}` : v.instancePath;
  const found = at(body, pointer);
  return found === undefined ? { pointer } : { pointer, value: toJson(found) };
}

/** The validator of the request body an exchange sent, by its media type. */
function requestValidator(model: SpecModel, ex: Exchange): Validator | undefined {
  const op = operationOf(model, ex.request);
  const type = mediaTypeEssence(header(ex.request.headers, 'content-type'));
  return op?.requestBodies.find((b) => b.contentType === type)?.validate;
}

/**
 * What a departing case's exchange shows of the target's state, or
 * undefined when it shows nothing: `accepted` when the target answered 2xx
 * to a body its operation's schema refuses, `answered` when the answer has a
 * status the document declares, its content type, and a JSON body the
 * declared schema refuses.
 */
export function traceOf(model: SpecModel, ex: Exchange | undefined): CaseTrace | undefined {
  if (!ex?.response) return undefined;
  const op = operationOf(model, ex.request);
  if (!op) return undefined;
  const { status } = ex.response;
  const trace: CaseTrace = { operation: operationName(op), status };
  const validateRequest = requestValidator(model, ex);
  const sent = ex.request.body === undefined ? undefined : utf8(ex.request.body);
  if (status >= 200 && status < 300 && validateRequest && sent !== undefined) {
    const parsed = parseExact(sent);
    const accepted = parsed.ok ? refusedValues(parsed.value, validateRequest) : [];
    if (accepted.length > 0) trace.accepted = accepted;
  }
  // A valid create refused: its id, which the run compares with the ids the target accepted (sameDouble).
  if (status >= 400 && status < 500 && op.pointer === model.create?.pointer && sent !== undefined) {
    const parsed = parseExact(sent);
    const id = parsed.ok ? idOf(model, parsed.value) : undefined;
    if (id !== undefined && parsed.ok && model.create.validateRequest(parsed.value).length === 0) trace.refusedId = id;
  }
  const declared = op.responses.get(String(status)) ?? responseFor(op, status);
  const type = mediaTypeEssence(ex.response.headers['content-type']) ?? '';
  if (declared?.validate && (declared.contentTypes.length === 0 || declared.contentTypes.includes(type))) {
    const parsed = parseExact(ex.response.bodyText);
    const answered = parsed.ok ? refusedValues(parsed.value, declared.validate, true, ex.redact) : [];
    if (answered.length > 0) trace.answered = answered;
  }
  return trace.accepted || trace.answered || trace.refusedId ? trace : undefined;
}

/** The id member of a create's body, as JSON text, when it is an integer numeral. */
function idOf(model: SpecModel, body: JsonValue): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || body instanceof Numeral) return undefined;
  // A document whose request carries no id (the server picks it) has no id to trace.
  const field = idFieldOf(model);
  if (field === undefined) return undefined;
  const id = body[field];
  const text = id === undefined ? undefined : toJson(id);
  return text !== undefined && /^-?\d+$/.test(text) ? text : undefined;
}

/** The id of a create the target accepted (2xx), whatever else its body held: the target stored a plant under it. */
export function acceptedId(model: SpecModel, ex: Exchange): string | undefined {
  const status = ex.response?.status;
  if (status === undefined || status < 200 || status > 299 || ex.request.body === undefined) return undefined;
  if (operationOf(model, ex.request)?.pointer !== model.create?.pointer) return undefined;
  const sent = utf8(ex.request.body);
  const parsed = sent === undefined ? undefined : parseExact(sent);
  return parsed?.ok ? idOf(model, parsed.value) : undefined;
}

/**
 * Marks each refused create whose id is the same IEEE 754 double as another
 * id the target accepted in the run (2^53 + 1 and 2^53, say): a server that
 * reads ids as doubles (JSON.parse) takes them for one plant, and refuses
 * the second as already stored. The evidence is the two ids, not a message.
 */
export function linkSameDouble(results: CheckResult[], accepted: ReadonlySet<string>): void {
  const byDouble = new Map<number, string[]>();
  for (const id of accepted) byDouble.set(Number(id), [...(byDouble.get(Number(id)) ?? []), id]);
  for (const r of results)
    for (const c of r.cases ?? []) {
      const id = c.trace?.refusedId;
      const twin = id === undefined ? undefined : byDouble.get(Number(id))?.find((a) => a !== id);
      if (twin !== undefined) c.trace!.sameDoubleAs = twin;
    }
}
