// Values drawn from the document's schemas, for the harness's requests. A
// value proposed here is a candidate: the request validator (the schema as
// written, spec/validator.ts) decides whether a body holding it is valid, so
// a wrong guess costs a case, never a wrong verdict. Sources, in order: the
// document's own examples (its author's valid values), then values built
// from the keywords that are there (const, enum, pattern, lengths, bounds,
// format, required). Every candidate fits the budget of a made value
// (spec/value-budget.ts): a schema whose least value is larger (three arrays
// nested, each of minItems 1000) gets no candidate of that size, where it
// once ran compat to its deadline.
// The numbers a schema allows are in number-values.ts.
import fc from 'fast-check';
import { childPointer, isSchemaObject, type JsonSchema } from '../../spec/schema-keywords.js';
import { rationalOf } from '../../spec/exact-number.js';
import { MAX_MADE_BYTES, MAX_MADE_VALUES, withinBudget } from '../../spec/value-budget.js';
import { Numeral, type JsonValue } from '../model/json.js';
import { resolveSchema, type DocumentSchemas } from '../model/spec-model.js';
import { numberSamples } from './number-values.js';

export type Body = Record<string, JsonValue>;
export type InstancePath = Array<string | number>;

/** One value of each JSON type: the coercion traps a server must not fall into ("7" for 7, 42 for "42"). */
export function typeExemplars(digits: string): Array<{ type: string; value: JsonValue; label: string }> {
  return [
    { type: 'string', value: digits, label: 'a string of digits' },
    { type: 'integer', value: 42, label: 'an integer' },
    { type: 'number', value: new Numeral('1.5'), label: 'a number with a fraction' },
    { type: 'boolean', value: true, label: 'a boolean' },
    { type: 'null', value: null, label: 'null' },
    { type: 'array', value: ['x'], label: 'an array' },
    { type: 'object', value: { value: 'x' }, label: 'an object' },
  ];
}

/** Whether a value of JSON type `type` is allowed by a `type` keyword listing `allowed` ("integer" is a "number"). */
export function typeAllowed(allowed: readonly string[], type: string): boolean {
  return allowed.includes(type) || (type === 'integer' && allowed.includes('number'));
}

/** Valid string samples for a format the validators check (inside), and strings that are not of it (outside). */
export const FORMAT_SAMPLES: Readonly<Record<string, { inside: string[]; outside: string[] }>> = {
  'date-time': { inside: ['2024-05-01T12:30:00Z'], outside: ['2024-05-01 12:30', 'yesterday'] },
  date: { inside: ['2024-05-01'], outside: ['2024-13-01', '01/05/2024'] },
  time: { inside: ['12:30:00Z'], outside: ['25:00:00Z'] },
  duration: { inside: ['P1D'], outside: ['one day'] },
  email: { inside: ['gardener@example.com'], outside: ['gardener.example.com'] },
  hostname: { inside: ['plants.example.com'], outside: ['-plants-.example.com'] },
  ipv4: { inside: ['192.0.2.1'], outside: ['192.0.2.256'] },
  ipv6: { inside: ['2001:db8::1'], outside: ['2001:db8::g'] },
  uri: { inside: ['https://example.com/plants/1'], outside: ['plants 1'] },
  'uri-reference': { inside: ['/plants/1'], outside: ['\\\\plants'] },
  url: { inside: ['https://example.com/plants'], outside: ['plants'] },
  uuid: { inside: ['3f2504e0-4f89-41d3-9a0c-0305e82c3301'], outside: ['3f2504e0-4f89-41d3-9a0c'] },
  byte: { inside: ['cGxhbnQ='], outside: ['not base64!'] },
  regex: { inside: ['^[a-z]+$'], outside: ['['] },
  'json-pointer': { inside: ['/plants/0'], outside: ['plants/0'] },
  'json-pointer-uri-fragment': { inside: ['#/plants/0'], outside: ['#plants 0'] },
  'relative-json-pointer': { inside: ['0/plants'], outside: ['/plants'] },
  'iso-time': { inside: ['12:30:00'], outside: ['25:00'] },
  'iso-date-time': { inside: ['2024-05-01T12:30:00'], outside: ['2024-05-01'] },
  'uri-template': { inside: ['/plants/{id}'], outside: ['/plants/{id'] },
};

/**
 * A string of exactly `length` code points (JSON Schema counts code points),
 * built from the characters of `stems` (strings known valid); none longer
 * than the budget of a made value (a maxLength of a hundred million once ran
 * compat to its deadline).
 */
export function stringsOfLength(length: number, stems: string[]): string[] {
  const out = new Set<string>();
  if (length > MAX_MADE_BYTES) return [];
  for (const stem of [...stems, 'plant', 'x']) {
    const points = Array.from(stem);
    if (points.length === 0) continue;
    // The stem repeated, then cut to the length (in linear time: appending a stem at a time copied the whole string each time).
    const s = Array.from(points.join('').repeat(Math.ceil(length / points.length)));
    out.add(s.slice(0, length).join(''));
    // Repeating the last character keeps a pattern anchored on the stem's start happy.
    if (points.length < length)
      out.add(points.concat(Array(length - points.length).fill(points[points.length - 1])).join(''));
  }
  return [...out];
}

/**
 * Strings the pattern matches, drawn by fast-check from a fixed seed (the
 * document decides them, not the run). The RegExp is only parsed: fast-check
 * builds strings from its syntax and never runs it on one, so a
 * catastrophic pattern costs nothing here (what draws them is then
 * validated on the linear-time engine, spec/linear-pattern.ts).
 */
export function patternSamples(pattern: string, count = 8): string[] {
  try {
    return fc.sample(fc.stringMatching(new RegExp(pattern, 'u')), { seed: 20240611, numRuns: count });
  } catch {
    return [];
  }
}

/** The types a schema object allows, or the one its keywords imply when it states none. */
function typesOf(node: JsonSchema): string[] {
  if (node.type !== undefined) return (Array.isArray(node.type) ? node.type : [node.type]) as string[];
  if (node.properties || node.required || node.additionalProperties !== undefined) return ['object'];
  if (node.items || node.prefixItems) return ['array'];
  if (node.minLength !== undefined || node.maxLength !== undefined || node.pattern !== undefined) return ['string'];
  if (node.minimum !== undefined || node.maximum !== undefined || node.multipleOf !== undefined) return ['number'];
  return [];
}

const MAX_DEPTH = 6;

/**
 * Candidate values for a schema of the document, best first: the author's
 * examples, const, enum, default, then values built from its keywords.
 * `required` leaves out an object's optional properties.
 */
export function samplesOf(
  model: DocumentSchemas,
  schema: unknown,
  pointer: string,
  opts: { required?: boolean; type?: string } = {},
  depth = 0,
): JsonValue[] {
  const { schema: resolved, pointer: at } = resolveSchema(model.doc, schema, pointer);
  if (!isSchemaObject(resolved) || depth > MAX_DEPTH) return [];
  const node = resolved;
  const out: JsonValue[] = [];
  const push = (...values: unknown[]) => {
    for (const v of values)
      if (
        v !== undefined &&
        (opts.type === undefined ||
          jsonTypeOf(v as JsonValue) === opts.type ||
          (opts.type === 'number' && jsonTypeOf(v as JsonValue) === 'integer')) &&
        withinBudget(v)
      )
        out.push(v as JsonValue);
  };
  if ('const' in node) push(node.const);
  if (Array.isArray(node.enum)) push(...(node.enum as unknown[]).slice(0, 3));
  if (Array.isArray(node.examples)) push(...(node.examples as unknown[]));
  if (node.example !== undefined) push(node.example);
  if (node.default !== undefined) push(node.default);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = node[keyword];
    if (Array.isArray(branches))
      branches.forEach((b, i) =>
        push(...samplesOf(model, b, childPointer(at, keyword, i), opts, depth + 1).slice(0, 2)),
      );
  }
  const types = opts.type !== undefined ? [opts.type] : typesOf(node);
  if (Array.isArray(node.allOf)) {
    const parts = node.allOf.map(
      (b, i) => samplesOf(model, b, childPointer(at, 'allOf', i), { ...opts, type: types[0] }, depth + 1)[0],
    );
    if (parts.every((p) => isSchemaObject(p)))
      push(
        Object.assign({}, ...parts, ...(types.includes('object') ? [objectSample(model, node, at, opts, depth)] : [])),
      );
    else push(...parts.filter((p) => p !== undefined));
  }
  for (const type of types) {
    if (type === 'string') {
      const format = typeof node.format === 'string' ? FORMAT_SAMPLES[node.format]?.inside : undefined;
      const patterned = typeof node.pattern === 'string' ? patternSamples(node.pattern) : [];
      const min = typeof node.minLength === 'number' ? node.minLength : 0;
      // A format's or a pattern's sample is as long as it must be (a UUID is 36 characters): only a declared maxLength bounds it.
      const declaredMax = typeof node.maxLength === 'number' ? node.maxLength : Infinity;
      const max = Math.min(declaredMax, Math.max(min, 16));
      const fitting = [...(format ?? []), ...patterned].filter(
        (s) => Array.from(s).length >= min && Array.from(s).length <= declaredMax,
      );
      push(...fitting, ...stringsOfLength(Math.min(Math.max(min, 'conformance'.length), max), ['conformance']));
    } else if (type === 'integer' || type === 'number') push(...numberSamples(node, type === 'integer', 7n));
    else if (type === 'boolean') push(true);
    else if (type === 'null') push(null);
    else if (type === 'array') push(arraySample(model, node, at, depth));
    else if (type === 'object') push(objectSample(model, node, at, opts, depth));
  }
  return out;
}

/** An array its keywords allow, as far as they say: prefixItems in order, then items, as many as minItems asks (one at least), an item `contains` wants, distinct where uniqueItems asks; none when minItems passes the budget of a made value. */
function arraySample(model: DocumentSchemas, node: JsonSchema, at: string, depth: number): JsonValue[] | undefined {
  if (typeof node.minItems === 'number' && node.minItems > MAX_MADE_VALUES) return undefined;
  const prefix = Array.isArray(node.prefixItems)
    ? node.prefixItems.map((s, i) => samplesOf(model, s, childPointer(at, 'prefixItems', i), {}, depth + 1)[0] ?? null)
    : [];
  const items =
    node.items === false
      ? []
      : node.items !== undefined
        ? samplesOf(model, node.items, childPointer(at, 'items'), {}, depth + 1)
        : ['x'];
  const max = typeof node.maxItems === 'number' ? node.maxItems : Infinity;
  const count = Math.min(max, Math.max(typeof node.minItems === 'number' ? node.minItems : 0, prefix.length, 1));
  const out: JsonValue[] = prefix.slice(0, count);
  for (let i = 0; out.length < count && items.length > 0; i++) {
    const item = items[i % items.length]!;
    // Distinct strings where the same value would repeat (uniqueItems).
    out.push(node.uniqueItems === true && i >= items.length && typeof item === 'string' ? `${item}${i}` : item);
  }
  if (node.contains !== undefined) {
    const wanted = samplesOf(model, node.contains, childPointer(at, 'contains'), {}, depth + 1)[0];
    if (wanted !== undefined) {
      if (out.length >= max) out.pop();
      out.push(wanted);
    }
  }
  return out;
}

function objectSample(
  model: DocumentSchemas,
  node: JsonSchema,
  at: string,
  opts: { required?: boolean },
  depth: number,
): Body {
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const out: Body = {};
  for (const [name, sub] of Object.entries(isSchemaObject(node.properties) ? node.properties : {})) {
    if (opts.required && !required.has(name)) continue;
    const v = samplesOf(model, sub, childPointer(at, 'properties', name), { required: opts.required }, depth + 1)[0];
    if (v !== undefined) out[name] = v;
  }
  // A property its patterns name, and one more where it takes any other name (additionalProperties a schema).
  if (!opts.required && isSchemaObject(node.patternProperties)) {
    for (const [pattern, sub] of Object.entries(node.patternProperties).slice(0, 2)) {
      const name = patternSamples(pattern, 4).find((n) => !(n in out));
      const v =
        name === undefined
          ? undefined
          : samplesOf(model, sub, childPointer(at, 'patternProperties', pattern), {}, depth + 1)[0];
      if (name !== undefined && v !== undefined) out[name] = v;
    }
  }
  if (!opts.required && isSchemaObject(node.additionalProperties)) {
    const names =
      node.propertyNames !== undefined
        ? samplesOf(model, node.propertyNames, childPointer(at, 'propertyNames'), { type: 'string' }, depth + 1)
        : ['extra'];
    const name = names.find((n): n is string => typeof n === 'string' && !(n in out));
    const v = samplesOf(model, node.additionalProperties, childPointer(at, 'additionalProperties'), {}, depth + 1)[0];
    if (name !== undefined && v !== undefined) out[name] = v;
  }
  for (const name of required) if (!(name in out)) out[name] = 'conformance';
  return out;
}

export function jsonTypeOf(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'integer';
  if (value instanceof Numeral) {
    const r = rationalOf(value.text);
    return r && r.n % r.d === 0n ? 'integer' : 'number';
  }
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The value at `path` in `body`, or undefined. */
export function getAt(body: JsonValue, path: InstancePath): JsonValue | undefined {
  let v: JsonValue | undefined = body;
  for (const key of path)
    v =
      v !== null && typeof v === 'object' && !(v instanceof Numeral)
        ? (v as Record<string | number, JsonValue>)[key]
        : undefined;
  return v;
}

/** A copy of `body` with `value` at `path` (undefined removes it); missing objects on the way are created. */
export function setAt(body: JsonValue, path: InstancePath, value: JsonValue | undefined): JsonValue {
  if (path.length === 0) return value === undefined ? {} : value;
  const [key, ...rest] = path;
  const container =
    body !== null && typeof body === 'object' && !(body instanceof Numeral) ? body : typeof key === 'number' ? [] : {};
  const copy = (Array.isArray(container) ? [...container] : { ...container }) as Record<string | number, JsonValue>;
  const next = setAt(copy[key!] ?? null, rest, value);
  if (value === undefined && rest.length === 0) delete copy[key!];
  else copy[key!] = next;
  return copy;
}
