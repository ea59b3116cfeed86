// What a refusal of credentials must be: a 4xx (401 recommended) carrying a
// challenge RFC 9110 §11.6.1 can read, of the scheme an RFC ties to the
// credential: Bearer with an auth-param for a bearer token (RFC 6750 §3),
// Basic with a realm for HTTP Basic (RFC 7617 §2); for an API key no
// challenge scheme is registered, so any challenge will do, but a 401 must
// carry one (RFC 9110 §15.5.2).
import type { Exchange } from './exchange.js';
import { parseChallenges, type Challenge } from '../../lib/http-syntax.js';
import { describe, noAnswer } from './grades.js';
import { challengeOf, type ChallengeScheme, type SecuritySchemeModel } from '../model/security.js';
import type { Facts, Verdict } from './types.js';

const RFC6750_3_PARAMS =
  'All challenges defined by this specification MUST use the auth-scheme value "Bearer". This scheme MUST be followed by one or more auth-param values.';
const RFC7617_2_REALM = "The authentication parameter 'realm' is REQUIRED ([RFC7235], Section 2.2).";

/**
 * The challenge a refusal must carry: one of `schemes` (each an RFC's:
 * Bearer, Basic), or, when there is none, any challenge (an API key).
 */
export interface ChallengeRule {
  schemes: readonly ChallengeScheme[];
}

/** Every alternative needs a bearer token: a Bearer challenge (RFC 6750 §3). */
export const BEARER_CHALLENGE: ChallengeRule = { schemes: ['Bearer'] };

/**
 * The challenge a refusal of credentials for these alternatives must carry:
 * those of the RFC challenge schemes that every alternative needs a
 * credential of (a Bearer challenge where each alternative needs a bearer
 * token); none (any challenge) where the alternatives share none, e.g.
 * Basic or an API key, or an API key alone. A refusal of one scheme's
 * credential in particular passes its scheme alone (`only`).
 */
export function challengeRule(
  alternatives: ReadonlyArray<readonly SecuritySchemeModel[]>,
  only?: SecuritySchemeModel,
): ChallengeRule {
  const needed = alternatives.filter((a) => a.length > 0);
  if (needed.length === 0) return { schemes: [] };
  const candidates: ChallengeScheme[] = only
    ? [challengeOf(only)].filter((c): c is ChallengeScheme => c !== undefined)
    : ['Bearer', 'Basic'];
  return { schemes: candidates.filter((c) => needed.every((a) => a.some((s) => challengeOf(s) === c))) };
}

/** The rule in words: "Bearer and an auth-param", "Basic with a realm", "a challenge". */
export function ruleText(rule: ChallengeRule): string {
  const one = (s: ChallengeScheme) => (s === 'Bearer' ? 'Bearer and an auth-param' : 'Basic with a realm');
  return rule.schemes.length === 0 ? 'a challenge' : rule.schemes.map(one).join(', or ');
}

/** What is wrong with a challenge of its own scheme: a Bearer one without an auth-param, a Basic one without a realm. */
function ownProblem(c: Challenge): { problem: string; cause: string } | undefined {
  const scheme = c.scheme.toLowerCase();
  if (scheme === 'bearer' && (c.token68 !== undefined || c.params.size === 0))
    return {
      problem: `a Bearer challenge without an auth-param (RFC 6750 §3: "${RFC6750_3_PARAMS}")`,
      cause: 'the Bearer challenge has no auth-param (RFC 6750 §3)',
    };
  if (scheme === 'basic' && !c.params.has('realm'))
    return {
      problem: `a Basic challenge without a realm (RFC 7617 §2: "${RFC7617_2_REALM}")`,
      cause: 'the Basic challenge has no realm (RFC 7617 §2)',
    };
  return undefined;
}

/**
 * What is wrong with an answer's challenge, or undefined when it has one
 * that RFC 9110 §11.6.1 can read and that `rule` asks for (by default a
 * Bearer challenge followed by one or more auth-params, RFC 6750 §3).
 */
export function challengeProblem(
  ex: Exchange,
  rule: ChallengeRule = BEARER_CHALLENGE,
): { problem: string; cause: string } | undefined {
  const h = ex.response!.headers['www-authenticate'];
  if (h === undefined)
    return { problem: 'no WWW-Authenticate', cause: 'a refusal of missing or bad credentials has no WWW-Authenticate' };
  const parsed = parseChallenges(h);
  if ('error' in parsed)
    return {
      problem: `WWW-Authenticate does not parse as challenges (RFC 9110 §11.6.1: ${parsed.error})`,
      cause: 'the WWW-Authenticate challenge does not parse (RFC 9110 §11.6.1)',
    };
  if (rule.schemes.length === 0)
    return parsed.challenges.length > 0
      ? undefined
      : { problem: 'no challenge', cause: 'a refusal of missing or bad credentials has no challenge' };
  const wanted = parsed.challenges.filter((c) => rule.schemes.some((s) => s.toLowerCase() === c.scheme.toLowerCase()));
  if (wanted.length === 0) {
    const names = rule.schemes.join(' or ');
    return {
      problem: `no ${names} challenge`,
      cause: `a refusal of missing or bad credentials has no ${names} challenge`,
    };
  }
  const problems = wanted.map(ownProblem);
  return problems.some((p) => p === undefined) ? undefined : problems[0];
}

/**
 * Credentials the target must refuse. Binding: the request is not served
 * (the document's security requirement), and the refusal carries the
 * challenge `rule` asks for: a Bearer challenge with an auth-param whatever
 * the status (RFC 6750 §3, MUST); any other challenge on a 401 (RFC 9110
 * §15.5.2, MUST: "at least one challenge applicable to the target
 * resource"), a Basic one with a realm where Basic is what every
 * alternative needs (RFC 7617 §2). The status: 401 is what RFC 6750 §3.1
 * recommends for a bad token and what we chose; another 4xx is allowed
 * (SHOULD), so non-strict. `bodyFirst`: the check is about the order of the
 * checks (PS-AUTH-007), so a 4xx without a challenge, the body's refusal, is
 * non-strict too.
 */
export function gradeUnauthorized(
  ex: Exchange,
  { bodyFirst = false, rule = BEARER_CHALLENGE }: { bodyFirst?: boolean; rule?: ChallengeRule } = {},
): Verdict {
  const missing = noAnswer(ex);
  if (missing) return missing;
  const status = ex.response!.status;
  const expected = `401 with WWW-Authenticate: ${ruleText(rule)}`;
  const facts: Facts = {
    status,
    header: { name: 'www-authenticate', value: ex.response!.headers['www-authenticate'] ?? null },
  };
  if (status < 400 || status >= 500)
    return {
      outcome: 'fail',
      expected,
      actual: describe(ex),
      cause: `credentials the target must refuse are answered ${status}`,
      facts,
    };
  const challenge = challengeProblem(ex, rule);
  // RFC 6750 §3 asks a bearer refusal for its challenge whatever its status; RFC 9110 asks it of a 401.
  const bearerOnly = rule.schemes.length === 1 && rule.schemes[0] === 'Bearer';
  if (challenge && (status === 401 || (bearerOnly && !bodyFirst)))
    return {
      outcome: 'fail',
      expected,
      actual: `${challenge.problem}: ${describe(ex)}`,
      cause: challenge.cause,
      facts,
    };
  if (status === 401) return { outcome: 'pass' };
  return {
    outcome: 'non-strict',
    expected,
    actual: describe(ex),
    cause: `credentials the target must refuse are answered ${status}, not 401`,
    facts,
  };
}
