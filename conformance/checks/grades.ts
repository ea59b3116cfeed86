// Shared request builders and graders for the catalog.
import type { Exchange, RequestSpec } from '../http.js';
import { toJson, tryParseJson, type JsonValue } from '../json.js';
import { mediaType } from '../spec-model.js';
import type { CheckContext, Outcome, Source, Verdict } from './types.js';

export const SEED = 'Plant Store specification';
export const seed = (section: string): Source => ({ document: SEED, section });
export const rfc = (n: number, section: string, anchor: string): Source => ({
  document: `RFC ${n}`,
  section,
  url: `https://www.rfc-editor.org/rfc/rfc${n}#${anchor}`,
});

const RANK: Record<Outcome, number> = { pass: 0, skip: 1, 'non-strict': 2, fail: 3, error: 4 };

/** The worst of several verdicts (error > fail > non-strict > skip > pass); the first one wins a tie. */
export function worst(verdicts: Verdict[]): Verdict {
  let out: Verdict = { outcome: 'pass' };
  for (const v of verdicts) if (RANK[v.outcome] > RANK[out.outcome]) out = v;
  return out;
}

/** Grades each exchange with `grade` and keeps the worst, remembering which exchange it was. */
export function each(exchanges: Exchange[], grade: (ex: Exchange, i: number) => Verdict): Verdict {
  return worst(exchanges.map((ex, i) => ({ exchange: i, ...grade(ex, i) })));
}

const clip = (s: string, n = 300): string => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** One line describing what came back. */
export function describe(ex: Exchange): string {
  if (!ex.response) return `no answer (${ex.error ?? 'unknown error'})`;
  const r = ex.response;
  const ct = r.headers['content-type'];
  const extra = ['www-authenticate', 'allow']
    .filter((h) => r.headers[h] !== undefined)
    .map((h) => `, ${h}: ${r.headers[h]}`)
    .join('');
  // The HTTP layer follows no redirect (it never sends a request off the target): say so where a 3xx is graded.
  const redirect = r.status >= 300 && r.status < 400 && r.headers.location !== undefined ? `, redirect to ${r.headers.location} not followed (the harness stays on the target)` : '';
  return `${r.status}${ct ? `, content-type ${ct}` : ', no content-type'}${extra}${redirect}, body ${r.bodyText === '' ? '(empty)' : clip(r.bodyText)}`;
}

export function noAnswer(ex: Exchange): Verdict | undefined {
  return ex.response ? undefined : { outcome: 'error', expected: 'an HTTP answer', actual: describe(ex) };
}

/** A request to the operation under test, with credentials and the declared content type unless told otherwise. */
export function create(
  ctx: CheckContext,
  body: JsonValue | { raw: string | Buffer } | undefined,
  opts: { auth?: string | null; contentType?: string | null; note?: string } = {},
): RequestSpec {
  const op = ctx.model.create;
  const headers: Record<string, string> = {};
  const auth = opts.auth === undefined ? ctx.auth() : opts.auth;
  if (auth !== null) headers.authorization = auth;
  const ct = opts.contentType === undefined ? op.requestContentTypes[0]! : opts.contentType;
  if (ct !== null) headers['content-type'] = ct;
  let raw: string | Buffer | undefined;
  if (body === undefined) raw = undefined;
  else if (typeof body === 'object' && body !== null && 'raw' in body && !Array.isArray(body)) raw = (body as { raw: string | Buffer }).raw;
  else raw = toJson(body as JsonValue);
  return { method: op.method, path: op.path, headers, body: raw, note: opts.note };
}

/** A valid request body with a fresh id, built from the document's required fields. */
export function validPlant(ctx: CheckContext, extra: Record<string, JsonValue> = {}): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const f of ctx.model.create.request.fields) {
    if (!f.required) continue;
    out[f.name] = sampleValue(ctx, f.type, f.name);
  }
  return { ...out, ...extra };
}

function sampleValue(ctx: CheckContext, type: string, name: string): JsonValue {
  switch (type) {
    case 'integer':
      return ctx.ids.fresh();
    case 'string':
      return `conformance ${name}`;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'array':
      return [];
    default:
      return {};
  }
}

/** The field that identifies a plant: the request's required integer (the document's `id`). */
export function idField(ctx: CheckContext): string {
  const f = ctx.model.create.request.fields.find((x) => x.type === 'integer' && x.required);
  if (!f) throw new Error('the request schema has no required integer field');
  return f.name;
}

/** The string fields the success schema echoes back (the document's `name` and `tag`). */
export function stringFields(ctx: CheckContext): { required: string[]; optional: string[] } {
  const fields = ctx.model.create.request.fields.filter((f) => f.type === 'string');
  return { required: fields.filter((f) => f.required).map((f) => f.name), optional: fields.filter((f) => !f.required).map((f) => f.name) };
}

function jsonBody(ex: Exchange): { ok: true; value: unknown } | { ok: false } {
  return tryParseJson(ex.response!.bodyText);
}

/**
 * Seed, Create plant rule 1: "When the request body is a valid NewPlant
 * record, then the service answers 200 with a Plant record", content type
 * application/json, carrying back the string fields sent.
 */
export function gradeAccepted(ctx: CheckContext, ex: Exchange, sent: Record<string, JsonValue>): Verdict {
  const missing = noAnswer(ex);
  if (missing) return missing;
  const op = ctx.model.create;
  const r = ex.response!;
  const expect = `${op.success.status} ${op.success.contentTypes.join(' or ')} with a valid ${op.success.schemaName ?? 'body'} carrying back what was sent`;
  const fail = (why: string): Verdict => ({ outcome: 'fail', expected: expect, actual: `${why}: ${describe(ex)}` });
  if (String(r.status) !== op.success.status) return fail(`status ${r.status}`);
  if (!op.success.contentTypes.includes(mediaType(r.headers['content-type']) ?? '')) return fail('content type');
  const parsed = jsonBody(ex);
  if (!parsed.ok) return fail('body is not JSON');
  const problems = op.success.validate?.(parsed.value) ?? [];
  if (problems.length > 0) return fail(`body does not validate against ${op.success.schemaName}: ${problems.join('; ')}`);
  const body = parsed.value as Record<string, unknown>;
  const strings = stringFields(ctx);
  for (const name of [...strings.required, ...strings.optional]) {
    if (name in sent && body[name] !== sent[name]) return fail(`${name} ${JSON.stringify(body[name])} instead of ${JSON.stringify(sent[name])}`);
  }
  for (const name of strings.optional) {
    if (!(name in sent) && name in body) {
      // The seed does not say what an unsent optional field reads back as;
      // the reference server sends no key (README behaviour table).
      return { outcome: 'non-strict', expected: `no ${name} when none was sent (README decision)`, actual: describe(ex) };
    }
  }
  return { outcome: 'pass' };
}

/** Whether the answer is the declared error record: declared content type and a valid body. */
export function errorBodyProblem(ctx: CheckContext, ex: Exchange): string | undefined {
  const err = ctx.model.create.error;
  const r = ex.response!;
  const ct = mediaType(r.headers['content-type']);
  if (!err.contentTypes.includes(ct ?? '')) return `content type ${ct ?? '(none)'} instead of ${err.contentTypes.join(' or ')}`;
  const parsed = jsonBody(ex);
  if (!parsed.ok) return 'body is not JSON';
  const problems = err.validate?.(parsed.value) ?? [];
  return problems.length > 0 ? `body is not a valid ${err.schemaName}: ${problems.join('; ')}` : undefined;
}

/**
 * Rejection of invalid data: a 4xx. The declared error status must carry the
 * declared Error body (seed, Errors rule 1). Another 4xx is a rejection the
 * seed does not declare: non-strict, unless it is `fitting` (the RFC status
 * for the condition, e.g. 415) and carries an Error body.
 */
export function gradeRejected(ctx: CheckContext, ex: Exchange, fitting: number[] = []): Verdict {
  const missing = noAnswer(ex);
  if (missing) return missing;
  const err = ctx.model.create.error;
  const status = ex.response!.status;
  const expected = `a rejection: ${[err.status, ...fitting.map(String)].join(' or ')} with an ${err.schemaName} body`;
  if (status < 400 || status > 499) return { outcome: 'fail', expected, actual: describe(ex) };
  const problem = errorBodyProblem(ctx, ex);
  if (String(status) === err.status) return problem ? { outcome: 'fail', expected, actual: `${problem}: ${describe(ex)}` } : { outcome: 'pass' };
  if (fitting.includes(status) && !problem) return { outcome: 'pass' };
  return { outcome: 'non-strict', expected, actual: `${problem ? `${problem}; ` : ''}status ${status} is not declared: ${describe(ex)}` };
}
