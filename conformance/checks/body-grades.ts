// What an answer to a body must be: a valid body accepted (200 with the plant
// carried back), invalid data rejected with the declared Error, and whether
// two refusals are the same answer to a duplicate id.
import type { Exchange } from './exchange.js';
import { Numeral, parseExact, sameValue, toJson, tryParseJson, type JsonValue } from '../model/json.js';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { describeViolation } from '../../spec/validator.js';
import { linearPattern } from '../../spec/linear-pattern.js';
import { describe, noAnswer } from './grades.js';
import { bodyNoun, schemaNoun, validNoun } from './declared.js';
import type { CheckContext, Facts, Verdict } from './types.js';
import { createOf } from '../model/spec-model.js';
import { errorCovers, errorStatusText } from '../model/create-model.js';
import { declaredResponse, mediaOf, refName } from '../model/operation-model.js';
import { flattenObject } from '../model/schema-shape.js';

/** How a check that sends a valid NewPlant is graded, and what a pass needs (docs/checks.md, audit). */
export const ACCEPT_GRADING = `MUST: the body is a valid NewPlant by the document's schema (JSON Schema 2020-12), so rule 1 binds the answer: anything but 200 with a Plant that carries back what was sent fails.`;
export const ACCEPT_EVIDENCE = `200, the declared content type, a body valid against the success schema that carries back every property it declares as sent (exact numbers), for a body the document's validator accepts; a body the document rules out is not sent, and when none is left the check is skip.`;

/** The media type of the answer ("type/subtype", lower case), or '' when it has none. */
function answerMediaType(ex: Exchange): string {
  return mediaTypeEssence(ex.response!.headers['content-type']) ?? '';
}

/** The answer's body as JSON with its numbers exact (Numerals), as the document's validators read them: an int64 or a long decimal keeps every digit. */
function jsonBody(ex: Exchange): { ok: true; value: unknown } | { ok: false } {
  return parseExact(ex.response!.bodyText);
}

/**
 * Plant Store specification, Create plant rule 1: "When the request body is
 * a valid NewPlant record, then the service answers 200 with a Plant
 * record", content type application/json, carrying back the fields sent that
 * the answer's schema has (the document's name and tag).
 */
export function gradeAccepted(ctx: CheckContext, ex: Exchange, sent: Record<string, JsonValue>): Verdict {
  const missing = noAnswer(ex);
  if (missing) return missing;
  const op = createOf(ctx.model);
  const r = ex.response!;
  const expect = `${op.success.status} ${op.success.contentTypes.join(' or ')} with ${validNoun(op.success)} carrying back what was sent`;
  const valid = `a valid ${op.method} ${op.path}`;
  // The Actual says what came back (its status first) and, where that is not
  // the status or the content type it shows, what is wrong with it; the cause
  // says it in words that are the same for every check it happens to.
  const fail = (cause: string, why?: string, facts: Facts = {}): Verdict => ({
    outcome: 'fail',
    expected: expect,
    actual: why ? `${why}: ${describe(ex)}` : describe(ex),
    cause,
    facts: { status: r.status, ...facts },
  });
  if (String(r.status) !== op.success.status) return fail(`${valid} is answered ${r.status}, not ${op.success.status}`);
  const mediaType = answerMediaType(ex);
  if (!op.success.contentTypes.includes(mediaType)) {
    return fail(
      `${valid} is answered with content-type ${mediaType || '(none)'}, not ${op.success.contentTypes.join(' or ')}`,
      undefined,
      { header: { name: 'content-type', value: r.headers['content-type'] ?? null } },
    );
  }
  const parsed = jsonBody(ex);
  if (!parsed.ok) return fail(`the answer to ${valid} is not JSON`, 'body is not JSON');
  const problems = op.success.validate?.(parsed.value) ?? [];
  if (problems.length > 0) {
    return fail(
      `the answer to ${valid} is not ${validNoun(op.success)}`,
      `body does not validate against ${schemaNoun(op.success)}: ${problems.map((v) => describeViolation(v)).join('; ')}`,
      {
        pointer: problems[0]!.instancePath || '/',
      },
    );
  }
  const body = (isRecord(parsed.value as JsonValue) ? parsed.value : {}) as Record<string, JsonValue>;
  // The answer carries back what was sent (the seed: "returns the stored plant record"): every property the
  // answer's schema declares, as sent, numbers as exact decimals, members in any order. A property it does not
  // declare binds nothing (the document describes the Plant by what it declares): echoed otherwise than
  // sent (an id rounded by a JavaScript server) is non-strict.
  let undeclared: Verdict | undefined;
  for (const [name, value] of Object.entries(sent)) {
    const declared = declaredByAnswer(ctx, name);
    if (!Object.prototype.hasOwnProperty.call(body, name)) {
      if (declared)
        return fail(
          `the answer to ${valid} does not carry back ${name} as sent`,
          `no ${name} (${shortJson(value)} was sent)`,
          { pointer: `/${name}`, expectedValue: toJson(value) },
        );
      continue;
    }
    if (!sameValue(value, body[name]!)) {
      const facts = { pointer: `/${name}`, expectedValue: toJson(value), actualValue: toJson(body[name]!) };
      if (declared)
        return fail(
          `the answer to ${valid} does not carry back ${name} as sent`,
          `${name} ${shortJson(body[name]!)} instead of ${shortJson(value)}`,
          facts,
        );
      undeclared ??= {
        outcome: 'non-strict',
        expected: `${name} as sent, or no ${name} (${op.success.schemaName ? `the document's ${op.success.schemaName}` : schemaNoun(op.success)} does not declare it, so nothing binds it)`,
        actual: `${name} ${shortJson(body[name]!)} instead of ${shortJson(value)}`,
        cause: `the answer to ${valid} echoes ${name}, which its schema does not declare, otherwise than sent`,
        facts,
      };
    }
  }
  if (undeclared) return undeclared;
  for (const { name } of op.answer.fields) {
    if (
      !(name in sent) &&
      Object.prototype.hasOwnProperty.call(body, name) &&
      !op.request.required.includes(name) &&
      op.request.fields.some((x) => x.name === name)
    ) {
      // The specification does not say what an unsent optional field reads
      // back as; the reference server sends no key (docs/server.md, behaviour).
      return {
        outcome: 'non-strict',
        expected: `no ${name} when none was sent (a reference server decision, docs/server.md)`,
        actual: describe(ex),
        cause: `the answer to ${valid} without ${name} has a ${name}`,
      };
    }
  }
  return { outcome: 'pass' };
}

const isRecord = (v: JsonValue): v is Record<string, JsonValue> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Numeral);

/** JSON text of a value, shortened for a message. */
function shortJson(v: JsonValue): string {
  const text = toJson(v);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** Whether the success schema (the document's Plant) declares a property: by name, or by one of its patternProperties. */
function declaredByAnswer(ctx: CheckContext, name: string): boolean {
  const answer = createOf(ctx.model).answer;
  if (answer.fields.some((f) => f.name === name)) return true;
  return answer.patterns.some((pattern) => {
    try {
      // On the validators' linear-time engine: V8's backtracks, and a document's `^([\s\S]+)+X$` would hang the run.
      return linearPattern(pattern).test(name);
    } catch {
      return false;
    }
  });
}

/**
 * Whether the answer is the declared error record: a declared content type
 * (any, `application/problem+json` or another `+json` included) and a body
 * valid against the schema declared for that content type.
 */
export function errorBodyProblem(ctx: CheckContext, ex: Exchange): string | undefined {
  const err = createOf(ctx.model).error;
  const ct = answerMediaType(ex);
  const media = mediaOf(err, ct);
  if (!media)
    return `content type ${ct || ex.response!.headers['content-type'] || '(none)'} instead of ${err.contentTypes.join(' or ')}`;
  const parsed = jsonBody(ex);
  if (!parsed.ok) return 'body is not JSON';
  const problems = media.validate?.(parsed.value) ?? [];
  return problems.length > 0
    ? `body is not ${validNoun({ schemaName: refName(media.schema?.schema), status: err.status })}: ${problems.map((v) => describeViolation(v)).join('; ')}`
    : undefined;
}

/**
 * Rejection of invalid data: a 4xx. The declared error status must carry the
 * declared Error body (Plant Store specification, Errors rule 1). Another
 * 4xx is a rejection the specification does not declare: non-strict, unless
 * it is `fitting` (the RFC status for the condition, e.g. 415) and carries an
 * Error body.
 */
export function gradeRejected(ctx: CheckContext, ex: Exchange, fitting: number[] = []): Verdict {
  const missing = noAnswer(ex);
  if (missing) return missing;
  const create = createOf(ctx.model);
  const err = create.error;
  const status = ex.response!.status;
  const expected = `a rejection: ${[errorStatusText(err), ...fitting.map(String)].join(' or ')} with ${bodyNoun(err)}`;
  const facts: Facts = { status };
  if (status < 400 || status > 499)
    return {
      outcome: 'fail',
      expected,
      actual: describe(ex),
      cause: `invalid data is answered ${status}, not rejected with a 4xx`,
      facts,
    };
  const problem = errorBodyProblem(ctx, ex);
  if (errorCovers(create, status))
    return problem
      ? {
          outcome: 'fail',
          expected,
          actual: `${problem}: ${describe(ex)}`,
          cause: `the ${status} answer to invalid data is not ${validNoun(err)}`,
          facts,
        }
      : { outcome: 'pass' };
  if (fitting.includes(status) && !problem) return { outcome: 'pass' };
  return {
    outcome: 'non-strict',
    expected,
    actual: `${problem ? `${problem}; ` : ''}undeclared ${describe(ex)}`,
    cause: `invalid data is answered ${status}, a status the document does not declare`,
    facts,
  };
}

/**
 * The members of a refusal that say what it is, by which two refusals are
 * compared (sameDuplicateAnswer): those the schema the document declares for
 * its status and media type names (the Error's `error` and `message`; a
 * problem's `type`, `title`, `status` and `detail`), where it names any.
 * Never `instance` in problem details: RFC 9457 §3.1.5 makes it identify
 * "the specific occurrence of the problem", which two refusals never share.
 */
export function refusalMembers(ctx: CheckContext, ex: Exchange): string[] | undefined {
  const create = ctx.model.create;
  if (!create || !ex.response) return undefined;
  const ct = answerMediaType(ex);
  const declared = declaredResponse(create, ex.response.status);
  const media = declared && mediaOf(declared, ct);
  const names = media?.schema
    ? flattenObject(ctx.model.doc, media.schema.schema, media.schema.pointer).fields.map((f) => f.name)
    : [];
  return names.length > 0 ? names : undefined;
}

/**
 * Whether a refusal of a body with id `aId` is the target's answer to a
 * known duplicate `bId`: the same 4xx and the same body, member by member
 * (`members` only, where given: refusalMembers), its strings compared once
 * each id is replaced by `{id}`, in nested members too (with `numbers: 'any'`, any other number
 * too: a server may print an id it read as a double, 9223372036854776000),
 * whatever the JSON media type (the Error record, problem details,
 * vnd.error…). 'same' when a string names the id (then it is that answer),
 * 'indistinct' when none does (it may be), 'different' otherwise.
 */
export function sameDuplicateAnswer(
  a: Exchange,
  aId: bigint | string,
  b: Exchange,
  bId: bigint | string,
  numbers: 'exact' | 'any' = 'exact',
  members?: readonly string[],
): 'same' | 'indistinct' | 'different' {
  if (!a.response || !b.response || a.response.status !== b.response.status) return 'different';
  if (a.response.status < 400 || a.response.status > 499) return 'different';
  const pa = tryParseJson(a.response.bodyText);
  const pb = tryParseJson(b.response.bodyText);
  if (!pa.ok || !pb.ok) return a.response.bodyText === b.response.bodyText ? 'indistinct' : 'different';
  if (!isPlainObject(pa.value) || !isPlainObject(pb.value)) return 'different';
  const ea = pa.value;
  const eb = pb.value;
  const problem = answerMediaType(a) === 'application/problem+json';
  const compared = (members ?? [...new Set([...Object.keys(ea), ...Object.keys(eb)])]).filter(
    (name) => !(problem && name === 'instance'),
  );
  // 'exact': a message must name the id exactly, evidence that the target holds that very id; 'any': a
  // number anywhere counts, for a refusal that must not even look like a duplicate's.
  const masked = (message: string, id: bigint | string) => {
    const named = message.split(String(id)).join('{id}');
    return numbers === 'any' ? named.replace(/-?\d+(\.\d+)?(e[+-]?\d+)?/gi, '{id}') : named;
  };
  let namesId = false;
  let strings = 0;
  // Member by member, into nested objects and arrays (an error record under a member of its own,
  // {"error": {"code": …, "message": …}}): every string masked, everything else equal.
  const same = (va: unknown, vb: unknown): boolean => {
    if (typeof va === 'string' && typeof vb === 'string') {
      strings++;
      const ma = masked(va, aId);
      const mb = masked(vb, bId);
      if (mb.includes('{id}')) namesId = true;
      return ma === mb;
    }
    if (isPlainObject(va) && isPlainObject(vb))
      return [...new Set([...Object.keys(va), ...Object.keys(vb)])].every((k) => same(va[k], vb[k]));
    if (Array.isArray(va) && Array.isArray(vb)) return va.length === vb.length && va.every((x, i) => same(x, vb[i]));
    return JSON.stringify(va) === JSON.stringify(vb);
  };
  for (const name of compared) if (!same(ea[name], eb[name])) return 'different';
  // A refusal with no text at all to compare (no message, no detail) says nothing of the id.
  return namesId && strings > 0 ? 'same' : 'indistinct';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
