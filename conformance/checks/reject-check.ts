// The shape of a rejection check: it sends invalid requests and expects each
// refused (the declared 400 with an Error body, or the fitting status), and
// tells a refusal apart from the target's answer to a duplicate id where a
// lenient reading of the id may meet a stored plant.
import type { RequestSpec } from './exchange.js';
import { describe, worst } from './grades.js';
import { gradeRejected, refusalMembers, sameDuplicateAnswer } from './body-grades.js';
import { createRequest, idField, validPlant } from './requests.js';
import { spec } from './sources.js';
import type { Case, CheckContext, ExchangeCheck, Level, Source, Verdict } from './types.js';

export const RULE2 = 'The request body is required; it must contain id (integer, int64) and name (string).';
const REJECT_GRADING = `MUST: the body is not a valid NewPlant (rule 2), so a 2xx fails; the declared 400 must carry an Error body (Errors, rule 1). Another 4xx is non-strict: the specification does not show the conditions of a 400, so 422 (say) is a choice.`;
const REJECT_EVIDENCE = `A 4xx to a body valid but for this one change, with a fresh id (bodies.ts plantBrokenBy); where a lenient reading of the id may meet a stored plant (an id past int64 read as a double, 1e-7 truncated), a refusal unlike the target's answer to a known duplicate (a fresh create, accepted, sent again; a target that refuses the fresh create teaches no duplicate's answer, and its refusals are graded alone). A refusal that looks like it is skip, unless another case failed; one that looks like it and names another id than the one sent fails (the id was read as that stored one).`;
export const ERRORS1 =
  'The error response has status 400, content type application/json, and the body shape Error: integer error (int32) and string message, both always present.';

/** One invalid request of a reject check. */
export interface Refusal {
  request: RequestSpec;
  /**
   * The id the body carries, as written, when a lenient reading of it may
   * meet a plant stored before (an id beyond int64 read as a double lands on
   * int64's end; 1e-7 truncated is 0; no id, null or false read as 0, true as
   * 1): the refusal must then differ from the target's answer to a duplicate
   * id to count.
   */
  mayMeetStored?: string;
}

/** What a case of a reject check sent: an invalid request, or one of the two creates that show the target's answer to a duplicate id. */
type RejectSent = { refusal: Refusal } | { probe: 'fresh' | 'again'; id: bigint | string };

export interface RejectCheckOptions {
  id: string;
  title: string;
  /** The invalid requests; each is graded on its answer alone. */
  requests: (ctx: CheckContext) => Refusal[];
  level?: Level;
  source?: Source;
  requirement?: string;
  /** The RFC statuses for the condition (e.g. 415) that pass beside the declared 400. */
  fitting?: number[];
  /** Where a source lets a server accept the request (RFC 8259 §9, RFC 9110's 415): a 2xx is non-strict, not a failure. */
  acceptanceAllowed?: string;
  grading?: string;
  /** The family of input it sends (CheckBase.family). */
  family: string;
}

/**
 * A check that sends invalid requests and expects each refused. A refusal
 * counts only when nothing but the rule under test explains it: every body
 * is valid but for one change (bodies.ts plantBrokenBy) and carries a fresh
 * id, and where a lenient reading of its id may meet a stored plant, the
 * check first learns the target's answer to a duplicate id (a fresh create,
 * then the same again) and a refusal that looks like it proves nothing: the
 * check then says it cannot tell (skip), unless another case failed.
 */
export function rejectCheck(options: RejectCheckOptions): ExchangeCheck<RejectSent> {
  const { requests, fitting = [], acceptanceAllowed } = options;
  return {
    kind: 'exchange',
    id: options.id,
    title: options.title,
    family: options.family,
    level: options.level ?? 'MUST',
    source: options.source ?? spec('Create plant, rule 2; Errors, rule 1'),
    requirement: options.requirement ?? `${RULE2} ${ERRORS1}`,
    grading:
      options.grading ??
      (acceptanceAllowed
        ? `SHOULD: ${acceptanceAllowed}, so accepting is non-strict, never fail; a refusal must still be the declared 400 with an Error body, or the fitting status.`
        : REJECT_GRADING),
    evidence: REJECT_EVIDENCE,
    cases: (ctx) => {
      const refusals = requests(ctx);
      const probes: Array<Case<RejectSent>> = [];
      if (refusals.some((r) => r.mayMeetStored !== undefined)) {
        const body = validPlant(ctx);
        const raw = body[idField(ctx)];
        // An id of any kind: a duplicate's answer names it as it was sent (a UUID as text).
        const id = typeof raw === 'string' ? raw : BigInt(raw as bigint);
        probes.push(
          {
            request: createRequest(ctx, body, {
              note: "a fresh create, to learn the target's answer to a duplicate id",
            }),
            sent: { probe: 'fresh', id },
          },
          {
            request: createRequest(ctx, body, { note: "the same create again: the target's answer to a duplicate id" }),
            sent: { probe: 'again', id },
          },
        );
      }
      return [...probes, ...refusals.map((refusal) => ({ request: refusal.request, sent: { refusal } }))];
    },
    verify: (cases, ctx) => {
      // The second create answers as a duplicate only when the first stored the plant: a target that refused
      // the fresh create (an id its own document rules out) taught nothing, and its refusals are graded alone.
      const fresh = cases.find((c) => 'probe' in c.sent && c.sent.probe === 'fresh');
      const stored2xx = (fresh?.exchange.response?.status ?? 0) >= 200 && (fresh?.exchange.response?.status ?? 0) < 300;
      const again = stored2xx ? cases.find((c) => 'probe' in c.sent && c.sent.probe === 'again') : undefined;
      let evidence = 0;
      const cannotTell: Verdict[] = [];
      const verdicts: Verdict[] = [];
      cases.forEach((c, i) => {
        if (!('refusal' in c.sent)) return;
        let v = gradeRejected(ctx, c.exchange, fitting);
        const status = c.exchange.response?.status ?? 0;
        if (v.outcome === 'fail' && acceptanceAllowed !== undefined && status >= 200 && status < 300) {
          v = {
            ...v,
            outcome: 'non-strict',
            expected: `${v.expected} (${acceptanceAllowed})`,
            cause: `a request the server may refuse is accepted (${acceptanceAllowed})`,
          };
        }
        const stored = c.sent.refusal.mayMeetStored;
        if (v.outcome === 'pass' && stored !== undefined && again !== undefined && 'probe' in again.sent) {
          const like = sameDuplicateAnswer(
            c.exchange,
            stored,
            again.exchange,
            again.sent.id,
            'any',
            refusalMembers(ctx, again.exchange),
          );
          // The refusal's own message names another id than the one sent (2^63 read as a double is
          // 9223372036854775808, stored; -2^63-1 is -2^63): the id was read leniently, as that one.
          const other = otherIdNamed(c.exchange.response?.bodyText ?? '', stored);
          if (like !== 'different' && other !== undefined) {
            verdicts.push({
              exchange: i,
              outcome: 'fail',
              expected: `a refusal of the id ${stored} itself`,
              actual: `the target's answer to a duplicate, naming the id ${other}, not ${stored} as sent: it read the invalid id as ${other}, a stored plant's (${describe(c.exchange)})`,
              cause: 'an invalid id is read leniently as another, stored id',
            });
            return;
          }
          if (like !== 'different') {
            cannotTell.push({
              outcome: 'skip',
              exchange: i,
              expected: 'a refusal that a duplicate id cannot explain',
              actual: `the refusal of id ${stored} is the target's answer to a duplicate id (${describe(again.exchange)}): a server that read the id leniently may have met a stored plant`,
            });
            return;
          }
        }
        if (v.outcome === 'pass') evidence++;
        verdicts.push({ exchange: i, ...v });
      });
      const graded = worst(verdicts);
      // A failure stands; a pass needs every case told apart from a duplicate.
      if (graded.outcome !== 'pass' || cannotTell.length === 0) return graded;
      return {
        ...cannotTell[0]!,
        actual: `${cannotTell[0]!.actual}; ${evidence} other refusal(s) of this check were told apart`,
      };
    },
  };
}

/** An integer of 6 or more digits that a refusal names where `sent` (an integer numeral) was sent, other than `sent` itself; undefined when `sent` is no integer numeral or none is named. */
function otherIdNamed(text: string, sent: string): string | undefined {
  if (!/^-?\d+$/.test(sent)) return undefined;
  const named = [...text.matchAll(/-?\d{6,}/g)].map((m) => m[0]);
  return named.includes(sent) ? undefined : named[0];
}
