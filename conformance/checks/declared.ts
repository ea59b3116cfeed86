// What the document declares for an answer: the operation a request went to
// (its method and path template), the response it declares for a status, and
// what is wrong with an answer of it. Shared by PS-DOC-*, PS-RESP-* and the
// coverage of the document.
import type { Exchange } from './exchange.js';
import { parseExact } from '../model/json.js';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { describeViolation } from '../../spec/validator.js';
import type { OperationModel, ResponseModel, SpecModel } from '../model/spec-model.js';
import { declaredResponse, mediaOf, refName } from '../model/operation-model.js';

/**
 * Statuses that RFCs mandate for conditions the specification leaves open: 401
 * (RFC 9110 §15.5.2, RFC 6750 §3), 404 (§15.5.5, unknown paths), 405
 * (§15.5.6), 413 (§15.5.14), 415 (§15.5.16).
 */
export const RFC_STATUSES = [401, 404, 405, 413, 415];

/**
 * A declared response's schema as a message names it: its component's name
 * (`Plant`), or, for a schema written in place (an array of plants, say),
 * what it is: `the declared 200 schema`. Never `undefined`.
 */
export function schemaNoun(r: Pick<ResponseModel, 'schemaName' | 'status'>): string {
  return r.schemaName ?? `the declared ${r.status} schema`;
}

/** "a valid Plant", or "a body valid against the declared 200 schema". */
export function validNoun(r: Pick<ResponseModel, 'schemaName' | 'status'>): string {
  return r.schemaName ? `a valid ${r.schemaName}` : `a body valid against the declared ${r.status} schema`;
}

/** "an Error body", "a Problem body", or "a body of the declared 400 schema". */
export function bodyNoun(r: Pick<ResponseModel, 'schemaName' | 'status'>): string {
  return r.schemaName
    ? `${/^[aeiou]/i.test(r.schemaName) ? 'an' : 'a'} ${r.schemaName} body`
    : `a body of the declared ${r.status} schema`;
}

/** Whether a request path (no query) matches an OpenAPI path template: `{name}` stands for one non-empty segment. */
export function matchesTemplate(template: string, path: string): boolean {
  const pattern = template
    .split(/(\{[^}/]+\})/)
    .map((part) => (/^\{[^}/]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`).test(path.split('?')[0]!);
}

/** The declared operation a request went to: its method and path template (a literal path wins over a template). */
export function operationOf(model: SpecModel, request: { method: string; path: string }): OperationModel | undefined {
  const same = model.operations.filter(
    (op) => op.method === request.method.toUpperCase() && matchesTemplate(op.path, request.path),
  );
  return same.find((op) => !op.path.includes('{')) ?? same[0];
}

/**
 * The response the document declares for an exchange's operation and
 * status, if any: the status itself, its range (`4XX`), or `default`
 * (OpenAPI 3.1 §4.8.16.2). `default` stands for an error status (4xx, 5xx),
 * or for any status of an operation that declares no success of its own: a
 * success the document does not declare is not held to its error record.
 */
export function declared(model: SpecModel, ex: Exchange): ResponseModel | undefined {
  const op = operationOf(model, ex.request);
  if (!op) return undefined;
  const status = ex.response!.status;
  const found = declaredResponse(op, status);
  if (found?.status !== 'default' || status >= 400) return found;
  return [...op.responses.keys()].some((s) => s.startsWith('2')) ? undefined : found;
}

/**
 * What is wrong with an answer of a declared response: its content type, or
 * its body against the schema declared for that content type; undefined
 * when nothing.
 */
export function declaredAnswerProblem(declared: ResponseModel, ex: Exchange): string | undefined {
  const ct = mediaTypeEssence(ex.response!.headers['content-type']) ?? '';
  if (declared.contentTypes.length > 0 && !declared.contentTypes.includes(ct))
    return `content type ${ct || '(none)'} instead of ${declared.contentTypes.join(' or ')}`;
  const media = mediaOf(declared, ct);
  if (!media?.validate) return undefined;
  const parsed = parseExact(ex.response!.bodyText);
  const shape = { schemaName: refName(media.schema?.schema), status: declared.status };
  if (!parsed.ok) return `body is not JSON (${validNoun(shape)} is)`;
  const problems = media.validate(parsed.value);
  return problems.length > 0
    ? `body is not ${validNoun(shape)}: ${problems.map((v) => describeViolation(v)).join('; ')}`
    : undefined;
}
