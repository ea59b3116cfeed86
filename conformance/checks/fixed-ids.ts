// Acceptance of the ids at the ends of the int64 range and of 0: each sent
// beside a neighbour, so that a target which answers 200 but stores the id
// rounded (or refuses it as a duplicate of its neighbour) is seen.
import { describe } from './grades.js';
import { gradeAccepted, refusalMembers, sameDuplicateAnswer } from './body-grades.js';
import { RuledOut } from '../cases/draw.js';
import { createRequest, freshId, idField, validPlant, type Body } from './requests.js';
import { PLANT_STORE_SPEC } from './sources.js';
import type { Case, CaseExchange, CheckContext, ExchangeCheck, Verdict } from './types.js';

const RULE1 = 'When the request body is a valid NewPlant record, then the service answers 200 with a Plant record.';

export interface IdSent {
  body: Body;
  id: bigint;
}

interface FixedIdCheckOptions {
  id: string;
  title: string;
  fixed: (ctx: CheckContext) => bigint;
  neighbour: (ctx: CheckContext) => bigint;
  /** The family of input it sends (CheckBase.family). */
  family: string;
}

/** A fresh id beside a fixed one (moved toward it by the run's offset), or any fresh id when the document does not allow that one. */
export function neighbourOf(ctx: CheckContext, fixed: bigint, toward: 1n | -1n): bigint {
  const near = fixed + toward * ctx.ids.offset;
  try {
    validPlant(ctx, { [idField(ctx)]: near });
    if (ctx.ids.claim(near)) return near;
  } catch (err) {
    if (!(err instanceof RuledOut)) throw err;
  }
  return freshId(ctx);
}

/** The three cases of a fixed id (see fixedIdCheck): the body with it, a fresh id beside it, and that fresh id again. */
export function fixedIdCases(
  ctx: CheckContext,
  fixedBody: Body,
  f: bigint,
  n: bigint,
  note: string,
): Array<Case<IdSent>> {
  const nearBody = { ...fixedBody, [idField(ctx)]: n };
  return [
    { request: createRequest(ctx, fixedBody, { note }), sent: { body: fixedBody, id: f } },
    { request: createRequest(ctx, nearBody, { note: `a fresh id beside it, ${n}` }), sent: { body: nearBody, id: n } },
    {
      request: createRequest(ctx, nearBody, { note: `the fresh id again: the target's answer to a duplicate` }),
      sent: { body: nearBody, id: n },
    },
  ];
}

/** Grades the three cases of a fixed id: accepted, or refused exactly as the target refuses a duplicate. */
export function gradeFixedId(ctx: CheckContext, cases: Array<CaseExchange<IdSent>>): Verdict {
  const [first, near, duplicate] = cases as [CaseExchange<IdSent>, CaseExchange<IdSent>, CaseExchange<IdSent>];
  const nearVerdict = gradeAccepted(ctx, near.exchange, near.sent.body);
  if (nearVerdict.outcome !== 'pass') return { ...nearVerdict, exchange: 1 };
  const v = gradeAccepted(ctx, first.exchange, first.sent.body);
  if (v.outcome === 'pass' || v.outcome === 'error') return { ...v, exchange: 0 };
  const same = sameDuplicateAnswer(
    first.exchange,
    first.sent.id,
    duplicate.exchange,
    duplicate.sent.id,
    'exact',
    refusalMembers(ctx, duplicate.exchange),
  );
  if (same === 'same') return { outcome: 'pass' };
  if (same === 'indistinct') {
    return {
      outcome: 'skip',
      exchange: 0,
      expected: "an answer that tells an earlier run's plant from a refused id",
      actual: `the rejection of id ${first.sent.id} equals the target's duplicate answer, which does not name the id: ${describe(first.exchange)}`,
    };
  }
  return { ...v, exchange: 0 };
}

/**
 * A check for a fixed id (0, int64 max, int64 min). A fixed id is stored by
 * the first run against a long-lived target, so a later run's create of it
 * is rightly rejected as a duplicate. The check therefore sends three
 * requests: the fixed id; a fresh id beside it (which must be accepted: the
 * target takes ids in that region); and that fresh id again (a known
 * duplicate). The fixed id passes when it is accepted, or when its
 * rejection is the target's duplicate answer: same status, same `error`,
 * and the same message once each id is replaced by `{id}`. When the
 * duplicate answer does not name the id, an earlier run's plant cannot be
 * told from a refusal of the id: the outcome is `skip`, never `pass`.
 */
export function fixedIdCheck({ id, title, fixed, neighbour, family }: FixedIdCheckOptions): ExchangeCheck<IdSent> {
  return {
    kind: 'exchange',
    id,
    title,
    family,
    // A fixed id is what a lenient reading of another check's invalid id meets (an id past int64 read
    // as a double is int64's end; 1e-7 truncated is 0): stored after those checks have run.
    stage: 'fixed-ids',
    level: 'MUST',
    source: { document: PLANT_STORE_SPEC, section: 'NewPlant: id integer int64; Create plant, rule 1' },
    requirement: `id: integer, format int64. ${RULE1} (Where the document's schema does not allow this id, e.g. a minimum, the check is skipped and says why.)`,
    grading:
      "MUST: the id is a valid int64 by the document, so rule 1 binds: a refusal that is not the target's own answer to a duplicate of this very id fails.",
    evidence:
      'The fixed id answered 200 with the Plant, or refused exactly as the target refuses a known duplicate (a fresh id beside it, sent twice) with a message that names this very id, digit for digit: an earlier run stored it. A refusal that does not name the id cannot be told from one: skip.',
    cases: (ctx) => {
      const f = fixed(ctx);
      // The body with the fixed id first: a document that does not allow it rules the check out (RuledOut).
      const body = validPlant(ctx, { [idField(ctx)]: f });
      const n = neighbour(ctx);
      ctx.ids.claim(n);
      return fixedIdCases(ctx, body, f, n, `id ${f}`);
    },
    verify: (cases, ctx) => gradeFixedId(ctx, cases),
  };
}
