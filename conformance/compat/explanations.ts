// What the report says where the rules and the evidence do not meet: why a
// rule stands with no failing check (a witness shows it, or nothing can), why
// it is unconfirmed, and what a check that fails where no rule said so shows.
import type { CheckResult } from '../run/result.js';
import type { Change, Side } from './change.js';
import type { Witness } from './witness.js';

/** Why a breaking rule has no failing check: what its witness shows, why it is unconfirmed, or why no evidence can be had. */
export function ruleOnlyExplanation(
  change: Change,
  side: Side,
  witness: Witness | 'none' | undefined,
  ran: boolean,
): string {
  const whose = side === 'clients' ? 'old' : 'new';
  const run = ran ? `no check of the ${whose} document meets this change` : 'the crossed run could not run';
  if (witness === 'none') {
    return `unconfirmed: ${run}, and every exchange tried at ${change.instancePath?.join('/') || 'the root'} is judged alike by the two documents' validators`;
  }
  if (witness) {
    return `the documents show it: ${witness.example} is valid under the ${witness.validUnder} document and refused by the ${witness.validUnder === 'old' ? 'new' : 'old'} one (${witness.refusal})${ran ? `; no check of the ${whose} document sent it` : ''}`;
  }
  return `the rule stands: ${ruleOnlyReason(change, side)}`;
}

function ruleOnlyReason(change: Change, side: Side): string {
  if (change.keyword === 'security' || change.keyword === 'securityScheme') {
    return 'the reference server authenticates with bearer tokens whatever the document says (docs/server.md), and the harness sends bearer credentials, so execution cannot show a change of scheme';
  }
  if (change.keyword === 'parameter' || change.bearings.some((b) => / parameter /.test(b.usage))) {
    return `no check of the ${side === 'clients' ? 'old' : 'new'} document sent a request that meets this parameter change, and no exchange can be built for it`;
  }
  if (change.keyword === 'response' || change.keyword === 'content') {
    return side === 'clients'
      ? 'the reference answers as it did, and a status or media type the new document allows is a promise no check of the old document meets until a server uses it'
      : 'a server answers what its behaviour gives; the checks do not make the reference give every declared answer';
  }
  const whose = side === 'clients' ? 'old' : 'new';
  return `it rests on its source; no check of the ${whose} document sent a request that meets this change, and no exchange can be built for it`;
}

export function executionOnlyExplanation(check: CheckResult, change: Change | undefined, side: Side): string {
  const whose = side === 'clients' ? 'an existing client' : 'an existing server';
  const shows = `the execution stands: ${check.id} (${check.source.document}, ${check.source.section}) shows a request ${whose} gets wrong`;
  if (!change) return `${shows}, and no rule ties it to a change: the rules missed it`;
  if (change[side] === 'unknown')
    return `${shows}, where the rules could not tell for ${change.id}: the execution decides, ${side} break`;
  return `${shows}, and the rules called ${change.id} compatible for ${side}: the rules missed it`;
}
