// The validator's own keyword (spec/validator.ts, x-plantstore-exact): the
// numeric keywords, integer formats, enum and const that Ajv would judge on
// doubles, judged exactly on numbers, bigints and numerals (exact-number.ts).
import type { ErrorObject } from 'ajv';
import { compare, formatRational, integerOf, isIntegral, isMultipleOf, rationalOf, type Rational } from './exact-number.js';
import { integerRange } from './formats.js';
import { childPointer } from './schema-keywords.js';

export const NUMERIC_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;
export type NumericKeyword = (typeof NUMERIC_KEYWORDS)[number];

export interface ExactRules {
  /** The pointer of the schema object these rules come from (Ajv gives a custom keyword's errors no schema to map back). */
  at: string;
  types?: string[];
  /** An integer format with a range (int32, int64). */
  format?: string;
  bounds?: Partial<Record<NumericKeyword, Rational>>;
  enum?: unknown[];
  const?: { value: unknown };
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

export function exactKeyword(numeral: Numeral) {
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
