// Generated cases (fast-check, run by property.ts): valid NewPlants drawn
// from the document's request schema, and invalid ones made by mutating them.
import fc from 'fast-check';
import { toJson, type JsonValue } from '../json.js';
import type { FieldModel, ObjectModel } from '../spec-model.js';
import { integerRange } from '../../spec/formats.js';
import { gradeAccepted, gradeRejected } from './grades.js';
import { createRequest, idField, type Body } from './requests.js';
import { spec } from './sources.js';
import type { Check, CheckContext, PropertyCheck } from './types.js';

function valueArb(f: FieldModel): fc.Arbitrary<JsonValue> {
  switch (f.type) {
    case 'integer': {
      const r = integerRange(f.format);
      return r ? fc.bigInt({ min: r[0], max: r[1] }) : fc.bigInt();
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'string':
      return fc.string({ unit: 'grapheme', maxLength: 40 });
    case 'boolean':
      return fc.boolean();
    default:
      return fc.constant(f.type === 'array' ? [] : {});
  }
}

const jsonLeaf: fc.Arbitrary<JsonValue> = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));

/** Valid records: every required field, each optional field or not, and properties the schema does not name (unless it forbids them). */
export function validArb(model: ObjectModel): fc.Arbitrary<Record<string, JsonValue>> {
  const shape: Record<string, fc.Arbitrary<JsonValue>> = {};
  for (const f of model.fields) shape[f.name] = valueArb(f);
  const known = new Set(model.fields.map((f) => f.name));
  const base = fc.record(shape, { requiredKeys: model.required });
  if (!model.additionalProperties) return base;
  const extras = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !known.has(k)), jsonLeaf, { maxKeys: 2 });
  return fc.tuple(base, extras).map(([b, e]) => ({ ...e, ...b }));
}

/** A value of a JSON type the field does not allow (null included: no field is nullable). */
function wrongValueArb(f: FieldModel): fc.Arbitrary<JsonValue> {
  const options: fc.Arbitrary<JsonValue>[] = [fc.constant(null), fc.boolean(), fc.array(jsonLeaf, { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 4 }), jsonLeaf, { maxKeys: 2 })];
  if (f.type !== 'string') options.push(fc.string({ maxLength: 12 }), fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }).map(String));
  if (f.type === 'string') options.push(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
  // JSON writes integral doubles as integers, so a "non-integer" must have a fraction.
  if (f.type === 'integer') options.push(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)));
  return fc.oneof(...options);
}

/** Invalid bodies: a valid record with one rule of the schema broken, or no object at all. */
export function invalidArb(model: ObjectModel): fc.Arbitrary<{ mutation: string; body: JsonValue }> {
  const valid = validArb(model);
  const arbs: fc.Arbitrary<{ mutation: string; body: JsonValue }>[] = [];
  if (model.required.length > 0) {
    arbs.push(
      fc.tuple(valid, fc.constantFrom(...model.required)).map(([b, name]) => {
        const copy = { ...b };
        delete copy[name];
        return { mutation: `without required ${name}`, body: copy };
      }),
    );
  }
  arbs.push(
    fc.constantFrom(...model.fields).chain((f) =>
      fc.tuple(valid, wrongValueArb(f)).map(([b, v]) => ({ mutation: `${f.name} of a wrong type`, body: { ...b, [f.name]: v } })),
    ),
  );
  for (const f of model.fields) {
    const r = f.type === 'integer' ? integerRange(f.format) : undefined;
    if (!r) continue;
    const beyond = fc.oneof(fc.bigInt({ min: r[1] + 1n, max: r[1] + 2n ** 64n }), fc.bigInt({ min: r[0] - 2n ** 64n, max: r[0] - 1n }));
    arbs.push(fc.tuple(valid, beyond).map(([b, v]) => ({ mutation: `${f.name} beyond ${f.format}`, body: { ...b, [f.name]: v } })));
  }
  arbs.push(fc.oneof(fc.array(jsonLeaf, { maxLength: 3 }), fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null)).map((b) => ({ mutation: 'not an object', body: b as JsonValue })));
  return fc.oneof(...arbs);
}

/**
 * Gives a drawn id a run-unique value: XOR with the run's salt, kept in
 * int64 (a bijection, so the drawn distribution is kept), and a fresh id
 * when this run already used it (fast-check repeats values, and shrinking
 * replays them). Out-of-range ids are left as drawn.
 */
function freshen(ctx: CheckContext, body: JsonValue): JsonValue {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const name = idField(ctx);
  const v = (body as Record<string, JsonValue>)[name];
  const f = ctx.model.create.request.fields.find((x) => x.name === name)!;
  const r = integerRange(f.format);
  if (typeof v !== 'bigint' || !r || v < r[0] || v > r[1]) return body;
  let id = BigInt.asIntN(64, v ^ ctx.ids.salt);
  if (id < r[0] || id > r[1] || !ctx.ids.claim(id)) id = ctx.ids.fresh();
  return { ...(body as Record<string, JsonValue>), [name]: id };
}

const validPlants: PropertyCheck<Body, Body> = {
  kind: 'property',
  id: 'PS-GEN-001',
  title: 'Generated valid NewPlants (drawn from the schema) are all accepted with conforming answers',
  level: 'MUST',
  source: spec('Create plant, rule 1'),
  requirement: 'When the request body is a valid NewPlant record, then the service answers 200 with a Plant record.',
  values: (ctx) => validArb(ctx.model.create.request),
  toCase: (value, ctx) => {
    const body = freshen(ctx, value) as Body;
    return { request: createRequest(ctx, { raw: toJson(body) }, { note: 'generated valid NewPlant' }), sent: body };
  },
  grade: ({ exchange, sent }, ctx) => gradeAccepted(ctx, exchange, sent),
};

const invalidPlants: PropertyCheck<{ mutation: string; body: JsonValue }> = {
  kind: 'property',
  id: 'PS-GEN-002',
  title: 'Generated invalid NewPlants (schema mutations) are all rejected with an Error body',
  level: 'MUST',
  source: spec('Create plant, rule 2; Errors, rule 1'),
  requirement:
    'The request body is required; it must contain id (integer, int64) and name (string). The error response has status 400, content type application/json, and the body shape Error.',
  values: (ctx) => invalidArb(ctx.model.create.request),
  toCase: (value, ctx) => ({ request: createRequest(ctx, { raw: toJson(freshen(ctx, value.body)) }, { note: `generated: ${value.mutation}` }), sent: undefined }),
  grade: ({ exchange }, ctx) => gradeRejected(ctx, exchange, []),
};

export const generatedChecks: Check[] = [validPlants, invalidPlants];
