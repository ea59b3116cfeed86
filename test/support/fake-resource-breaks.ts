// The fake of fake-resource.ts: which operation of each fixture does what
// (written by hand from the documents, so that the harness's inference is
// tested, not copied), the breaks, and the answers of operations beside the
// plant resource.
import type { JsonValue } from '../../conformance/model/json.js';
import type { OperationModel } from '../../conformance/model/spec-model.js';

export type Role = 'create' | 'list' | 'read' | 'replace' | 'merge' | 'delete' | 'example';

const ITEM = {
  'GET /plants/{id}': 'read',
  'PUT /plants/{id}': 'replace',
  'PATCH /plants/{id}': 'merge',
  'DELETE /plants/{id}': 'delete',
} as const;

/** fixture → `METHOD /path` → what the operation does. */
export const ROLES: Readonly<Record<string, Readonly<Record<string, Role>>>> = {
  starter: { 'GET /plants': 'list', 'POST /plants': 'create', 'DELETE /plants/{id}': 'delete' },
  crud: { 'GET /plants': 'list', 'POST /plants': 'create', ...ITEM },
  paged: { 'GET /plants': 'list', 'POST /plants': 'create', 'GET /plants/{id}': 'read' },
  links: { 'POST /plants': 'create', 'GET /plants/{plantId}': 'read', 'DELETE /plants/{plantId}': 'delete' },
  'open-operation': {
    'GET /plants': 'list',
    'POST /plants': 'create',
    'GET /plants/{id}': 'read',
    'DELETE /plants/{id}': 'delete',
  },
  unmapped: { 'POST /plants': 'create' },
};

/** The fixtures whose list answers a page object ({ items, next }). */
export const PAGED = new Set(['paged']);

/**
 * Each break departs from one rule (or, where marked allowed, makes a choice
 * a source allows that differs from ours).
 */
export type Break =
  | 'listMissing' // GET /plants answered 404
  | 'deleteMissing' // DELETE answered 404
  | 'deleteWithoutAuth' // DELETE serves a request without credentials
  | 'limitIgnored' // the list holds every plant whatever the limit
  | 'listWithoutNewest' // the list leaves out the plant created last
  | 'limit500' // 500 to a limit that is not a number
  | 'pathId500' // 500 to a path id that is not an integer
  | 'deleteKeeps' // 204 to DELETE, the plant kept
  | 'read404' // GET item always 404
  | 'readAfterDelete' // GET item still answers a deleted plant
  | 'readDropsTag' // GET item (and the list) answer without tag
  | 'putIgnored' // PUT answers 200 and stores nothing
  | 'patchReplaces' // PATCH replaces the plant with the patch (tag lost)
  | 'filterIgnored' // the list's tag filter is ignored
  | 'openNeedsAuth' // the operations with security: [] need credentials
  | 'exampleMissing' // operations beside the resource answered 404
  | 'delete200' // DELETE answers 200 with the plant, a status the document does not declare for it
  // Wrong-reason breaks (test/support/resource-mutants.ts): each departs from one rule where a naive check does not look.
  | 'listStub404' // the list judges its parameters (400), then answers every valid request 404
  | 'offsetRefused' // the list refuses its optional offset with 400, whatever the value
  | 'limitParseInt' // the limit read by parseInt: abc refused, 1.5 served as 1
  | 'deleteAnyScheme' // DELETE refuses no credentials with 401, but serves any Authorization header
  | 'readIdAsDouble' // GET item looks the path id up as a double: ids beyond 2^53 are not found
  | 'listDropsTag' // the list answers its plants without tag (GET item keeps it)
  | 'listAfterDelete' // a deleted plant is still listed (GET item refuses it)
  | 'secondDelete500' // a second DELETE of a deleted plant answers 500
  | 'putMerges' // PUT keeps the members its body leaves out (a merge, not a replace)
  | 'limitOffByOne' // the list holds one plant more than its limit
  | 'tagUnchecked' // a body the schema refuses only at /tag (42, null) is stored as sent: the list and GET then answer it
  | 'limitMin500' // 500 to a limit at the int32 minimum (a negation that overflows), every other limit served
  | 'readNegative404' // GET item's route takes digits only: a negative id it stored is not found
  | 'storeByDouble' // the store keys plants by the double of their id, at create and read alike: 2^53 + 1 is 2^53
  | 'deleteNegative404' // DELETE's route takes digits only: a negative id it stored is not found
  | 'limitMinDrops' // the connection closed without an answer to a limit at the int32 minimum
  | 'limitWraps' // the limit read into an int32 that wraps: 2147483648 is served as -2147483648
  | 'limitMax400' // a limit at the maximum its schema writes refused with 400 (an off-by-one bound check)
  // Allowed choices, which no check may fail:
  | 'unknownId400' // 400, not 404, for an id not stored
  | 'putCreates' // PUT of an id not stored creates it (RFC 9110 §9.3.4 allows it)
  | 'secondDelete204' // a second DELETE answers 204 (DELETE is idempotent)
  | 'invalid422' // a parameter its schema refuses is answered 422 (undeclared), not 400
  | 'auth403' // bad credentials are answered 403 with the Bearer challenge, not 401
  | 'read403' // a valid read is answered 403 (authorization per operation)
  | 'limitNegative400'; // a negative limit refused with the declared 400 where the document says nothing of one

/** fixture, break, the check that must fail it. */
export const BREAKS: Array<[string, Break, string]> = [
  ['starter', 'listMissing', 'PS-OP-001'],
  ['starter', 'deleteMissing', 'PS-OP-001'],
  ['starter', 'deleteWithoutAuth', 'PS-OP-004'],
  ['starter', 'limitIgnored', 'PS-STATE-008'],
  ['starter', 'listWithoutNewest', 'PS-STATE-005'],
  ['starter', 'limit500', 'PS-OP-003'],
  ['starter', 'pathId500', 'PS-OP-003'],
  ['starter', 'deleteKeeps', 'PS-STATE-006'],
  ['starter', 'delete200', 'PS-OP-002'],
  ['crud', 'read404', 'PS-STATE-004'],
  ['crud', 'read404', 'PS-OP-001'],
  ['crud', 'readAfterDelete', 'PS-STATE-006'],
  ['crud', 'readDropsTag', 'PS-STATE-004'],
  ['crud', 'putIgnored', 'PS-STATE-007'],
  ['crud', 'patchReplaces', 'PS-STATE-007'],
  ['crud', 'limitIgnored', 'PS-STATE-008'],
  ['crud', 'pathId500', 'PS-OP-003'],
  ['paged', 'filterIgnored', 'PS-STATE-005'],
  ['paged', 'listWithoutNewest', 'PS-STATE-005'],
  ['paged', 'limitIgnored', 'PS-STATE-008'],
  ['paged', 'read404', 'PS-STATE-004'],
  ['links', 'readAfterDelete', 'PS-STATE-006'],
  ['links', 'deleteWithoutAuth', 'PS-OP-004'],
  ['open-operation', 'openNeedsAuth', 'PS-OP-004'],
  ['open-operation', 'deleteKeeps', 'PS-STATE-006'],
  ['unmapped', 'exampleMissing', 'PS-OP-001'],
  ['unmapped', 'pathId500', 'PS-OP-003'],
];

/** fixture, an allowed choice: no check fails it. */
export const ALLOWED: Array<[string, Break]> = [
  ['crud', 'unknownId400'],
  ['crud', 'putCreates'],
  ['crud', 'secondDelete204'],
  ['starter', 'secondDelete204'],
  ['links', 'unknownId400'],
];

/** fixture, an allowed choice, the check that grades it non-strict (not fail): the grading's other choices, each shown. */
export const NON_STRICT: Array<[string, Break, string]> = [
  ['crud', 'read403', 'PS-OP-002'],
  ['crud', 'invalid422', 'PS-OP-003'],
  ['crud', 'auth403', 'PS-OP-004'],
  ['crud', 'unknownId400', 'PS-STATE-004'],
  ['crud', 'secondDelete204', 'PS-STATE-006'],
];

/** The answer of an operation beside the plant resource: its example, or one built for the unmapped fixture's watering. */
export function answerOther(
  op: OperationModel,
  body: JsonValue | undefined,
  send: (status: number, body?: JsonValue) => void,
): void {
  const status = [...op.responses.keys()].sort().find((s) => s.startsWith('2')) ?? '200';
  const r = op.responses.get(status);
  const example =
    (op as { responses: Map<string, unknown> }).responses && r?.schema ? exampleOf(r.schema.schema) : undefined;
  if (op.operationId === 'storeSummary')
    return send(Number(status), { open: true, greeting: 'Welcome to the plant store' });
  if (op.operationId === 'waterPlant')
    return send(Number(status), { litres: (body as Record<string, JsonValue>).litres!, at: '2026-01-01T00:00:00Z' });
  send(Number(status), example ?? (r?.contentTypes.length ? {} : undefined));
}

function exampleOf(schema: unknown): JsonValue | undefined {
  return typeof schema === 'object' && schema !== null && 'example' in schema
    ? (schema as { example: JsonValue }).example
    : undefined;
}
