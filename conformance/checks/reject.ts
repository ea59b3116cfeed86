// Rejection of invalid data. Plant Store specification, Create plant rule 2:
// "The request body is required; it must contain id (integer, int64) and
// name (string)", and Errors rule 1: "The error response has status 400,
// content type application/json, and the body shape Error". Rejected means a
// 4xx; 400 with an Error body is what the document declares (see
// gradeRejected).
import type { RequestSpec } from '../http.js';
import { Numeral, toJson, type JsonValue } from '../json.js';
import { keywordDerivations } from '../keyword-cases.js';
import { typeAllowed, typeExemplars } from '../schema-values.js';
import { each, gradeRejected } from './grades.js';
import { caseOf, createRequest, idField, idRange, keywordCaseBody, validPlant, whyInvalid } from './requests.js';
import { rfc, spec } from './sources.js';
import type { Check, CheckContext, ExchangeCheck, Source } from './types.js';

const RULE2 = 'The request body is required; it must contain id (integer, int64) and name (string).';
const ERRORS1 = 'The error response has status 400, content type application/json, and the body shape Error: integer error (int32) and string message, both always present.';

interface RejectCheckOptions {
  id: string;
  title: string;
  /** The invalid requests; each is graded on its answer alone. */
  requests: (ctx: CheckContext) => RequestSpec[];
  /** A reason to skip (the document allows every value the check would send). */
  precondition?: (ctx: CheckContext) => string | undefined;
  source?: Source;
  requirement?: string;
  /** The RFC statuses for the condition (e.g. 415) that pass beside the declared 400. */
  fitting?: number[];
}

/** A check that sends invalid requests and expects each rejected. */
function rejectCheck(options: RejectCheckOptions): ExchangeCheck {
  const { requests, fitting = [] } = options;
  return {
    kind: 'exchange',
    id: options.id,
    title: options.title,
    level: 'MUST',
    source: options.source ?? spec('Create plant, rule 2; Errors, rule 1'),
    requirement: options.requirement ?? `${RULE2} ${ERRORS1}`,
    precondition: options.precondition,
    cases: (ctx) => requests(ctx).map(caseOf),
    verify: (cases, ctx) => each(cases, (c) => gradeRejected(ctx, c.exchange, fitting)),
  };
}

/** Values of each JSON type the field's schema does not allow (null has its own check). */
function wrongValues(ctx: CheckContext, types: readonly string[]): Array<[string, JsonValue]> {
  // A string of digits is the coercion trap ("7" read as 7); it carries a
  // fresh id so that a coercing server cannot hit a stored plant.
  return typeExemplars(String(ctx.ids.fresh()))
    .filter((e) => e.type !== 'null' && e.type !== 'number' && !typeAllowed(types, e.type))
    .map((e) => [e.label, e.value]);
}

function withField(ctx: CheckContext, name: string, value: JsonValue): Record<string, JsonValue> {
  return { ...validPlant(ctx), [name]: value };
}

/** Requests for the bodies the document refuses: a body it accepts (a field that may be null, say) is not sent as invalid. */
function refusedBodies(ctx: CheckContext, bodies: Array<[JsonValue, string]>): RequestSpec[] {
  return bodies.filter(([body]) => whyInvalid(ctx, body) !== undefined).map(([body, note]) => createRequest(ctx, body, { note }));
}

/** Skips a check when the document accepts every body it would send. */
function someRefused(bodies: (ctx: CheckContext) => Array<[JsonValue, string]>, what: string): (ctx: CheckContext) => string | undefined {
  return (ctx) => (refusedBodies(ctx, bodies(ctx)).length > 0 ? undefined : `the document's schema allows ${what}`);
}

const missingRequired = (ctx: CheckContext): Array<[JsonValue, string]> =>
  ctx.model.create.request.required.map((name) => {
    const body = validPlant(ctx);
    delete body[name];
    return [body, `without ${name}`];
  });

const wrongTypes = (ctx: CheckContext): Array<[JsonValue, string]> =>
  ctx.model.create.request.fields.flatMap((f) => wrongValues(ctx, f.types).map(([label, value]): [JsonValue, string] => [withField(ctx, f.name, value), `${f.name} as ${label}`]));

const nulls = (ctx: CheckContext): Array<[JsonValue, string]> =>
  ctx.model.create.request.fields.filter((f) => !f.types.includes('null')).map((f): [JsonValue, string] => [withField(ctx, f.name, null), `${f.name} null`]);

/**
 * JSON Schema 2020-12 keywords just outside their boundary: for each keyword
 * of the request schema, a body the document refuses and would accept
 * without that one keyword (maxLength 50: 51 characters; minimum 1: 0; an
 * enum: a value not listed; unevaluatedProperties: false: a property the
 * schema does not name). A 2xx is a failure: the body is not a NewPlant.
 */
const keywordsOutside = {
  id: 'PS-REJECT-012',
  title: 'Each keyword of the request schema: a value just outside its boundary is rejected',
  requests: (ctx: CheckContext) =>
    keywordDerivations(ctx.model).flatMap((d) =>
      d.outside.map((c) => createRequest(ctx, keywordCaseBody(ctx, c, d.path), { note: `${c.note} (${d.use.keyword} at ${d.use.pointer})` })),
    ),
  precondition: (ctx: CheckContext) => (keywordDerivations(ctx.model).some((d) => d.outside.length > 0) ? undefined : 'the request schema yields no value outside a boundary'),
  source: spec('Create plant, rule 2; Errors, rule 1; NewPlant (the schema as the document writes it)'),
  requirement: `${RULE2} ${ERRORS1} (A body that breaks a keyword of the document's schema, JSON Schema Validation 2020-12, is not a valid NewPlant.)`,
};

export const rejectChecks: Check[] = [
  rejectCheck({
    id: 'PS-REJECT-001',
    title: 'A body missing a required field is rejected (each required field)',
    requests: (ctx) => refusedBodies(ctx, missingRequired(ctx)),
    precondition: someRefused(missingRequired, 'bodies without each required field'),
  }),
  rejectCheck({
    id: 'PS-REJECT-002',
    title: 'A field of the wrong JSON type is rejected, without coercion (each field, each type its schema does not allow)',
    requests: (ctx) => refusedBodies(ctx, wrongTypes(ctx)),
    precondition: someRefused(wrongTypes, 'every JSON type for every field'),
  }),
  rejectCheck({
    id: 'PS-REJECT-003',
    title: 'A field that is null is rejected (each field whose schema does not allow null)',
    requests: (ctx) => refusedBodies(ctx, nulls(ctx)),
    precondition: someRefused(nulls, 'null for every field'),
  }),
  rejectCheck({
    id: 'PS-REJECT-004',
    title: 'An id one above the int64 maximum (9223372036854775808) is rejected',
    requests: (ctx) => [createRequest(ctx, withField(ctx, idField(ctx), idRange(ctx)[1] + 1n), { note: 'int64 max + 1' })],
  }),
  rejectCheck({
    id: 'PS-REJECT-005',
    title: 'An id one below the int64 minimum (-9223372036854775809) is rejected',
    requests: (ctx) => [createRequest(ctx, withField(ctx, idField(ctx), idRange(ctx)[0] - 1n), { note: 'int64 min - 1' })],
  }),
  rejectCheck({
    id: 'PS-REJECT-006',
    title: 'A non-integer id (1.5, n.5, 1e-7, 1e400) is rejected',
    requests: (ctx) =>
      [`${ctx.ids.fresh()}.5`, '1.5', '1e-7', '1e400'].map((text) => createRequest(ctx, withField(ctx, idField(ctx), new Numeral(text)), { note: `id ${text}` })),
  }),
  rejectCheck({
    id: 'PS-REJECT-007',
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
      return list.map(([note, body]) => createRequest(ctx, body, { note }));
    },
  }),
  rejectCheck({
    id: 'PS-REJECT-008',
    title: 'A missing or empty body is rejected: the request body is required',
    requests: (ctx) => [
      createRequest(ctx, undefined, { note: 'no body' }),
      createRequest(ctx, { raw: '' }, { note: 'empty body' }),
      createRequest(ctx, { raw: ' \r\n ' }, { note: 'whitespace only' }),
    ],
  }),
  rejectCheck({
    id: 'PS-REJECT-009',
    title: 'A malformed JSON body is rejected',
    requests: (ctx) => {
      const valid = toJson(validPlant(ctx));
      return [
        createRequest(ctx, { raw: valid.slice(0, -1) }, { note: 'truncated' }),
        createRequest(ctx, { raw: valid.replace(/"([a-z]+)":/g, '$1:') }, { note: 'unquoted member names' }),
        createRequest(ctx, { raw: valid.replace(/"/g, "'") }, { note: 'single quotes' }),
        createRequest(ctx, { raw: valid.replace(/}$/, ',}') }, { note: 'trailing comma' }),
      ];
    },
    source: rfc(8259, '§2 JSON Grammar', 'section-2'),
    requirement: 'JSON-text = ws value ws. (A body that is not JSON text is not a NewPlant record: Plant Store specification, "All payloads are JSON".)',
  }),
  rejectCheck({
    id: 'PS-REJECT-010',
    title: 'A JSON body followed by garbage is rejected',
    requests: (ctx) => {
      const valid = toJson(validPlant(ctx));
      return [
        createRequest(ctx, { raw: `${valid} x` }, { note: 'trailing text' }),
        createRequest(ctx, { raw: `${valid}${toJson(validPlant(ctx))}` }, { note: 'two JSON values' }),
        createRequest(ctx, { raw: `${valid}]` }, { note: 'trailing bracket' }),
      ];
    },
    source: rfc(8259, '§2 JSON Grammar', 'section-2'),
    requirement: 'JSON-text = ws value ws. (Text after the value is not JSON text.)',
  }),
  rejectCheck({
    id: 'PS-REJECT-011',
    title: 'A body sent with another content type is rejected (415 is the fitting status)',
    requests: (ctx) => [
      createRequest(ctx, validPlant(ctx), { contentType: 'text/plain', note: 'text/plain' }),
      createRequest(ctx, validPlant(ctx), { contentType: 'application/x-www-form-urlencoded', note: 'form content type' }),
    ],
    fitting: [415],
    source: rfc(9110, '§15.5.16 415 Unsupported Media Type', 'section-15.5.16'),
    requirement:
      'The 415 (Unsupported Media Type) status code indicates that the origin server is refusing to service the request because the content is in a format not supported by this method on the target resource. (Plant Store specification, Create plant: "Request content type: application/json".)',
  }),
  rejectCheck(keywordsOutside),
];
