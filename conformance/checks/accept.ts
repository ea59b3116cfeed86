// Acceptance of valid data. Seed, Create plant rule 1: "When the request body
// is a valid NewPlant record, then the service answers 200 with a Plant record."
import type { Exchange } from '../http.js';
import { Numeral, tryParseJson, type JsonValue } from '../json.js';
import { integerRange } from '../spec-model.js';
import { create, describe, each, gradeAccepted, idField, seed, stringFields, validPlant } from './grades.js';
import type { CheckContext, ExchangeCheck } from './types.js';

const RULE1 = 'When the request body is a valid NewPlant record, then the service answers 200 with a Plant record.';

/** A check that sends valid bodies and expects each accepted. */
function acceptCheck(
  id: string,
  title: string,
  bodies: (ctx: CheckContext) => Array<{ body: Record<string, JsonValue>; note: string; raw?: string }>,
  extra: Partial<ExchangeCheck> = {},
): ExchangeCheck {
  // The bodies are drawn once per run (fresh ids), then graded against what was sent.
  const sent = new WeakMap<CheckContext, Array<Record<string, JsonValue>>>();
  return {
    kind: 'exchange',
    id,
    title,
    level: 'MUST',
    source: seed('Create plant, rule 1'),
    requirement: RULE1,
    requests: (ctx) => {
      const list = bodies(ctx);
      sent.set(ctx, list.map((b) => b.body));
      return list.map((b) => create(ctx, b.raw !== undefined ? { raw: b.raw } : b.body, { note: b.note }));
    },
    verify: (exchanges, ctx) => each(exchanges, (ex, i) => gradeAccepted(ctx, ex, sent.get(ctx)![i]!)),
    ...extra,
  };
}

function optionalString(ctx: CheckContext): string | undefined {
  return stringFields(ctx).optional[0];
}
function requiredString(ctx: CheckContext): string {
  const name = stringFields(ctx).required[0];
  if (!name) throw new Error('the request schema has no required string field');
  return name;
}

/**
 * A check for a fixed id (0, int64 max, int64 min). A fixed id is stored by
 * the first run against a long-lived target, so a later run's create of it
 * is rightly rejected as a duplicate. The check therefore sends three
 * requests: the fixed id; a fresh id beside it (which must be accepted: the
 * target takes ids in that region); and that fresh id again (a known
 * duplicate). The fixed id passes when it is accepted, or when its
 * rejection is the target's duplicate answer: same status, same `error`,
 * and the same message once each id is replaced by `{id}`. When the
 * duplicate answer does not name the id, an earlier run's plant cannot be
 * told from a refusal of the id: the outcome is `skip`, never `pass`.
 */
function fixedIdCheck(
  id: string,
  title: string,
  fixed: (ctx: CheckContext) => bigint,
  neighbour: (ctx: CheckContext) => bigint,
): ExchangeCheck {
  const sent = new WeakMap<CheckContext, { fixed: Record<string, JsonValue>; near: Record<string, JsonValue>; ids: [bigint, bigint] }>();
  return {
    kind: 'exchange',
    id,
    title,
    level: 'MUST',
    source: { document: 'Plant Store specification', section: 'NewPlant: id integer int64; Create plant, rule 1' },
    requirement: `id: integer, format int64. ${RULE1}`,
    requests: (ctx) => {
      const f = fixed(ctx);
      const n = neighbour(ctx);
      ctx.ids.claim(n);
      const fixedBody = validPlant(ctx, { [idField(ctx)]: f });
      const nearBody = validPlant(ctx, { [idField(ctx)]: n });
      sent.set(ctx, { fixed: fixedBody, near: nearBody, ids: [f, n] });
      return [
        create(ctx, fixedBody, { note: `id ${f}` }),
        create(ctx, nearBody, { note: `a fresh id beside it, ${n}` }),
        create(ctx, nearBody, { note: `the fresh id again: the target's answer to a duplicate` }),
      ];
    },
    verify: (exchanges, ctx) => {
      const s = sent.get(ctx)!;
      const [first, near, dup] = exchanges as [Exchange, Exchange, Exchange];
      const nearVerdict = gradeAccepted(ctx, near, s.near);
      if (nearVerdict.outcome !== 'pass') return { ...nearVerdict, exchange: 1 };
      const v = gradeAccepted(ctx, first, s.fixed);
      if (v.outcome === 'pass' || v.outcome === 'error') return { ...v, exchange: 0 };
      const same = sameDuplicateAnswer(first, s.ids[0], dup, s.ids[1]);
      if (same === 'same') return { outcome: 'pass' };
      if (same === 'indistinct') {
        return {
          outcome: 'skip',
          exchange: 0,
          expected: 'an answer that tells an earlier run\'s plant from a refused id',
          actual: `the rejection of id ${s.ids[0]} equals the target's duplicate answer, which does not name the id: ${describe(first)}`,
        };
      }
      return { ...v, exchange: 0 };
    },
  };
}

function sameDuplicateAnswer(a: Exchange, aId: bigint, b: Exchange, bId: bigint): 'same' | 'indistinct' | 'different' {
  if (!a.response || !b.response || a.response.status !== b.response.status) return 'different';
  if (a.response.status < 400 || a.response.status > 499) return 'different';
  const pa = tryParseJson(a.response.bodyText);
  const pb = tryParseJson(b.response.bodyText);
  if (!pa.ok || !pb.ok) return 'different';
  const ea = pa.value as Record<string, unknown>;
  const eb = pb.value as Record<string, unknown>;
  if (ea?.error !== eb?.error || typeof ea?.message !== 'string' || typeof eb?.message !== 'string') return 'different';
  const ma = ea.message.split(String(aId)).join('{id}');
  const mb = eb.message.split(String(bId)).join('{id}');
  if (ma !== mb) return 'different';
  return mb.includes('{id}') ? 'same' : 'indistinct';
}

function range(ctx: CheckContext): [bigint, bigint] {
  const f = ctx.model.create.request.fields.find((x) => x.name === idField(ctx))!;
  const r = integerRange(f.format);
  if (!r) throw new Error(`the id field has no integer format with a range (${f.format ?? 'none'})`);
  return r;
}

export const acceptChecks: ExchangeCheck[] = [
  acceptCheck('PS-ACCEPT-001', 'A valid NewPlant with the optional tag is accepted and echoed', (ctx) => {
    const tag = optionalString(ctx);
    return [{ body: validPlant(ctx, { [requiredString(ctx)]: 'Monstera deliciosa', ...(tag ? { [tag]: 'tropical' } : {}) }), note: 'with tag' }];
  }),
  acceptCheck('PS-ACCEPT-002', 'A valid NewPlant without the optional tag is accepted', (ctx) => [
    { body: validPlant(ctx, { [requiredString(ctx)]: 'Fern' }), note: 'without tag' },
  ]),
  acceptCheck('PS-ACCEPT-003', 'An empty name is a valid string and is accepted', (ctx) => [
    { body: validPlant(ctx, { [requiredString(ctx)]: '' }), note: 'empty name' },
  ]),
  acceptCheck('PS-ACCEPT-004', 'A long name (10 000 characters) is accepted: the schema states no maxLength', (ctx) => [
    { body: validPlant(ctx, { [requiredString(ctx)]: 'Ficus '.repeat(2000).slice(0, 10000) }), note: 'name of 10000 characters' },
  ]),
  acceptCheck('PS-ACCEPT-005', 'Non-ASCII names and tags are accepted and echoed unchanged', (ctx) => {
    const tag = optionalString(ctx);
    return [
      { body: validPlant(ctx, { [requiredString(ctx)]: 'Geigenfeige Ölbaum — 琴叶榕 🌿', ...(tag ? { [tag]: 'ñandú \u00e9\u0301 ✓' } : {}) }), note: 'non-ASCII, astral and combining characters' },
    ];
  }),
  acceptCheck('PS-ACCEPT-006', 'Properties the schema does not name are accepted (no additionalProperties: false)', (ctx) => [
    { body: validPlant(ctx, { [requiredString(ctx)]: 'Aloe', colour: 'green', nested: { a: [1, 2] }, __proto__x: 1 }), note: 'unknown properties' },
    { body: validPlant(ctx, { [requiredString(ctx)]: 'Aloe' }), note: '__proto__ and constructor as plain names', raw: undefined },
  ].map((b, i) => (i === 1 ? { ...b, raw: rawWithProto(b.body) } : b))),
  fixedIdCheck('PS-ACCEPT-007', 'The id 0 is accepted', () => 0n, (ctx) => ctx.ids.fresh()),
  acceptCheck('PS-ACCEPT-008', 'A negative id is accepted', (ctx) => [{ body: validPlant(ctx, { [idField(ctx)]: -ctx.ids.fresh() }), note: 'negative id' }]),
  fixedIdCheck('PS-ACCEPT-009', 'The largest int64 id, 9223372036854775807, is accepted', (ctx) => range(ctx)[1], (ctx) => range(ctx)[1] - ctx.ids.offset),
  fixedIdCheck('PS-ACCEPT-010', 'The smallest int64 id, -9223372036854775808, is accepted', (ctx) => range(ctx)[0], (ctx) => range(ctx)[0] + ctx.ids.offset),
  acceptCheck(
    'PS-ACCEPT-011',
    'Integral numerals (5.0, 5e0, 50e-1) are integers and accepted',
    (ctx) =>
      [(n: bigint) => `${n}.0`, (n: bigint) => `${n}e0`, (n: bigint) => `${n}0e-1`].map((write) => {
        const body = validPlant(ctx, { [idField(ctx)]: new Numeral(write(ctx.ids.fresh())) });
        return { body, note: `id written ${(body[idField(ctx)] as Numeral).text}` };
      }),
    {
      level: 'SHOULD',
      source: {
        document: 'JSON Schema Validation 2020-12',
        section: '§6.1.1 type',
        url: 'https://json-schema.org/draft/2020-12/json-schema-validation#section-6.1.1',
      },
      // The seed says "integer" without defining it; OpenAPI 3.1's dialect
      // (JSON Schema 2020-12) does. Not a rule of the seed: SHOULD.
      requirement: '"integer" which matches any number with a zero fractional part.',
      verify: (exchanges, ctx) =>
        each(exchanges, (ex) => {
          const v = gradeAccepted(ctx, ex, {});
          return v.outcome === 'fail' ? { ...v, outcome: 'non-strict' } : v;
        }),
    },
  ),
];

/** A body whose unknown members are literally named __proto__ and constructor (an object literal cannot carry them). */
function rawWithProto(body: Record<string, JsonValue>): string {
  const json = JSON.stringify(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'bigint' ? `@@${v}@@` : v])));
  return json.replace(/"@@(-?\d+)@@"/g, '$1').replace(/}$/, ',"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
}


