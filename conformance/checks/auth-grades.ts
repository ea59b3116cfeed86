// What a refusal of credentials must be: a 4xx (401 recommended) carrying a
// Bearer challenge with an auth-param (RFC 6750 §3, RFC 9110 §11.6.1).
import type { Exchange } from './exchange.js';
import { parseChallenges } from '../../lib/http-syntax.js';
import { describe, noAnswer } from './grades.js';
import type { Facts, Verdict } from './types.js';

const RFC6750_3_PARAMS =
  'All challenges defined by this specification MUST use the auth-scheme value "Bearer". This scheme MUST be followed by one or more auth-param values.';

/**
 * What is wrong with an answer's Bearer challenge, or undefined when it has
 * one that RFC 9110 §11.6.1 can read and RFC 6750 §3 allows (the Bearer
 * scheme followed by one or more auth-params).
 */
export function challengeProblem(ex: Exchange): { problem: string; cause: string } | undefined {
  const h = ex.response!.headers['www-authenticate'];
  if (h === undefined)
    return { problem: 'no WWW-Authenticate', cause: 'a refusal of missing or bad credentials has no WWW-Authenticate' };
  const parsed = parseChallenges(h);
  if ('error' in parsed)
    return {
      problem: `WWW-Authenticate does not parse as challenges (RFC 9110 §11.6.1: ${parsed.error})`,
      cause: 'the WWW-Authenticate challenge does not parse (RFC 9110 §11.6.1)',
    };
  const bearer = parsed.challenges.find((c) => c.scheme.toLowerCase() === 'bearer');
  if (!bearer)
    return { problem: 'no Bearer challenge', cause: 'a refusal of missing or bad credentials has no Bearer challenge' };
  if (bearer.token68 !== undefined || bearer.params.size === 0) {
    return {
      problem: `a Bearer challenge without an auth-param (RFC 6750 §3: "${RFC6750_3_PARAMS}")`,
      cause: 'the Bearer challenge has no auth-param (RFC 6750 §3)',
    };
  }
  return undefined;
}

/**
 * Credentials the target must refuse. Binding: the request is not served
 * (Plant Store specification, Authentication rule 1: every operation
 * requires bearer authentication), and the refusal carries a Bearer
 * challenge with an auth-param (RFC 6750 §3, MUST; RFC 9110 §11.6.1).
 * The status: 401 is what RFC 6750 §3.1 recommends for a bad token and
 * what we chose; another 4xx is allowed (SHOULD), so non-strict.
 * `bodyFirst`: the check is about the order of the checks (PS-AUTH-007), so
 * a 4xx without a challenge, the body's refusal, is non-strict too.
 */
export function gradeUnauthorized(ex: Exchange, { bodyFirst = false }: { bodyFirst?: boolean } = {}): Verdict {
  const missing = noAnswer(ex);
  if (missing) return missing;
  const status = ex.response!.status;
  const expected = '401 with WWW-Authenticate: Bearer and an auth-param';
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
  const challenge = challengeProblem(ex);
  if (challenge && !(bodyFirst && status !== 401))
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
