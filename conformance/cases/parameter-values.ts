// Values for an operation's parameters, drawn from the document: valid ones
// (its examples, its enum, values built from its schema's keywords) and ones
// its schema refuses, each a text as it goes in the path, the query, a
// header or a cookie. The parameter's validator decides, on the value the
// text stands for (`?limit=7` is the integer 7, `?limit=abc` the string
// "abc", `/plants/1.5` the number 1.5): a candidate it refuses is never sent
// as valid, and one it accepts never as invalid.
import { isSchemaObject } from '../../spec/schema-keywords.js';
import { integerRange } from '../../spec/formats.js';
import { MAX_MADE_BYTES } from '../../spec/value-budget.js';
import { Numeral, type JsonValue } from '../model/json.js';
import { resolveSchema, type ParameterModel, type SpecModel } from '../model/spec-model.js';
import { RuledOut } from '../model/ruled-out.js';
import { FORMAT_SAMPLES, samplesOf } from './schema-values.js';

/** A value of a parameter: the text sent, the value it stands for, and what it is, in a few words. */
export interface ParameterValue {
  text: string;
  value: JsonValue;
  label: string;
}

const NUMERAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The types the parameter's schema allows (its `type`). */
export function parameterTypes(model: SpecModel, p: ParameterModel): string[] {
  if (!p.schema) return [];
  const { schema } = resolveSchema(model.doc, p.schema.schema, p.schema.pointer);
  if (!isSchemaObject(schema)) return [];
  return Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
}

/** The value a text of the parameter stands for, as a server reading the parameter by its schema would take it. */
export function valueOfText(types: readonly string[], text: string): JsonValue {
  if ((types.includes('integer') || types.includes('number')) && NUMERAL.test(text)) return new Numeral(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** The text a value is sent as (style simple or form, one value): a string as it is, anything else as its JSON text. */
export function textOf(value: JsonValue): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Numeral) return value.text;
  if (Array.isArray(value)) return value.map(textOf).join(',');
  if (value !== null && typeof value === 'object')
    return Object.entries(value)
      .flatMap(([k, v]) => [k, textOf(v)])
      .join(',');
  return JSON.stringify(value);
}

/** Whether the document accepts this value of the parameter. */
function accepts(p: ParameterModel, value: JsonValue): boolean {
  return (p.validate?.(value) ?? []).length === 0;
}

/** A text and the value it stands for, when the parameter's schema accepts that value. */
function checked(model: SpecModel, p: ParameterModel, value: JsonValue, label: string): ParameterValue | undefined {
  const text = textOf(value);
  // What goes over the wire is text: the value checked is the one the text stands for (an array or an object as the style writes it: its values).
  const structured =
    Array.isArray(value) || (value !== null && typeof value === 'object' && !(value instanceof Numeral));
  const read = structured ? value : valueOfText(parameterTypes(model, p), text);
  return accepts(p, read) ? { text, value: read, label } : undefined;
}

/**
 * Valid values of a parameter, best first: its examples, its enum's values,
 * then values drawn from its schema (arrays and objects too: the style writes
 * them, parameter-style.ts). Throws RuledOut when the document allows none.
 */
export function validParameterValues(model: SpecModel, p: ParameterModel): ParameterValue[] {
  const candidates: Array<[JsonValue, string]> = [
    ...p.examples.map((v): [JsonValue, string] => [v as JsonValue, 'its example']),
    ...(p.schema ? samplesOf(model, p.schema.schema, p.schema.pointer) : ['conformance']).map(
      (v): [JsonValue, string] => [v, 'drawn from its schema'],
    ),
  ];
  const out: ParameterValue[] = [];
  for (const [value, label] of candidates) {
    const v = checked(model, p, value, label);
    if (v && !out.some((o) => o.text === v.text)) out.push(v);
  }
  if (out.length === 0)
    throw new RuledOut(
      `the harness can write no valid value of the ${p.in} parameter ${p.name} (${p.schema?.pointer ?? 'no schema'})`,
    );
  return out;
}

/** Candidate texts a parameter's schema may refuse, each with what it is. */
function refusable(model: SpecModel, p: ParameterModel): Array<[string, string]> {
  const types = parameterTypes(model, p);
  const out: Array<[string, string]> = [];
  const { schema } = p.schema ? resolveSchema(model.doc, p.schema.schema, p.schema.pointer) : { schema: undefined };
  const s = isSchemaObject(schema) ? schema : {};
  if (types.includes('integer') || types.includes('number')) {
    out.push(['abc', 'not a number'], ['', 'empty']);
    if (types.includes('integer') && !types.includes('number')) out.push(['1.5', 'a number with a fraction']);
    const range = integerRange(typeof s.format === 'string' ? s.format : undefined);
    if (range)
      out.push(
        [String(range[1] + 1n), `one above the ${String(s.format)} range`],
        [String(range[0] - 1n), `one below the ${String(s.format)} range`],
      );
    const bound = (key: string, delta: bigint, what: string) => {
      const b = s[key];
      if (typeof b === 'number' && Number.isInteger(b)) out.push([String(BigInt(b) + delta), what]);
      if (typeof b === 'bigint') out.push([String(b + delta), what]);
    };
    bound('minimum', -1n, 'one below its minimum');
    bound('maximum', 1n, 'one above its maximum');
    bound('exclusiveMinimum', 0n, 'its exclusiveMinimum');
    bound('exclusiveMaximum', 0n, 'its exclusiveMaximum');
  }
  if (types.includes('boolean')) out.push(['maybe', 'neither true nor false']);
  if (types.includes('string') || types.length === 0) {
    // No string longer than the budget of a made value (spec/value-budget.ts) is written out.
    if (typeof s.minLength === 'number' && s.minLength > 0 && s.minLength - 1 <= MAX_MADE_BYTES)
      out.push(['x'.repeat(s.minLength - 1), 'one character shorter than its minLength']);
    if (typeof s.maxLength === 'number' && s.maxLength + 1 <= MAX_MADE_BYTES)
      out.push(['x'.repeat(s.maxLength + 1), 'one character longer than its maxLength']);
    if (typeof s.pattern === 'string')
      out.push([' ', 'a space, which its pattern does not match'], ['!?', 'text its pattern does not match']);
    const format = typeof s.format === 'string' ? FORMAT_SAMPLES[s.format]?.outside[0] : undefined;
    if (format !== undefined) out.push([format, `not a ${String(s.format)}`]);
  }
  if (Array.isArray(s.enum) || 'const' in s) out.push(['conformance-not-listed', 'a value its enum does not list']);
  return out;
}

/** Values of a parameter its schema refuses, each alone a reason to refuse the request (at most `max`). */
export function invalidParameterValues(model: SpecModel, p: ParameterModel, max = 4): ParameterValue[] {
  const types = parameterTypes(model, p);
  const out: ParameterValue[] = [];
  for (const [text, label] of refusable(model, p)) {
    // An empty path segment names another path (/plants/ is not /plants/{id}): not a value of the parameter.
    if (p.in === 'path' && text === '') continue;
    const value = valueOfText(types, text);
    if (!accepts(p, value) && !out.some((o) => o.text === text)) out.push({ text, value, label });
    if (out.length >= max) break;
  }
  return out;
}

/** Integer formats with a range, narrowest first: a value one past each is sent where the parameter's schema refuses it. */
const OVERFLOWS: ReadonlyArray<[format: string, exponent: string]> = [
  ['int32', '1e10'],
  ['int64', '1e19'],
];

/**
 * Values of a numeric parameter outside its format, each alone a reason to
 * refuse the request, each only where the parameter's schema refuses it:
 * one past the int32 and the int64 range on both sides (a server that reads
 * the value into a machine integer wraps it or breaks), a fraction, and the
 * exponent form of a value past each range (`1e10` is 10 000 000 000, not 1).
 * PS-OP-003 sends every one, beside the first few of invalidParameterValues.
 */
export function outOfFormatValues(model: SpecModel, p: ParameterModel): ParameterValue[] {
  const types = parameterTypes(model, p);
  if (!types.includes('integer') && !types.includes('number')) return [];
  const candidates: Array<[string, string]> = [];
  for (const [format, exponent] of OVERFLOWS) {
    const [lo, hi] = integerRange(format)!;
    candidates.push(
      [String(hi + 1n), `one past the ${format} range`],
      [String(lo - 1n), `one below the ${format} range`],
      [exponent, `past the ${format} range in exponent form`],
    );
  }
  if (types.includes('integer') && !types.includes('number')) candidates.push(['1.5', 'a number with a fraction']);
  const out: ParameterValue[] = [];
  for (const [text, label] of candidates) {
    const value = valueOfText(types, text);
    if (!accepts(p, value) && !out.some((o) => o.text === text)) out.push({ text, value, label: `${label} (${text})` });
  }
  return out;
}
