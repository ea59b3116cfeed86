// Rejection of invalid data. Seed, Create plant rule 2: "The request body is
// required; it must contain id (integer, int64) and name (string)", and
// Errors rule 1: "The error response has status 400, content type
// application/json, and the body shape Error". Rejected means a 4xx; 400 with
// an Error body is what the document declares (see gradeRejected).
import type { JsonType } from '../spec-model.js';
import { integerRange } from '../spec-model.js';
import { Numeral, toJson, type JsonValue } from '../json.js';
import { create, each, gradeRejected, idField, rfc, seed, validPlant } from './grades.js';
import type { CheckContext, ExchangeCheck } from './types.js';
import type { RequestSpec } from '../http.js';

const RULE2 = 'The request body is required; it must contain id (integer, int64) and name (string).';
const ERRORS1 = 'The error response has status 400, content type application/json, and the body shape Error: integer error (int32) and string message, both always present.';

function rejectCheck(
  id: string,
  title: string,
  requests: (ctx: CheckContext) => RequestSpec[],
  extra: Partial<ExchangeCheck> & { fitting?: number[] } = {},
): ExchangeCheck {
  const { fitting = [], ...rest } = extra;
  return {
    kind: 'exchange',
    id,
    title,
    level: 'MUST',
    source: seed('Create plant, rule 2; Errors, rule 1'),
    requirement: `${RULE2} ${ERRORS1}`,
    requests,
    verify: (exchanges, ctx) => each(exchanges, (ex) => gradeRejected(ctx, ex, fitting)),
    ...rest,
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

function idRange(ctx: CheckContext): [bigint, bigint] {
  const f = ctx.model.create.request.fields.find((x) => x.name === idField(ctx))!;
  const r = integerRange(f.format);
  if (!r) throw new Error('the id field has no integer format with a range');
  return r;
}

export const rejectChecks: ExchangeCheck[] = [
  rejectCheck('PS-REJECT-001', 'A body missing a required field is rejected (each required field)', (ctx) =>
    ctx.model.create.request.required.map((name) => {
      const body = validPlant(ctx);
      delete body[name];
      return create(ctx, body, { note: `without ${name}` });
    }),
  ),
  rejectCheck('PS-REJECT-002', 'A field of the wrong JSON type is rejected, without coercion (each field, each type)', (ctx) =>
    ctx.model.create.request.fields.flatMap((f) =>
      wrongValues(ctx, f.type).map(([label, value]) => create(ctx, withField(ctx, f.name, value), { note: `${f.name} as ${label}` })),
    ),
  ),
  rejectCheck('PS-REJECT-003', 'A field that is null is rejected (each field; no schema field is nullable)', (ctx) =>
    ctx.model.create.request.fields.map((f) => create(ctx, withField(ctx, f.name, null), { note: `${f.name} null` })),
  ),
  rejectCheck('PS-REJECT-004', 'An id one above the int64 maximum (9223372036854775808) is rejected', (ctx) => [
    create(ctx, withField(ctx, idField(ctx), idRange(ctx)[1] + 1n), { note: 'int64 max + 1' }),
  ]),
  rejectCheck('PS-REJECT-005', 'An id one below the int64 minimum (-9223372036854775809) is rejected', (ctx) => [
    create(ctx, withField(ctx, idField(ctx), idRange(ctx)[0] - 1n), { note: 'int64 min - 1' }),
  ]),
  rejectCheck('PS-REJECT-006', 'A non-integer id (1.5, n.5, 1e-7, 1e400) is rejected', (ctx) =>
    [`${ctx.ids.fresh()}.5`, '1.5', '1e-7', '1e400'].map((text) => create(ctx, withField(ctx, idField(ctx), new Numeral(text)), { note: `id ${text}` })),
  ),
  rejectCheck('PS-REJECT-007', 'A body that is not a JSON object is rejected (array, string, number, boolean, null)', (ctx) => {
    const list: Array<[string, JsonValue]> = [
      ['an empty array', []],
      ['an array holding a valid plant', [validPlant(ctx)]],
      ['a string', 'Monstera'],
      ['a number', 42],
      ['a boolean', true],
      ['null', null],
    ];
    return list.map(([note, body]) => create(ctx, body, { note }));
  }),
  rejectCheck(
    'PS-REJECT-008',
    'A missing or empty body is rejected: the request body is required',
    (ctx) => [
      create(ctx, undefined, { note: 'no body' }),
      create(ctx, { raw: '' }, { note: 'empty body' }),
      create(ctx, { raw: ' \r\n ' }, { note: 'whitespace only' }),
    ],
  ),
  rejectCheck(
    'PS-REJECT-009',
    'A malformed JSON body is rejected',
    (ctx) => {
      const valid = toJson(validPlant(ctx));
      return [
        create(ctx, { raw: valid.slice(0, -1) }, { note: 'truncated' }),
        create(ctx, { raw: valid.replace(/"([a-z]+)":/g, '$1:') }, { note: 'unquoted member names' }),
        create(ctx, { raw: valid.replace(/"/g, "'") }, { note: 'single quotes' }),
        create(ctx, { raw: valid.replace(/}$/, ',}') }, { note: 'trailing comma' }),
      ];
    },
    {
      source: rfc(8259, '§2 JSON Grammar', 'section-2'),
      requirement: 'JSON-text = ws value ws. (A body that is not JSON text is not a NewPlant record: Plant Store specification, "All payloads are JSON".)',
    },
  ),
  rejectCheck(
    'PS-REJECT-010',
    'A JSON body followed by garbage is rejected',
    (ctx) => {
      const valid = toJson(validPlant(ctx));
      return [
        create(ctx, { raw: `${valid} x` }, { note: 'trailing text' }),
        create(ctx, { raw: `${valid}${toJson(validPlant(ctx))}` }, { note: 'two JSON values' }),
        create(ctx, { raw: `${valid}]` }, { note: 'trailing bracket' }),
      ];
    },
    {
      source: rfc(8259, '§2 JSON Grammar', 'section-2'),
      requirement: 'JSON-text = ws value ws. (Text after the value is not JSON text.)',
    },
  ),
  rejectCheck(
    'PS-REJECT-011',
    'A body sent with another content type is rejected (415 is the fitting status)',
    (ctx) => [
      create(ctx, validPlant(ctx), { contentType: 'text/plain', note: 'text/plain' }),
      create(ctx, validPlant(ctx), { contentType: 'application/x-www-form-urlencoded', note: 'form content type' }),
    ],
    {
      fitting: [415],
      source: rfc(9110, '§15.5.16 415 Unsupported Media Type', 'section-15.5.16'),
      requirement:
        'The 415 (Unsupported Media Type) status code indicates that the origin server is refusing to service the request because the content is in a format not supported by this method on the target resource. (Plant Store specification, Create plant: "Request content type: application/json".)',
    },
  ),
];
