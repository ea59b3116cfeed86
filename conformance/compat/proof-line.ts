// The one line a proven change's report opens its proofs with: which call
// broke which side, how it was answered, by which check; and, where the
// check's own subject is not the change (a check about an id of 0 whose
// request carries an id the narrowed format refuses), why that check proves
// it: the request is one the checking document allows, and the refusal of
// the server following the other document names the change.
import type { CheckResult } from '../run/result.js';
import type { Change, Side } from './change.js';
import { operationShows, statusOf } from './operation-proof.js';

/** The message of a JSON error answer in a check's Actual, when it names the change (its keyword or new value). */
function refusalNaming(change: Change, actual: string): string | undefined {
  const message = /"message":"((?:[^"\\]|\\.)*)"/.exec(actual)?.[1];
  if (!message) return undefined;
  const value = typeof change.after === 'string' || typeof change.after === 'number' ? String(change.after) : undefined;
  return (value !== undefined && message.includes(value)) || message.includes(change.keyword)
    ? message.replace(/\\"/g, '"')
    : undefined;
}

/** For a schema's change: a request the checking document allows, refused by the server following the other one, whose refusal names the change. */
function refusalShows(change: Change, side: Side, proof: CheckResult): string | undefined {
  const status = statusOf(proof);
  const expectsSuccess = /^(2\d\d\b|a declared success)/.test(proof.expected ?? '');
  if (!status || !status.startsWith('4') || !expectsSuccess) return undefined;
  const label = /^\[([^\]]*)\]/.exec(proof.actual ?? '')?.[1];
  const [checking, serving] = side === 'clients' ? ['old', 'new'] : ['new', 'old'];
  const named = refusalNaming(change, proof.actual ?? '');
  return `a request the ${checking} document allows${label ? ` (${label})` : ''} is answered ${status} by a server following the ${serving} document${named ? `, whose refusal names the change: ${named}` : ''} (${proof.id})`;
}

/** The line, or undefined where the proof's Expected and Actual say it plainly enough. */
export function provenLine(change: Change, side: Side, proof: CheckResult): string | undefined {
  return operationShows(change, side, proof) ?? refusalShows(change, side, proof);
}
