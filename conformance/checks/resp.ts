// PS-RESP-*: response conformance, applied to every exchange of the run (the other
// checks' requests included): the status, the content type and the body
// against what the document declares for the operation the request went to
// (its method and path template), whichever operation that is.
import { parseExact } from '../model/json.js';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { describeViolation } from '../../spec/validator.js';
import { declared, operationOf, validNoun } from './declared.js';
import { mediaOf, refName } from '../model/operation-model.js';
import { problemDetailsCheck } from './resp-problem.js';
import { describe, serverFailure } from './grades.js';
import { responseFor } from './op-grades.js';
import { rfc, spec } from './sources.js';
import type { AggregateCheck, Verdict } from './types.js';

/**
 * The statuses an RFC defines for a condition any request may be in, whatever
 * the document declares: 400 (RFC 9110 §15.5.1: the server perceives a client
 * error), 401 (§15.5.2), 404 (§15.5.5), 405 (§15.5.6), 406 (§15.5.7: nothing
 * fits Accept), 411 (§15.5.12), 413 (§15.5.14), 414 (§15.5.15), 415
 * (§15.5.16), 431 (RFC 6585 §5). PS-RESP-001 asks whether a status is
 * declared or one of these; whether it fits the request is for the check
 * that sent it to say (PS-OP-003 passes an undeclared 400 or 404 to a
 * request invalid in one place, and so does PS-RESP-001).
 */
export const RFC_CONDITION_STATUSES = [400, 401, 404, 405, 406, 411, 413, 414, 415, 431];

/** An exchange the check does not apply to (no answer to grade): it does not make the check a skip. */
const skip: Verdict = { outcome: 'skip' };

export const respChecks: AggregateCheck[] = [
  problemDetailsCheck,
  {
    kind: 'aggregate',
    id: 'PS-RESP-004',
    title: 'No request of the run, valid or not, gets a 5xx or a dropped connection',
    level: 'MUST',
    source: rfc(9110, '§15.6 Server Error 5xx', 'section-15.6'),
    requirement:
      'The 5xx (Server Error) class of status code indicates that the server is aware that it has erred or is incapable of performing the requested method. §15.5: The 4xx (Client Error) class of status code indicates that the client seems to have erred. (Every request the harness sends is one a server can answer: a valid one, or one it must refuse with a 4xx.)',
    grading:
      "MUST: a 5xx or a dropped connection to a request the harness sends fails: a valid request is bound by rule 1, an invalid one is the client's error (RFC 9110 §15.5), and the only error the specification declares is the 400 (Errors, rule 1).",
    evidence: 'Every exchange of the run answered over HTTP with a status below 500.',
    verifyEach: (ex) => serverFailure(ex) ?? { outcome: 'pass' },
  },
  {
    kind: 'aggregate',
    id: 'PS-RESP-001',
    title: 'Every answer has a status the document declares, or one an RFC defines for a condition of the request',
    level: 'SHOULD',
    source: spec('Create plant, Responses; Errors'),
    requirement:
      'Responses: 200 Plant response, application/json; 400 Unexpected error, application/json. (Other statuses: "not shown"; an undeclared status is non-strict.)',
    grading: `SHOULD: the specification says other statuses are "not shown", so a status neither declared (by its code, its range or default) nor one an RFC defines for a condition a request can be in (${RFC_CONDITION_STATUSES.join(', ')}) is a choice: non-strict, never fail. Whether the status fits the request (a 400 to a valid create, a 405 to a declared method) is the question of the check that sent it, never of this one (docs/checks.md, "Which check owns which question").`,
    evidence: `Every answer of the run with a declared status or one of ${RFC_CONDITION_STATUSES.join(', ')}.`,
    verifyEach: (ex, ctx) => {
      if (!ex.response) return skip;
      const status = ex.response.status;
      const op = operationOf(ctx.model, ex.request);
      if (declared(ctx.model, ex) || (op && responseFor(op, status))) return { outcome: 'pass' };
      if (RFC_CONDITION_STATUSES.includes(status)) return { outcome: 'pass' };
      const shown = op ?? ctx.model.create;
      return {
        outcome: 'non-strict',
        expected: `${shown ? `one of ${[...shown.responses.keys()].join(', ')} (declared for ${shown.method} ${shown.path}) or ` : ''}${RFC_CONDITION_STATUSES.join(', ')} (defined by an RFC for a condition of the request)`,
        actual: describe(ex),
      };
    },
  },
  {
    kind: 'aggregate',
    id: 'PS-RESP-002',
    title: 'Every answer with a declared status has the declared content type',
    level: 'MUST',
    source: spec('Create plant, Responses; Errors, rule 1'),
    requirement:
      'The error response has status 400, content type application/json, and the body shape Error. (200: content type application/json.)',
    grading:
      'MUST for a declared status (the document declares its content type); for an undeclared error status the specification binds nothing, so another content type is non-strict.',
    evidence: 'Every answer of the run with a declared status carries the declared media type (parameters aside).',
    verifyEach: (ex, ctx) => {
      if (!ex.response) return skip;
      const ct = mediaTypeEssence(ex.response.headers['content-type']);
      const d = declared(ctx.model, ex);
      if (d && d.contentTypes.length > 0) {
        return d.contentTypes.includes(ct ?? '')
          ? { outcome: 'pass' }
          : { outcome: 'fail', expected: `content type ${d.contentTypes.join(' or ')}`, actual: describe(ex) };
      }
      // Undeclared statuses: the document's error content type (its error
      // record: the create's 4xx, else the first an operation declares) is
      // what a client expects, but the specification binds nothing here
      // (e.g. Prism's application/problem+json): non-strict.
      const error = ctx.model.error;
      if (error && ex.response.status >= 400 && ex.response.bodyText !== '' && !error.contentTypes.includes(ct ?? '')) {
        return {
          outcome: 'non-strict',
          expected: `content type ${error.contentTypes.join(' or ')}`,
          actual: describe(ex),
        };
      }
      return { outcome: 'pass' };
    },
  },
  {
    kind: 'aggregate',
    id: 'PS-RESP-003',
    title: 'Every answer with a declared status has a body that validates against the declared schema',
    level: 'MUST',
    source: spec('Resources and their fields: Plant, Error; Errors, rule 1'),
    requirement:
      'Error: integer error (int32) and string message, both always present. Plant: name string, required; tag string, optional.',
    grading:
      'MUST for a declared status: its body validates against the declared schema (JSON Schema 2020-12, numbers read exactly); an undeclared error status with another body is non-strict.',
    evidence: "Every answer of the run with a declared status has a body its schema's validator accepts.",
    verifyEach: (ex, ctx) => {
      if (!ex.response) return skip;
      const d = declared(ctx.model, ex);
      // The schema declared for the media type answered (a response may declare several); else the first's.
      const ct = mediaTypeEssence(ex.response.headers['content-type']) ?? '';
      const record = d ?? (ex.response.status >= 400 ? ctx.model.error : undefined);
      const media = record && (mediaOf(record, ct) ?? record.media[0]);
      const validate = media?.validate;
      if (!record || !validate) return { outcome: 'pass' };
      // What the body must be, in words: the named schema of the media type answered (a valid Plant), or one written in place.
      const shape = { schemaName: refName(media.schema?.schema), status: record.status };
      const grade = d ? 'fail' : 'non-strict'; // the specification binds the body of declared statuses only
      const parsed = parseExact(ex.response.bodyText);
      if (!parsed.ok)
        return { outcome: grade, expected: `${validNoun(shape)} (JSON)`, actual: `not JSON: ${describe(ex)}` };
      const problems = validate(parsed.value);
      return problems.length === 0
        ? { outcome: 'pass' }
        : {
            outcome: grade,
            expected: validNoun(shape),
            actual: `${problems.map((v) => describeViolation(v)).join('; ')}: ${describe(ex)}`,
            facts: { status: ex.response.status, pointer: problems[0]!.instancePath || '/' },
          };
    },
  },
];
