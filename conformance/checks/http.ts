// PS-HTTP-*: HTTP semantics around the operation: other methods and unknown
// paths, and every way RFC 9110 and RFC 9112 let a client write the same
// request (media type, chunked body, field names, Accept).
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { writeJson } from '../cases/json-writing.js';
import { describe, each, noAnswer, serverFailure } from './grades.js';
import { caseOf, createRequest, validPlant, type Body } from './requests.js';
import { plantWithSpecials, RULE1, sameAnswerCheck } from './same-answer.js';
import { rfc } from './sources.js';
import type { Case, Check, CheckContext } from './types.js';
import { createOf } from '../model/spec-model.js';

/** The ways RFC 9110 lets a client write the request's media type, for the document's request content type. */
function mediaTypeVariants(declared: string): Array<[contentType: string, note: string]> {
  const essence = mediaTypeEssence(declared) ?? declared;
  const capitalized = essence.replace(/(^|[/.+-])([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
  const variants: Array<[string, string]> = [
    [essence.toUpperCase(), 'type and subtype in upper case'],
    [capitalized, 'type and subtype capitalized'],
  ];
  // RFC 8259 §11: no charset parameter is defined for application/json;
  // "adding one really has no effect on compliant recipients".
  if (essence === 'application/json' || essence.endsWith('+json')) {
    variants.push(
      [`${essence}; charset=utf-8`, 'charset=utf-8 parameter'],
      [`${essence};charset=UTF-8`, 'charset=UTF-8 without a space'],
      [`${essence} ; charset="utf-8"`, 'space before ";" and a quoted parameter value'],
    );
  }
  return variants;
}

const mediaTypeWriting = sameAnswerCheck({
  id: 'PS-HTTP-003',
  family: 'the media type written another way',
  title: 'The request media type in any letter case, with a charset=utf-8 parameter, is accepted',
  source: rfc(9110, '§8.3.1 Media Type', 'section-8.3.1'),
  requirement: `The type and subtype tokens are case-insensitive. media-type = type "/" subtype parameters; parameters = *( OWS ";" OWS [ parameter ] ); parameter-value = ( token / quoted-string ). RFC 8259 §11: No "charset" parameter is defined for this registration. Adding one really has no effect on compliant recipients. ${RULE1}`,
  cases: (ctx) =>
    mediaTypeVariants(createOf(ctx.model).requestContentTypes[0]!).map(([contentType, note]) => {
      const sent = validPlant(ctx);
      return {
        request: createRequest(ctx, sent, { contentType, note: `Content-Type: ${contentType} (${note})` }),
        sent,
      };
    }),
});

/** The body's bytes cut into pieces, one cut inside the first character written in more than one byte (where there is one). */
function piecesOf(body: Buffer): Buffer[] {
  const multibyte = body.findIndex((b) => b >= 0x80);
  const cuts =
    multibyte > 0
      ? [multibyte + 1, Math.max(multibyte + 2, Math.floor(body.length * 0.75))]
      : [Math.floor(body.length / 3), Math.floor((2 * body.length) / 3)];
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < body.length), body.length]) {
    if (cut > from) out.push(body.subarray(from, cut));
    from = cut;
  }
  return out;
}

const chunked = sameAnswerCheck({
  id: 'PS-HTTP-004',
  family: 'a chunked body',
  title: 'A body sent with the chunked transfer coding is accepted, in one chunk or cut inside a UTF-8 character',
  source: rfc(9112, '§7.1 Chunked Transfer Coding', 'section-7.1'),
  requirement: `A recipient MUST be able to parse and decode the chunked transfer coding. (RFC 9112 §6.1: a request body may be sent with Transfer-Encoding instead of Content-Length.) ${RULE1}`,
  cases: (ctx) => {
    const whole = validPlant(ctx);
    const cut = plantWithSpecials(ctx);
    const text = (b: Body) => Buffer.from(writeJson(b, { space: () => '' }), 'utf8');
    const chunkedCase = (sent: Body, chunks: Buffer[], note: string): Case<Body> => ({
      request: { ...createRequest(ctx, { raw: Buffer.concat(chunks) }, { note }), chunks },
      sent,
    });
    const pieces = piecesOf(text(cut));
    return [
      chunkedCase(whole, [text(whole)], 'Transfer-Encoding: chunked, one chunk'),
      chunkedCase(cut, pieces, `Transfer-Encoding: chunked, ${pieces.length} chunks cut inside a multibyte character`),
    ];
  },
});

const fieldNameCase = sameAnswerCheck({
  id: 'PS-HTTP-005',
  family: 'field names in another letter case',
  title: 'Header field names in any letter case are accepted (AUTHORIZATION, Content-Type)',
  source: rfc(9110, '§5.1 Field Names', 'section-5.1'),
  requirement: `Field names are case-insensitive. ${RULE1}`,
  cases: (ctx) =>
    [
      (n: string) => n.toUpperCase(),
      (n: string) => n.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase()),
    ].map((rename, i) => {
      const sent = validPlant(ctx);
      const request = createRequest(ctx, sent, {
        note: i === 0 ? 'field names in upper case' : 'field names capitalized',
      });
      return {
        request: {
          ...request,
          headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [rename(k), v])),
        },
        sent,
      };
    }),
});

/**
 * Accept values that allow the answer the document declares: content
 * negotiation (RFC 9110 §12) then has nothing to refuse, and rule 1 binds
 * the answer as without them.
 */
function acceptVariants(declared: string): Array<[accept: string, note: string]> {
  const [type] = declared.split('/');
  return [
    [declared, 'the declared media type'],
    ['*/*', 'any media type'],
    [`${type}/*`, 'any subtype of the declared type'],
    [`text/html;q=0.9, ${declared};q=0.5`, 'the declared media type with a lower weight than another'],
    [
      `${declared.toUpperCase()}; charset=utf-8, text/plain;q=0.1`,
      'the declared media type in upper case with a parameter',
    ],
  ];
}

const acceptAllowsJson = sameAnswerCheck({
  id: 'PS-HTTP-006',
  family: 'an Accept header',
  title:
    'An Accept header that allows the declared media type changes nothing (application/json, */*, weights, letter case)',
  source: rfc(9110, '§12.5.1 Accept', 'section-12.5.1'),
  requirement: `The "Accept" header field can be used by user agents to specify their preferences regarding response media types. ... media-range = ( "*/*" / ( type "/" "*" ) / ( type "/" subtype ) ) parameters. (An Accept that allows the declared answer's media type leaves nothing to negotiate.) ${RULE1}`,
  cases: (ctx) =>
    acceptVariants(createOf(ctx.model).success.contentTypes[0] ?? 'application/json').map(([accept, note]) => {
      const sent = validPlant(ctx);
      const request = createRequest(ctx, sent, { note: `Accept: ${accept} (${note})` });
      return { request: { ...request, headers: { ...request.headers, accept } }, sent };
    }),
});

export const httpChecks: Check[] = [
  mediaTypeWriting,
  chunked,
  fieldNameCase,
  acceptAllowsJson,
  {
    kind: 'exchange',
    id: 'PS-HTTP-001',
    family: 'other methods',
    title: 'Other methods on the operation path answer 405 with Allow',
    level: 'MUST',
    source: rfc(9110, '§15.5.6 405 Method Not Allowed', 'section-15.5.6'),
    requirement:
      "The origin server MUST generate an Allow header field in a 405 response containing a list of the target resource's currently supported methods.",
    grading:
      'MUST where the target answers 405: the Allow header is required (RFC 9110 §15.5.6), and a 5xx fails. Answering another method 405 at all is our decision (other operations are "not shown"): a 404 or a 200 is non-strict, as is an Allow that omits POST.',
    evidence: "Each other method answered 405 with an Allow that lists the operation's method.",
    cases: (ctx) =>
      ['GET', 'PUT', 'PATCH', 'DELETE']
        .filter((m) => !ctx.model.operations.some((op) => op.path === createOf(ctx.model).path && op.method === m))
        .map((method) => caseOf({ ...createRequest(ctx, undefined, { contentType: null, note: method }), method })),
    verify: (cases, ctx) =>
      each(cases, ({ exchange: ex }) => {
        const failed = serverFailure(ex);
        if (failed) return failed;
        const missing = noAnswer(ex);
        if (missing) return missing;
        const r = ex.response!;
        // RFC 9110 §15.5.6: Allow lists the methods the resource supports; the check needs the operation's among them.
        const expected = `405 with an Allow header that lists ${createOf(ctx.model).method} among the methods of ${createOf(ctx.model).path}`;
        if (r.status === 405) {
          const allow = r.headers.allow;
          if (allow === undefined) return { outcome: 'fail', expected, actual: `no Allow header: ${describe(ex)}` };
          const listed = allow.split(',').map((m) => m.trim().toUpperCase());
          return listed.includes(createOf(ctx.model).method)
            ? { outcome: 'pass' }
            : { outcome: 'non-strict', expected, actual: describe(ex) };
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
    family: 'unknown paths',
    title: 'Unknown paths answer 404',
    level: 'SHOULD',
    source: rfc(9110, '§15.5.5 404 Not Found', 'section-15.5.5'),
    requirement:
      'The 404 (Not Found) status code indicates that the origin server did not find a current representation for the target resource or is not willing to disclose that one exists.',
    grading:
      "SHOULD: no source makes 404 binding for a path the document does not show: another answer below 500 is non-strict; a 5xx fails (RFC 9110 §15.6). A path that matches one of the document's path templates (POST /plants/xyz beside /plants/{id}) is known: 405 with Allow passes there (RFC 9110 §15.5.6).",
    evidence: 'Each unknown path answered 404.',
    cases: (ctx) => {
      const random = ctx.ids.bytes('unknown path', 6).toString('hex');
      return [
        caseOf({
          ...createRequest(ctx, undefined, { contentType: null, note: 'GET an unknown path' }),
          method: 'GET',
          path: `/no-such-path-${random}`,
        }),
        caseOf({
          ...createRequest(ctx, { raw: '{}' }, { note: 'POST below the operation path' }),
          path: `${createOf(ctx.model).path}/${random}`,
        }),
      ];
    },
    verify: (cases, ctx) =>
      each(cases, ({ exchange: ex }) => {
        const failed = serverFailure(ex);
        if (failed) return failed;
        const missing = noAnswer(ex);
        if (missing) return missing;
        if (ex.response!.status === 404) return { outcome: 'pass' };
        // A path the document declares (POST /plants/{id} beside GET /plants/{id}) is known: 405 with Allow is right (RFC 9110 §15.5.6).
        if (
          ex.response!.status === 405 &&
          ex.response!.headers.allow !== undefined &&
          declaresPath(ctx, ex.request.path)
        )
          return { outcome: 'pass' };
        return {
          outcome: 'non-strict',
          expected: declaresPath(ctx, ex.request.path)
            ? '404, or 405 with Allow (the document declares this path)'
            : '404',
          actual: describe(ex),
        };
      }),
  },
];

/** Whether a path matches one of the document's path templates (`/plants/{id}` matches `/plants/ab12`). */
function declaresPath(ctx: CheckContext, path: string): boolean {
  const segments = path.split('?')[0]!.split('/');
  return ctx.model.operations.some((op) => {
    const template = op.path.split('/');
    return (
      template.length === segments.length &&
      template.every((t, i) => (/^\{[^}]+\}$/.test(t) ? segments[i] !== '' : t === segments[i]))
    );
  });
}
