// Each keyword of the request schema, as written in the document, yields
// cases just inside its boundary (a body the schema accepts) and just outside
// it (a body the schema refuses, and would accept without that keyword). The
// cases are proposed from the keyword's value (maxLength 50: 50 and 51
// characters) and then sorted by the request validator, so the expectation
// always comes from the document as written. Keywords without cases say why.
// JSON Schema Validation 2020-12: https://json-schema.org/draft/2020-12/json-schema-validation
import type { Rational } from '../../spec/exact-number.js';
import { integerRange } from '../../spec/formats.js';
import { childPointer, isSchemaObject, keywordInfo, type KeywordUse } from '../../spec/schema-keywords.js';
import { isCheckedFormat } from '../../spec/validator.js';
import { noteText, type JsonValue } from '../model/json.js';
import { baseBodies } from './bodies.js';
import {
  FORMAT_SAMPLES,
  getAt,
  jsonTypeOf,
  patternSamples,
  samplesOf,
  setAt,
  stringsOfLength,
  typeAllowed,
  typeExemplars,
  type InstancePath,
} from './schema-values.js';
import { numberValue } from './number-values.js';
import {
  add,
  floorOf,
  integerOnly,
  rational,
  show,
  sites,
  stepBeside,
  stringStems,
  UNNAMED_PROPERTY,
  where,
  type Site,
} from './keyword-sites.js';
import { createOf, type SpecModel } from '../model/spec-model.js';

export type Side = 'inside' | 'outside';

export interface KeywordCase {
  side: Side;
  /** The whole request body (its id is the base's; a case that is not about the id gets a fresh one when sent). */
  body: JsonValue;
  /** What the case sends, e.g. "/name of 51 characters". */
  note: string;
  /** The case puts this value in the id field itself (a boundary of the id): graded as a fixed id is. */
  fixedId?: bigint;
}

export interface KeywordDerivation {
  use: KeywordUse;
  /** Where in the body the keyword applies. */
  path: InstancePath;
  inside: KeywordCase[];
  outside: KeywordCase[];
}

export { UNNAMED_PROPERTY } from './keyword-sites.js';

/** Keywords whose cases are made by a proposal of their own below; the applicators in POOLED draw from a pool of values. */
const POOLED = new Set([
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'contains',
  'minContains',
  'maxContains',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'unevaluatedItems',
]);
/** Keywords that only lead to other schemas: exercised through the keywords they lead to. */
export const STRUCTURAL = new Set([
  'properties',
  'items',
  'prefixItems',
  '$ref',
  '$defs',
  'then',
  'else',
  '$id',
  '$schema',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$vocabulary',
  '$comment',
]);
const MAX_CASES = 6;
/** Keywords whose inside cases are particular values (a bound, a listed value), not any value of a kind. */
const VALUE_BOUNDARIES = new Set([
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'enum',
  'const',
]);

interface Proposal {
  side: Side;
  value: JsonValue | undefined;
  note: string;
  /** Proposals with one intent are alternatives: the first the validator confirms is the case (default: the note). */
  intent?: string;
}

/** The cases one keyword proposes, before the validator sorts them. */
function propose(
  model: SpecModel,
  site: Site,
  keyword: string,
  value: unknown,
  current: JsonValue | undefined,
): Proposal[] {
  const { node } = site;
  const at = where(site.path);
  const inside = (v: JsonValue | undefined, note: string): Proposal => ({
    side: 'inside',
    value: v,
    note: `${at} ${note}`,
  });
  const outside = (v: JsonValue | undefined, note: string): Proposal => ({
    side: 'outside',
    value: v,
    note: `${at} ${note}`,
  });
  switch (keyword) {
    case 'type': {
      const allowed = (Array.isArray(value) ? value : [value]) as string[];
      const ins = allowed.map((t) => {
        const own =
          current !== undefined && jsonTypeOf(current) === t
            ? current
            : samplesOf(model, node, site.pointer, { type: t })[0];
        return inside(own, `as ${t} ${show(own)}`);
      });
      const digits = noteText(getAt(baseBodies(model).full, [baseBodies(model).idField]) ?? 7);
      const outs = typeExemplars(digits)
        .filter((e) => !typeAllowed(allowed, e.type))
        .map((e) => outside(e.value, `as ${e.label}, ${show(e.value)}`));
      return [...ins, ...outs];
    }
    case 'enum':
    case 'const': {
      const listed = (keyword === 'const' ? [value] : Array.isArray(value) ? value : []) as JsonValue[];
      const variants: JsonValue[] = [];
      for (const v of listed) {
        if (typeof v === 'string')
          variants.push(`${v}-unlisted`, v.toUpperCase() === v ? v.toLowerCase() : v.toUpperCase(), '');
        else if (typeof v === 'boolean') variants.push(!v);
        const r = rational(v);
        if (r) variants.push(numberValue(add(r, { n: 1n, d: 1n })), numberValue(add(r, { n: -1n, d: 1n })));
      }
      return [
        ...listed
          .slice(0, MAX_CASES)
          .map((v) => inside(v, `${show(v)}, ${keyword === 'const' ? 'the constant' : 'a listed value'}`)),
        ...variants
          .filter((v) => !listed.some((l) => JSON.stringify(l) === JSON.stringify(v)))
          .map((v) => outside(v, `${show(v)}, not ${keyword === 'const' ? 'the constant' : 'listed'}`)),
      ];
    }
    case 'minLength':
    case 'maxLength': {
      if (typeof value !== 'number') return [];
      const stems = stringStems(model, site, current);
      const [ins, outs] = keyword === 'minLength' ? [value, value - 1] : [value, value + 1];
      return [
        ...stringsOfLength(ins, stems).map((s) => inside(s, `of ${ins} characters (${keyword} ${value})`)),
        ...(outs >= 0
          ? stringsOfLength(outs, stems).map((s) => outside(s, `of ${outs} characters (${keyword} ${value})`))
          : []),
      ];
    }
    case 'pattern': {
      if (typeof value !== 'string') return [];
      const stem = typeof current === 'string' ? current : 'plant';
      const ins = [...(typeof current === 'string' ? [current] : []), ...patternSamples(value)];
      const outs = [
        '',
        ' ',
        '!',
        'x',
        '0',
        `${stem} `,
        ` ${stem}`,
        `${stem}\n`,
        `${stem}!`,
        stem.toUpperCase(),
        stem.toLowerCase(),
        `${stem}${stem}`,
        stem.slice(1),
      ];
      return [
        ...ins.map((s) => inside(s, `${show(s)} (matches ${value})`)),
        ...outs.map((s) => outside(s, `${show(s)} (does not match ${value})`)),
      ];
    }
    case 'format': {
      if (typeof value !== 'string') return [];
      const range = integerRange(value);
      if (range) {
        return [
          inside(numberValue({ n: range[0], d: 1n }), `${range[0]}, the smallest ${value}`),
          inside(numberValue({ n: range[1], d: 1n }), `${range[1]}, the largest ${value}`),
          outside(numberValue({ n: range[0] - 1n, d: 1n }), `${range[0] - 1n}, one below ${value}`),
          outside(numberValue({ n: range[1] + 1n, d: 1n }), `${range[1] + 1n}, one above ${value}`),
        ];
      }
      const samples = FORMAT_SAMPLES[value];
      return samples
        ? [
            ...samples.inside.map((s) => inside(s, `${show(s)} (a ${value})`)),
            ...samples.outside.map((s) => outside(s, `${show(s)} (not a ${value})`)),
          ]
        : [];
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const bound = rational(value);
      if (!bound) return [];
      const lower = keyword === 'minimum' || keyword === 'exclusiveMinimum';
      const exclusive = keyword.startsWith('exclusive');
      const beside = (r: Rational, sign: bigint, by: Rational): Rational => add(r, { n: sign * by.n, d: by.d });
      const step = rational(node.multipleOf);
      // Toward the inside of the range, and away from it.
      const inward = lower ? 1n : -1n;
      let ins: Rational[];
      let outs: Rational[];
      if (integerOnly(node)) {
        // The integers on either side of the boundary.
        const f = floorOf(bound);
        const integral = bound.n % bound.d === 0n;
        const first = lower ? (exclusive || !integral ? f + 1n : f) : exclusive && integral ? f - 1n : f;
        ins = [{ n: first, d: 1n }];
        outs = [{ n: first - inward, d: 1n }];
      } else {
        // Just beside the bound, or one multipleOf step beside it when the document also states one.
        const steps = [stepBeside(bound), ...(step ? [step] : []), { n: 1n, d: 1n }];
        ins = exclusive ? steps.map((by) => beside(bound, inward, by)) : [bound];
        outs = exclusive ? [bound] : steps.map((by) => beside(bound, -inward, by));
      }
      const label = `${keyword} ${show(numberValue(bound))}`;
      return [
        ...ins.map((r) => ({
          ...inside(numberValue(r), `${show(numberValue(r))} (${label})`),
          intent: `inside ${label}`,
        })),
        ...outs.map((r) => ({
          ...outside(numberValue(r), `${show(numberValue(r))} (${label})`),
          intent: `outside ${label}`,
        })),
      ];
    }
    case 'multipleOf': {
      const step = rational(value);
      const base = rational(typeof current === 'number' || typeof current === 'bigint' ? current : 0) ?? {
        n: 0n,
        d: 1n,
      };
      if (!step || step.n <= 0n) return [];
      // q = floor(base / step); q·step and (q+1)·step are multiples beside the base value.
      const q = floorOf({ n: base.n * step.d, d: base.d * step.n });
      const multiple = (k: bigint): Rational => ({ n: k * step.n, d: step.d });
      const half: Rational = { n: step.n, d: step.d * 2n };
      return [
        inside(numberValue(multiple(q)), `${show(numberValue(multiple(q)))} (multipleOf ${show(numberValue(step))})`),
        inside(
          numberValue(multiple(q + 1n)),
          `${show(numberValue(multiple(q + 1n)))} (multipleOf ${show(numberValue(step))})`,
        ),
        outside(
          numberValue(add(multiple(q), half)),
          `${show(numberValue(add(multiple(q), half)))} (not a multiple of ${show(numberValue(step))})`,
        ),
        outside(
          numberValue(add(multiple(q), { n: 1n, d: 1n })),
          `${show(numberValue(add(multiple(q), { n: 1n, d: 1n })))} (not a multiple of ${show(numberValue(step))})`,
        ),
      ];
    }
    case 'required': {
      if (!Array.isArray(value) || !isSchemaObject(current)) return [];
      const only = Object.fromEntries(
        Object.entries(current).filter(
          ([k]) => (value as string[]).includes(k) || createOf(model).request.required.includes(k),
        ),
      ) as JsonValue;
      return [
        inside(only, 'with only the required properties'),
        inside(current, 'with every property'),
        ...(value as string[]).map((name) =>
          outside(setAt(current, [name], undefined), `without the required ${name}`),
        ),
      ];
    }
    case 'dependentRequired': {
      if (!isSchemaObject(value) || !isSchemaObject(current)) return [];
      return Object.entries(value).flatMap(([trigger, needed]) =>
        (Array.isArray(needed) ? (needed as string[]) : []).map((name) =>
          outside(setAt(current, [name], undefined), `with ${trigger} but without ${name}`),
        ),
      );
    }
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      if (!isSchemaObject(current) || value === true) return [];
      if (value === false)
        return [
          inside(current, 'with only the properties the schema names'),
          outside(
            setAt(current, [UNNAMED_PROPERTY], 'x'),
            `with a property the schema does not name (${UNNAMED_PROPERTY})`,
          ),
        ];
      const samples = samplesOf(model, value, childPointer(site.pointer, keyword));
      const digits = '7';
      return [
        ...samples
          .slice(0, 2)
          .map((s) => inside(setAt(current, [UNNAMED_PROPERTY], s), `with ${UNNAMED_PROPERTY}: ${show(s)}`)),
        ...typeExemplars(digits).map((e) =>
          outside(setAt(current, [UNNAMED_PROPERTY], e.value), `with ${UNNAMED_PROPERTY} as ${e.label}`),
        ),
      ];
    }
    case 'minProperties':
    case 'maxProperties': {
      if (!isSchemaObject(current) || typeof value !== 'number') return [];
      const keys = Object.keys(current);
      const trimmed = (n: number) => Object.fromEntries(keys.slice(0, n).map((k) => [k, current[k]!])) as JsonValue;
      const padded = (n: number) =>
        Object.fromEntries([
          ...keys.map((k) => [k, current[k]!]),
          ...Array.from({ length: Math.max(0, n - keys.length) }, (_, i) => [`${UNNAMED_PROPERTY}${i}`, 'x']),
        ]) as JsonValue;
      return keyword === 'minProperties'
        ? [
            inside(padded(value), `with ${value} properties`),
            outside(trimmed(value - 1), `with ${value - 1} properties`),
          ]
        : [
            inside(trimmed(value), `with ${value} properties`),
            outside(padded(value + 1), `with ${value + 1} properties`),
          ];
    }
    case 'minItems':
    case 'maxItems':
    case 'uniqueItems': {
      const items = Array.isArray(current)
        ? current
        : ((samplesOf(model, node, site.pointer, { type: 'array' })[0] as JsonValue[] | undefined) ?? []);
      const item = items[0] ?? 'x';
      const of = (n: number) =>
        Array.from({ length: Math.max(0, n) }, (_, i) => (typeof item === 'string' ? `${item}${i}` : item));
      if (keyword === 'uniqueItems')
        return value === true
          ? [inside(of(2), 'with two different items'), outside([item, item], 'with the same item twice')]
          : [];
      if (typeof value !== 'number') return [];
      return keyword === 'minItems'
        ? [inside(of(value), `with ${value} items`), outside(of(value - 1), `with ${value - 1} items`)]
        : [inside(of(value), `with ${value} items`), outside(of(value + 1), `with ${value + 1} items`)];
    }
    default:
      return POOLED.has(keyword)
        ? pool(model, site, keyword, value, current).flatMap((v) => [inside(v, show(v)), outside(v, show(v))])
        : [];
  }
}

/** Values to try for an applicator: the current one, samples of the schema and of its branches, and one of each JSON type. */
function pool(
  model: SpecModel,
  site: Site,
  keyword: string,
  value: unknown,
  current: JsonValue | undefined,
): Array<JsonValue | undefined> {
  const out: Array<JsonValue | undefined> = [current, ...samplesOf(model, site.node, site.pointer)];
  if (Array.isArray(value))
    value.forEach((b, i) => out.push(...samplesOf(model, b, childPointer(site.pointer, keyword, i))));
  else if (isSchemaObject(value)) out.push(...samplesOf(model, value, childPointer(site.pointer, keyword)));
  out.push(...typeExemplars('7').map((e) => e.value), '', 0, -1, 'x');
  if (isSchemaObject(current)) {
    for (const k of Object.keys(current)) out.push(setAt(current, [k], undefined));
    out.push({});
  }
  return out;
}

const derived = new WeakMap<SpecModel, KeywordDerivation[]>();

/** The cases of every keyword of the request schema, in document order; cached per model. */
export function keywordDerivations(model: SpecModel): KeywordDerivation[] {
  const cached = derived.get(model);
  if (cached) return cached;
  const { full, idField } = baseBodies(model);
  const validate = createOf(model).validateRequest;
  const out: KeywordDerivation[] = [];
  for (const site of sites(model)) {
    const current = getAt(full, site.path);
    for (const [keyword, value] of Object.entries(site.node)) {
      const pointer = childPointer(site.pointer, keyword);
      const use: KeywordUse = { keyword, value, pointer, schemaPointer: site.pointer };
      const derivation: KeywordDerivation = { use, path: site.path, inside: [], outside: [] };
      out.push(derivation);
      if (
        keywordInfo(keyword)?.kind === 'annotation' &&
        !(keyword === 'format' && typeof value === 'string' && isCheckedFormat(value))
      )
        continue;
      if (STRUCTURAL.has(keyword)) continue;
      let without: ((body: unknown) => unknown[]) | undefined;
      const seen = new Set<string>();
      for (const p of propose(model, site, keyword, value, current)) {
        const list = p.side === 'inside' ? derivation.inside : derivation.outside;
        if (list.length >= MAX_CASES) continue;
        // One case per intent: proposals with the same note (say, several ways to write 51 characters) are alternatives.
        const intent = `${p.side} ${p.intent ?? p.note}`;
        if (seen.has(intent)) continue;
        const body = site.path.length === 0 ? (p.value ?? {}) : setAt(full, site.path, p.value);
        const valid = validate(body).length === 0;
        if (p.side === 'inside' && !valid) continue;
        if (p.side === 'outside') {
          // Just outside: refused as written, accepted without this one keyword.
          without ??= model.requestValidatorWithout([pointer]);
          if (valid || without(body).length > 0) continue;
        }
        // A boundary value of the id itself is a fixed id; a case where any valid id does (type, required) gets a fresh one.
        const id =
          site.path.length === 1 && site.path[0] === idField && p.side === 'inside' && VALUE_BOUNDARIES.has(keyword)
            ? p.value
            : undefined;
        const fixedId = typeof id === 'number' || typeof id === 'bigint' ? BigInt(id) : undefined;
        seen.add(intent);
        list.push({ side: p.side, body, note: p.note, ...(fixedId !== undefined ? { fixedId } : {}) });
      }
    }
  }
  derived.set(model, out);
  return out;
}
