// Validators for the schemas of the document, one construction for the
// server (request bodies) and the harness (its own candidate bodies, and
// every answer). Ajv checks JSON Schema 2020-12; the keywords it cannot check
// exactly are taken over by one keyword of ours:
// - `type`, because an integer beyond 2^53 arrives as a bigint and a numeral
//   like 1e-400 as an object that stands for it, neither of which Ajv counts
//   as a number;
// - minimum, maximum, exclusiveMinimum, exclusiveMaximum and multipleOf, and
//   enum and const holding numbers, compared on exact rationals
//   (exact-number.ts); Ajv compares doubles and skips bigints;
// - the integer formats with a range (int32, int64: spec/formats.ts).
// A format that neither this keyword nor ajv-formats knows is an annotation
// (JSON Schema 2020-12 §7.2.1) and is reported as such.
import { createRequire } from 'node:module';
import type { ErrorObject } from 'ajv';
import { compare, formatRational, integerOf, isIntegral, isMultipleOf, rationalOf, type Rational } from './exact-number.js';
import { integerRange } from './formats.js';
import { bundleSchema, DocumentError, documentPointer, type OpenApiDocument } from './openapi.js';
import { childPointer, keywordInfo, keywordUses, type JsonSchema, type KeywordUse } from './schema-keywords.js';

const require = createRequire(import.meta.url);
// Ajv ships CommonJS; the 2020-12 build is the dialect of OpenAPI 3.1.
const Ajv2020 = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
type Ajv = InstanceType<typeof Ajv2020>;

/** Our keyword, holding what it took over from one schema object. */
const EXACT = 'x-plantstore-exact';
const JSON_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string', 'integer'];
const NUMERIC_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;
type NumericKeyword = (typeof NUMERIC_KEYWORDS)[number];

interface ExactRules {
  /** The pointer of the schema object these rules come from (Ajv gives a custom keyword's errors no schema to map back). */
  at: string;
  types?: string[];
  /** An integer format with a range (int32, int64). */
  format?: string;
  bounds?: Partial<Record<NumericKeyword, Rational>>;
  enum?: unknown[];
  const?: { value: unknown };
}

export interface Violation {
  /** Where in the instance, as a JSON pointer ('' for the whole value). */
  instancePath: string;
  keyword: string;
  message: string;
  /** The keyword's pointer in the document. */
  pointer: string;
}

export type Validate = (value: unknown) => Violation[];

export interface ValidatorOptions {
  /**
   * The numeral text of a value that stands for a number the caller parsed
   * exactly (the server's NonIntegralNumber, the harness's Numeral), or
   * undefined for any other value.
   */
  numeral?: (value: unknown) => string | undefined;
  /**
   * A keyword that is neither JSON Schema 2020-12 nor OpenAPI 3.1 nor an
   * `x-` extension: 'refuse' throws a DocumentError naming it (the server:
   * a misspelt `maxLenght` must not pass for no bound at all); 'ignore' leaves
   * it out (the harness, which reports it as not exercised).
   */
  unknownKeywords: 'refuse' | 'ignore';
}

/** A format the validators treat as an annotation, and where. */
export interface UncheckedFormat {
  format: string;
  pointer: string;
}

export interface SchemaValidators {
  /** The validator of the schema at `pointer`; `without` leaves out the keywords at these pointers (the harness's "valid but for this keyword"). */
  compile(schema: unknown, pointer: string, without?: ReadonlySet<string>): Validate;
  /** Formats no validator here checks, found while compiling. */
  uncheckedFormats(): UncheckedFormat[];
}

/** Formats ajv-formats asserts on strings (its "full" mode); the number formats among its list are ours or annotations. */
const STRING_FORMATS = new Set([
  'date', 'time', 'date-time', 'iso-time', 'iso-date-time', 'duration', 'uri', 'uri-reference', 'uri-template', 'url', 'email',
  'hostname', 'ipv4', 'ipv6', 'regex', 'uuid', 'json-pointer', 'json-pointer-uri-fragment', 'relative-json-pointer', 'byte',
]);

/** Whether `format` is asserted by the validators (and so can be exercised). */
export function isCheckedFormat(format: string): boolean {
  return STRING_FORMATS.has(format) || integerRange(format) !== undefined;
}

/**
 * Validators for the schemas of `doc`. Every keyword of every schema is
 * checked once, here, for the server and the harness alike: a value a
 * validator cannot use (a `minimum` that is not a number, a `pattern` that is
 * not a regular expression) is a DocumentError naming it and its pointer.
 */
export function schemaValidators(doc: OpenApiDocument, options: ValidatorOptions): SchemaValidators {
  // Unknown keywords are refused or left out before Ajv sees them (`prepare`);
  // what strict mode would add is refusing keywords 2020-12 says to ignore
  // (`then` without `if`), which a valid document may hold.
  // verbose: each error carries its schema object, which `pointers` maps back to the document.
  const ajv: Ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, verbose: true });
  const pointers = new WeakMap<object, string>();
  addFormats(ajv, [...STRING_FORMATS] as Parameters<typeof addFormats>[1]);
  ajv.addKeyword({ keyword: EXACT, schemaType: 'object', errors: true, validate: exactKeyword(options.numeral ?? (() => undefined)) });
  const unchecked = new Map<string, UncheckedFormat>();

  const prepare = (without: ReadonlySet<string>) => (node: JsonSchema, pointer: string): JsonSchema => {
    const out: JsonSchema = {};
    for (const [keyword, value] of Object.entries(node)) {
      const at = childPointer(pointer, keyword);
      if (without.has(at)) continue;
      if (keywordInfo(keyword) === undefined) {
        if (options.unknownKeywords === 'refuse') throw new DocumentError(at, keyword, 'not a keyword of JSON Schema 2020-12 or OpenAPI 3.1 (extensions start with x-)');
        continue;
      }
      if (keyword === '$ref' && !isLocalSchemaReference(value)) {
        throw new DocumentError(at, keyword, `${JSON.stringify(value)}: only references to #/components/schemas/… of this document are read`);
      }
      out[keyword] = value;
    }
    const prepared = takeOverExactKeywords(out, pointer, unchecked);
    pointers.set(prepared, pointer);
    return prepared;
  };

  return {
    compile(schema, pointer, without = new Set()) {
      const bundled = bundleSchema(doc, schema, pointer, prepare(without));
      if (!ajv.validateSchema(bundled)) {
        const first = ajv.errors?.[0];
        const at = documentPointer(first?.instancePath ?? '', pointer);
        throw new DocumentError(at, at.split('/').pop(), `not a valid JSON Schema 2020-12 value: ${first?.message ?? 'invalid'}`);
      }
      let validate: ReturnType<Ajv['compile']>;
      try {
        validate = ajv.compile(bundled);
      } catch (error) {
        throw new DocumentError(pointer, undefined, `the schema cannot be compiled: ${(error as Error).message}`);
      }
      return (value) => (validate(value) ? [] : violations(validate.errors ?? [], (schema) => pointers.get(schema) ?? pointer));
    },
    uncheckedFormats: () => [...unchecked.values()],
  };
}

/** Every keyword of the document's schemas, with its pointer (components and those written inline in paths). */
export function documentKeywordUses(doc: OpenApiDocument): KeywordUse[] {
  const uses: KeywordUse[] = [];
  for (const [name, schema] of Object.entries(doc.components.schemas)) uses.push(...keywordUses(schema, childPointer('#/components/schemas', name)));
  const visit = (node: unknown, pointer: string): void => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const at = childPointer(pointer, key);
      if (key === 'schema') uses.push(...keywordUses(value, at));
      else if (key !== 'example' && key !== 'examples') visit(value, at);
    }
  };
  visit(doc.paths, '#/paths');
  return uses;
}

/** After bundleSchema: `#/$defs/…` (a component schema) or a plain-name fragment (`#anchor`). */
function isLocalSchemaReference(ref: unknown): boolean {
  return typeof ref === 'string' && (ref.startsWith('#/$defs/') || /^#[A-Za-z_][-A-Za-z0-9._]*$/.test(ref) || ref === '#');
}

function violations(errors: ErrorObject[], pointerOf: (schema: object) => string): Violation[] {
  return errors.map((e) => ({
    instancePath: e.instancePath,
    keyword: e.keyword,
    message: e.message ?? 'is invalid',
    // Our keyword's errors name the keyword they stand for (minimum, type, ...) and its pointer.
    pointer: (e.params as { pointer?: string }).pointer ?? childPointer(pointerOf(e.parentSchema as object), e.keyword),
  }));
}

/** Moves `type`, the numeric keywords, integer formats and numeric enum/const of one schema object into EXACT; checks their values. */
function takeOverExactKeywords(node: JsonSchema, pointer: string, unchecked: Map<string, UncheckedFormat>): JsonSchema {
  const rules: ExactRules = { at: pointer };
  const out: JsonSchema = { ...node };
  if ('type' in out) {
    const types = Array.isArray(out.type) ? out.type : [out.type];
    for (const t of types) if (typeof t !== 'string' || !JSON_TYPES.includes(t)) throw new DocumentError(childPointer(pointer, 'type'), 'type', `${JSON.stringify(t)} is not a JSON Schema type`);
    rules.types = types as string[];
    delete out.type;
  }
  for (const keyword of NUMERIC_KEYWORDS) {
    if (!(keyword in out)) continue;
    const value = rationalOf(typeof out[keyword] === 'string' ? undefined : out[keyword]);
    if (!value || (keyword === 'multipleOf' && value.n <= 0n)) {
      throw new DocumentError(childPointer(pointer, keyword), keyword, `${JSON.stringify(String(out[keyword]))} is not ${keyword === 'multipleOf' ? 'a number above 0' : 'a number'}`);
    }
    (rules.bounds ??= {})[keyword] = value;
    delete out[keyword];
  }
  if (typeof out.format === 'string') {
    if (integerRange(out.format) !== undefined) {
      rules.format = out.format;
      delete out.format;
    } else if (!STRING_FORMATS.has(out.format)) {
      const at = childPointer(pointer, 'format');
      unchecked.set(at, { format: out.format, pointer: at });
      delete out.format;
    }
  }
  if (Array.isArray(out.enum) && out.enum.some(holdsNumber)) {
    rules.enum = out.enum;
    delete out.enum;
  }
  if ('const' in out && holdsNumber(out.const)) {
    rules.const = { value: out.const };
    delete out.const;
  }
  if (typeof out.pattern === 'string') {
    try {
      new RegExp(out.pattern, 'u');
    } catch (error) {
      throw new DocumentError(childPointer(pointer, 'pattern'), 'pattern', `not an ECMA-262 regular expression: ${(error as Error).message}`);
    }
  }
  if (Object.keys(rules).length > 1) out[EXACT] = rules;
  return out;
}

function holdsNumber(value: unknown): boolean {
  if (typeof value === 'number' || typeof value === 'bigint') return true;
  if (Array.isArray(value)) return value.some(holdsNumber);
  return value !== null && typeof value === 'object' && Object.values(value).some(holdsNumber);
}

type Numeral = (value: unknown) => string | undefined;

/** The value as an exact number, when it is a JSON number. */
function numberOf(value: unknown, numeral: Numeral): Rational | undefined {
  if (typeof value === 'number' || typeof value === 'bigint') return rationalOf(value);
  const text = numeral(value);
  return text === undefined ? undefined : rationalOf(text);
}

function jsonTypeOf(value: unknown, numeral: Numeral): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (numberOf(value, numeral) !== undefined) return 'number';
  return typeof value;
}

/** JSON equality (RFC 8259 numbers compared by value: 1, 1.0 and 1n are equal). */
function jsonEqual(a: unknown, b: unknown, numeral: Numeral): boolean {
  const na = numberOf(a, numeral);
  const nb = numberOf(b, numeral);
  if (na || nb) return na !== undefined && nb !== undefined && compare(na, nb) === 0;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i], numeral));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], numeral));
  }
  return a === b;
}

const BOUND_TEST: Record<NumericKeyword, { holds: (c: number) => boolean; says: string }> = {
  minimum: { holds: (c) => c >= 0, says: '>=' },
  maximum: { holds: (c) => c <= 0, says: '<=' },
  exclusiveMinimum: { holds: (c) => c > 0, says: '>' },
  exclusiveMaximum: { holds: (c) => c < 0, says: '<' },
  multipleOf: { holds: () => true, says: 'a multiple of' },
};

function exactKeyword(numeral: Numeral) {
  return function exact(rules: ExactRules, value: unknown): boolean {
    const self = exact as unknown as { errors: Array<Partial<ErrorObject>> };
    const errors: Array<Partial<ErrorObject>> = [];
    const fail = (keyword: string, message: string) => errors.push({ keyword, message, params: { pointer: childPointer(rules.at, keyword) } });
    const n = numberOf(value, numeral);
    const type = jsonTypeOf(value, numeral);
    if (rules.types) {
      const ok = rules.types.some((t) => t === type || (t === 'integer' && n !== undefined && isIntegral(n)));
      if (!ok) {
        const integer = rules.types.length === 1 && rules.types[0] === 'integer';
        fail('type', integer && rules.format ? `must be an integer (${rules.format})` : `must be ${rules.types.join(' or ')}`);
      }
    }
    if (n !== undefined && errors.length === 0) {
      const range = rules.format ? integerRange(rules.format) : undefined;
      const whole = integerOf(n);
      if (range && whole !== undefined && (whole < range[0] || whole > range[1])) fail('format', `must be an integer from ${range[0]} to ${range[1]} (${rules.format})`);
      for (const [keyword, bound] of Object.entries(rules.bounds ?? {}) as Array<[NumericKeyword, Rational]>) {
        const ok = keyword === 'multipleOf' ? isMultipleOf(n, bound) : BOUND_TEST[keyword].holds(compare(n, bound));
        if (!ok) fail(keyword, `must be ${BOUND_TEST[keyword].says} ${formatRational(bound)}`);
      }
    }
    if (rules.enum && !rules.enum.some((e) => jsonEqual(value, e, numeral))) fail('enum', 'must be equal to one of the allowed values');
    if (rules.const && !jsonEqual(value, rules.const.value, numeral)) fail('const', 'must be equal to constant');
    self.errors = errors;
    return errors.length === 0;
  };
}
