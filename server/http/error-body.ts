// An error's body made to fit the schema a document declares for it:
//
// - problem details (RFC 9457), where the media type is
//   application/problem+json: `type` "about:blank" (§4.2.1: then the title
//   is the status's phrase), `title`, `status` (the answer's, §3.1.3),
//   `detail` (our message), `instance` (the request's path) only where the
//   schema requires it;
// - any other schema, by its members' names (the inference `errors` of
//   PLANTSTORE_INFER, docs/server.md): a string member named like a message
//   gets the message, one named like a code gets the error number, one named
//   like a status the HTTP status, one named like an id (`logref`) the
//   error number's digits; a string its member's keywords refuse gives way
//   to one drawn from its pattern (seeded by the error number: one condition,
//   one answer); an object member named like an error, or
//   required, is filled the same way, and an array of them gets one;
// - every other required member: a value made from its schema
//   (operations/schema-example.ts).
//
// A best effort: error-shapes.ts judges the body with the schema's validator
// and falls back when it refuses it.
import { STATUS_CODES } from 'node:http';
import { resolveReference, type OpenApiDocument } from '../../spec/openapi.js';
import { isSchemaObject } from '../../spec/schema-keywords.js';
import type { JsonValue } from '../json/json.js';
import { drawnFrom } from '../operations/resource-ids.js';
import { exampleOf } from '../operations/schema-example.js';
import { linearPattern } from '../../spec/linear-pattern.js';

/** What an error answer says: its HTTP status, our error number and its message. */
export interface ErrorRecord {
  status: number;
  error: number;
  message: string;
}

export interface FitOptions {
  /** RFC 9457's members by their registered names (application/problem+json). */
  problem: boolean;
  /** Members filled by their names (the inference `errors`). */
  byNames: boolean;
  /** The request's path, for a required `instance`; undefined where there is no request (an answer on the socket). */
  path: string | undefined;
}

/** Deepest nesting filled: a schema that refers to itself ends here. */
const MAX_DEPTH = 4;

/**
 * RFC 9110 §15's phrases where Node's STATUS_CODES still has the names RFC
 * 9110 replaced (RFC 9457 §4.2.1: with "about:blank", the title SHOULD be
 * the status's recommended phrase).
 */
const PHRASES: Readonly<Record<number, string>> = { 413: 'Content Too Large', 422: 'Unprocessable Content' };

export function statusPhrase(status: number): string {
  return PHRASES[status] ?? STATUS_CODES[status] ?? 'Error';
}

// The names the inference reads, compared in lower case without `_` and `-` (`error_code` is `errorcode`).
const MESSAGE_NAMES = new Set([
  'message',
  'detail',
  'details',
  'description',
  'errordescription',
  'errormessage',
  'msg',
  'reason',
]);
const TITLE_NAMES = new Set(['title', 'summary']);
const CODE_NAMES = new Set(['code', 'error', 'errorcode', 'errno', 'errornumber']);
// vnd.error's `logref` ("an identifier to refer to the specific error on the server side for logging purposes")
// and its kin: an id of the failure, the same for every answer of one condition (a client, and the harness,
// tell two refusals apart by comparing them: a per-request id would make every refusal differ).
const ID_NAMES = new Set(['logref', 'errorid', 'incidentid', 'traceid', 'requestid', 'correlationid']);
const STATUS_NAMES = new Set(['status', 'statuscode', 'httpstatus', 'httpcode']);
const NESTED_NAMES = new Set(['error', 'errors', 'details', 'problem', 'problems']);

const normalised = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

/** The body for `record` under `schema` (undefined: no schema, any JSON). */
export function fittedErrorBody(
  doc: OpenApiDocument,
  schema: unknown,
  record: ErrorRecord,
  options: FitOptions,
): JsonValue {
  const base = options.problem ? problemDetails(record) : { error: record.error, message: record.message };
  if (schema === undefined || schema === true) return base;
  return fit(doc, schema, record, options, 0) ?? base;
}

/** RFC 9457 §3.1: the members of a problem details object this server fills. */
export function problemDetails(record: ErrorRecord): Record<string, JsonValue> {
  return { type: 'about:blank', title: statusPhrase(record.status), status: record.status, detail: record.message };
}

interface ObjectParts {
  properties: Array<[string, unknown]>;
  required: Set<string>;
  types: Set<string>;
}

/** The members a schema declares through `$ref` and `allOf` (and the first branch of `oneOf`/`anyOf`), with its types. */
function partsOf(doc: OpenApiDocument, schema: unknown, depth = 0): ObjectParts {
  const parts: ObjectParts = { properties: [], required: new Set(), types: new Set() };
  if (depth > MAX_DEPTH) return parts;
  const resolved = dereferenced(doc, schema);
  if (!isSchemaObject(resolved)) return parts;
  for (const type of typesOf(resolved)) parts.types.add(type);
  if (isSchemaObject(resolved.properties))
    for (const entry of Object.entries(resolved.properties)) {
      if (!parts.properties.some(([name]) => name === entry[0])) parts.properties.push(entry);
    }
  if (Array.isArray(resolved.required))
    for (const name of resolved.required) if (typeof name === 'string') parts.required.add(name);
  const list = (keyword: string): unknown[] =>
    Array.isArray(resolved[keyword]) ? (resolved[keyword] as unknown[]) : [];
  const branches = [...list('allOf'), ...list('oneOf').slice(0, 1), ...list('anyOf').slice(0, 1)];
  for (const branch of branches) {
    const inner = partsOf(doc, branch, depth + 1);
    for (const entry of inner.properties)
      if (!parts.properties.some(([name]) => name === entry[0])) parts.properties.push(entry);
    for (const name of inner.required) parts.required.add(name);
    if (parts.types.size === 0) for (const type of inner.types) parts.types.add(type);
  }
  return parts;
}

/** The schema a `$ref` (or a chain of them) leads to. */
export function dereferenced(doc: OpenApiDocument, schema: unknown): unknown {
  let current = schema;
  for (let hops = 0; hops < 16 && isSchemaObject(current) && typeof current.$ref === 'string'; hops++)
    current = resolveReference(doc, { $ref: current.$ref }, '#').value;
  return current;
}

function typesOf(schema: Record<string, unknown>): string[] {
  const { type } = schema;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  if (isSchemaObject(schema.properties) || Array.isArray(schema.required)) return ['object'];
  return [];
}

function fit(
  doc: OpenApiDocument,
  schema: unknown,
  record: ErrorRecord,
  options: FitOptions,
  depth: number,
): JsonValue | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const parts = partsOf(doc, schema);
  const allows = (type: string) => parts.types.size === 0 || parts.types.has(type);
  if (parts.properties.length === 0 && parts.required.size === 0) {
    // Not an object of members: a string schema gets the message, an integer one the number.
    if (parts.types.size > 0 && !parts.types.has('object')) {
      if (allows('string')) return record.message;
      if (allows('integer') || allows('number')) return record.error;
    }
    return undefined;
  }
  if (!allows('object')) return undefined;
  const names = new Set(parts.properties.map(([name]) => normalised(name)));
  const hasMessage = [...names].some((name) => MESSAGE_NAMES.has(name));
  const body: Record<string, JsonValue> = {};
  for (const [name, member] of parts.properties) {
    const value =
      memberValue(doc, name, member, record, options, { hasMessage, required: parts.required.has(name) }, depth) ??
      (parts.required.has(name) ? exampleOf(doc, member, { members: 'required' }) : undefined);
    if (value !== undefined) body[name] = value;
  }
  // A required member the schema does not describe: any value does.
  for (const name of parts.required) if (!(name in body)) body[name] = 'example';
  return body;
}

/** The value a member gets from the error by its name, or undefined. */
function memberValue(
  doc: OpenApiDocument,
  name: string,
  member: unknown,
  record: ErrorRecord,
  options: FitOptions,
  { hasMessage, required }: { hasMessage: boolean; required: boolean },
  depth: number,
): JsonValue | undefined {
  const types = new Set(partsOf(doc, member).types);
  const as = (value: string | number): JsonValue | undefined => {
    if (types.size === 0) return value;
    if (typeof value === 'number' && (types.has('integer') || types.has('number'))) return value;
    if (types.has('string')) return String(value);
    return undefined;
  };
  if (options.problem) {
    // RFC 9457 §3.1: the registered members, by their names (not an inference).
    if (name === 'type') return as('about:blank');
    if (name === 'title') return as(statusPhrase(record.status));
    if (name === 'status') return as(record.status);
    if (name === 'detail') return as(record.message);
    if (name === 'instance') return required && options.path !== undefined ? as(options.path) : undefined;
  }
  if (!options.byNames) return undefined;
  const key = normalised(name);
  if (types.has('object') || (types.size === 0 && NESTED_NAMES.has(key) && isObjectSchema(doc, member))) {
    return NESTED_NAMES.has(key) || required ? fit(doc, member, record, options, depth + 1) : undefined;
  }
  if (types.has('array')) {
    if (!NESTED_NAMES.has(key) && !required) return undefined;
    const items = isSchemaObject(dereferenced(doc, member))
      ? (dereferenced(doc, member) as { items?: unknown }).items
      : true;
    const item =
      fit(doc, items ?? true, record, options, depth + 1) ?? (types.has('string') ? record.message : undefined);
    return item === undefined ? undefined : [item];
  }
  const fitting = (value: JsonValue | undefined) =>
    typeof value === 'string' ? fittingString(doc, member, [value]) : value;
  if (ID_NAMES.has(key)) {
    if (!types.has('string') && types.size > 0) return as(record.error);
    return fittingString(doc, member, [String(record.error)], record.error);
  }
  if (MESSAGE_NAMES.has(key)) return fitting(as(record.message));
  if (TITLE_NAMES.has(key)) return fitting(as(hasMessage ? statusPhrase(record.status) : record.message));
  if (STATUS_NAMES.has(key)) return fitting(as(record.status));
  if (CODE_NAMES.has(key)) return fitting(as(record.error));
  return undefined;
}

/**
 * The first candidate the member's string keywords accept (`pattern`, `minLength`, `maxLength`, `enum`,
 * `const`), else a string drawn from its `pattern` that they accept; undefined when neither is (the member
 * then gets a value made from its schema, and the whole body is judged by the schema's validator).
 */
function fittingString(
  doc: OpenApiDocument,
  member: unknown,
  candidates: readonly string[],
  seed = 1,
): string | undefined {
  const schema = dereferenced(doc, member);
  if (!isSchemaObject(schema)) return candidates[0];
  const fits = (value: string) => stringFits(schema, value);
  const found = candidates.find(fits);
  if (found !== undefined || typeof schema.pattern !== 'string') return found;
  try {
    return drawnFrom(schema.pattern, seed, fits);
  } catch {
    return undefined; // a pattern fast-check cannot draw from
  }
}

function stringFits(schema: Record<string, unknown>, value: string): boolean {
  const length = [...value].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  if (Object.hasOwn(schema, 'const') && schema.const !== value) return false;
  if (typeof schema.pattern !== 'string') return true;
  try {
    return linearPattern(schema.pattern).test(value);
  } catch {
    return false; // a pattern the linear-time engine cannot run: the validator refuses every value too
  }
}

function isObjectSchema(doc: OpenApiDocument, schema: unknown): boolean {
  const parts = partsOf(doc, schema);
  return parts.properties.length > 0 || parts.types.has('object');
}
