// The shape of an acceptance check: it sends bodies the document makes
// valid (each checked against the request validator first) and expects each
// accepted and echoed.
import { each } from './grades.js';
import { ACCEPT_EVIDENCE, ACCEPT_GRADING, gradeAccepted } from './body-grades.js';
import { RuledOut } from '../cases/draw.js';
import { createRequest, whyInvalid, type Body } from './requests.js';
import { spec } from './sources.js';
import type { Exchange } from './exchange.js';
import type { Case, CheckContext, ExchangeCheck, Source, Verdict } from './types.js';

export const RULE1 =
  'When the request body is a valid NewPlant record, then the service answers 200 with a Plant record.';

export interface ValidBody {
  body: Body;
  note: string;
  /** The JSON text to send instead of `body`, for member names an object literal cannot hold. */
  raw?: string;
}

/** A body a check proposes: made when the check runs, from the document (bodies.ts), which may rule it out. */
export interface Candidate {
  note: string;
  body: () => Body;
  /** The JSON text to send instead of the body, when an object literal cannot say it. */
  raw?: (body: Body) => string;
}

/**
 * The bodies the document makes valid, each built by the document's body
 * maker and checked against the request validator: a candidate the document
 * rules out is left out, and the reason (keyword and pointer) goes into the
 * notes of the cases sent, or, when none is left, into the check's skip
 * (RuledOut).
 */
function checkedBodies(ctx: CheckContext, candidates: Candidate[]): ValidBody[] {
  const bodies: ValidBody[] = [];
  const excluded: string[] = [];
  for (const c of candidates) {
    try {
      const body = c.body();
      const why = whyInvalid(ctx, body);
      if (why === undefined) bodies.push({ body, note: c.note, ...(c.raw ? { raw: c.raw(body) } : {}) });
      else excluded.push(`${c.note}: not valid per the document (${why})`);
    } catch (err) {
      if (!(err instanceof RuledOut)) throw err;
      excluded.push(`${c.note}: ${err.message}`);
    }
  }
  if (bodies.length === 0)
    throw new RuledOut(`the document allows none of the values this check sends: ${excluded.join('; ')}`);
  const said = excluded.length > 0 ? `; not sent: ${excluded.join('; ')}` : '';
  return bodies.map((b) => ({ ...b, note: `${b.note}${said}` }));
}

/** The cases of valid bodies: each sends one, and carries it to grade the echo against. */
function validBodyCases(ctx: CheckContext, bodies: ValidBody[]): Array<Case<Body>> {
  return bodies.map((b) => ({
    request: createRequest(ctx, b.raw !== undefined ? { raw: b.raw } : b.body, { note: b.note }),
    sent: b.body,
  }));
}

export interface AcceptCheckOptions {
  id: string;
  title: string;
  /** Proposed once per run (fresh ids); made and checked against the document before they are sent. */
  bodies: (ctx: CheckContext) => Candidate[];
  source?: Source;
  requirement?: string;
  /** How an answer is graded (default: gradeAccepted). */
  grade?: (ctx: CheckContext, ex: Exchange, sent: Body) => Verdict;
  grading?: string;
  /** The family of input it sends (CheckBase.family); `plain` for the plain valid body. */
  family?: string;
  plain?: boolean;
}

/** A check that sends valid bodies and expects each accepted and echoed; skipped when the document allows none of them. */
export function acceptCheck({
  id,
  title,
  bodies,
  source,
  requirement,
  grade = gradeAccepted,
  grading = ACCEPT_GRADING,
  family,
  plain,
}: AcceptCheckOptions): ExchangeCheck<Body> {
  return {
    kind: 'exchange',
    id,
    title,
    ...(family !== undefined ? { family } : {}),
    ...(plain ? { plain } : {}),
    level: 'MUST',
    source: source ?? spec('Create plant, rule 1'),
    requirement: requirement ?? RULE1,
    grading,
    evidence: ACCEPT_EVIDENCE,
    cases: (ctx) => validBodyCases(ctx, checkedBodies(ctx, bodies(ctx))),
    verify: (cases, ctx) => each(cases, (c) => grade(ctx, c.exchange, c.sent)),
  };
}
