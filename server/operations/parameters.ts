// An operation's parameters, from the document, checked like a body: each
// path, query and header parameter it declares is read from its text (an
// integer exactly, by the exact JSON parser: ids beyond 2^53 never pass
// through a double), then judged by its schema's validator (spec/). A
// parameter that is missing while required, given twice where it takes one
// value, or refused by its schema is a 400 whose message names it. The
// pipeline's stage `parameters` runs this before the body is read; the
// handler reads the values from the request (parameterValues).
//
// Read as OpenAPI 3.1 §4.8.12 says for the default styles: a path or header
// array is comma-separated (simple), a query array repeats its name (form,
// explode) unless `explode: false` (comma-separated), a query object of
// style deepObject is its `name[member]` pairs. Cookie parameters and other
// objects are not read (docs/server.md says so).
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import {
  resolveReference,
  type OpenApiDocument,
  type OperationLocation,
  type ParameterObject,
} from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import { describeViolation, type SchemaValidators, type Validate } from '../../spec/validator.js';
import { ApiError } from '../http/errors.js';
import { parseJson, type JsonValue } from '../json/json.js';

/** The values of an operation's parameters, by location and name (a header's name in lower case). */
export interface ParameterValues {
  path: Record<string, JsonValue>;
  query: Record<string, JsonValue>;
  header: Record<string, JsonValue>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The operation's parameters as read and checked by the stage `parameters`; null before it, or for an operation without any. */
    parameterValues: ParameterValues | null;
  }
}

type Location = 'path' | 'query' | 'header';

/** How one declared parameter is read and judged. */
export interface ParameterRule {
  name: string;
  in: Location;
  required: boolean;
  /** The JSON types its schema allows (empty: any), which say how its text is read. */
  types: ReadonlySet<string>;
  /** For an array: the types its items allow, and whether a query array repeats its name. */
  items?: ReadonlySet<string>;
  explode: boolean;
  /** A query object of style deepObject (OpenAPI 3.1 §4.8.12.4): its members are `name[member]=value` pairs. */
  deepObject: boolean;
  validate: Validate | undefined;
  /** The item's id: an integer within int64 whatever the schema allows (the store's key). */
  int64: boolean;
  /** The schema, for the list's inference (operations/list.ts). */
  schema: Record<string, unknown>;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** Headers OpenAPI 3.1 §4.8.12.1 says a parameter cannot describe (they are the request's own). */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
const JSON_NUMERAL = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** Request headers of the preconditions (RFC 9110 §13.1): where an operation declares 428, a missing one is its 428, not a 400. */
const CONDITIONAL_HEADERS = new Set(['if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since']);

/**
 * The rules of the operation's path, query and header parameters. `int64`
 * names the path parameters that carry integer ids (the item's, its
 * parents'): read as an exact int64 whatever the schema allows;
 * `optionalConditions`: the operation declares 428, so a precondition
 * header it requires is left to its handler (RFC 6585 §3).
 */
export function parameterRules(
  doc: OpenApiDocument,
  operation: OperationLocation,
  validators: SchemaValidators,
  { int64 = [], optionalConditions = false }: { int64?: readonly string[]; optionalConditions?: boolean } = {},
): ParameterRule[] {
  const rules: ParameterRule[] = [];
  for (const { parameter, pointer } of operation.parameters) {
    if (parameter.in !== 'path' && parameter.in !== 'query' && parameter.in !== 'header') continue;
    if (parameter.in === 'header' && IGNORED_HEADERS.has(parameter.name.toLowerCase())) continue;
    const schemaPointer = childPointer(pointer, 'schema');
    const schema = parameter.schema === undefined ? {} : resolveReference(doc, parameter.schema, schemaPointer).value;
    const items =
      isSchemaObject(schema) && isSchemaObject(schema.items)
        ? resolveReference(doc, schema.items, childPointer(schemaPointer, 'items')).value
        : undefined;
    rules.push({
      name: parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name,
      in: parameter.in,
      required:
        parameter.in === 'path' ||
        (parameter.required === true &&
          !(optionalConditions && parameter.in === 'header' && CONDITIONAL_HEADERS.has(parameter.name.toLowerCase()))),
      types: typesOf(schema),
      ...(items === undefined ? {} : { items: typesOf(items) }),
      explode: explodes(parameter),
      deepObject: parameter.in === 'query' && (parameter as { style?: unknown }).style === 'deepObject',
      validate: parameter.schema === undefined ? undefined : validators.compile(parameter.schema, schemaPointer),
      int64: parameter.in === 'path' && int64.includes(parameter.name),
      schema: isSchemaObject(schema) ? schema : {},
    });
  }
  return rules;
}

/** The stage `parameters`: reads and checks every rule's parameter; undefined when there is none to check. */
export function checkParameters(rules: readonly ParameterRule[]): onRequestHookHandler | undefined {
  if (rules.length === 0) return undefined;
  return (request, _reply, done) => {
    try {
      request.parameterValues = readParameters(request, rules);
    } catch (error) {
      return done(error as Error);
    }
    done();
  };
}

function readParameters(request: FastifyRequest, rules: readonly ParameterRule[]): ParameterValues {
  const values: ParameterValues = { path: {}, query: {}, header: {} };
  const params = request.params as Record<string, string | undefined>;
  const query = request.query as Record<string, string | string[] | undefined>;
  for (const rule of rules) {
    const raw = rule.deepObject
      ? deepObjectMembers(rule, query)
      : rule.in === 'path'
        ? params[routeParameterName(rule.name)]
        : rule.in === 'query'
          ? query[rule.name]
          : request.headers[rule.name];
    if (raw === undefined) {
      if (rule.required) throw invalid(rule, 'is required');
      continue;
    }
    const value = isDeepObject(raw)
      ? deepObjectValue(rule, raw)
      : rule.int64
        ? int64Value(rule, raw)
        : readValue(rule, raw);
    const violations = rule.validate?.(value) ?? [];
    if (violations.length > 0)
      throw invalid(
        rule,
        `${violations.map((v) => describeViolation(v).replace(/^\/ /, '')).join('; ')}, got ${shown(isDeepObject(raw) ? deepObjectText(rule, raw) : raw)}`,
      );
    values[rule.in][rule.name] = value;
  }
  return values;
}

/** A deepObject parameter's members as sent (`page[size]=5` is the member size, "5"). */
interface DeepObject {
  members: Map<string, string | string[]>;
}

function isDeepObject(raw: unknown): raw is DeepObject {
  return typeof raw === 'object' && raw !== null && 'members' in raw;
}

/** The `name[member]` pairs of the query (OpenAPI 3.1 §4.8.12.4, deepObject); undefined when it has none. */
function deepObjectMembers(
  rule: ParameterRule,
  query: Record<string, string | string[] | undefined>,
): DeepObject | undefined {
  const members = new Map<string, string | string[]>();
  const prefix = `${rule.name}[`;
  for (const [key, value] of Object.entries(query))
    if (key.startsWith(prefix) && key.endsWith(']') && value !== undefined)
      members.set(key.slice(prefix.length, -1), value);
  return members.size === 0 ? undefined : { members };
}

function deepObjectText(rule: ParameterRule, { members }: DeepObject): string {
  return [...members].map(([member, text]) => `${rule.name}[${member}]=${String(text)}`).join('&');
}

/** The object a deepObject's members make, each read by its property's types (a member given twice is refused). */
function deepObjectValue(rule: ParameterRule, { members }: DeepObject): JsonValue {
  const properties = isSchemaObject(rule.schema.properties) ? rule.schema.properties : {};
  const object: Record<string, JsonValue> = {};
  for (const [member, text] of members) {
    if (Array.isArray(text)) throw invalid(rule, `has its member ${member} given ${text.length} times, and takes one`);
    object[member] = scalar(text, typesOf(properties[member]));
  }
  return object;
}

/** A parameter's text as the value its schema's types read it as. */
function readValue(rule: ParameterRule, raw: string | string[]): JsonValue {
  if (rule.types.has('array')) {
    const texts = Array.isArray(raw) ? raw : rule.in === 'query' && rule.explode ? [raw] : raw.split(',');
    return texts.map((text) => scalar(text, rule.items ?? new Set()));
  }
  if (Array.isArray(raw)) throw invalid(rule, `is given ${raw.length} times, and takes one value`);
  return scalar(raw, rule.types);
}

/** A number where the types allow one and the text is a JSON numeral (exact), a boolean likewise, else the text. */
function scalar(text: string, types: ReadonlySet<string>): JsonValue {
  if ((types.has('integer') || types.has('number')) && JSON_NUMERAL.test(text)) return parseJson(text);
  if (types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.has('null') && text === 'null' && !types.has('string')) return null;
  return text;
}

/** The item's id: decimal digits (a sign, leading zeros allowed) within int64, read exactly; a number when it is a safe integer. */
function int64Value(rule: ParameterRule, raw: string | string[]): number | bigint {
  const value = typeof raw === 'string' && /^-?\d{1,25}$/.test(raw) ? BigInt(raw) : integralNumeral(rule, raw);
  if (value === undefined || value < INT64_MIN || value > INT64_MAX) {
    throw invalid(rule, `must be an integer from ${INT64_MIN} to ${INT64_MAX} (int64), got ${shown(raw)}`);
  }
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/**
 * A `type: number` id written as an integral numeral (5.0, 5e0): the integer it is (JSON Schema 2020-12 §4.2.2
 * compares numbers by value), so that each names the item the digits name.
 */
function integralNumeral(rule: ParameterRule, raw: string | string[]): bigint | undefined {
  if (typeof raw !== 'string' || !rule.types.has('number') || rule.types.has('integer') || !JSON_NUMERAL.test(raw))
    return undefined;
  if (raw.length > 64) return undefined;
  const value = parseJson(raw);
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value))
    ? BigInt(value)
    : undefined;
}

function invalid(rule: ParameterRule, problem: string): ApiError {
  const where = rule.in === 'path' ? 'Path' : rule.in === 'query' ? 'Query' : 'Header';
  return new ApiError('INVALID_PARAMETER', `${where} parameter ${rule.name} ${problem}.`);
}

/** Longest parameter text a message quotes whole. */
const QUOTED_LIMIT = 64;
function shown(raw: string | string[]): string {
  const text = Array.isArray(raw) ? raw.join(',') : raw;
  return text.length <= QUOTED_LIMIT
    ? JSON.stringify(text)
    : `${JSON.stringify(text.slice(0, QUOTED_LIMIT))}… (${text.length} characters)`;
}

function typesOf(schema: unknown): ReadonlySet<string> {
  const type = isSchemaObject(schema) ? schema.type : undefined;
  return new Set(
    typeof type === 'string'
      ? [type]
      : Array.isArray(type)
        ? type.filter((t): t is string => typeof t === 'string')
        : [],
  );
}

function explodes(parameter: ParameterObject): boolean {
  const { explode, style } = parameter as { explode?: unknown; style?: unknown };
  if (typeof explode === 'boolean') return explode;
  return parameter.in === 'query' ? style === undefined || style === 'form' : false;
}

/**
 * The request paths a path template stands for, by its parameters' types:
 * an integer parameter is a segment of digits (`/plants/{id}` is `/plants/7`,
 * not `/plants/abc`, which no operation there can have), any other a
 * segment. The 405 of another method is for these paths (routes.ts).
 */
export function pathPattern(template: string, rules: readonly ParameterRule[]): RegExp {
  const escape = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let pattern = '';
  let last = 0;
  for (const match of template.matchAll(/\{([^}/]+)\}/g)) {
    const rule = rules.find((candidate) => candidate.in === 'path' && candidate.name === match[1]);
    const integer = rule !== undefined && rule.types.has('integer') && !rule.types.has('string');
    pattern += `${escape(template.slice(last, match.index))}${integer ? '-?[0-9]+' : '[^/]+'}`;
    last = match.index + match[0].length;
  }
  return new RegExp(`^${pattern}${escape(template.slice(last))}$`);
}

/** OpenAPI path templates (`/plants/{id}`) as Fastify routes (`/plants/:id`). */
export function routePath(template: string): string {
  return template.replace(/\{([^}/]+)\}/g, (_, name: string) => `:${routeParameterName(name)}`);
}

/** The name Fastify knows a path parameter by: its characters outside A-Z a-z 0-9 _ as _. */
function routeParameterName(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}
