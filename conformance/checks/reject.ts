// Rejection of invalid data. Plant Store specification, Create plant rule 2:
// "The request body is required; it must contain id (integer, int64) and
// name (string)", and Errors rule 1: "The error response has status 400,
// content type application/json, and the body shape Error". Rejected means a
// 4xx; 400 with an Error body is what the document declares (see
// gradeRejected).
import type { RequestSpec } from '../http.js';
import { Numeral, toJson, type JsonValue } from '../json.js';
import type { JsonType } from '../spec-model.js';
import { each, gradeRejected } from './grades.js';
import { caseOf, createRequest, idField, idRange, validPlant } from './requests.js';
import { rfc, spec } from './sources.js';
import type { Check, CheckContext, ExchangeCheck, Source } from './types.js';

const RULE2 = 'The request body is required; it must contain id (integer, int64) and name (string).';
const ERRORS1 = 'The error response has status 400, content type application/json, and the body shape Error: integer error (int32) and string message, both always present.';

interface RejectCheckOptions {
  id: string;
  title: string;
  /** The invalid requests; each is graded on its answer alone. */
  requests: (ctx: CheckContext) => RequestSpec[];
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
    cases: (ctx) => requests(ctx).map(caseOf),
    verify: (cases, ctx) => each(cases, (c) => gradeRejected(ctx, c.exchange, fitting)),
  };
}

/** Values of each JSON type other than `type` (null has its own check). */
function wrongValues(ctx: CheckContext, type: JsonType): Array<[string, JsonValue]> {
  // A string of digits is the coercion trap ("7" read as 7); it carries a
  // fresh id so that a coercing server cannot hit a stored plant.
  const all: Array<[JsonType, string, () => JsonValue]> = [
    ['string', 'a string of digits', () => String(ctx.ids.fresh())],
    ['integer', 'an integer', () => 42],
    ['boolean', 'a boolean', () => true],
    ['array', 'an array', () => ['x']],
    ['object', 'an object', () => ({ value: 'x' })],
  ];
  return all.filter(([t]) => t !== type && !(type === 'number' && t === 'integer')).map(([, label, make]) => [label, make()]);
}

function withField(ctx: CheckContext, name: string, value: JsonValue): Record<string, JsonValue> {
  return { ...validPlant(ctx), [name]: value };
}

export const rejectChecks: Check[] = [
  rejectCheck({
    id: 'PS-REJECT-001',
    title: 'A body missing a required field is rejected (each required field)',
    requests: (ctx) =>
      ctx.model.create.request.required.map((name) => {
        const body = validPlant(ctx);
        delete body[name];
        return createRequest(ctx, body, { note: `without ${name}` });
      }),
  }),
  rejectCheck({
    id: 'PS-REJECT-002',
    title: 'A field of the wrong JSON type is rejected, without coercion (each field, each type)',
    requests: (ctx) =>
      ctx.model.create.request.fields.flatMap((f) =>
        wrongValues(ctx, f.type).map(([label, value]) => createRequest(ctx, withField(ctx, f.name, value), { note: `${f.name} as ${label}` })),
      ),
  }),
  rejectCheck({
    id: 'PS-REJECT-003',
    title: 'A field that is null is rejected (each field; no schema field is nullable)',
    requests: (ctx) => ctx.model.create.request.fields.map((f) => createRequest(ctx, withField(ctx, f.name, null), { note: `${f.name} null` })),
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
];
