// The boundary values of a parameter: the least and the greatest number its
// schema allows (its bounds, exclusive bounds, multipleOf and integer format
// taken together, number-values.ts), each saying whether the document's
// author wrote that bound (a minimum, a maximum…) or only the format implies
// it (int32's −2147483648). A client sends typical values (an example, a
// default, a small value inside the bounds); a boundary is a case of its own
// (PS-OP-002), graded by what the document says of it.
import { isSchemaObject, type JsonSchema } from '../../spec/schema-keywords.js';
import { Numeral } from '../model/json.js';
import { resolveSchema, type ParameterModel, type SpecModel } from '../model/spec-model.js';
import { numberLattice, numberValue } from './number-values.js';
import { parameterTypes, textOf, validParameterValues, type ParameterValue } from './parameter-values.js';

/** A boundary value of a parameter, and whether a keyword the author wrote puts it there (not only the format). */
export interface ParameterBoundary extends ParameterValue {
  /** A minimum, maximum or exclusive bound of the schema puts the value there: the document says this value is valid. */
  declared: boolean;
  /** Which end of the range it is. */
  side: 'minimum' | 'maximum';
}

/** The schema object of a parameter, resolved; undefined where it has none. */
function schemaOf(model: SpecModel, p: ParameterModel): JsonSchema | undefined {
  if (!p.schema) return undefined;
  const { schema } = resolveSchema(model.doc, p.schema.schema, p.schema.pointer);
  return isSchemaObject(schema) ? schema : undefined;
}

/**
 * The least and greatest values a numeric parameter's schema allows, each
 * the schema accepts (its validator decides), with what puts it there. None
 * for a parameter that is not a number, or whose range is open on that side.
 */
export function parameterBoundaries(model: SpecModel, p: ParameterModel): ParameterBoundary[] {
  const s = schemaOf(model, p);
  const types = parameterTypes(model, p);
  const integer = types.includes('integer') && !types.includes('number');
  if (!s || !(integer || types.includes('number'))) return [];
  const full = numberLattice([s], integer);
  if (!full?.step) return [];
  // The same keywords without the format: where its bound is the full one, the author wrote it.
  const written = numberLattice([{ ...s, format: undefined }], integer);
  const format = typeof s.format === 'string' ? s.format : 'number';
  const out: ParameterBoundary[] = [];
  const add = (k: bigint | undefined, keywordK: bigint | undefined, side: 'minimum' | 'maximum') => {
    if (k === undefined) return;
    const value = numberValue({ n: k * full.step!.n, d: full.step!.d });
    const text = textOf(value);
    const declared = keywordK === k;
    const read = new Numeral(text);
    if ((p.validate?.(read) ?? []).length > 0 || out.some((o) => o.text === text)) return;
    out.push({
      text,
      value: read,
      declared,
      side,
      label: declared
        ? `at its ${side} (${text})`
        : `at the ${format} ${side} (${text}), a bound its schema does not write`,
    });
  };
  add(full.kMin, written?.kMin, 'minimum');
  add(full.kMax, written?.kMax, 'maximum');
  return out;
}

/** Whether the text is a boundary value of the parameter. */
export function isBoundary(model: SpecModel, p: ParameterModel, text: string): boolean {
  return parameterBoundaries(model, p).some((b) => b.text === text);
}

/**
 * The valid values of a parameter a client would send, best first: those
 * of validParameterValues that are no boundary (its example, its default, a
 * small value inside the bounds). Where every one is a boundary (a range
 * that clamps the harness's small value onto its bound), the value just
 * inside that bound; where the range holds nothing else, the boundaries.
 */
export function typicalParameterValues(model: SpecModel, p: ParameterModel): ParameterValue[] {
  const all = validParameterValues(model, p);
  const bounds = parameterBoundaries(model, p);
  const typical = all.filter((v) => !bounds.some((b) => b.text === v.text));
  if (typical.length > 0) return typical;
  for (const b of bounds) {
    const inside = insideOf(model, p, b);
    if (inside) return [inside];
  }
  return all;
}

/** The allowed value next to a boundary, on the inside, where the parameter's schema accepts it. */
function insideOf(model: SpecModel, p: ParameterModel, b: ParameterBoundary): ParameterValue | undefined {
  const s = schemaOf(model, p);
  const types = parameterTypes(model, p);
  const full = s ? numberLattice([s], types.includes('integer') && !types.includes('number')) : undefined;
  const edge = b.side === 'minimum' ? full?.kMin : full?.kMax;
  if (!full?.step || edge === undefined) return undefined;
  const k = b.side === 'minimum' ? edge + 1n : edge - 1n;
  const text = textOf(numberValue({ n: k * full.step.n, d: full.step.d }));
  const read = new Numeral(text);
  if ((p.validate?.(read) ?? []).length > 0 || isBoundary(model, p, text)) return undefined;
  return { text, value: read, label: 'a value just inside its bound' };
}
