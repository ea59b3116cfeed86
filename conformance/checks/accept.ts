// Acceptance of valid data. Plant Store specification, Create plant rule 1:
// "When the request body is a valid NewPlant record, then the service
// answers 200 with a Plant record."
// The shape of these checks is in accept-check.ts, the bodies that take more
// than a line to make in accept-bodies.ts.
import { Numeral, toJson } from '../model/json.js';
import { acceptCheck, RULE1 } from './accept-check.js';
import { gradeLong, longStrings, negativeId } from './accept-bodies.js';
import { each, worst } from './grades.js';
import { ACCEPT_EVIDENCE, ACCEPT_GRADING, gradeAccepted } from './body-grades.js';
import { keywordDerivations, UNNAMED_PROPERTY } from '../cases/keyword-cases.js';
import {
  createRequest,
  freshId,
  rawWithProto,
  idField,
  idRange,
  keywordCaseBody,
  preferring,
  stringFields,
  validPlant,
  type Body,
} from './requests.js';
import { RuledOut } from '../cases/draw.js';
import { idsAboveDoubles } from '../cases/bodies.js';
import { spec } from './sources.js';
import { fixedIdCases, fixedIdCheck, gradeFixedId, neighbourOf, type IdSent } from './fixed-ids.js';
import type { Case, Check, CheckContext, ExchangeCheck, Verdict } from './types.js';
import { createOf } from '../model/spec-model.js';
import type { Exchange } from './exchange.js';

/** A body's JSON text with its noncharacters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF of the BMP) written as \\uXXXX escapes. */
function escapedNoncharacters(body: Body): string {
  return toJson(body).replace(/[\ufdd0-\ufdef\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
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
 * Integral numerals. The specification types the id as an integer without
 * defining one; the document is OpenAPI 3.1, whose dialect is JSON Schema
 * 2020-12, which does: "integer" matches any number with a zero fractional
 * part. A NewPlant whose id is written 5.0 is then a valid NewPlant, and
 * rule 1 binds its answer: a refusal fails.
 */
const integralNumerals: ExchangeCheck<Body> = {
  kind: 'exchange',
  id: 'PS-ACCEPT-011',
  title: 'Integral numerals (5.0, 5e0, 50e-1, 5.000E+0, and above 2^53) are integers and accepted',
  family: 'an integral numeral (5.0)',
  level: 'MUST',
  source: {
    document: 'JSON Schema Validation 2020-12',
    section: '§6.1.1 type; Plant Store specification, Create plant, rule 1',
    url: 'https://json-schema.org/draft/2020-12/json-schema-validation#section-6.1.1',
  },
  requirement: `"integer" which matches any number with a zero fractional part. ${RULE1}`,
  grading:
    'MUST: the document is OpenAPI 3.1, whose dialect is JSON Schema 2020-12, which makes 5.0 an integer; the body is then a valid NewPlant and rule 1 binds: a refusal fails.',
  evidence: ACCEPT_EVIDENCE,
  cases: (ctx) => {
    const written = (numeral: Numeral) => {
      const body = validPlant(ctx, { [idField(ctx)]: numeral });
      return { request: createRequest(ctx, body, { note: `id written ${numeral.text}` }), sent: body };
    };
    const small = [
      (n: bigint) => `${n}.0`,
      (n: bigint) => `${n}e0`,
      (n: bigint) => `${n}0e-1`,
      (n: bigint) => `${n}.000E+0`,
    ].map((write) => written(new Numeral(write(freshId(ctx)))));
    // Above 2^53 too (9007199254740993.0): an integer no double holds, which a server that reads such numerals as doubles rounds or refuses.
    return [...small, ...idsAboveDoubles(ctx.model, ctx.ids).map((n) => written(new Numeral(`${n}.0`)))];
  },
  verify: (cases, ctx) => each(cases, (c) => gradeAccepted(ctx, c.exchange, c.sent)),
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
  family: "a value just inside a keyword's boundary",
  // A boundary of the id is a fixed id (the int64 ends): stored after the checks a lenient reading may lead to it.
  stage: 'fixed-ids',
  level: 'MUST',
  source: spec('Create plant, rule 1; NewPlant (the schema as the document writes it)'),
  requirement: `${RULE1} (A NewPlant is valid when it satisfies every keyword of the document's schema, JSON Schema Validation 2020-12; each keyword yields a value just inside its boundary.)`,
  grading: ACCEPT_GRADING,
  evidence: `${ACCEPT_EVIDENCE} A boundary of the id itself is a fixed id: see PS-ACCEPT-007.`,
  precondition: (ctx) =>
    keywordDerivations(ctx.model).some((d) => d.inside.length > 0)
      ? undefined
      : 'the request schema yields no value inside a boundary',
  cases: (ctx) =>
    keywordDerivations(ctx.model).flatMap((d) =>
      d.inside.flatMap((c): Array<Case<BoundarySent>> => {
        const note = `${c.note} (${d.use.keyword} at ${d.use.pointer})`;
        const value = keywordCaseBody(ctx, c, d.path);
        // The echo is graded on the fields of an object; a valid body of another JSON type has none to carry back.
        const body =
          value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Numeral)
            ? value
            : {};
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
 * A string whose characters a server may limit (RFC 8259 §9) but must not
 * change: a 4xx refusal is non-strict; an answer that echoes another string
 * (trimmed, U+FFFD for a noncharacter) fails rule 1.
 */
function gradeUnchanged(ctx: CheckContext, ex: Exchange, sent: Body): Verdict {
  const v = gradeAccepted(ctx, ex, sent);
  const status = ex.response?.status ?? 0;
  if (v.outcome === 'fail' && status >= 400 && status < 500)
    return {
      ...v,
      outcome: 'non-strict',
      expected: `${v.expected} (RFC 8259 §9 lets a server limit the character contents of strings)`,
    };
  return v;
}

export const acceptChecks: Check[] = [
  acceptCheck({
    id: 'PS-ACCEPT-001',
    title: "A valid NewPlant with its optional fields (the document's tag) is accepted and echoed",
    plain: true,
    bodies: (ctx) => {
      const tag = optionalString(ctx);
      return [
        {
          note: 'with every optional field',
          body: () =>
            preferring(ctx, validPlant(ctx, {}, 'full'), {
              [requiredString(ctx)]: 'Monstera deliciosa',
              ...(tag ? { [tag]: 'tropical' } : {}),
            }),
        },
      ];
    },
  }),
  acceptCheck({
    id: 'PS-ACCEPT-002',
    title: 'A valid NewPlant with only its required fields (no tag) is accepted',
    plain: true,
    bodies: (ctx) => [
      {
        note: 'only the required fields',
        body: () => preferring(ctx, validPlant(ctx), { [requiredString(ctx)]: 'Fern' }),
      },
    ],
  }),
  acceptCheck({
    id: 'PS-ACCEPT-003',
    title: 'An empty string is accepted where the schema allows one (each string field)',
    family: 'an empty string',
    bodies: (ctx) =>
      [...stringFields(ctx).required, ...stringFields(ctx).optional].map((name) => ({
        note: `empty ${name}`,
        body: () => validPlant(ctx, { [name]: '' }),
      })),
  }),
  acceptCheck({
    id: 'PS-ACCEPT-004',
    title:
      "A long string is accepted: the schema's maxLength, or 10 000 characters where it states none (each string field)",
    family: 'a long string',
    bodies: longStrings,
    grade: gradeLong,
    grading:
      'MUST where the document states a maxLength: a string of that length is valid, rule 1 binds. Where it states none, RFC 8259 §9 lets a parser limit string length: refusing 10 000 characters with a 4xx is non-strict; truncating what is stored fails.',
    requirement: `${RULE1} JSON Schema Validation 2020-12 §6.3.1: "A string instance is valid against this keyword if its length is less than, or equal to, the value of this keyword." (Where the document states no maxLength, RFC 8259 §9 still lets a server limit string length: a refusal is non-strict.)`,
  }),
  acceptCheck({
    id: 'PS-ACCEPT-005',
    title: 'Non-ASCII strings are accepted and echoed unchanged where the schema allows them (each string field)',
    family: 'non-ASCII text',
    bodies: (ctx) => {
      // e and U+0301 decomposed too: a server that normalizes (NFC) changes it, where é and then U+0301 it keeps.
      const values = ['Geigenfeige Ölbaum — 琴叶榕 🌿', 'ñandú e\u0301 \u00e9\u0301 ✓'];
      return [...stringFields(ctx).required, ...stringFields(ctx).optional].map((name, i) => ({
        note: `non-ASCII, astral and combining characters in ${name}`,
        body: () => validPlant(ctx, { [name]: values[i % values.length]! }),
      }));
    },
  }),
  acceptCheck({
    id: 'PS-ACCEPT-006',
    title:
      'Properties the schema does not name are accepted where it does not forbid them (no additionalProperties or unevaluatedProperties: false)',
    family: 'properties the schema does not name',
    bodies: (ctx) => {
      // Names the document does not declare (a document may well declare a colour).
      const declared = new Set(createOf(ctx.model).request.fields.map((f) => f.name));
      const extra = Object.fromEntries(
        Object.entries({ colour: 'green', nested: { a: [1, 2] }, __proto__x: 1 }).filter(([k]) => !declared.has(k)),
      ) as Body;
      return [
        { note: 'unknown properties', body: () => validPlant(ctx, { [UNNAMED_PROPERTY]: 'x', ...extra }) },
        // The raw text carries the names __proto__ and constructor, which the document must allow as it allows any unknown name.
        {
          note: '__proto__ and constructor as plain names',
          body: () => validPlant(ctx, { [UNNAMED_PROPERTY]: 'x' }),
          raw: rawWithProto,
        },
      ];
    },
  }),
  acceptCheck({
    id: 'PS-ACCEPT-013',
    title:
      'Strings with leading and trailing white space, with noncharacters (U+FFFF, U+FDD0; raw and as JSON escapes) and with NUL are stored and echoed unchanged (each string field)',
    family: 'white space around a string, noncharacters, NUL',
    bodies: (ctx) =>
      [...stringFields(ctx).required, ...stringFields(ctx).optional].flatMap((name) => [
        { note: `${name} with white space around it`, body: () => validPlant(ctx, { [name]: '  Ficus lyrata \t' }) },
        {
          note: `${name} with noncharacters U+FFFF and U+FDD0`,
          body: () => validPlant(ctx, { [name]: 'Ficus \uffff\ufdd0' }),
        },
        // The same string with the noncharacters written as JSON escapes (RFC 8259 §7: any character may be
        // escaped): a server whose decoder trips on the escaped form, and not on the raw one, is caught too.
        {
          note: `${name} with noncharacters written as escapes "\\uffff\\ufdd0"`,
          body: () => validPlant(ctx, { [name]: 'Ficus \uffff\ufdd0' }),
          raw: escapedNoncharacters,
        },
        { note: `${name} with NUL (U+0000)`, body: () => validPlant(ctx, { [name]: 'Ficus \u0000 lyrata' }) },
      ]),
    grade: gradeUnchanged,
    grading:
      'MUST where the answer is 2xx: the strings are valid (JSON Schema 2020-12: a noncharacter is a character; white space is part of the value), so rule 1 binds the echo: a trimmed string or U+FFFD for a noncharacter fails. RFC 8259 §9 lets a server limit the character contents of strings: a 4xx refusal is non-strict.',
  }),
  fixedIdCheck({
    id: 'PS-ACCEPT-007',
    title: 'The id 0 is accepted (where the schema allows it)',
    family: 'id 0',
    fixed: () => 0n,
    neighbour: (ctx) => freshId(ctx),
  }),
  acceptCheck({
    id: 'PS-ACCEPT-008',
    title: 'A negative id is accepted (where the schema allows it), and its positive counterpart is another plant',
    family: 'a negative id',
    bodies: (ctx) => {
      // -n, then n: a server that drops the sign (or reads the id's digits alone) refuses n as a duplicate.
      let negative: ReturnType<typeof negativeId> | undefined;
      return [
        { note: 'negative id', body: () => (negative = negativeId(ctx)).body },
        {
          note: 'the same id without its sign: another plant',
          body: () => {
            if (negative?.positive === undefined)
              throw new RuledOut('no positive counterpart of the negative id is free in this run');
            return validPlant(ctx, { [idField(ctx)]: negative.positive });
          },
        },
      ];
    },
  }),
  fixedIdCheck({
    id: 'PS-ACCEPT-009',
    title: 'The largest int64 id, 9223372036854775807, is accepted (where the schema allows it)',
    family: 'the largest int64 id',
    fixed: (ctx) => idRange(ctx)[1],
    neighbour: (ctx) => neighbourOf(ctx, idRange(ctx)[1], -1n),
  }),
  fixedIdCheck({
    id: 'PS-ACCEPT-010',
    title: 'The smallest int64 id, -9223372036854775808, is accepted (where the schema allows it)',
    family: 'the smallest int64 id',
    fixed: (ctx) => idRange(ctx)[0],
    neighbour: (ctx) => neighbourOf(ctx, idRange(ctx)[0], 1n),
  }),
  integralNumerals,
  keywordsInside,
];
