// Generated cases (fast-check, run by property.ts): valid NewPlants drawn
// from the keywords of the document's request schema, and invalid ones made
// by breaking one of them. Every drawn body is checked against the request
// validator (the schema as written): a valid draw is one the document
// accepts, an invalid draw one it refuses.
import fc from 'fast-check';
import { rationalOf } from '../../spec/exact-number.js';
import { integerRange } from '../../spec/formats.js';
import { repair } from '../cases/draw.js';
import { toJson, type JsonValue } from '../model/json.js';
import { keywordDerivations } from '../cases/keyword-cases.js';
import { baseBodies, idFieldOf } from '../cases/bodies.js';
import { getAt, patternSamples, setAt, typeAllowed, typeExemplars } from '../cases/schema-values.js';
import { createOf, type FieldModel, type SpecModel } from '../model/spec-model.js';
import { ACCEPT_EVIDENCE, ACCEPT_GRADING, gradeAccepted, gradeRejected } from './body-grades.js';
import { clientIdField, createRequest, freshId, freshIdOfAnyKind, type Body } from './requests.js';
import { spec } from './sources.js';
import type { Check, CheckContext, PropertyCheck } from './types.js';

/** The keywords the document states for a top-level field, by keyword (the first statement of each). */
function fieldKeywords(model: SpecModel, name: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const d of keywordDerivations(model))
    if (d.path.length === 1 && d.path[0] === name && !out.has(d.use.keyword)) out.set(d.use.keyword, d.use.value);
  return out;
}

const bigintOf = (v: unknown): bigint | undefined => {
  const r = typeof v === 'number' || typeof v === 'bigint' ? rationalOf(v) : undefined;
  return r && r.n % r.d === 0n ? r.n / r.d : undefined;
};

/** Values for one field, shaped by its keywords (enum, const, pattern, lengths, bounds, format); the validator has the last word. */
function fieldArb(model: SpecModel, f: FieldModel): fc.Arbitrary<JsonValue> {
  const k = fieldKeywords(model, f.name);
  const base = getAt(baseBodies(model).full, [f.name]);
  const own: fc.Arbitrary<JsonValue>[] = [];
  if (k.has('const')) own.push(fc.constant(k.get('const') as JsonValue));
  if (Array.isArray(k.get('enum'))) own.push(fc.constantFrom(...(k.get('enum') as JsonValue[])));
  for (const type of f.types) {
    if (type === 'string') {
      const pattern = k.get('pattern');
      const minLength = typeof k.get('minLength') === 'number' ? (k.get('minLength') as number) : 0;
      const maxLength =
        typeof k.get('maxLength') === 'number' ? (k.get('maxLength') as number) : Math.max(minLength, 40);
      if (typeof pattern === 'string') {
        const samples = patternSamples(pattern, 30);
        if (samples.length > 0) own.push(fc.constantFrom(...samples));
      } else own.push(fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, minLength + 40) }));
    } else if (type === 'integer') {
      const range = integerRange(f.format);
      const lo =
        bigintOf(k.get('minimum')) ??
        (bigintOf(k.get('exclusiveMinimum')) ?? range?.[0] ?? -(2n ** 63n)) + (k.has('exclusiveMinimum') ? 1n : 0n);
      const hi =
        bigintOf(k.get('maximum')) ??
        (bigintOf(k.get('exclusiveMaximum')) ?? range?.[1] ?? 2n ** 63n - 1n) - (k.has('exclusiveMaximum') ? 1n : 0n);
      if (lo <= hi) own.push(fc.bigInt({ min: lo, max: hi }));
    } else if (type === 'number') own.push(fc.double({ noNaN: true, noDefaultInfinity: true }));
    else if (type === 'boolean') own.push(fc.boolean());
    else if (type === 'null') own.push(fc.constant(null));
  }
  // The document's own value keeps the draw valid where the keywords above cannot (anyOf, if/then, ...).
  if (base !== undefined) own.push(fc.constant(base));
  return own.length > 0 ? fc.oneof(...own) : fc.constant(base ?? null);
}

const jsonLeaf: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);

/** Valid records: every required field, each optional field or not, properties the schema does not name (where it allows them); each one the document accepts. */
export function validArb(model: SpecModel): fc.Arbitrary<Record<string, JsonValue>> {
  const request = createOf(model).request;
  const shape: Record<string, fc.Arbitrary<JsonValue>> = {};
  for (const f of request.fields) shape[f.name] = fieldArb(model, f);
  const known = new Set(request.fields.map((f) => f.name));
  const base = fc.record(shape, { requiredKeys: request.required });
  const extras = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !known.has(k)),
    jsonLeaf,
    { maxKeys: 2 },
  );
  const drawn = request.additionalProperties ? fc.tuple(base, extras).map(([b, e]) => ({ ...e, ...b })) : base;
  // A draw that breaks what the keywords above do not shape (if/then, dependentSchemas, nested items) is
  // repaired by the validator (draw.ts), keeping what it can of the draw; the validator has the last word.
  const validate = createOf(model).validateRequest;
  return drawn
    .map((b) => (validate(b).length === 0 ? b : (repair(model, validate, b).value as Record<string, JsonValue>)))
    .filter((b) => validate(b).length === 0);
}

/**
 * Invalid bodies: a valid record with one rule of the schema broken, or no
 * object at all; each one the document refuses. A refusal must not be
 * explainable by another rule, so no mutation gives the id a value that a
 * lenient reader maps onto an id an earlier run may have stored (a missing
 * or null id read as 0, true as 1, 1.5 as 1, int64's end plus one read as a
 * double): those are PS-REJECT-001..006 and -012's, which learn the target's
 * answer to a duplicate first. A string of digits for the id is made fresh
 * when the case is sent.
 */
export function invalidArb(model: SpecModel): fc.Arbitrary<{ mutation: string; body: JsonValue }> {
  const valid = validArb(model);
  const request = createOf(model).request;
  const id = idFieldOf(model);
  const arbs: fc.Arbitrary<{ mutation: string; body: JsonValue }>[] = [];
  const notId = request.required.filter((name) => name !== id);
  if (notId.length > 0) {
    arbs.push(
      fc.tuple(valid, fc.constantFrom(...notId)).map(([b, name]) => {
        const copy = { ...b };
        delete copy[name];
        return { mutation: `without required ${name}`, body: copy };
      }),
    );
  }
  const typed = request.fields.filter((f) => f.types.length > 0);
  if (typed.length > 0) {
    arbs.push(
      fc.constantFrom(...typed).chain((f) => {
        // For the id, only values no lenient reader takes for an integer (and digits, made fresh when sent).
        const wrong = typeExemplars('7').filter(
          (e) => !typeAllowed(f.types, e.type) && (f.name !== id || ['array', 'object', 'string'].includes(e.type)),
        );
        return fc
          .tuple(valid, fc.constantFrom(...wrong))
          .map(([b, e]) => ({ mutation: `${f.name} of a wrong type`, body: { ...b, [f.name]: e.value } }));
      }),
    );
  }
  for (const f of request.fields) {
    const r = f.types.includes('integer') ? integerRange(f.format) : undefined;
    if (!r) continue;
    // Past the ends by more than the gap between doubles there (2048), so that no double reading lands on an end.
    const margin = f.name === id ? 4096n : 1n;
    const beyond = fc.oneof(
      fc.bigInt({ min: r[1] + margin, max: r[1] + 2n ** 64n }),
      fc.bigInt({ min: r[0] - 2n ** 64n, max: r[0] - margin }),
    );
    arbs.push(
      fc
        .tuple(valid, beyond)
        .map(([b, v]) => ({ mutation: `${f.name} beyond ${f.format}`, body: { ...b, [f.name]: v } })),
    );
  }
  // Each keyword's value just outside its boundary, put into a drawn body.
  const outside = keywordDerivations(model).flatMap((d) =>
    d.outside
      .filter(() => d.path.length > 0 && !(d.path.length === 1 && d.path[0] === id))
      .map((c) => ({ path: d.path, value: getAt(c.body, d.path), keyword: d.use.keyword })),
  );
  if (outside.length > 0) {
    arbs.push(
      fc
        .tuple(valid, fc.constantFrom(...outside))
        .map(([b, o]) => ({ mutation: `/${o.path.join('/')} outside ${o.keyword}`, body: setAt(b, o.path, o.value) })),
    );
  }
  arbs.push(
    fc
      .oneof(
        fc.array(jsonLeaf, { maxLength: 3 }),
        fc.string({ maxLength: 8 }),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
      )
      .map((b) => ({ mutation: 'not an object', body: b })),
  );
  return fc.oneof(...arbs).filter(({ body }) => createOf(model).validateRequest(body).length > 0);
}

/**
 * Gives a drawn id a run-unique value: XOR with the run's salt, kept in
 * int64 (a bijection, so the drawn distribution is kept), and a fresh id
 * when this run already used it (fast-check repeats values, and shrinking
 * replays them), or when the document does not accept the result (a
 * minimum, say). The body keeps its validity either way: an invalid body
 * keeps its drawn id when a fresh one would make it valid.
 */
function freshen(ctx: CheckContext, body: JsonValue): JsonValue {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  // The server assigns ids: nothing to make fresh.
  const name = clientIdField(ctx);
  if (name === undefined) return body;
  const drawn = (body as Record<string, JsonValue>)[name];
  const field = createOf(ctx.model).request.fields.find((x) => x.name === name)!;
  // An id of another kind than an integer (a UUID): a fresh one of its kind where the body stays as valid as it was.
  if (!field.types.includes('integer') && typeof drawn === 'string') {
    const out = { ...(body as Record<string, JsonValue>), [name]: freshIdOfAnyKind(ctx) };
    const valid = (b: JsonValue) => createOf(ctx.model).validateRequest(b).length === 0;
    return valid(out) === valid(body) ? out : body;
  }
  // An id of JSON type number (not integer): a whole drawn value is made a fresh integer, which the type allows,
  // so that two draws never name one item; a fraction is kept as drawn (fast-check rarely repeats one).
  if (!field.types.includes('integer') && typeof drawn === 'number' && Number.isInteger(drawn)) {
    const out = { ...(body as Record<string, JsonValue>), [name]: freshId(ctx) };
    const valid = (b: JsonValue) => createOf(ctx.model).validateRequest(b).length === 0;
    return valid(out) === valid(body) ? out : body;
  }
  // An id of digits as a string (a coercion trap): fresh digits, so that a coercing server cannot meet a stored plant.
  if (typeof drawn === 'string' && /^\d+$/.test(drawn))
    return { ...(body as Record<string, JsonValue>), [name]: String(ctx.ids.fresh()) };
  // fast-check draws bigints; the document's own value may be a number.
  const v = typeof drawn === 'number' && Number.isInteger(drawn) ? BigInt(drawn) : drawn;
  const f = createOf(ctx.model).request.fields.find((x) => x.name === name)!;
  const r = integerRange(f.format);
  if (typeof v !== 'bigint' || !r || v < r[0] || v > r[1]) return body;
  const validity = (b: JsonValue) => createOf(ctx.model).validateRequest(b).length === 0;
  const wasValid = validity(body);
  let id = BigInt.asIntN(64, v ^ ctx.ids.salt);
  let out = { ...(body as Record<string, JsonValue>), [name]: id };
  if (id < r[0] || id > r[1] || validity(out) !== wasValid || !ctx.ids.claim(id)) {
    id = freshId(ctx);
    out = { ...(body as Record<string, JsonValue>), [name]: id };
  }
  return validity(out) === wasValid ? out : body;
}

const validPlants: PropertyCheck<Body, Body> = {
  kind: 'property',
  id: 'PS-GEN-001',
  family: 'drawn valid bodies',
  title: 'Generated valid NewPlants (drawn from the schema) are all accepted with conforming answers',
  level: 'MUST',
  source: spec('Create plant, rule 1'),
  requirement: 'When the request body is a valid NewPlant record, then the service answers 200 with a Plant record.',
  grading: ACCEPT_GRADING,
  evidence: `${ACCEPT_EVIDENCE} Every drawn body the request validator accepts; a failure is shrunk to its smallest body.`,
  values: (ctx) => validArb(ctx.model),
  toCase: (value, ctx) => {
    const body = freshen(ctx, value) as Body;
    return { request: createRequest(ctx, { raw: toJson(body) }, { note: 'generated valid NewPlant' }), sent: body };
  },
  grade: ({ exchange, sent }, ctx) => gradeAccepted(ctx, exchange, sent),
};

const invalidPlants: PropertyCheck<{ mutation: string; body: JsonValue }> = {
  kind: 'property',
  id: 'PS-GEN-002',
  family: 'drawn invalid bodies',
  title: 'Generated invalid NewPlants (schema mutations) are all rejected with an Error body',
  level: 'MUST',
  source: spec('Create plant, rule 2; Errors, rule 1'),
  requirement:
    'The request body is required; it must contain id (integer, int64) and name (string). The error response has status 400, content type application/json, and the body shape Error.',
  grading:
    'MUST: each drawn body is one the document refuses (rule 2): a 2xx fails, the declared 400 must carry an Error body; another 4xx is non-strict.',
  evidence:
    "A 4xx to each drawn body the request validator refuses, with a fresh id; no mutation gives the id a value a lenient reader maps onto a stored id (missing, null, a boolean, a fraction, int64's end plus one): those are left to the checks that learn the duplicate answer first.",
  values: (ctx) => invalidArb(ctx.model),
  toCase: (value, ctx) => ({
    request: createRequest(ctx, { raw: toJson(freshen(ctx, value.body)) }, { note: `generated: ${value.mutation}` }),
    sent: undefined,
  }),
  grade: ({ exchange }, ctx) => gradeRejected(ctx, exchange, []),
};

export const genChecks: Check[] = [validPlants, invalidPlants];
