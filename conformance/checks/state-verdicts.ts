// What the state checks of every resource (state-read.ts, state-update.ts,
// state-nested.ts) share when they grade: the members an answer does not
// carry as expected, each chain whose create was accepted, a chain's steps by
// label, the verdict that says nothing was sent or the create was refused,
// and a read refused with 403 (which shows nothing of the item).
import { sameValue, type JsonValue } from '../model/json.js';
import { describe, worst } from './grades.js';
import { chains, isSuccess, type Indexed } from './op-cases.js';
import type { CaseExchange, Verdict } from './types.js';

/** A verdict about one case of a chain. */
export const at = (c: Indexed, v: Verdict): Verdict => ({ exchange: c.index, ...v });

/** The members of `expected` that `actual` does not carry with the same value. */
export function differences(expected: JsonValue | undefined, actual: JsonValue | undefined, only?: string[]): string[] {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return [];
  const got =
    actual !== null && typeof actual === 'object' && !Array.isArray(actual)
      ? (actual as Record<string, JsonValue>)
      : {};
  return Object.entries(expected as Record<string, JsonValue>)
    .filter(([k]) => !only || only.includes(k))
    .filter(([k, v]) => got[k] === undefined || !sameValue(v, got[k]))
    .map(([k]) => k);
}

/** Each chain's steps; a chain whose create was refused is left out (the create checks grade it). */
export function created(cases: Array<CaseExchange<unknown>>): Indexed[][] {
  return chains(cases).filter((steps) => !steps[0]!.sent.create || isSuccess(steps[0]!.exchange));
}

/** A chain's steps whose label starts with `label`. */
export const steps = (chain: Indexed[], label: string) => chain.filter((s) => s.sent.label.startsWith(label));

/**
 * A read refused with 403: the token may create but not read (authorization
 * per operation, which PS-OP-002 grades non-strict), so the read shows
 * nothing of the item either way.
 */
export function forbidden(read: Indexed): Verdict | undefined {
  if (read.exchange.response?.status !== 403) return undefined;
  return at(read, {
    outcome: 'skip',
    actual: `${read.sent.operation} refuses the token with 403 (authorization per operation, PS-OP-002 grades it): the item cannot be read back: ${describe(read.exchange)}`,
  });
}

/** The verdict when no chain got past its create: why (the create refused, or its id not found), or that nothing was sent. */
export function skipAll(cases: Array<CaseExchange<unknown>>): Verdict {
  const all = chains(cases);
  const refused = all.find((s) => s[0]!.sent.create && !isSuccess(s[0]!.exchange));
  if (refused)
    return { outcome: 'skip', actual: `the create before it was not accepted: ${describe(refused[0]!.exchange)}` };
  const stopped = all.find((s) => s.length === 1 && s[0]!.sent.create && s[0]!.sent.rest.length > 0);
  return {
    outcome: 'skip',
    actual: stopped
      ? `the item ${stopped[0]!.sent.operation} created cannot be named: its id is nowhere the harness looks (the request's id member, the answer's, a Location naming the item): ${describe(stopped[0]!.exchange)}`
      : 'nothing was sent',
  };
}

/** The verdict of a check over several resources: the worst graded one (a skip of one resource does not hide another's verdict), else the first skip, else `none`. */
export function combined(verdicts: Verdict[], none: Verdict): Verdict {
  const graded = verdicts.filter((v) => v.outcome !== 'skip');
  return graded.length > 0 ? worst(graded) : (verdicts[0] ?? none);
}
