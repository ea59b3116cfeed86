// Where the keyword cases of keyword-cases.ts go: every schema object of the
// request body the harness can place a value at, and the small helpers the
// proposals share (exact arithmetic on bounds, how a value is shown).
import { rationalOf, type Rational } from '../../spec/exact-number.js';
import { isSchemaObject, subschemas, type JsonSchema } from '../../spec/schema-keywords.js';
import type { JsonValue } from '../model/json.js';
import { samplesOf, type InstancePath } from './schema-values.js';
import { createOf, resolveSchema, type SpecModel } from '../model/spec-model.js';

/** A property name no document is likely to declare, for "properties the schema does not name". */
export const UNNAMED_PROPERTY = 'conformanceUnnamedProperty';

export interface Site {
  node: JsonSchema;
  pointer: string;
  path: InstancePath;
  /** Reached through anyOf or oneOf: its keywords bind a value only when that branch is the one it matches. */
  conditional: boolean;
}

/** Every schema object of the request body the harness can place a value for, with where (the first place it is reached). */
export function sites(model: SpecModel): Site[] {
  const out: Site[] = [];
  const seen = new Set<string>();
  const visit = (schema: unknown, pointer: string, path: InstancePath, depth: number, conditional: boolean): void => {
    const { schema: node, pointer: at } = resolveSchema(model.doc, schema, pointer);
    if (!isSchemaObject(node) || depth > 8 || seen.has(at)) return;
    seen.add(at);
    out.push({ node, pointer: at, path, conditional });
    for (const sub of subschemas(node, at)) {
      if (sub.keyword === 'allOf') visit(sub.schema, sub.pointer, path, depth + 1, conditional);
      else if (sub.keyword === 'anyOf' || sub.keyword === 'oneOf')
        visit(sub.schema, sub.pointer, path, depth + 1, true);
      else if (sub.keyword === 'properties')
        visit(sub.schema, sub.pointer, [...path, sub.key!], depth + 1, conditional);
      else if (sub.keyword === 'prefixItems')
        visit(sub.schema, sub.pointer, [...path, sub.key!], depth + 1, conditional);
      else if (sub.keyword === 'items')
        visit(
          sub.schema,
          sub.pointer,
          [...path, Array.isArray(node.prefixItems) ? node.prefixItems.length : 0],
          depth + 1,
          conditional,
        );
      else if (sub.keyword === 'additionalProperties' || sub.keyword === 'unevaluatedProperties')
        visit(sub.schema, sub.pointer, [...path, UNNAMED_PROPERTY], depth + 1, conditional);
    }
  };
  visit(createOf(model).requestSchema.schema, createOf(model).requestSchema.pointer, [], 0, false);
  return out;
}

export const where = (path: InstancePath) => (path.length === 0 ? 'the body' : `/${path.join('/')}`);
export const show = (v: JsonValue | undefined) => {
  const text =
    v === undefined
      ? 'nothing'
      : typeof v === 'bigint'
        ? String(v)
        : typeof v === 'object' && v !== null && 'text' in v
          ? String((v as { text: string }).text)
          : JSON.stringify(v);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
};
export const rational = (v: unknown): Rational | undefined =>
  typeof v === 'number' || typeof v === 'bigint' ? rationalOf(v) : undefined;
export const floorOf = (r: Rational) => (r.n >= 0n || r.n % r.d === 0n ? r.n / r.d : r.n / r.d - 1n);
export const add = (a: Rational, b: Rational): Rational => ({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
/** One step past the last digit the bound is written with (0.5 → 0.05; 3 → 0.1): a number just beside it. */
export const stepBeside = (r: Rational): Rational => ({ n: 1n, d: r.d * 10n });

export function integerOnly(node: JsonSchema): boolean {
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  return types.includes('integer') && !types.includes('number');
}

/** The string values known valid at `path`: the base's, then samples of the schema. */
export function stringStems(model: SpecModel, site: Site, current: JsonValue | undefined): string[] {
  const stems = [current, ...samplesOf(model, site.node, site.pointer, { type: 'string' })].filter(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  return [...new Set(stems)];
}
