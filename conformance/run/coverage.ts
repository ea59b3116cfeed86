// What a run exercised of the document: its operations, its declared
// responses, and every keyword of its schemas. A keyword is exercised when a
// case was derived from it and a check that sends such cases ran; an
// annotation has nothing to exercise; anything else the document uses is
// listed as not exercised, with the reason, never left out.
import { isExtension, isSchemaObject, keywordInfo, subschemas, type KeywordUse } from '../../spec/schema-keywords.js';
import { isCheckedFormat } from '../../spec/validator.js';
import { MAX_MADE_BYTES, MAX_MADE_VALUES } from '../../spec/value-budget.js';
import { operationOf } from '../checks/declared.js';
import { keywordDerivations, STRUCTURAL } from '../cases/keyword-cases.js';
import type { ObservedExchange, TargetResult } from './target-result.js';

export type { ObservedExchange } from './target-result.js';
import { resolveSchema, type SpecModel } from '../model/spec-model.js';

export interface OperationCoverage {
  method: string;
  path: string;
  operationId: string;
  /** The catalog knows what it means (the create operation); others get the generic checks. */
  known: boolean;
  /** Requests the run sent to it, over every target. */
  requests: number;
  /** Its role on the plant resource (list, read, replace, merge, delete), where it has one, and how the harness knows (the path's shape, or links). */
  role?: { role: string; by: string };
  /** How it fared in each check whose cases reach several operations (PS-OP-*), on each target. */
  checks: Array<{ check: string; target: string; outcome: string; detail?: string }>;
}

export interface ResponseCoverage {
  method: string;
  path: string;
  status: string;
  /** The targets that gave an answer with this status to this operation. */
  observedOn: string[];
  /** Why no target gave it, when none did. */
  why?: string;
}

export type KeywordStatus = 'exercised' | 'annotation' | 'not exercised';

export interface KeywordCoverage {
  keyword: string;
  /** JSON pointer of the keyword in the document. */
  pointer: string;
  status: KeywordStatus;
  /** The checks that exercised it. */
  by: string[];
  /** What was derived from it, or why nothing was. */
  detail: string;
}

/** A check the document made impossible, and why (the keyword that rules out what it needs). */
export interface RuledOutCheck {
  id: string;
  title: string;
  reason: string;
}

export interface Coverage {
  operations: OperationCoverage[];
  responses: ResponseCoverage[];
  keywords: KeywordCoverage[];
  /** Every check skipped because of the document, with why. */
  ruledOut: RuledOutCheck[];
}

/** The checks that ran (were graded other than skip or error) on at least one target. */
function ranChecks(targets: TargetResult[]): Set<string> {
  return new Set(
    targets.flatMap((t) => t.results.filter((r) => r.outcome !== 'skip' && r.outcome !== 'error').map((r) => r.id)),
  );
}

/** The pointers of every schema object reachable from `schema` (references followed). */
function reachable(model: SpecModel, schema: unknown, pointer: string, into: Set<string>): void {
  const { schema: node, pointer: at } = resolveSchema(model.doc, schema, pointer);
  if (!isSchemaObject(node) || into.has(at)) return;
  into.add(at);
  for (const sub of subschemas(node, at)) reachable(model, sub.schema, sub.pointer, into);
}

const under = (pointer: string, prefix: string) => pointer === prefix || pointer.startsWith(`${prefix}/`);

export function computeCoverage(
  model: SpecModel,
  targets: TargetResult[],
  observed: Map<string, ObservedExchange[]>,
): Coverage {
  const ran = ranChecks(targets);
  const requests = new Map<string, number>();
  const answered = new Map<string, Set<string>>();
  for (const [target, exchanges] of observed) {
    for (const ex of exchanges) {
      const op = operationOf(model, ex);
      if (!op) continue;
      requests.set(op.pointer, (requests.get(op.pointer) ?? 0) + 1);
      if (ex.status === undefined) continue;
      const key = `${op.pointer} ${ex.status}`;
      answered.set(key, (answered.get(key) ?? new Set()).add(target));
    }
  }
  const operations = model.operations.map((op): OperationCoverage => {
    const name = `${op.method} ${op.path}`;
    const role = model.resource.operations.find((r) => r.op.pointer === op.pointer);
    return {
      method: op.method,
      path: op.path,
      operationId: op.operationId,
      known: op.pointer === model.create?.pointer,
      requests: requests.get(op.pointer) ?? 0,
      ...(role ? { role: { role: role.role, by: role.by } } : {}),
      checks: targets.flatMap((t) =>
        t.results.flatMap((r) =>
          (r.operations ?? [])
            .filter((o) => o.operation === name)
            .map((o) => ({
              check: r.id,
              target: t.target.name,
              outcome: o.outcome,
              ...(o.detail !== undefined ? { detail: o.detail } : {}),
            })),
        ),
      ),
    };
  });
  const responses = model.operations.flatMap((op) =>
    [...op.responses.keys()].map((status): ResponseCoverage => {
      const observedOn = [...(answered.get(`${op.pointer} ${status}`) ?? [])];
      return {
        method: op.method,
        path: op.path,
        status,
        observedOn,
        ...(observedOn.length === 0 ? { why: whyNotGiven(op.pointer, status, requests, answered) } : {}),
      };
    }),
  );
  const ruledOut = new Map<string, RuledOutCheck>();
  for (const t of targets)
    for (const r of t.results)
      if (r.ruledOut !== undefined && !ruledOut.has(r.id))
        ruledOut.set(r.id, { id: r.id, title: r.title, reason: r.ruledOut });
  return {
    operations,
    responses,
    keywords: keywordCoverage(model, ran, responses, targets),
    ruledOut: [...ruledOut.values()],
  };
}

/** Why no target gave a declared response: nothing reached the operation, or what it answered instead. */
function whyNotGiven(
  pointer: string,
  status: string,
  requests: Map<string, number>,
  answered: Map<string, Set<string>>,
): string {
  if ((requests.get(pointer) ?? 0) === 0) return 'no request of the run reached the operation';
  const seen = [...answered.keys()]
    .filter((k) => k.startsWith(`${pointer} `))
    .map((k) => k.slice(pointer.length + 1))
    .sort();
  const what = status.startsWith('2')
    ? 'its valid requests'
    : status.startsWith('4')
      ? 'the requests it should refuse'
      : 'its requests';
  return `${what} were answered ${seen.join(', ') || 'with no status'}, never ${status}${status === 'default' || /XX$/i.test(status) ? ' (a range or default: the statuses seen matched another declaration)' : ''}`;
}

/**
 * Why a check that sends a keyword's cases exercised none, as it fared: it
 * was not run at all (--only), it ran and skipped, or it ended in error.
 * "Did not run" is said only of a check that did not.
 */
function howItFared(targets: TargetResult[], id: string): string {
  const results = targets.flatMap((t) => t.results.filter((r) => r.id === id));
  if (results.length === 0) return `${id} did not run`;
  if (results.some((r) => r.outcome === 'skip')) return `${id} ran and skipped (its result says why)`;
  return `${id} ended in ${results[0]!.outcome} (its result says why)`;
}

function keywordCoverage(
  model: SpecModel,
  ran: Set<string>,
  responses: ResponseCoverage[],
  targets: TargetResult[],
): KeywordCoverage[] {
  // The checks that send a keyword's cases inside and outside its boundary, as each fared when it exercised none.
  const notRun = (inside: boolean, outside: boolean) =>
    [...(inside ? ['PS-ACCEPT-012'] : []), ...(outside ? ['PS-REJECT-012'] : [])]
      .map((id) => howItFared(targets, id))
      .join('; ');
  // The keyword cases are the create's request body's: none without a create operation.
  const derivations = new Map((model.create ? keywordDerivations(model) : []).map((d) => [d.use.pointer, d]));
  // Schemas checked on answers (PS-RESP-003, PS-DOC-002): those of the declared responses some target gave.
  const onAnswers = new Map<string, string>();
  if (ran.has('PS-RESP-003') || ran.has('PS-DOC-002')) {
    for (const r of responses.filter((x) => x.observedOn.length > 0)) {
      const op = model.operations.find((o) => o.method === r.method && o.path === r.path)!;
      const schema = op.responses.get(r.status)?.schema;
      if (!schema) continue;
      const pointers = new Set<string>();
      reachable(model, schema.schema, schema.pointer, pointers);
      for (const p of pointers) if (!onAnswers.has(p)) onAnswers.set(p, `${r.method} ${r.path} ${r.status}`);
    }
  }
  // Parameter schemas: a value drawn from each is sent by PS-DOC-001/002.
  const parameters = new Set<string>();
  if (ran.has('PS-DOC-002'))
    for (const op of model.operations)
      for (const p of op.parameters) if (p.schema) reachable(model, p.schema.schema, p.schema.pointer, parameters);

  // Request schemas below applicators the derivation does not enter (if, then, not, propertyNames, ...).
  const request = new Set<string>();
  if (model.create) reachable(model, model.create.requestSchema.schema, model.create.requestSchema.pointer, request);

  const direct = model.keywords.map((use): KeywordCoverage => {
    const entry = (status: KeywordStatus, by: string[], detail: string): KeywordCoverage => ({
      keyword: use.keyword,
      pointer: use.pointer,
      status,
      by,
      detail,
    });
    const info = keywordInfo(use.keyword);
    if (isExtension(use.keyword)) return entry('annotation', [], 'an x- extension');
    if (!info)
      return entry(
        'not exercised',
        [],
        'not a keyword of JSON Schema 2020-12 or OpenAPI 3.1: the harness ignores it (the reference server refuses the document)',
      );
    if (use.keyword === 'format' && typeof use.value === 'string' && !isCheckedFormat(use.value)) {
      return entry(
        'not exercised',
        [],
        `format ${JSON.stringify(use.value)}: no validator here checks it, so it is an annotation (JSON Schema 2020-12 §7.2.1)`,
      );
    }
    if (info.kind === 'annotation' && use.keyword !== 'format')
      return entry('annotation', [], 'says something about a value without judging it');
    const d = derivations.get(use.pointer);
    if (d && d.inside.length + d.outside.length > 0) {
      const by = [
        ...(d.inside.length > 0 && ran.has('PS-ACCEPT-012') ? ['PS-ACCEPT-012'] : []),
        ...(d.outside.length > 0 && ran.has('PS-REJECT-012') ? ['PS-REJECT-012'] : []),
      ];
      const count = (n: number, side: string) =>
        n > 0
          ? `${n} case(s) just ${side}`
          : `none ${side} (no value could be derived that this keyword alone decides)`;
      const sides = `${count(d.inside.length, 'inside')}; ${count(d.outside.length, 'outside')}`;
      return by.length > 0
        ? entry('exercised', by, sides)
        : entry('not exercised', [], `${sides}, but ${notRun(d.inside.length > 0, d.outside.length > 0)}`);
    }
    if (onAnswers.has(use.schemaPointer) && !STRUCTURAL.has(use.keyword)) {
      return entry(
        'exercised',
        ['PS-RESP-003', 'PS-DOC-002'].filter((id) => ran.has(id)),
        `checked on the answers ${onAnswers.get(use.schemaPointer)}`,
      );
    }
    if (parameters.has(use.schemaPointer) && !STRUCTURAL.has(use.keyword))
      return entry('exercised', ['PS-DOC-002'], 'a parameter value drawn from it is sent (inside only)');
    if (STRUCTURAL.has(use.keyword)) return entry('not exercised', [], 'leads to no keyword the run exercised');
    const past = pastTheBudget(use);
    if (d && past !== undefined) return entry('not exercised', [], past);
    if (d)
      return entry('not exercised', [], 'no value just inside or just outside it could be derived from the document');
    if (request.has(use.schemaPointer))
      return entry(
        'not exercised',
        [],
        'below an applicator the harness derives no cases inside (if, then, else, not, contains, propertyNames, patternProperties, dependentSchemas); the applicator is tried as a whole',
      );
    return entry('not exercised', [], 'in no schema the run sends or receives a value of');
  });
  // A keyword that only leads to others (properties, $ref, items) is exercised through them.
  const exercised = direct.filter((k) => k.status === 'exercised');
  return direct.map((k) => {
    if (k.status !== 'not exercised' || !STRUCTURAL.has(k.keyword)) return k;
    const use = model.keywords.find((u) => u.pointer === k.pointer)!;
    const target = refTarget(model, use);
    const through = exercised.filter(
      (e) => under(e.pointer, k.pointer) || (target !== undefined && under(e.pointer, target)),
    );
    return through.length > 0
      ? {
          ...k,
          status: 'exercised' as const,
          by: [...new Set(through.flatMap((e) => e.by))],
          detail: `through the ${through.length} keyword(s) it leads to`,
        }
      : k;
  });
}

/** Why a length bound gets no case: its values would pass the budget of a made value (spec/value-budget.ts). */
function pastTheBudget({ keyword, value }: KeywordUse): string | undefined {
  if (typeof value !== 'number') return undefined;
  const most = /^(min|max)Length$/.test(keyword)
    ? MAX_MADE_BYTES
    : /^(min|max)(Items|Properties)$/.test(keyword)
      ? MAX_MADE_VALUES
      : undefined;
  return most !== undefined && value + 1 > most
    ? `a value at its bound or just past it (${value}) would pass the budget of a value made from a schema (${most}): none is made`
    : undefined;
}

/** Where a `$ref` keyword leads in the document, when it is one. */
function refTarget(model: SpecModel, use: KeywordUse): string | undefined {
  if (use.keyword !== '$ref' || typeof use.value !== 'string') return undefined;
  return resolveSchema(model.doc, { $ref: use.value }, use.schemaPointer).pointer;
}

/** Counts for one line: operations covered, responses observed, keywords by status. */
export function coverageCounts(c: Coverage): {
  operations: [number, number];
  responses: [number, number];
  keywords: Record<KeywordStatus, number>;
} {
  const keywords: Record<KeywordStatus, number> = { exercised: 0, annotation: 0, 'not exercised': 0 };
  for (const k of c.keywords) keywords[k.status]++;
  return {
    operations: [c.operations.filter((o) => o.requests > 0).length, c.operations.length],
    responses: [c.responses.filter((r) => r.observedOn.length > 0).length, c.responses.length],
    keywords,
  };
}
