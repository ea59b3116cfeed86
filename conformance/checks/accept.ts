// Acceptance of valid data. Plant Store specification, Create plant rule 1:
// "When the request body is a valid NewPlant record, then the service
// answers 200 with a Plant record."
import type { Exchange } from '../http.js';
import { Numeral, tryParseJson } from '../json.js';
import { describe, each, gradeAccepted } from './grades.js';
import { caseOf, createRequest, idField, idRange, stringFields, validPlant, type Body } from './requests.js';
import { PLANT_STORE_SPEC, spec } from './sources.js';
import type { Case, CaseExchange, Check, CheckContext, ExchangeCheck } from './types.js';

const RULE1 = 'When the request body is a valid NewPlant record, then the service answers 200 with a Plant record.';

interface ValidBody {
  body: Body;
  note: string;
  /** The JSON text to send instead of `body`, for member names an object literal cannot hold. */
  raw?: string;
}

/** The cases of valid bodies: each sends one, and carries it to grade the echo against. */
function validBodyCases(ctx: CheckContext, bodies: ValidBody[]): Array<Case<Body>> {
  return bodies.map((b) => ({ request: createRequest(ctx, b.raw !== undefined ? { raw: b.raw } : b.body, { note: b.note }), sent: b.body }));
}

interface AcceptCheckOptions {
  id: string;
  title: string;
  /** Drawn once per run (fresh ids). */
  bodies: (ctx: CheckContext) => ValidBody[];
}

/** A check that sends valid bodies and expects each accepted and echoed. */
function acceptCheck({ id, title, bodies }: AcceptCheckOptions): ExchangeCheck<Body> {
  return {
    kind: 'exchange',
    id,
    title,
    level: 'MUST',
    source: spec('Create plant, rule 1'),
    requirement: RULE1,
    cases: (ctx) => validBodyCases(ctx, bodies(ctx)),
    verify: (cases, ctx) => each(cases, (c) => gradeAccepted(ctx, c.exchange, c.sent)),
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

interface IdSent {
  body: Body;
  id: bigint;
}

interface FixedIdCheckOptions {
  id: string;
  title: string;
  fixed: (ctx: CheckContext) => bigint;
  neighbour: (ctx: CheckContext) => bigint;
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
function fixedIdCheck({ id, title, fixed, neighbour }: FixedIdCheckOptions): ExchangeCheck<IdSent> {
  return {
    kind: 'exchange',
    id,
    title,
    level: 'MUST',
    source: { document: PLANT_STORE_SPEC, section: 'NewPlant: id integer int64; Create plant, rule 1' },
    requirement: `id: integer, format int64. ${RULE1}`,
    cases: (ctx) => {
      const f = fixed(ctx);
      const n = neighbour(ctx);
      ctx.ids.claim(n);
      const fixedBody = validPlant(ctx, { [idField(ctx)]: f });
      const nearBody = validPlant(ctx, { [idField(ctx)]: n });
      return [
        { request: createRequest(ctx, fixedBody, { note: `id ${f}` }), sent: { body: fixedBody, id: f } },
        { request: createRequest(ctx, nearBody, { note: `a fresh id beside it, ${n}` }), sent: { body: nearBody, id: n } },
        { request: createRequest(ctx, nearBody, { note: `the fresh id again: the target's answer to a duplicate` }), sent: { body: nearBody, id: n } },
      ];
    },
    verify: (cases, ctx) => {
      const [first, near, duplicate] = cases as [CaseExchange<IdSent>, CaseExchange<IdSent>, CaseExchange<IdSent>];
      const nearVerdict = gradeAccepted(ctx, near.exchange, near.sent.body);
      if (nearVerdict.outcome !== 'pass') return { ...nearVerdict, exchange: 1 };
      const v = gradeAccepted(ctx, first.exchange, first.sent.body);
      if (v.outcome === 'pass' || v.outcome === 'error') return { ...v, exchange: 0 };
      const same = sameDuplicateAnswer(first.exchange, first.sent.id, duplicate.exchange, duplicate.sent.id);
      if (same === 'same') return { outcome: 'pass' };
      if (same === 'indistinct') {
        return {
          outcome: 'skip',
          exchange: 0,
          expected: 'an answer that tells an earlier run\'s plant from a refused id',
          actual: `the rejection of id ${first.sent.id} equals the target's duplicate answer, which does not name the id: ${describe(first.exchange)}`,
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

/** A body whose unknown members are literally named __proto__ and constructor (an object literal cannot carry them). */
function rawWithProto(body: Body): string {
  const json = JSON.stringify(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'bigint' ? `@@${v}@@` : v])));
  return json.replace(/"@@(-?\d+)@@"/g, '$1').replace(/}$/, ',"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
}

/**
 * Integral numerals: not a rule of the Plant Store specification, which says
 * "integer" without defining it; OpenAPI 3.1's dialect (JSON Schema 2020-12)
 * does. So SHOULD, and a refusal is non-strict.
 */
const integralNumerals: ExchangeCheck = {
  kind: 'exchange',
  id: 'PS-ACCEPT-011',
  title: 'Integral numerals (5.0, 5e0, 50e-1) are integers and accepted',
  level: 'SHOULD',
  source: {
    document: 'JSON Schema Validation 2020-12',
    section: '§6.1.1 type',
    url: 'https://json-schema.org/draft/2020-12/json-schema-validation#section-6.1.1',
  },
  requirement: '"integer" which matches any number with a zero fractional part.',
  cases: (ctx) =>
    [(n: bigint) => `${n}.0`, (n: bigint) => `${n}e0`, (n: bigint) => `${n}0e-1`].map((write) => {
      const numeral = new Numeral(write(ctx.ids.fresh()));
      return caseOf(createRequest(ctx, validPlant(ctx, { [idField(ctx)]: numeral }), { note: `id written ${numeral.text}` }));
    }),
  // Graded on the answer alone (status, content type, schema): the numeral is what this check is about, not the echo.
  verify: (cases, ctx) =>
    each(cases, (c) => {
      const v = gradeAccepted(ctx, c.exchange, {});
      return v.outcome === 'fail' ? { ...v, outcome: 'non-strict' } : v;
    }),
};

export const acceptChecks: Check[] = [
  acceptCheck({
    id: 'PS-ACCEPT-001',
    title: 'A valid NewPlant with the optional tag is accepted and echoed',
    bodies: (ctx) => {
      const tag = optionalString(ctx);
      return [{ body: validPlant(ctx, { [requiredString(ctx)]: 'Monstera deliciosa', ...(tag ? { [tag]: 'tropical' } : {}) }), note: 'with tag' }];
    },
  }),
  acceptCheck({
    id: 'PS-ACCEPT-002',
    title: 'A valid NewPlant without the optional tag is accepted',
    bodies: (ctx) => [{ body: validPlant(ctx, { [requiredString(ctx)]: 'Fern' }), note: 'without tag' }],
  }),
  acceptCheck({
    id: 'PS-ACCEPT-003',
    title: 'An empty name is a valid string and is accepted',
    bodies: (ctx) => [{ body: validPlant(ctx, { [requiredString(ctx)]: '' }), note: 'empty name' }],
  }),
  acceptCheck({
    id: 'PS-ACCEPT-004',
    title: 'A long name (10 000 characters) is accepted: the schema states no maxLength',
    bodies: (ctx) => [{ body: validPlant(ctx, { [requiredString(ctx)]: 'Ficus '.repeat(2000).slice(0, 10000) }), note: 'name of 10000 characters' }],
  }),
  acceptCheck({
    id: 'PS-ACCEPT-005',
    title: 'Non-ASCII names and tags are accepted and echoed unchanged',
    bodies: (ctx) => {
      const tag = optionalString(ctx);
      return [
        {
          body: validPlant(ctx, { [requiredString(ctx)]: 'Geigenfeige Ölbaum — 琴叶榕 🌿', ...(tag ? { [tag]: 'ñandú \u00e9\u0301 ✓' } : {}) }),
          note: 'non-ASCII, astral and combining characters',
        },
      ];
    },
  }),
  acceptCheck({
    id: 'PS-ACCEPT-006',
    title: 'Properties the schema does not name are accepted (no additionalProperties: false)',
    bodies: (ctx) => {
      const unknown = validPlant(ctx, { [requiredString(ctx)]: 'Aloe', colour: 'green', nested: { a: [1, 2] }, __proto__x: 1 });
      const plain = validPlant(ctx, { [requiredString(ctx)]: 'Aloe' });
      return [
        { body: unknown, note: 'unknown properties' },
        { body: plain, note: '__proto__ and constructor as plain names', raw: rawWithProto(plain) },
      ];
    },
  }),
  fixedIdCheck({ id: 'PS-ACCEPT-007', title: 'The id 0 is accepted', fixed: () => 0n, neighbour: (ctx) => ctx.ids.fresh() }),
  acceptCheck({
    id: 'PS-ACCEPT-008',
    title: 'A negative id is accepted',
    bodies: (ctx) => [{ body: validPlant(ctx, { [idField(ctx)]: -ctx.ids.fresh() }), note: 'negative id' }],
  }),
  fixedIdCheck({
    id: 'PS-ACCEPT-009',
    title: 'The largest int64 id, 9223372036854775807, is accepted',
    fixed: (ctx) => idRange(ctx)[1],
    neighbour: (ctx) => idRange(ctx)[1] - ctx.ids.offset,
  }),
  fixedIdCheck({
    id: 'PS-ACCEPT-010',
    title: 'The smallest int64 id, -9223372036854775808, is accepted',
    fixed: (ctx) => idRange(ctx)[0],
    neighbour: (ctx) => idRange(ctx)[0] + ctx.ids.offset,
  }),
  integralNumerals,
];
