// The validator's own keyword (spec/validator.ts, x-plantstore-exact): the
// numeric keywords, integer formats, enum and const that Ajv would judge on
// doubles, judged exactly on numbers, bigints and numerals (exact-number.ts).
//
// A `code` keyword: the code Ajv generates for it calls exactErrors with the
// keyword's rules and the value. A `validate` keyword would be a function
// Ajv holds by reference, which its standalone output (the validator
// generated at build time, validator.ts validatorModule) cannot write out;
// generated code reaches the two functions below through
// STANDALONE_IMPORT, an import of this module.
import type { CodeKeywordDefinition, ErrorObject } from 'ajv';
import { ajvModules } from './ajv.js';
import {
  compare,
  formatRational,
  integerOf,
  isIntegral,
  isMultipleOf,
  rationalOf,
  type Rational,
} from './exact-number.js';
import { integerRange } from './formats.js';
import { childPointer } from './schema-keywords.js';

export const EXACT = 'x-plantstore-exact';

export const NUMERIC_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;
export type NumericKeyword = (typeof NUMERIC_KEYWORDS)[number];

/**
 * What the keyword took over from one schema object. JSON, with each bound
 * as its numeral: the rules are part of the schema, which standalone code
 * writes out as JSON text.
 */
export interface ExactRules {
  /** The pointer of the schema object these rules come from (Ajv gives a custom keyword's errors no schema to map back). */
  at: string;
  types?: string[];
  /** An integer format with a range (int32, int64). */
  format?: string;
  bounds?: Partial<Record<NumericKeyword, string>>;
  enum?: unknown[];
  const?: { value: unknown };
}

/** The rules ready to be checked: the format's range and the bounds as exact numbers. */
export interface CheckedRules {
  at: string;
  types?: readonly string[];
  format?: string;
  /** The format's range, and the same as doubles: a safe integer compared with them is compared exactly. */
  range?: { min: bigint; max: bigint; minDouble: number; maxDouble: number };
  bounds: ReadonlyArray<readonly [NumericKeyword, Rational]>;
  enum?: unknown[];
  const?: { value: unknown };
}

/**
 * What a validator is called with (Ajv's passContext option: the `this` of
 * its generated code), so that the same generated code serves every caller.
 */
export interface ValidationContext {
  /**
   * The numeral text of a value that stands for a number the caller parsed
   * exactly (the server's NonIntegralNumber, the harness's Numeral), or
   * undefined for any other value.
   */
  numeral?: (value: unknown) => string | undefined;
}

/** An error of this keyword, named after the keyword it stands for (type, minimum, format, …), with that keyword's pointer. */
export type ExactError = Pick<ErrorObject, 'keyword' | 'message'> & { params: { pointer: string } };

export function checkedRules(rules: ExactRules): CheckedRules {
  const range = rules.format === undefined ? undefined : integerRange(rules.format);
  return {
    at: rules.at,
    types: rules.types,
    format: rules.format,
    range: range && { min: range[0], max: range[1], minDouble: Number(range[0]), maxDouble: Number(range[1]) },
    bounds: (Object.entries(rules.bounds ?? {}) as Array<[NumericKeyword, string]>).map(
      ([keyword, numeral]) => [keyword, rationalOf(numeral)!] as const,
    ),
    enum: rules.enum,
    const: rules.const,
  };
}

type Numeral = ValidationContext['numeral'];

/** The value as an exact number, when it is a JSON number. */
function numberOf(value: unknown, numeral: Numeral): Rational | undefined {
  if (typeof value === 'number' || typeof value === 'bigint') return rationalOf(value);
  const text = numeral?.(value);
  return text === undefined ? undefined : rationalOf(text);
}

function jsonTypeOf(value: unknown, number: Rational | undefined): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (number !== undefined) return 'number';
  return typeof value;
}

/** JSON equality (RFC 8259 numbers compared by value: 1, 1.0 and 1n are equal). */
function jsonEqual(a: unknown, b: unknown, numeral: Numeral): boolean {
  const na = numberOf(a, numeral);
  const nb = numberOf(b, numeral);
  if (na || nb) return na !== undefined && nb !== undefined && compare(na, nb) === 0;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i], numeral))
    );
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every(
        (k) =>
          Object.hasOwn(b, k) &&
          jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], numeral),
      )
    );
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

function failed(errors: ExactError[] | null, rules: CheckedRules, keyword: string, message: string): ExactError[] {
  const error = { keyword, message, params: { pointer: childPointer(rules.at, keyword) } };
  if (errors === null) return [error];
  errors.push(error);
  return errors;
}

/** The violations of `rules` by `value`, or null when there are none. */
export function exactErrors(
  rules: CheckedRules,
  value: unknown,
  context: ValidationContext | undefined,
): ExactError[] | null {
  const numeral = context?.numeral;
  // The common case, an id: a safe integer is a number, an integer, and
  // compared with a format's range as a double exactly; its exact value is
  // only made when a bound, enum or const needs it.
  const safeInteger = typeof value === 'number' && Number.isSafeInteger(value);
  let n = safeInteger ? undefined : numberOf(value, numeral);
  let errors: ExactError[] | null = null;
  if (rules.types) {
    const type = safeInteger ? 'number' : jsonTypeOf(value, n);
    const integral = safeInteger || (n !== undefined && isIntegral(n));
    if (!rules.types.some((t) => t === type || (t === 'integer' && integral))) {
      const integer = rules.types.length === 1 && rules.types[0] === 'integer';
      errors = failed(
        errors,
        rules,
        'type',
        integer && rules.format ? `must be an integer (${rules.format})` : `must be ${rules.types.join(' or ')}`,
      );
    }
  }
  if ((safeInteger || n !== undefined) && errors === null) {
    const { range } = rules;
    if (range) {
      const outside = safeInteger ? value < range.minDouble || value > range.maxDouble : outsideRange(n!, range);
      if (outside)
        errors = failed(
          errors,
          rules,
          'format',
          `must be an integer from ${range.min} to ${range.max} (${rules.format})`,
        );
    }
    for (const [keyword, bound] of rules.bounds) {
      n ??= rationalOf(value)!;
      const ok = keyword === 'multipleOf' ? isMultipleOf(n, bound) : BOUND_TEST[keyword].holds(compare(n, bound));
      if (!ok) errors = failed(errors, rules, keyword, `must be ${BOUND_TEST[keyword].says} ${formatRational(bound)}`);
    }
  }
  if (rules.enum && !rules.enum.some((e) => jsonEqual(value, e, numeral)))
    errors = failed(errors, rules, 'enum', 'must be equal to one of the allowed values');
  if (rules.const && !jsonEqual(value, rules.const.value, numeral))
    errors = failed(errors, rules, 'const', 'must be equal to constant');
  return errors;
}

function outsideRange(n: Rational, range: NonNullable<CheckedRules['range']>): boolean {
  const whole = integerOf(n);
  return whole !== undefined && (whole < range.min || whole > range.max);
}

/** The import through which generated code reaches checkedRules and exactErrors; the generated module is written beside this one. */
export const STANDALONE_IMPORT = "import * as exactKeyword from './exact-keyword.js';";

/**
 * The keyword's definition for Ajv: the rules are checked once, when the
 * schema is compiled (in generated code, when its module is loaded); the
 * value at validation. Its errors join Ajv's as a `validate` keyword's do
 * (Ajv's funcKeywordCode): appended to the list, with the instance path and
 * schema path Ajv gives its own.
 */
export function exactKeyword(): CodeKeywordDefinition {
  const { ajv, names, extendErrors } = ajvModules();
  const { _, stringify } = ajv;
  return {
    keyword: EXACT,
    schemaType: 'object',
    trackErrors: true,
    code(cxt) {
      const { gen, data, it } = cxt;
      const schema: unknown = cxt.schema;
      const rules = gen.scopeValue('keyword', {
        ref: checkedRules(schema as ExactRules),
        // Only standalone code needs the text (and JSON has no bigints: a document's enum may hold one).
        ...(it.opts.code.source === true ? { code: _`exactKeyword.checkedRules(${stringify(schema)})` } : {}),
      });
      const check = gen.scopeValue('func', { ref: exactErrors, code: _`exactKeyword.exactErrors` });
      const errors = gen.const('exactErrors', _`${check}(${rules}, ${data}, ${names.this})`);
      gen.if(_`${errors} !== null`, () => {
        gen
          .assign(names.vErrors, _`${names.vErrors} === null ? ${errors} : ${names.vErrors}.concat(${errors})`)
          .assign(names.errors, _`${names.vErrors}.length`);
        extendErrors(cxt);
      });
      cxt.ok(_`${errors} === null`);
    },
  };
}
