// A value made from a schema of the document, for an answer the document
// gives no example of (operations/examples.ts), as Prism's static examples
// are: the schema's own `const`, `enum`, `examples`, `example` or `default`
// where it has one, else the least value of its type that its keywords ask
// for (required members, minItems items, a minimum, a minLength, a format's
// sample). A best effort: the caller judges the value with the schema's
// validator, and a value it refuses is not answered. Everything made, and
// every example used, counts against the budget of a made value
// (spec/value-budget.ts): past it the making stops, and madeValue says why.
import { resolveReference, type OpenApiDocument } from '../../spec/openapi.js';
import { isSchemaObject } from '../../spec/schema-keywords.js';
import { BudgetSpent, ValueBudget } from '../../spec/value-budget.js';
import type { JsonValue } from '../json/json.js';

/** Deepest nesting made: a schema that refers to itself ends here. */
const MAX_DEPTH = 8;

/** Samples of the formats a string may declare. */
const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  email: 'plant@example.com',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  byte: 'AA==',
};

export interface ExampleOptions {
  /** Whether an object holds every property it declares, or its required ones only. */
  members: 'all' | 'required';
}

/** The making's options and what it has used of its budget. */
interface Making extends ExampleOptions {
  budget: ValueBudget;
}

/** A value for `schema`; `spent` saying why when it would pass the budget of a made value; undefined when none is made (a `false` schema, too deep). */
export function madeValue(
  doc: OpenApiDocument,
  schema: unknown,
  options: ExampleOptions,
): { value: JsonValue } | { spent: string } | undefined {
  try {
    const value = exampleOf(doc, schema, { ...options, budget: new ValueBudget() });
    return value === undefined ? undefined : { value };
  } catch (error) {
    if (error instanceof BudgetSpent) return { spent: error.reason };
    throw error;
  }
}

/** A value for `schema`, or undefined when none is made (a `false` schema, too deep, past the budget: madeValue says which). */
export function exampleOf(
  doc: OpenApiDocument,
  schema: unknown,
  options: ExampleOptions | Making,
  depth = 0,
): JsonValue | undefined {
  if (!('budget' in options)) {
    const made = madeValue(doc, schema, options);
    return made !== undefined && 'value' in made ? made.value : undefined;
  }
  if (depth > MAX_DEPTH) return undefined;
  if (schema === true) {
    options.budget.charge(1, 4);
    return null;
  }
  if (!isSchemaObject(schema)) return undefined;
  if (typeof schema.$ref === 'string')
    return exampleOf(doc, resolveReference(doc, { $ref: schema.$ref }, '#').value, options, depth + 1);
  const given = ownExample(schema);
  if (given !== undefined) {
    options.budget.chargeGiven(given);
    return given;
  }
  const next = (sub: unknown) => exampleOf(doc, sub, options, depth + 1);
  if (Array.isArray(schema.allOf)) return mergedParts(schema.allOf.map(next), ownValue(doc, schema, options, depth));
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches))
      for (const branch of branches) {
        const value = next(branch);
        if (value !== undefined) return mergedParts([value], ownValue(doc, schema, options, depth));
      }
  }
  return ownValue(doc, schema, options, depth);
}

function ownExample(schema: Record<string, unknown>): JsonValue | undefined {
  if ('const' in schema) return schema.const as JsonValue;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as JsonValue;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0] as JsonValue;
  if ('example' in schema) return schema.example as JsonValue;
  if ('default' in schema) return schema.default as JsonValue;
  return undefined;
}

/** Objects merged member by member (allOf's parts, and the schema's own members); else the first value. */
function mergedParts(parts: Array<JsonValue | undefined>, own: JsonValue | undefined): JsonValue | undefined {
  const values = [...parts, own].filter((value) => value !== undefined);
  const objects = values.filter((value): value is Record<string, JsonValue> => isSchemaObject(value));
  if (objects.length > 0 && objects.length === values.length) return Object.assign({}, ...objects) as JsonValue;
  return values.find((value) => !isSchemaObject(value) || Object.keys(value).length > 0) ?? values[0];
}

/** The value the schema's own type keywords ask for, without its applicators. */
function ownValue(
  doc: OpenApiDocument,
  schema: Record<string, unknown>,
  options: Making,
  depth: number,
): JsonValue | undefined {
  const types =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : [];
  const type =
    types.find((t) => t !== 'null') ??
    types[0] ??
    (isSchemaObject(schema.properties) || Array.isArray(schema.required)
      ? 'object'
      : isSchemaObject(schema.items)
        ? 'array'
        : undefined);
  const { budget } = options;
  switch (type) {
    case 'object':
      budget.charge(1, 2);
      return objectValue(doc, schema, options, depth);
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
      const length = Math.max(count, prefix.length);
      budget.charge(1, 2);
      // Each item is a value at least: an array longer than the budget is refused before any item is made.
      if (length > budget.maxValues) budget.charge(length, length);
      const items: JsonValue[] = [];
      for (let i = 0; i < length; i++) {
        const value = exampleOf(doc, prefix[i] ?? schema.items ?? true, options, depth + 1);
        if (value === undefined) return undefined;
        budget.charge(0, 1);
        items.push(value);
      }
      return items;
    }
    case 'string':
      return stringValue(schema, budget);
    case 'integer':
    case 'number': {
      const value = numberValue(schema, type === 'integer');
      budget.charge(1, String(value).length);
      return value;
    }
    case 'boolean':
      budget.charge(1, 4);
      return true;
    case 'null':
      budget.charge(1, 4);
      return null;
    default:
      return undefined;
  }
}

function objectValue(
  doc: OpenApiDocument,
  schema: Record<string, unknown>,
  options: Making,
  depth: number,
): JsonValue | undefined {
  const properties = isSchemaObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const object: Record<string, JsonValue> = {};
  for (const [name, sub] of Object.entries(properties)) {
    if (options.members === 'required' && !required.has(name)) continue;
    const value = exampleOf(doc, sub, options, depth + 1);
    options.budget.charge(0, name.length + 4);
    if (value !== undefined) object[name] = value;
    else if (required.has(name)) return undefined;
  }
  // A required member the schema does not describe: any value does.
  for (const name of required)
    if (!(name in object)) {
      options.budget.charge(1, name.length + 13);
      object[name] = 'example';
    }
  return object;
}

function stringValue(schema: Record<string, unknown>, budget: ValueBudget): string {
  const sample = typeof schema.format === 'string' ? (FORMAT_SAMPLES[schema.format] ?? 'example') : 'example';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  // Counted before it is made: a minLength of ten million is refused, never written out.
  budget.charge(1, Math.min(Math.max(sample.length, min), max) + 2);
  const long = sample.length >= min ? sample : sample + 'x'.repeat(min - sample.length);
  return long.length <= max ? long : long.slice(0, max);
}

function numberValue(schema: Record<string, unknown>, integer: boolean): number {
  const bound = (keyword: string) => (typeof schema[keyword] === 'number' ? schema[keyword] : undefined);
  const step = bound('multipleOf') ?? (integer ? 1 : undefined);
  let value =
    bound('minimum') ?? (bound('exclusiveMinimum') !== undefined ? bound('exclusiveMinimum')! + (step ?? 1) : 0);
  const max =
    bound('maximum') ??
    (bound('exclusiveMaximum') !== undefined ? bound('exclusiveMaximum')! - (step ?? 1) : undefined);
  if (max !== undefined && value > max) value = max;
  if (step !== undefined) value = Math.ceil(value / step) * step;
  return integer ? Math.ceil(value) : value;
}
