// Rejection of invalid data. Plant Store specification, Create plant rule 2:
// "The request body is required; it must contain id (integer, int64) and
// name (string)", and Errors rule 1: "The error response has status 400,
// content type application/json, and the body shape Error". Rejected means a
// 4xx; 400 with an Error body is what the document declares (see
// gradeRejected).
import type { RequestSpec } from './exchange.js';
import { Numeral, toJson, type JsonValue } from '../model/json.js';
import { keywordDerivations } from '../cases/keyword-cases.js';
import { typeAllowed, typeExemplars } from '../cases/schema-values.js';
import { describe, gradeRejected, sameDuplicateAnswer, worst } from './grades.js';
import { createRequest, freshId, idField, idRange, invalidPlant, keywordCaseBody, validPlant } from './requests.js';
import { RuledOut } from '../cases/draw.js';
import type { InstancePath } from '../cases/schema-values.js';
import { rfc, spec } from './sources.js';
import type { Case, Check, CheckContext, ExchangeCheck, Level, Source, Verdict } from './types.js';

const RULE2 = 'The request body is required; it must contain id (integer, int64) and name (string).';
const REJECT_GRADING = `MUST: the body is not a valid NewPlant (rule 2), so a 2xx fails; the declared 400 must carry an Error body (Errors, rule 1). Another 4xx is non-strict: the specification does not show the conditions of a 400, so 422 (say) is a choice.`;
const REJECT_EVIDENCE = `A 4xx to a body valid but for this one change, with a fresh id (bodies.ts plantBrokenBy); where a lenient reading of the id may meet a stored plant (an id past int64 read as a double, 1e-7 truncated), a refusal unlike the target's answer to a known duplicate. A refusal that looks like it is skip, unless another case failed.`;
const ERRORS1 = 'The error response has status 400, content type application/json, and the body shape Error: integer error (int32) and string message, both always present.';

/** One invalid request of a reject check. */
interface Refusal {
  request: RequestSpec;
  /**
   * The id the body carries, as written, when a lenient reading of it may
   * meet a plant stored before (an id beyond int64 read as a double lands on
   * int64's end; 1e-7 truncated is 0; no id, null or false read as 0, true as
   * 1): the refusal must then differ from the target's answer to a duplicate
   * id to count.
   */
  mayMeetStored?: string;
}

/** What a case of a reject check sent: an invalid request, or one of the two creates that show the target's answer to a duplicate id. */
type RejectSent = { refusal: Refusal } | { probe: 'fresh' | 'again'; id: bigint };

interface RejectCheckOptions {
  id: string;
  title: string;
  /** The invalid requests; each is graded on its answer alone. */
  requests: (ctx: CheckContext) => Refusal[];
  level?: Level;
  source?: Source;
  requirement?: string;
  /** The RFC statuses for the condition (e.g. 415) that pass beside the declared 400. */
  fitting?: number[];
  /** Where a source lets a server accept the request (RFC 8259 §9, RFC 9110's 415): a 2xx is non-strict, not a failure. */
  acceptanceAllowed?: string;
  grading?: string;
}

/**
 * A check that sends invalid requests and expects each refused. A refusal
 * counts only when nothing but the rule under test explains it: every body
 * is valid but for one change (bodies.ts plantBrokenBy) and carries a fresh
 * id, and where a lenient reading of its id may meet a stored plant, the
 * check first learns the target's answer to a duplicate id (a fresh create,
 * then the same again) and a refusal that looks like it proves nothing: the
 * check then says it cannot tell (skip), unless another case failed.
 */
function rejectCheck(options: RejectCheckOptions): ExchangeCheck<RejectSent> {
  const { requests, fitting = [], acceptanceAllowed } = options;
  return {
    kind: 'exchange',
    id: options.id,
    title: options.title,
    level: options.level ?? 'MUST',
    source: options.source ?? spec('Create plant, rule 2; Errors, rule 1'),
    requirement: options.requirement ?? `${RULE2} ${ERRORS1}`,
    grading: options.grading ?? (acceptanceAllowed ? `SHOULD: ${acceptanceAllowed}, so accepting is non-strict, never fail; a refusal must still be the declared 400 with an Error body, or the fitting status.` : REJECT_GRADING),
    evidence: REJECT_EVIDENCE,
    cases: (ctx) => {
      const refusals = requests(ctx);
      const probes: Array<Case<RejectSent>> = [];
      if (refusals.some((r) => r.mayMeetStored !== undefined)) {
        const body = validPlant(ctx);
        const id = BigInt(body[idField(ctx)] as bigint);
        probes.push(
          { request: createRequest(ctx, body, { note: 'a fresh create, to learn the target\'s answer to a duplicate id' }), sent: { probe: 'fresh', id } },
          { request: createRequest(ctx, body, { note: 'the same create again: the target\'s answer to a duplicate id' }), sent: { probe: 'again', id } },
        );
      }
      return [...probes, ...refusals.map((refusal) => ({ request: refusal.request, sent: { refusal } }))];
    },
    verify: (cases, ctx) => {
      const again = cases.find((c) => 'probe' in c.sent && c.sent.probe === 'again');
      let evidence = 0;
      const cannotTell: Verdict[] = [];
      const verdicts: Verdict[] = [];
      cases.forEach((c, i) => {
        if (!('refusal' in c.sent)) return;
        let v = gradeRejected(ctx, c.exchange, fitting);
        const status = c.exchange.response?.status ?? 0;
        if (v.outcome === 'fail' && acceptanceAllowed !== undefined && status >= 200 && status < 300) {
          v = { ...v, outcome: 'non-strict', expected: `${v.expected} (${acceptanceAllowed})`, cause: `a request the server may refuse is accepted (${acceptanceAllowed})` };
        }
        const stored = c.sent.refusal.mayMeetStored;
        if (v.outcome === 'pass' && stored !== undefined && again !== undefined && 'probe' in again.sent) {
          const like = sameDuplicateAnswer(c.exchange, stored, again.exchange, again.sent.id, 'any');
          if (like !== 'different') {
            cannotTell.push({
              outcome: 'skip',
              exchange: i,
              expected: 'a refusal that a duplicate id cannot explain',
              actual: `the refusal of id ${stored} is the target's answer to a duplicate id (${describe(again.exchange)}): a server that read the id leniently may have met a stored plant`,
            });
            return;
          }
        }
        if (v.outcome === 'pass') evidence++;
        verdicts.push({ exchange: i, ...v });
      });
      const graded = worst(verdicts);
      // A failure stands; a pass needs every case told apart from a duplicate.
      if (graded.outcome !== 'pass' || cannotTell.length === 0) return graded;
      return { ...cannotTell[0]!, actual: `${cannotTell[0]!.actual}; ${evidence} other refusal(s) of this check were told apart` };
    },
  };
}

/** Values of each JSON type the field's schema does not allow (null has its own check). */
function wrongValues(ctx: CheckContext, types: readonly string[]): Array<[string, JsonValue]> {
  // A string of digits is the coercion trap ("7" read as 7); it carries a
  // fresh id so that a coercing server cannot hit a stored plant.
  return typeExemplars(String(freshId(ctx)))
    .filter((e) => e.type !== 'null' && e.type !== 'number' && !typeAllowed(types, e.type))
    .map((e) => [e.label, e.value]);
}

/** One change that makes an otherwise valid body invalid, with its note. */
type Breaking = [path: InstancePath, value: JsonValue | undefined, note: string, mayMeetStored?: string];

/**
 * Requests for the changes the document refuses, each in a body valid but
 * for it; a change the document allows (a field that may be null, say), or
 * one it cannot isolate, is not sent. RuledOut, with the reasons, when no
 * change is left.
 */
function refusedBodies(ctx: CheckContext, changes: Breaking[]): Refusal[] {
  const out: Refusal[] = [];
  const excluded: string[] = [];
  for (const [path, value, note, mayMeetStored] of changes) {
    try {
      out.push({ request: createRequest(ctx, invalidPlant(ctx, path, value), { note }), ...(mayMeetStored !== undefined ? { mayMeetStored } : {}) });
    } catch (err) {
      if (!(err instanceof RuledOut)) throw err;
      excluded.push(`${note}: ${err.message}`);
    }
  }
  if (out.length === 0) throw new RuledOut(`the document leaves nothing of this kind to refuse: ${excluded.join('; ')}`);
  return out;
}

/**
 * The id as written, when a lenient reading of it is an integer a stored
 * plant may have: no id or null (a zero value, as Go and Jackson read
 * them: 0), a boolean (0 or 1), a number (a fraction truncated, beyond
 * int64 read as a double), a string of digits; undefined otherwise.
 */
function lenientId(value: JsonValue | undefined): string | undefined {
  if (value === undefined) return '(no id)';
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'bigint' || value instanceof Numeral) return toJson(value);
  return typeof value === 'string' && /^-?\d+$/.test(value) ? JSON.stringify(value) : undefined;
}

// A body without its id, or with the id null or a boolean, may meet a plant an earlier run stored (0, 1)
// on a server that reads it leniently: its refusal must not be a duplicate's.
const missingRequired = (ctx: CheckContext): Breaking[] =>
  ctx.model.create.request.required.map((name): Breaking => [[name], undefined, `without ${name}`, name === idField(ctx) ? lenientId(undefined) : undefined]);

const wrongTypes = (ctx: CheckContext): Breaking[] =>
  ctx.model.create.request.fields.flatMap((f) =>
    wrongValues(ctx, f.types).map(([label, value]): Breaking => [[f.name], value, `${f.name} as ${label}`, f.name === idField(ctx) && typeof value === 'boolean' ? lenientId(value) : undefined]),
  );

const nulls = (ctx: CheckContext): Breaking[] =>
  ctx.model.create.request.fields.filter((f) => !f.types.includes('null')).map((f): Breaking => [[f.name], null, `${f.name} null`, f.name === idField(ctx) ? lenientId(null) : undefined]);

/** The doubles beyond int64's ends are 2048 apart: an id 2048·k past the end (k run-unique) reads as a double no stored id has. */
const DOUBLE_GAP_BEYOND_INT64 = 2048n;

/**
 * Ids just beyond one end of the id's integer format: the first one past it
 * (a server reading ids as doubles rounds it onto the end itself, which an
 * earlier check or run may have stored: its refusal must not be a
 * duplicate's), and one further, run-unique, whose double no stored id has.
 */
function beyondRange(ctx: CheckContext, end: 'max' | 'min'): Breaking[] {
  const [lo, hi] = idRange(ctx);
  const sign = end === 'max' ? 1n : -1n;
  const edge = end === 'max' ? hi : lo;
  const first = edge + sign;
  const far = edge + sign * DOUBLE_GAP_BEYOND_INT64 * (ctx.ids.offset % (1n << 40n) + 1n);
  return [
    [[idField(ctx)], first, `int64 ${end} ${end === 'max' ? '+' : '-'} 1`, String(first)],
    [[idField(ctx)], far, `${far}, further beyond int64 ${end}, a double no stored id has`],
  ];
}

/**
 * Ids that are not integers. A fresh n makes n.5 and n.000001: a server
 * that truncates or rounds them, or reads them as doubles (n.000001 is n as
 * a double), finds n fresh and stores it; 1e-7 rounds to 0 and 1e400 to
 * infinity or the largest int64, ids an earlier check may have stored.
 */
function nonIntegers(ctx: CheckContext): Breaking[] {
  const n = freshId(ctx);
  const id = idField(ctx);
  return [
    [[id], new Numeral(`${n}.5`), `id ${n}.5`],
    [[id], new Numeral(`${n}.000001`), `id ${n}.000001 (the double nearest is ${n})`],
    [[id], new Numeral('1e-7'), 'id 1e-7', '0'],
    [[id], new Numeral('1e400'), 'id 1e400', '1e400'],
  ];
}

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
  return text.replace(new RegExp(`${member.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(-?\\d+)`), (_m, digits: string) => `${member}${write(digits)}`);
}

export const rejectChecks: Check[] = [
  rejectCheck({
    id: 'PS-REJECT-001',
    title: 'A body missing a required field is rejected (each required field)',
    requests: (ctx) => refusedBodies(ctx, missingRequired(ctx)),
  }),
  rejectCheck({
    id: 'PS-REJECT-002',
    title: 'A field of the wrong JSON type is rejected, without coercion (each field, each type its schema does not allow)',
    requests: (ctx) => refusedBodies(ctx, wrongTypes(ctx)),
  }),
  rejectCheck({
    id: 'PS-REJECT-003',
    title: 'A field that is null is rejected (each field whose schema does not allow null)',
    requests: (ctx) => refusedBodies(ctx, nulls(ctx)),
  }),
  rejectCheck({
    id: 'PS-REJECT-004',
    title: 'An id one above the int64 maximum (9223372036854775808) is rejected',
    requests: (ctx) => refusedBodies(ctx, beyondRange(ctx, 'max')),
  }),
  rejectCheck({
    id: 'PS-REJECT-005',
    title: 'An id one below the int64 minimum (-9223372036854775809) is rejected',
    requests: (ctx) => refusedBodies(ctx, beyondRange(ctx, 'min')),
  }),
  rejectCheck({
    id: 'PS-REJECT-006',
    title: 'A non-integer id (n.5, n.000001, 1e-7, 1e400) is rejected',
    requests: (ctx) => refusedBodies(ctx, nonIntegers(ctx)),
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
      return list.map(([note, body]) => ({ request: createRequest(ctx, body, { note }) }));
    },
  }),
  rejectCheck({
    id: 'PS-REJECT-008',
    title: 'A missing or empty body is rejected: the request body is required',
    requests: (ctx) => [
      { request: createRequest(ctx, undefined, { note: 'no body' }) },
      { request: createRequest(ctx, { raw: '' }, { note: 'empty body' }) },
      { request: createRequest(ctx, { raw: ' \r\n ' }, { note: 'whitespace only' }) },
    ],
  }),
  rejectCheck({
    id: 'PS-REJECT-009',
    title: 'A malformed JSON body is rejected',
    requests: (ctx) => {
      const valid = toJson(validPlant(ctx));
      return [
        { request: createRequest(ctx, { raw: valid.slice(0, -1) }, { note: 'truncated' }) },
        { request: createRequest(ctx, { raw: valid.replace(/"([a-z]+)":/g, '$1:') }, { note: 'unquoted member names' }) },
        { request: createRequest(ctx, { raw: valid.replace(/"/g, "'") }, { note: 'single quotes' }) },
        { request: createRequest(ctx, { raw: valid.replace(/}$/, ',}') }, { note: 'trailing comma' }) },
        { request: createRequest(ctx, { raw: withId(ctx, valid, (id) => `0${id}`) }, { note: 'the id with a leading zero' }) },
        { request: createRequest(ctx, { raw: withId(ctx, valid, () => 'NaN') }, { note: 'the id NaN (not a JSON number)' }) },
        { request: createRequest(ctx, { raw: valid.replace(/^\{/, '{/* a comment */') }, { note: 'a comment' }) },
      ];
    },
    level: 'SHOULD',
    acceptanceAllowed: RFC8259_9,
    source: rfc(8259, '§2 JSON Grammar', 'section-2'),
    requirement: 'JSON-text = ws value ws. §9: A JSON parser MUST accept all texts that conform to the JSON grammar. A JSON parser MAY accept non-JSON forms or extensions. (A body that is not JSON text need not be refused: refusing it is what a strict reading does; accepting it is non-strict.)',
  }),
  rejectCheck({
    id: 'PS-REJECT-010',
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
    requirement: 'JSON-text = ws value ws. (Text after the value is not JSON text.) §9: A JSON parser MAY accept non-JSON forms or extensions: accepting it is non-strict.',
  }),
  rejectCheck({
    id: 'PS-REJECT-011',
    title: 'A body sent with another content type is rejected (415 is the fitting status)',
    requests: (ctx) => [
      { request: createRequest(ctx, validPlant(ctx), { contentType: 'text/plain', note: 'text/plain' }) },
      { request: createRequest(ctx, validPlant(ctx), { contentType: 'application/x-www-form-urlencoded', note: 'form content type' }) },
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
