// PS-RESP-*: response conformance, applied to every exchange of the run (the other
// checks' requests included): the status, the content type and the body
// against what the document declares for the operation the request went to
// (its method and path template), whichever operation that is.
import { parseExact } from '../model/json.js';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { describeViolation } from '../../spec/validator.js';
import { declared, operationOf, RFC_STATUSES } from './declared.js';
import { mediaOf, refName } from '../model/operation-model.js';
import { problemDetailsCheck } from './resp-problem.js';
import { describe, serverFailure } from './grades.js';
import { rfc, spec } from './sources.js';
import type { AggregateCheck, Verdict } from './types.js';

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
    title: 'Every answer has a declared status, or the RFC status for its condition (401, 404, 405, 413, 415)',
    level: 'SHOULD',
    source: spec('Create plant, Responses; Errors'),
    requirement:
      'Responses: 200 Plant response, application/json; 400 Unexpected error, application/json. (Other statuses: "not shown"; an undeclared status is non-strict.)',
    grading:
      'SHOULD: the specification says other statuses are "not shown", so an undeclared status other than the one an RFC gives the condition is a choice: non-strict, never fail.',
    evidence: 'Every answer of the run with a declared status or an RFC one (401, 404, 405, 413, 415).',
    verifyEach: (ex, ctx) => {
      if (!ex.response) return skip;
      const status = ex.response.status;
      if (declared(ctx.model, ex)) return { outcome: 'pass' };
      if (RFC_STATUSES.includes(status)) return { outcome: 'pass' };
      const op = operationOf(ctx.model, ex.request) ?? ctx.model.create;
      return {
        outcome: 'non-strict',
        expected: `${op ? `one of ${[...op.responses.keys()].join(', ')} (declared for ${op.method} ${op.path}) or ` : ''}${RFC_STATUSES.join(', ')} (RFC)`,
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
      if (!validate) return { outcome: 'pass' };
      const name = refName(media.schema?.schema) ?? `${media.contentType} body`;
      const grade = d ? 'fail' : 'non-strict'; // the specification binds the body of declared statuses only
      const parsed = parseExact(ex.response.bodyText);
      if (!parsed.ok) return { outcome: grade, expected: `a JSON ${name}`, actual: `not JSON: ${describe(ex)}` };
      const problems = validate(parsed.value);
      return problems.length === 0
        ? { outcome: 'pass' }
        : {
            outcome: grade,
            expected: `a valid ${name}`,
            actual: `${problems.map((v) => describeViolation(v)).join('; ')}: ${describe(ex)}`,
            facts: { status: ex.response.status, pointer: problems[0]!.instancePath || '/' },
          };
    },
  },
];
