// Generated cases (fast-check): valid NewPlants drawn from the document's
// request schema, and invalid ones made by mutating them. Seeded; a failing
// case is shrunk to its smallest form and reported with the seed.
import fc from 'fast-check';
import type { Exchange, RequestSpec } from '../http.js';
import { toJson, type JsonValue } from '../json.js';
import { integerRange, type FieldModel, type ObjectModel } from '../spec-model.js';
import { create, describe, gradeAccepted, gradeRejected, idField, seed } from './grades.js';
import type { CheckContext, PropertyCheck, Verdict } from './types.js';

type Body = JsonValue;

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
export function invalidArb(model: ObjectModel): fc.Arbitrary<{ mutation: string; body: Body }> {
  const valid = validArb(model);
  const arbs: fc.Arbitrary<{ mutation: string; body: Body }>[] = [];
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
  arbs.push(fc.oneof(fc.array(jsonLeaf, { maxLength: 3 }), fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null)).map((b) => ({ mutation: 'not an object', body: b as Body })));
  return fc.oneof(...arbs);
}

/**
 * Gives a drawn id a run-unique value: XOR with the run's salt, kept in
 * int64 (a bijection, so the drawn distribution is kept), and a fresh id
 * when this run already used it (fast-check repeats values, and shrinking
 * replays them). Out-of-range ids are left as drawn.
 */
function freshen(ctx: CheckContext, body: Body): Body {
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

class HarnessError extends Error {}

async function runProperty<T>(
  ctx: CheckContext,
  arb: fc.Arbitrary<T>,
  toRequest: (value: T) => RequestSpec,
  grade: (ex: Exchange, value: T) => Verdict,
  send: (req: RequestSpec) => Promise<Exchange>,
): Promise<Verdict> {
  let lastFailure: { ex: Exchange; verdict: Verdict } | undefined;
  let nonStrict: Verdict | undefined;
  const details = await fc.check(
    fc.asyncProperty(arb, async (value) => {
      const ex = await send(toRequest(value));
      if (!ex.response) throw new HarnessError(describe(ex));
      const v = grade(ex, value);
      if (v.outcome === 'fail') {
        lastFailure = { ex, verdict: v };
        throw new Error(v.actual ?? 'failed');
      }
      if (v.outcome === 'non-strict') nonStrict ??= { ...v, reproduce: ex };
    }),
    { seed: ctx.seed, numRuns: ctx.cases },
  );
  if (!details.failed) return nonStrict ?? { outcome: 'pass' };
  const err = details.errorInstance;
  if (err instanceof HarnessError) return { outcome: 'error', expected: 'an HTTP answer', actual: err.message };
  const smallest = lastFailure!;
  return {
    outcome: 'fail',
    expected: smallest.verdict.expected,
    actual: `${smallest.verdict.actual}. Smallest failing body (after ${details.numShrinks} shrinks, case ${details.numRuns} of ${ctx.cases}): ${bodyText(smallest.ex)}; reproduce with --seed ${details.seed}`,
    reproduce: smallest.ex,
  };
}

function bodyText(ex: Exchange): string {
  const b = ex.request.body;
  return b === undefined ? '(none)' : typeof b === 'string' ? b : b.toString('utf8');
}

export const generatedChecks: PropertyCheck[] = [
  {
    kind: 'property',
    id: 'PS-GEN-001',
    title: 'Generated valid NewPlants (drawn from the schema) are all accepted with conforming answers',
    level: 'MUST',
    source: seed('Create plant, rule 1'),
    requirement: 'When the request body is a valid NewPlant record, then the service answers 200 with a Plant record.',
    run: (ctx, send) => {
      const sent = new Map<RequestSpec, Record<string, JsonValue>>();
      return runProperty(
        ctx,
        validArb(ctx.model.create.request),
        (value) => {
          const body = freshen(ctx, value) as Record<string, JsonValue>;
          const req = create(ctx, { raw: toJson(body) }, { note: 'generated valid NewPlant' });
          sent.set(req, body);
          return req;
        },
        (ex) => gradeAccepted(ctx, ex, sent.get(ex.request)!),
        send,
      );
    },
  },
  {
    kind: 'property',
    id: 'PS-GEN-002',
    title: 'Generated invalid NewPlants (schema mutations) are all rejected with an Error body',
    level: 'MUST',
    source: seed('Create plant, rule 2; Errors, rule 1'),
    requirement:
      'The request body is required; it must contain id (integer, int64) and name (string). The error response has status 400, content type application/json, and the body shape Error.',
    run: (ctx, send) =>
      runProperty(
        ctx,
        invalidArb(ctx.model.create.request),
        (value) => create(ctx, { raw: toJson(freshen(ctx, value.body)) }, { note: `generated: ${value.mutation}` }),
        (ex) => gradeRejected(ctx, ex, []),
        send,
      ),
  },
];
