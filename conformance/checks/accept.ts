// Acceptance of valid data. Plant Store specification, Create plant rule 1:
// "When the request body is a valid NewPlant record, then the service
// answers 200 with a Plant record."
import type { Exchange } from '../http.js';
import { Numeral, tryParseJson } from '../json.js';
import { describe, each, gradeAccepted, worst } from './grades.js';
import { baseBodies, stringsOfLength } from '../schema-values.js';
import { keywordDerivations, UNNAMED_PROPERTY } from '../keyword-cases.js';
import { caseOf, createRequest, freshId, idField, idRange, keywordCaseBody, preferring, stringFields, validPlant, whyInvalid, type Body } from './requests.js';
import { PLANT_STORE_SPEC, spec } from './sources.js';
import type { Case, CaseExchange, Check, CheckContext, ExchangeCheck, Source, Verdict } from './types.js';

const RULE1 = 'When the request body is a valid NewPlant record, then the service answers 200 with a Plant record.';

interface ValidBody {
  body: Body;
  note: string;
  /** The JSON text to send instead of `body`, for member names an object literal cannot hold. */
  raw?: string;
}

/**
 * The bodies the document makes valid, each checked against the request
 * validator: a candidate it refuses is left out, and the reason (keyword and
 * pointer) goes into the notes of the cases sent, or, when none is left, into
 * the check's skip.
 */
function checkedBodies(ctx: CheckContext, candidates: ValidBody[]): { bodies: ValidBody[]; excluded: string[] } {
  const bodies: ValidBody[] = [];
  const excluded: string[] = [];
  for (const c of candidates) {
    const why = whyInvalid(ctx, c.body);
    if (why === undefined) bodies.push(c);
    else excluded.push(`${c.note}: not valid per the document (${why})`);
  }
  const said = excluded.length > 0 ? `; not sent: ${excluded.join('; ')}` : '';
  return { bodies: bodies.map((b) => ({ ...b, note: `${b.note}${said}` })), excluded };
}

/** The precondition of a check whose candidates may all be ruled out by the document. */
function someValid(candidates: (ctx: CheckContext) => ValidBody[]): (ctx: CheckContext) => string | undefined {
  return (ctx) => {
    const { bodies, excluded } = checkedBodies(ctx, candidates(ctx));
    return bodies.length > 0 ? undefined : `the document allows none of the values this check sends: ${excluded.join('; ')}`;
  };
}

/** The cases of valid bodies: each sends one, and carries it to grade the echo against. */
function validBodyCases(ctx: CheckContext, bodies: ValidBody[]): Array<Case<Body>> {
  return bodies.map((b) => ({ request: createRequest(ctx, b.raw !== undefined ? { raw: b.raw } : b.body, { note: b.note }), sent: b.body }));
}

interface AcceptCheckOptions {
  id: string;
  title: string;
  /** Drawn once per run (fresh ids); checked against the document before they are sent. */
  bodies: (ctx: CheckContext) => ValidBody[];
  source?: Source;
  requirement?: string;
  /** How an answer is graded (default: gradeAccepted). */
  grade?: (ctx: CheckContext, ex: Exchange, sent: Body) => Verdict;
}

/** A check that sends valid bodies and expects each accepted and echoed; skipped when the document allows none of them. */
function acceptCheck({ id, title, bodies, source, requirement, grade = gradeAccepted }: AcceptCheckOptions): ExchangeCheck<Body> {
  return {
    kind: 'exchange',
    id,
    title,
    level: 'MUST',
    source: source ?? spec('Create plant, rule 1'),
    requirement: requirement ?? RULE1,
    precondition: someValid(bodies),
    cases: (ctx) => validBodyCases(ctx, checkedBodies(ctx, bodies(ctx)).bodies),
    verify: (cases, ctx) => each(cases, (c) => grade(ctx, c.exchange, c.sent)),
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

/** A fresh id beside a fixed one (moved toward it by the run's offset), or any fresh id when the document does not allow that one. */
function neighbourOf(ctx: CheckContext, fixed: bigint, toward: 1n | -1n): bigint {
  const near = fixed + toward * ctx.ids.offset;
  if (whyInvalid(ctx, validPlant(ctx, { [idField(ctx)]: near })) === undefined && ctx.ids.claim(near)) return near;
  return freshId(ctx);
}

/** The three cases of a fixed id (see fixedIdCheck): the body with it, a fresh id beside it, and that fresh id again. */
function fixedIdCases(ctx: CheckContext, fixedBody: Body, f: bigint, n: bigint, note: string): Array<Case<IdSent>> {
  const nearBody = { ...fixedBody, [idField(ctx)]: n };
  return [
    { request: createRequest(ctx, fixedBody, { note }), sent: { body: fixedBody, id: f } },
    { request: createRequest(ctx, nearBody, { note: `a fresh id beside it, ${n}` }), sent: { body: nearBody, id: n } },
    { request: createRequest(ctx, nearBody, { note: `the fresh id again: the target's answer to a duplicate` }), sent: { body: nearBody, id: n } },
  ];
}

/** Grades the three cases of a fixed id: accepted, or refused exactly as the target refuses a duplicate. */
function gradeFixedId(ctx: CheckContext, cases: Array<CaseExchange<IdSent>>): Verdict {
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
    requirement: `id: integer, format int64. ${RULE1} (Where the document's schema does not allow this id, e.g. a minimum, the check is skipped and says why.)`,
    precondition: (ctx) => {
      const why = whyInvalid(ctx, validPlant(ctx, { [idField(ctx)]: fixed(ctx) }));
      return why === undefined ? undefined : `the document does not allow id ${fixed(ctx)}: ${why}`;
    },
    cases: (ctx) => {
      const f = fixed(ctx);
      const n = neighbour(ctx);
      ctx.ids.claim(n);
      return fixedIdCases(ctx, validPlant(ctx, { [idField(ctx)]: f }), f, n, `id ${f}`);
    },
    verify: (cases, ctx) => gradeFixedId(ctx, cases),
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
  precondition: (ctx) => {
    const why = whyInvalid(ctx, validPlant(ctx, { [idField(ctx)]: new Numeral(`${freshId(ctx)}.0`) }));
    return why === undefined ? undefined : `the document does not allow a fresh id: ${why}`;
  },
  cases: (ctx) =>
    [(n: bigint) => `${n}.0`, (n: bigint) => `${n}e0`, (n: bigint) => `${n}0e-1`].map((write) => {
      const numeral = new Numeral(write(freshId(ctx)));
      return caseOf(createRequest(ctx, validPlant(ctx, { [idField(ctx)]: numeral }), { note: `id written ${numeral.text}` }));
    }),
  // Graded on the answer alone (status, content type, schema): the numeral is what this check is about, not the echo.
  verify: (cases, ctx) =>
    each(cases, (c) => {
      const v = gradeAccepted(ctx, c.exchange, {});
      return v.outcome === 'fail' ? { ...v, outcome: 'non-strict' } : v;
    }),
};

/** What a keyword case sent: its body, and for a boundary of the id itself, which of the three fixed-id requests it is. */
interface BoundarySent {
  body: Body;
  fixed?: IdSent & { part: 0 | 1 | 2 };
}

/**
 * JSON Schema 2020-12 keywords just inside their boundary: for each keyword
 * of the request schema (maxLength 50: 50 characters; minimum 1: 1; an enum:
 * each value; type [string, "null"]: a string and null; required: only the
 * required properties), a body the document accepts. A boundary of the id
 * itself is a fixed id, sent and graded as PS-ACCEPT-007 does.
 */
const keywordsInside: ExchangeCheck<BoundarySent> = {
  kind: 'exchange',
  id: 'PS-ACCEPT-012',
  title: 'Each keyword of the request schema: a value just inside its boundary is accepted',
  level: 'MUST',
  source: spec('Create plant, rule 1; NewPlant (the schema as the document writes it)'),
  requirement: `${RULE1} (A NewPlant is valid when it satisfies every keyword of the document's schema, JSON Schema Validation 2020-12; each keyword yields a value just inside its boundary.)`,
  precondition: (ctx) => (keywordDerivations(ctx.model).some((d) => d.inside.length > 0) ? undefined : 'the request schema yields no value inside a boundary'),
  cases: (ctx) =>
    keywordDerivations(ctx.model).flatMap((d) =>
      d.inside.flatMap((c): Array<Case<BoundarySent>> => {
        const note = `${c.note} (${d.use.keyword} at ${d.use.pointer})`;
        const value = keywordCaseBody(ctx, c, d.path);
        // The echo is graded on the fields of an object; a valid body of another JSON type has none to carry back.
        const body = (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Numeral) ? value : {}) as Body;
        if (c.fixedId === undefined) return [{ request: createRequest(ctx, value, { note }), sent: { body } }];
        const toward = c.fixedId > 0n ? -1n : 1n;
        return fixedIdCases(ctx, body, c.fixedId, neighbourOf(ctx, c.fixedId, toward), note).map((x, part) => ({
          request: x.request,
          sent: { body: x.sent.body, fixed: { ...x.sent, part: part as 0 | 1 | 2 } },
        }));
      }),
    ),
  verify: (cases, ctx) => {
    const verdicts: Verdict[] = [];
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i]!;
      if (c.sent.fixed === undefined) {
        verdicts.push({ exchange: i, ...gradeAccepted(ctx, c.exchange, c.sent.body) });
        continue;
      }
      const triple = cases.slice(i, i + 3).map((x) => ({ ...x, sent: x.sent.fixed! }));
      const v = gradeFixedId(ctx, triple);
      verdicts.push({ ...v, exchange: i + (v.exchange ?? 0) });
      i += 2;
    }
    return worst(verdicts);
  },
};

/**
 * RFC 8259 §9 lets a JSON parser limit string length: where the document
 * states no maxLength, refusing a 10 000-character value is allowed
 * (non-strict); where it states one, its value is the length to accept.
 */
function gradeLong(ctx: CheckContext, ex: Exchange, sent: Body): Verdict {
  const v = gradeAccepted(ctx, ex, sent);
  const status = ex.response?.status ?? 0;
  const unstated = Object.entries(sent).some(([, value]) => typeof value === 'string' && Array.from(value).length === LONG);
  if (v.outcome === 'fail' && unstated && status >= 400 && status < 500) {
    return { ...v, outcome: 'non-strict', expected: `${v.expected} (no maxLength stated; RFC 8259 §9 lets a server limit string length)` };
  }
  return v;
}

/** The length of a long string where the document states no maxLength. */
const LONG = 10_000;

/** A long value for each string field: its maxLength, else 10 000 characters. */
function longStrings(ctx: CheckContext): ValidBody[] {
  const { required, optional } = stringFields(ctx);
  return [...required, ...optional].map((name) => {
    const stated = maxLengthOf(ctx, name);
    const n = stated ?? LONG;
    const stems = [String(baseBodies(ctx.model).full[name] ?? ''), 'Ficus '];
    const candidates = stringsOfLength(n, stems).map((value) => validPlant(ctx, { [name]: value }));
    const body = candidates.find((b) => whyInvalid(ctx, b) === undefined) ?? candidates[0]!;
    return { body, note: stated === undefined ? `${name} of ${LONG} characters: the schema states no maxLength for ${name}` : `${name} of ${n} characters: its maxLength` };
  });
}

/** The smallest maxLength the document states for a request field, if any. */
function maxLengthOf(ctx: CheckContext, name: string): number | undefined {
  const stated = keywordDerivations(ctx.model)
    .filter((d) => d.use.keyword === 'maxLength' && d.path.length === 1 && d.path[0] === name && typeof d.use.value === 'number')
    .map((d) => d.use.value as number);
  return stated.length > 0 ? Math.min(...stated) : undefined;
}

export const acceptChecks: Check[] = [
  acceptCheck({
    id: 'PS-ACCEPT-001',
    title: 'A valid NewPlant with its optional fields (the document\'s tag) is accepted and echoed',
    bodies: (ctx) => {
      const tag = optionalString(ctx);
      const full = { ...baseBodies(ctx.model).full, [idField(ctx)]: freshId(ctx) };
      return [{ body: preferring(ctx, full, { [requiredString(ctx)]: 'Monstera deliciosa', ...(tag ? { [tag]: 'tropical' } : {}) }), note: 'with every optional field' }];
    },
  }),
  acceptCheck({
    id: 'PS-ACCEPT-002',
    title: 'A valid NewPlant with only its required fields (no tag) is accepted',
    bodies: (ctx) => [{ body: preferring(ctx, validPlant(ctx), { [requiredString(ctx)]: 'Fern' }), note: 'only the required fields' }],
  }),
  acceptCheck({
    id: 'PS-ACCEPT-003',
    title: 'An empty string is accepted where the schema allows one (each string field)',
    bodies: (ctx) => [...stringFields(ctx).required, ...stringFields(ctx).optional].map((name) => ({ body: validPlant(ctx, { [name]: '' }), note: `empty ${name}` })),
  }),
  acceptCheck({
    id: 'PS-ACCEPT-004',
    title: 'A long string is accepted: the schema\'s maxLength, or 10 000 characters where it states none (each string field)',
    bodies: longStrings,
    grade: gradeLong,
    requirement: `${RULE1} JSON Schema Validation 2020-12 §6.3.1: "A string instance is valid against this keyword if its length is less than, or equal to, the value of this keyword." (Where the document states no maxLength, RFC 8259 §9 still lets a server limit string length: a refusal is non-strict.)`,
  }),
  acceptCheck({
    id: 'PS-ACCEPT-005',
    title: 'Non-ASCII strings are accepted and echoed unchanged where the schema allows them (each string field)',
    bodies: (ctx) => {
      const values = ['Geigenfeige Ölbaum — 琴叶榕 🌿', 'ñandú \u00e9\u0301 ✓'];
      return [...stringFields(ctx).required, ...stringFields(ctx).optional].map((name, i) => ({
        body: validPlant(ctx, { [name]: values[i % values.length]! }),
        note: `non-ASCII, astral and combining characters in ${name}`,
      }));
    },
  }),
  {
    ...acceptCheck({
      id: 'PS-ACCEPT-006',
      title: 'Properties the schema does not name are accepted where it does not forbid them (no additionalProperties or unevaluatedProperties: false)',
      bodies: (ctx) => {
        const name = requiredString(ctx);
        // Names the document does not declare (a document may well declare a colour).
        const declared = new Set(ctx.model.create.request.fields.map((f) => f.name));
        const extra = Object.fromEntries(Object.entries({ colour: 'green', nested: { a: [1, 2] }, __proto__x: 1 }).filter(([k]) => !declared.has(k))) as Body;
        const unknown = validPlant(ctx, { [name]: 'Aloe', [UNNAMED_PROPERTY]: 'x', ...extra });
        const plain = validPlant(ctx, { [name]: 'Aloe' });
        return [
          { body: unknown, note: 'unknown properties' },
          { body: plain, note: '__proto__ and constructor as plain names', raw: rawWithProto(plain) },
        ];
      },
    }),
    // The second case's raw text carries the unknown names, so the document must allow unknown properties at all.
    precondition: (ctx) => {
      const why = whyInvalid(ctx, validPlant(ctx, { [UNNAMED_PROPERTY]: 'x' }));
      return why === undefined ? undefined : `the document forbids properties its schema does not name: ${why}`;
    },
  },
  fixedIdCheck({ id: 'PS-ACCEPT-007', title: 'The id 0 is accepted (where the schema allows it)', fixed: () => 0n, neighbour: (ctx) => freshId(ctx) }),
  acceptCheck({
    id: 'PS-ACCEPT-008',
    title: 'A negative id is accepted (where the schema allows it)',
    bodies: (ctx) => [{ body: validPlant(ctx, { [idField(ctx)]: -ctx.ids.fresh() }), note: 'negative id' }],
  }),
  fixedIdCheck({
    id: 'PS-ACCEPT-009',
    title: 'The largest int64 id, 9223372036854775807, is accepted (where the schema allows it)',
    fixed: (ctx) => idRange(ctx)[1],
    neighbour: (ctx) => neighbourOf(ctx, idRange(ctx)[1], -1n),
  }),
  fixedIdCheck({
    id: 'PS-ACCEPT-010',
    title: 'The smallest int64 id, -9223372036854775808, is accepted (where the schema allows it)',
    fixed: (ctx) => idRange(ctx)[0],
    neighbour: (ctx) => neighbourOf(ctx, idRange(ctx)[0], 1n),
  }),
  integralNumerals,
  keywordsInside,
];
