// PS-OP-*: every operation the document declares, create included. Valid
// requests drawn from the document (each parameter, each media type of the
// body), right after a create where the operation acts on a stored item;
// requests invalid in one place (credentials per operation: op-security.ts).
// A failing case names its operation, and the verdict says per operation
// what passed, so that the IDs stay the same as documents change.
import { invalidParameterValues, outOfFormatValues } from '../cases/parameter-values.js';
import { brokenBodies } from '../cases/operation-bodies.js';
import { operationName, type OperationModel } from '../model/operation-model.js';
import { describe } from './grades.js';
import { followCalls, idParameter, itemResource, startWith, type Call, type OpSent } from './op-cases.js';
import { gradeBoundary, gradeRefused, gradeValid, perOperation } from './op-grades.js';
import {
  allNames,
  byName,
  callsOf,
  eachOperation,
  needsItem,
  validCalls,
  validCases,
  whyNoRequest,
} from './op-calls.js';
import { callTo, writable, type CallOptions } from './op-requests.js';
import { rfc } from './sources.js';
import type { CheckContext, ExchangeCheck, Verdict } from './types.js';

const OPENAPI_RESPONSES = {
  document: 'OpenAPI 3.1',
  section: '§4.8.16 Responses Object',
  url: 'https://spec.openapis.org/oas/v3.1.0#responses-object',
};

const NOT_IMPLEMENTED = new Set([404, 405, 501]);

const implemented: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-OP-001',
  title:
    'Every operation the document declares is implemented: not every valid request is answered 404, 405 or 501, even right after a create',
  level: 'MUST',
  source: OPENAPI_RESPONSES,
  requirement:
    'The Responses Object: "A container for the expected responses of an operation. The container maps a HTTP response code to the expected response." A declared operation answers its valid requests with the responses the document declares for them; an operation that answers every one 404 (RFC 9110 §15.5.5: "did not find a current representation for the target resource"), 405 or 501 is not there.',
  grading:
    "MUST: the document's declared responses are binding for the operations it declares (the project's shared decisions). An operation whose every valid request, each sent right after a create of the plant it acts on, is answered 404, 405 or 501 fails. An operation that acts on a plant in a document without a create: skip for it (an unknown id is rightly 404).",
  evidence:
    'For each operation, its valid requests (required parameters, then every parameter, each media type of its body) each after a create of the plant it acts on; at least one answered otherwise than 404, 405 or 501 for a pass.',
  cases: (ctx) => validCases(ctx),
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const graded: Array<{ operation: string; index?: number; verdict: Verdict }> = [];
    const byOp = new Map<string, ReturnType<typeof callsOf>>();
    for (const c of callsOf(cases)) byOp.set(c.sent.operation, [...(byOp.get(c.sent.operation) ?? []), c]);
    for (const op of ctx.model.operations) {
      const name = operationName(op);
      const calls = (byOp.get(name) ?? []).filter((c) => c.exchange.response);
      if (calls.length === 0) continue;
      if (!calls.every((c) => NOT_IMPLEMENTED.has(c.exchange.response!.status))) {
        graded.push({ operation: name, verdict: { outcome: 'pass' } });
        continue;
      }
      const itemWithoutCreate = !itemResource(ctx, op)?.create && idParameter(ctx, op) !== undefined;
      const statuses = [...new Set(calls.map((c) => c.exchange.response!.status))].join(', ');
      graded.push({
        operation: name,
        index: calls[0]!.index,
        verdict: itemWithoutCreate
          ? {
              outcome: 'skip',
              actual: `${name} acts on a stored item and the document has no create to store one: its ${statuses} may be right`,
            }
          : {
              outcome: 'fail',
              expected: `${name} answers a valid request with a status it declares (${[...op.responses.keys()].join(', ')})`,
              actual: `${name} is not implemented: each of its ${calls.length} valid request(s)${needsItem(ctx, op) ? ', each right after a create,' : ''} answered ${statuses}: ${describe(calls[0]!.exchange)}`,
              cause: `a declared operation (${name}) is not implemented`,
            },
      });
    }
    return perOperation(graded, allNames(ctx), (name) => whyNoRequest(ctx, name));
  },
};

const validAnswers: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-OP-002',
  title:
    'A valid request to any operation is answered with a declared success status, its declared content type and a body that validates',
  level: 'MUST',
  source: OPENAPI_RESPONSES,
  requirement:
    "The Responses Object maps a HTTP response code to the expected response; the Media Type Object's schema \"defining the content of the request, response, parameter, or header\". A valid request (every parameter and body valid by the document's schemas) is answered with a declared 2xx, with a declared media type and a body that its schema accepts; any answer with a declared status is held to that status's declaration.",
  grading:
    "MUST: a 5xx, a 2xx the document does not declare, a declared status with another content type or a body its schema refuses, or a refusal (400, 401, 422…) of a valid request fails. A 404 (an item the state checks grade), 403 (authorization per operation) or 409 (a conflict with stored state) is non-strict. A parameter at a boundary of its range is a request of its own: graded the same where a keyword of its schema writes that bound (minimum, maximum…), but a 4xx is non-strict where only its format implies the bound (int32's −2147483648: the document says nothing of what that value means); a 5xx or a dropped connection at any boundary fails.",
  evidence:
    "The same requests as PS-OP-001, each parameter typical (its example, its default, else a small value inside its bounds, never a boundary where another value is allowed), then one request per boundary of each numeric parameter (the least and the greatest value its schema allows, the others typical): each answer's status, content type and body against the responses declared for its operation and status.",
  cases: (ctx) => validCases(ctx, {}, (c, op, chain) => validCalls(c, op, chain, {}, true)),
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const ops = byName(ctx);
    const graded = callsOf(cases).map((c) => {
      const op = ops.get(c.sent.operation)!;
      return {
        operation: c.sent.operation,
        index: c.index,
        verdict: c.sent.boundary ? gradeBoundary(op, c.exchange, c.sent.boundary) : gradeValid(op, c.exchange),
      };
    });
    // A create that prepares a call and is refused ends its chain: the create checks grade it.
    return perOperation(graded, allNames(ctx), (name) => whyNoRequest(ctx, name));
  },
};

/** Requests to `op` invalid in one place: a parameter's value its schema refuses, a required parameter or body left out, a body broken in one place. */
function invalidCalls(ctx: CheckContext, op: OperationModel): Call[] {
  const out: Call[] = [];
  const call = (what: string, opts: CallOptions) => out.push(callTo(ctx, op, what, opts));
  for (const p of op.parameters) {
    const first = invalidParameterValues(ctx.model, p, 3);
    for (const v of first)
      call(`the ${p.in} parameter ${p.name} ${v.label} (${JSON.stringify(v.text)})`, { set: { [p.name]: v.text } });
    // Out of its format: every one, one at a time (a server that reads the value into a machine integer wraps it).
    for (const v of outOfFormatValues(ctx.model, p).filter((o) => !first.some((f) => f.text === o.text)))
      out.push({
        ...callTo(ctx, op, `the ${p.in} parameter ${p.name} ${v.label}`, { set: { [p.name]: v.text } }),
        outOfFormat: `${p.name}=${v.text}`,
      });
    if (p.required && p.in !== 'path') call(`without its required ${p.in} parameter ${p.name}`, { omit: p.name });
  }
  for (const media of op.requestBodies.filter(writable)) {
    for (const broken of brokenBodies(ctx.model, media, [], 2))
      call(`a ${media.contentType} body ${broken.label}`, {
        body: { contentType: media.contentType, value: broken.body },
      });
  }
  if (op.requestBodyRequired) call('without its required body', { body: null });
  return out;
}

const refused: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-OP-003',
  title:
    'A request to any operation invalid in one place (a parameter, a required parameter or body left out, the body) is refused with a 4xx, never accepted, never a 5xx',
  level: 'MUST',
  source: rfc(9110, '§15.5.1 400 Bad Request', 'section-15.5.1'),
  requirement:
    "The 400 (Bad Request) status code indicates that the server cannot or will not process the request due to something that is perceived to be a client error. (OpenAPI 3.1 §4.8.12: a parameter's schema \"defining the type used for the parameter\"; a request the document's schemas refuse is not one of the operation's requests.)",
  grading:
    "MUST: a request the document's schemas refuse in one place, answered 2xx (served as if valid) or 5xx (RFC 9110 §15.6: the server erred, not the client), or a dropped connection, fails; a declared 4xx whose body or content type departs from its declaration fails. The RFC's 400 or 404 where the document declares neither passes; another undeclared 4xx (422, 405…) is non-strict, as is a 400 without the document's error record.",
  evidence:
    "For each operation: each parameter with up to three values its schema refuses (not a number, a fraction for an integer, one past its range or bounds…), then each numeric parameter outside its format, one value at a time, where its schema refuses the value (one past the int32 and the int64 range on both sides, 1e10 and 1e19, a fraction: a server that reads it into a machine integer wraps it; the value is named in the cause), each required parameter left out, each writable body broken in one place (checked by the document's validator), a required body left out; each answered 4xx for a pass.",
  cases: (ctx) =>
    eachOperation(
      ctx,
      'no operation of the document has a parameter or body the harness can make invalid',
      (op, out) => {
        for (const call of invalidCalls(ctx, op)) out.push(startWith(out.length, call));
      },
    ),
  verify: (cases, ctx) => {
    const ops = byName(ctx);
    const graded = callsOf(cases).map((c) => ({
      operation: c.sent.operation,
      index: c.index,
      verdict: gradeRefused(ctx, ops.get(c.sent.operation)!, c.exchange, c.sent.label, c.sent.outOfFormat),
    }));
    return perOperation(graded, allNames(ctx), (name) => whyNoRequest(ctx, name));
  },
};

// PS-OP-004 to 007, each operation's security requirement, are in op-security.ts.
export const opChecks = [implemented, validAnswers, refused];
