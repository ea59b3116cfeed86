// HTTP semantics around the operation: other methods and unknown paths.
import { randomBytes } from 'node:crypto';
import { describe, each, noAnswer } from './grades.js';
import { caseOf, createRequest } from './requests.js';
import { serverFailure } from './robustness.js';
import { rfc } from './sources.js';
import type { Check } from './types.js';

export const httpChecks: Check[] = [
  {
    kind: 'exchange',
    id: 'PS-HTTP-001',
    title: 'Other methods on the operation path answer 405 with Allow',
    level: 'MUST',
    source: rfc(9110, '§15.5.6 405 Method Not Allowed', 'section-15.5.6'),
    requirement:
      'The origin server MUST generate an Allow header field in a 405 response containing a list of the target resource\'s currently supported methods.',
    grading: 'MUST where the target answers 405: the Allow header is required (RFC 9110 §15.5.6), and a 5xx fails. Answering another method 405 at all is our decision (other operations are "not shown"): a 404 or a 200 is non-strict, as is an Allow that omits POST.',
    evidence: 'Each other method answered 405 with an Allow that lists the operation\'s method.',
    cases: (ctx) =>
      ['GET', 'PUT', 'PATCH', 'DELETE']
        .filter((m) => !ctx.model.operations.some((op) => op.path === ctx.model.create.path && op.method === m))
        .map((method) => caseOf({ ...createRequest(ctx, undefined, { contentType: null, note: method }), method })),
    verify: (cases, ctx) =>
      each(cases, ({ exchange: ex }) => {
        const failed = serverFailure(ex);
        if (failed) return failed;
        const missing = noAnswer(ex);
        if (missing) return missing;
        const r = ex.response!;
        const expected = `405 with Allow: ${ctx.model.create.method}`;
        if (r.status === 405) {
          const allow = r.headers.allow;
          if (allow === undefined) return { outcome: 'fail', expected, actual: `no Allow header: ${describe(ex)}` };
          const listed = allow.split(',').map((m) => m.trim().toUpperCase());
          return listed.includes(ctx.model.create.method) ? { outcome: 'pass' } : { outcome: 'non-strict', expected, actual: describe(ex) };
        }
        // 405 is our decision (docs/server.md); another answer (a GET /plants
        // that lists plants, say) is allowed by the specification, whose other
        // operations are "not shown". A declared response binds only the
        // operation that declares it.
        return { outcome: 'non-strict', expected, actual: describe(ex) };
      }),
  },
  {
    kind: 'exchange',
    id: 'PS-HTTP-002',
    title: 'Unknown paths answer 404',
    level: 'SHOULD',
    source: rfc(9110, '§15.5.5 404 Not Found', 'section-15.5.5'),
    requirement: 'The 404 (Not Found) status code indicates that the origin server did not find a current representation for the target resource or is not willing to disclose that one exists.',
    grading: 'SHOULD: no source makes 404 binding for a path the document does not show: another answer below 500 is non-strict; a 5xx fails (RFC 9110 §15.6).',
    evidence: 'Each unknown path answered 404.',
    cases: (ctx) => {
      const random = randomBytes(6).toString('hex');
      return [
        caseOf({ ...createRequest(ctx, undefined, { contentType: null, note: 'GET an unknown path' }), method: 'GET', path: `/no-such-path-${random}` }),
        caseOf({ ...createRequest(ctx, { raw: '{}' }, { note: 'POST below the operation path' }), path: `${ctx.model.create.path}/${random}` }),
      ];
    },
    verify: (cases) =>
      each(cases, ({ exchange: ex }) => {
        const failed = serverFailure(ex);
        if (failed) return failed;
        const missing = noAnswer(ex);
        if (missing) return missing;
        return ex.response!.status === 404 ? { outcome: 'pass' } : { outcome: 'non-strict', expected: '404', actual: describe(ex) };
      }),
  },
];
