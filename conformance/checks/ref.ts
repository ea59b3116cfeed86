// PS-REF-*: what a create names must exist. A create under a parent that
// was never stored (a nested collection's path naming no item of its parent,
// RFC 9110 §15.5.5), or whose body names an item of another collection that
// was never stored (inference reference), is refused, not stored.
import type { JsonValue } from '../model/json.js';
import { operationName } from '../model/operation-model.js';
import { RuledOut } from '../model/ruled-out.js';
import { resourceNamed, type ResourceModel } from '../model/resource.js';
import { describe, noAnswer } from './grades.js';
import { createCall, startWith, type OpSent } from './op-cases.js';
import { itemBody, unknownIdOf } from './item-bodies.js';
import { idText, parentValues, pathParameterNames } from './prerequisites.js';
import { rfc } from './sources.js';
import { combined } from './state-verdicts.js';
import type { Case, CheckContext, ExchangeCheck, Verdict } from './types.js';

/** Statuses a document declares for a request naming what does not exist (not found, conflict, unprocessable). */
const FOR_MISSING = ['404', '409', '422'];

/** A create of `r` whose innermost parent is an id never stored: its path, as the stored parent's, with that id. */
function underNoParent(
  ctx: CheckContext,
  r: ResourceModel,
): { request: Case<OpSent>['request']; what: string } | undefined {
  const inner = r.parents[r.parents.length - 1];
  const parent = inner?.collection !== undefined ? resourceNamed(ctx.model.resources, inner.collection) : undefined;
  if (!parent || !r.create || !ctx.inferences.has('resource')) return undefined;
  const unknown = unknownIdOf(ctx, parent);
  const names = pathParameterNames(r.create.path);
  const given = parentValues(ctx, r.create);
  const set = { ...given, [names[r.parents.length - 1]!]: idText(unknown) };
  const body = itemBody(ctx, r);
  const note = `${operationName(r.create)}: under ${idText(unknown)}, an item of ${inner!.collection} never stored`;
  const request = createCall(ctx, r, body, note, 0, { set });
  return { request, what: `under an item of ${inner!.collection} never stored (${idText(unknown)})` };
}

/** Creates of `r` whose body names, in one member, an item never stored. */
function namingNothing(ctx: CheckContext, r: ResourceModel): Array<{ request: Case<OpSent>['request']; what: string }> {
  if (!r.create) return [];
  return r.references
    .filter((x) => x.by === 'links' || ctx.inferences.has('reference'))
    .flatMap((x) => {
      const other = resourceNamed(ctx.model.resources, x.collection);
      if (!other) return [];
      const unknown: JsonValue = unknownIdOf(ctx, other);
      const body = itemBody(ctx, r, { [x.member]: unknown });
      const what = `its ${x.member} naming an item of ${x.collection} never stored (${idText(unknown)})`;
      return [{ request: createCall(ctx, r, body, `${operationName(r.create!)}: ${what}`), what }];
    });
}

const namesNothing: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-REF-001',
  title:
    'A create under a parent never stored, or naming in its body an item never stored, is refused with a 4xx, not stored',
  level: 'MUST',
  source: rfc(9110, '§15.5.5 404 Not Found', 'section-15.5.5'),
  requirement:
    'The 404 (Not Found) status code indicates that the origin server did not find a current representation for the target resource or is not willing to disclose that one exists. (A nested collection exists under its parent only: `/gardens/{gardenId}/plants` of a garden never stored names nothing to create in; a member that names an item of another collection, inference reference, names one that must exist.)',
  grading:
    'MUST where the create declares 404, 409 or 422 (the document anticipates the refusal): a create under a parent never stored, or naming an item never stored, answered 2xx fails; where it declares none of them, a 2xx is non-strict (the document is silent). A 5xx fails; a declared 4xx, or 400, 404 or 422, passes; another 4xx is non-strict.',
  evidence:
    "For each nested collection with a create: a create under an id of its parent never stored; for each member that names another collection's item: a create naming an id never stored there; each refused with a 4xx.",
  cases: (ctx) => {
    const out: Array<Case<OpSent>> = [];
    for (const r of ctx.model.resources) {
      try {
        const calls = [underNoParent(ctx, r), ...namingNothing(ctx, r)].filter((c) => c !== undefined);
        for (const c of calls)
          out.push(startWith(out.length, { operation: operationName(r.create!), label: c.what, request: c.request }));
      } catch (err) {
        if (!(err instanceof RuledOut)) throw err;
      }
    }
    if (out.length === 0)
      throw new RuledOut('no create of the document lives under a parent or names an item of another collection');
    return out;
  },
  verify: (cases, ctx) => {
    const verdicts: Verdict[] = cases.map((c, i) => {
      const op = ctx.model.operations.find((o) => operationName(o) === c.sent.operation)!;
      const missing = noAnswer(c.exchange);
      if (missing) return { ...missing, exchange: i };
      const status = c.exchange.response!.status;
      const declared = [...op.responses.keys()];
      const binds = FOR_MISSING.some((s) => declared.includes(s));
      const expected = `a 4xx for ${c.sent.operation} ${c.sent.label} (${declared.filter((s) => s.startsWith('4')).join(', ') || '404'})`;
      const verdict = (outcome: Verdict['outcome'], cause: string): Verdict => ({
        outcome,
        expected,
        actual: `${c.sent.label}: ${describe(c.exchange)}`,
        cause,
        exchange: i,
      });
      if (status >= 500)
        return verdict('fail', `${c.sent.operation} answers a create naming an item never stored ${status}`);
      if (status < 400)
        return verdict(binds ? 'fail' : 'non-strict', `${c.sent.operation} stores an item naming an item never stored`);
      if (declared.includes(String(status)) || [400, 404, 422].includes(status))
        return { outcome: 'pass', exchange: i };
      return verdict(
        'non-strict',
        `${c.sent.operation} refuses a create naming an item never stored with ${status}, a status it does not declare`,
      );
    });
    return combined(verdicts, { outcome: 'skip', actual: 'nothing was sent' });
  },
};

export const refChecks = [namesNothing];
