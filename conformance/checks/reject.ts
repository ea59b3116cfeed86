// Rejection of invalid data. Plant Store specification, Create plant rule 2:
// "The request body is required; it must contain id (integer, int64) and
// name (string)", and Errors rule 1: "The error response has status 400,
// content type application/json, and the body shape Error". Rejected means a
// 4xx; 400 with an Error body is what the document declares (see
// gradeRejected).
// The shape of these checks is in reject-check.ts, the invalid bodies in
// refused-bodies.ts.
import { Numeral, toJson, type JsonValue } from '../model/json.js';
import { createOf } from '../model/spec-model.js';
import { keywordDerivations } from '../cases/keyword-cases.js';
import { RuledOut } from '../cases/draw.js';
import {
  beyondRange,
  lenientId,
  missingRequired,
  nonIntegers,
  nulls,
  refusedBodies,
  wrongTypes,
} from './refused-bodies.js';
import { ERRORS1, rejectCheck, RULE2, type Refusal } from './reject-check.js';
import { createRequest, idField, keywordCaseBody, validPlant } from './requests.js';
import { rfc, spec } from './sources.js';
import type { Check, CheckContext } from './types.js';

/**
 * JSON Schema 2020-12 keywords just outside their boundary: for each keyword
 * of the request schema, a body the document refuses and would accept
 * without that one keyword (maxLength 50: 51 characters; minimum 1: 0; an
 * enum: a value not listed; unevaluatedProperties: false: a property the
 * schema does not name). A 2xx is a failure: the body is not a NewPlant.
 * A value of the id itself (just below a minimum; a string of digits, a
 * fraction, a boolean or null, which a lenient server reads as an integer),
 * or no id at all, may be one an earlier run stored: its refusal must not be
 * a duplicate's.
 */
const keywordsOutside = {
  id: 'PS-REJECT-012',
  title: 'Each keyword of the request schema: a value just outside its boundary is rejected',
  family: "a value just outside a keyword's boundary",
  requests: (ctx: CheckContext): Refusal[] => {
    const id = idField(ctx);
    const refusals = keywordDerivations(ctx.model).flatMap((d) =>
      d.outside.map((c): Refusal => {
        const body = keywordCaseBody(ctx, c, d.path);
        const aboutId = d.path.length === 1 && d.path[0] === id;
        const object = body !== null && typeof body === 'object' && !Array.isArray(body) && !(body instanceof Numeral);
        const stored = object && (aboutId || !(id in body)) ? lenientId(body[id]) : undefined;
        return {
          request: createRequest(ctx, body, { note: `${c.note} (${d.use.keyword} at ${d.use.pointer})` }),
          ...(stored !== undefined ? { mayMeetStored: stored } : {}),
        };
      }),
    );
    if (refusals.length === 0) throw new RuledOut('the request schema yields no value outside a boundary');
    return refusals;
  },
  source: spec('Create plant, rule 2; Errors, rule 1; NewPlant (the schema as the document writes it)'),
  requirement: `${RULE2} ${ERRORS1} (A body that breaks a keyword of the document's schema, JSON Schema Validation 2020-12, is not a valid NewPlant.)`,
};

const RFC8259_9 = 'RFC 8259 §9 lets a parser accept non-JSON forms or extensions';

/** A body's JSON text with its id's digits written another way. */
function withId(ctx: CheckContext, text: string, write: (digits: string) => string): string {
  const member = `${JSON.stringify(idField(ctx))}:`;
  return text.replace(
    new RegExp(`${member.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(-?\\d+)`),
    (_m, digits: string) => `${member}${write(digits)}`,
  );
}

/** Bodies with required members named in upper case: JSON member names are case-sensitive, so each lacks those members. */
function namesInAnotherCase(ctx: CheckContext): Refusal[] {
  const renamed = createOf(ctx.model).request.required.filter((name) => name.toUpperCase() !== name);
  const rename = (names: string[]) => {
    const body = validPlant(ctx) as Record<string, JsonValue>;
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [names.includes(k) ? k.toUpperCase() : k, v]));
  };
  const sets = renamed.length > 1 ? [renamed, ...renamed.map((name) => [name])] : renamed.map((name) => [name]);
  if (sets.length === 0) throw new RuledOut('no required member has a name with a lower-case letter');
  return sets.map((names) => ({
    request: createRequest(ctx, rename(names), {
      note: `${names.map((n) => n.toUpperCase()).join(' and ')} for ${names.join(' and ')}`,
    }),
  }));
}

export const rejectChecks: Check[] = [
  rejectCheck({
    id: 'PS-REJECT-001',
    family: 'a required member missing',
    title: 'A body missing a required field is rejected (each required field)',
    requests: (ctx) => refusedBodies(ctx, missingRequired(ctx)),
  }),
  rejectCheck({
    id: 'PS-REJECT-013',
    family: 'member names in another letter case',
    title:
      'A body whose required members are named in another letter case ({"ID":…,"NAME":…}) is rejected: it lacks them',
    source: rfc(8259, '§4 Objects; §8.3 String Comparison', 'section-8.3'),
    requirement: `Implementations ... that transform the textual representation into sequences of Unicode code units and then perform the comparison numerically, code unit by code unit, are interoperable ... (member names compared exactly: "ID" is not "id"). ${RULE2} ${ERRORS1}`,
    requests: namesInAnotherCase,
  }),
  rejectCheck({
    id: 'PS-REJECT-002',
    family: 'a wrong JSON type',
    title:
      'A field of the wrong JSON type is rejected, without coercion (each field, each type its schema does not allow)',
    requests: (ctx) => refusedBodies(ctx, wrongTypes(ctx)),
  }),
  rejectCheck({
    id: 'PS-REJECT-003',
    family: 'null',
    title: 'A field that is null is rejected (each field whose schema does not allow null)',
    requests: (ctx) => refusedBodies(ctx, nulls(ctx)),
  }),
  rejectCheck({
    id: 'PS-REJECT-004',
    family: 'an id above int64',
    title: 'An id one above the int64 maximum (9223372036854775808) is rejected',
    requests: (ctx) => refusedBodies(ctx, beyondRange(ctx, 'max')),
  }),
  rejectCheck({
    id: 'PS-REJECT-005',
    family: 'an id below int64',
    title: 'An id one below the int64 minimum (-9223372036854775809) is rejected',
    requests: (ctx) => refusedBodies(ctx, beyondRange(ctx, 'min')),
  }),
  rejectCheck({
    id: 'PS-REJECT-006',
    family: 'a non-integer id',
    title: 'A non-integer id (n.5, n.000001, 1e-7, 1e400) is rejected',
    requests: (ctx) => refusedBodies(ctx, nonIntegers(ctx)),
  }),
  rejectCheck({
    id: 'PS-REJECT-007',
    family: 'a body that is not an object',
    title: 'A body that is not a JSON object is rejected (array, string, number, boolean, null)',
    requests: (ctx) => {
      const list: Array<[string, JsonValue]> = [
        ['an empty array', []],
        ['an array holding a valid plant', [validPlant(ctx)]],
        ['a string', 'Monstera'],
        ['a number', 42],
        ['a boolean', true],
        ['null', null],
      ];
      return list.map(([note, body]) => ({ request: createRequest(ctx, body, { note }) }));
    },
  }),
  rejectCheck({
    id: 'PS-REJECT-008',
    family: 'no body',
    title: 'A missing or empty body is rejected: the request body is required',
    requests: (ctx) => [
      { request: createRequest(ctx, undefined, { note: 'no body' }) },
      { request: createRequest(ctx, { raw: '' }, { note: 'empty body' }) },
      { request: createRequest(ctx, { raw: ' \r\n ' }, { note: 'whitespace only' }) },
    ],
  }),
  rejectCheck({
    id: 'PS-REJECT-009',
    family: 'malformed JSON',
    title: 'A malformed JSON body is rejected',
    requests: (ctx) => {
      const valid = toJson(validPlant(ctx));
      return [
        { request: createRequest(ctx, { raw: valid.slice(0, -1) }, { note: 'truncated' }) },
        {
          request: createRequest(ctx, { raw: valid.replace(/"([a-z]+)":/g, '$1:') }, { note: 'unquoted member names' }),
        },
        { request: createRequest(ctx, { raw: valid.replace(/"/g, "'") }, { note: 'single quotes' }) },
        { request: createRequest(ctx, { raw: valid.replace(/}$/, ',}') }, { note: 'trailing comma' }) },
        {
          request: createRequest(
            ctx,
            { raw: withId(ctx, valid, (id) => `0${id}`) },
            { note: 'the id with a leading zero' },
          ),
        },
        {
          request: createRequest(
            ctx,
            { raw: withId(ctx, valid, () => 'NaN') },
            { note: 'the id NaN (not a JSON number)' },
          ),
        },
        { request: createRequest(ctx, { raw: valid.replace(/^\{/, '{/* a comment */') }, { note: 'a comment' }) },
      ];
    },
    level: 'SHOULD',
    acceptanceAllowed: RFC8259_9,
    source: rfc(8259, '§2 JSON Grammar', 'section-2'),
    requirement:
      'JSON-text = ws value ws. §9: A JSON parser MUST accept all texts that conform to the JSON grammar. A JSON parser MAY accept non-JSON forms or extensions. (A body that is not JSON text need not be refused: refusing it is what a strict reading does; accepting it is non-strict.)',
  }),
  rejectCheck({
    id: 'PS-REJECT-010',
    family: 'text after the JSON value',
    title: 'A JSON body followed by garbage is rejected',
    requests: (ctx) => {
      const valid = toJson(validPlant(ctx));
      return [
        { request: createRequest(ctx, { raw: `${valid} x` }, { note: 'trailing text' }) },
        { request: createRequest(ctx, { raw: `${valid}${toJson(validPlant(ctx))}` }, { note: 'two JSON values' }) },
        { request: createRequest(ctx, { raw: `${valid}]` }, { note: 'trailing bracket' }) },
      ];
    },
    level: 'SHOULD',
    acceptanceAllowed: RFC8259_9,
    source: rfc(8259, '§2 JSON Grammar', 'section-2'),
    requirement:
      'JSON-text = ws value ws. (Text after the value is not JSON text.) §9: A JSON parser MAY accept non-JSON forms or extensions: accepting it is non-strict.',
  }),
  rejectCheck({
    id: 'PS-REJECT-011',
    family: 'another media type',
    title: 'A body sent with another content type is rejected (415 is the fitting status)',
    requests: (ctx) => [
      { request: createRequest(ctx, validPlant(ctx), { contentType: 'text/plain', note: 'text/plain' }) },
      {
        request: createRequest(ctx, validPlant(ctx), {
          contentType: 'application/x-www-form-urlencoded',
          note: 'form content type',
        }),
      },
    ],
    fitting: [415],
    level: 'SHOULD',
    acceptanceAllowed: 'RFC 9110 defines 415 without requiring it: a server may read the body whatever its media type',
    source: rfc(9110, '§15.5.16 415 Unsupported Media Type', 'section-15.5.16'),
    requirement:
      'The 415 (Unsupported Media Type) status code indicates that the origin server is refusing to service the request because the content is in a format not supported by this method on the target resource. (Plant Store specification, Create plant: "Request content type: application/json". RFC 9110 defines 415 without requiring a server to refuse: accepting the body is non-strict.)',
  }),
  rejectCheck(keywordsOutside),
];
