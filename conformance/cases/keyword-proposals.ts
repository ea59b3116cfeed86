// What a keyword proposes before keywordDerivations (keyword-cases.ts) sorts
// it with the request validator: the shape of a proposal, and the one
// signature of every keyword family's proposers (keyword-any-type.ts,
// keyword-strings.ts, keyword-numbers.ts, keyword-objects.ts,
// keyword-arrays.ts, keyword-applicators.ts), so that the table of them is
// the only place a keyword is looked up.
import type { JsonValue } from '../model/json.js';
import type { SpecModel } from '../model/spec-model.js';
import { where, type Site } from './keyword-sites.js';

export type Side = 'inside' | 'outside';

/** At most this many cases on each side of a keyword. */
export const MAX_CASES = 6;

export interface Proposal {
  side: Side;
  value: JsonValue | undefined;
  note: string;
  /** Proposals with one intent are alternatives: the first the validator confirms is the case (default: the note). */
  intent?: string;
}

/** Where a keyword proposes: the document, the schema object it is in, the base body's value there, and a proposal on each side, its note led by where it is. */
export interface ProposalSite {
  model: SpecModel;
  site: Site;
  current: JsonValue | undefined;
  inside: (v: JsonValue | undefined, note: string) => Proposal;
  outside: (v: JsonValue | undefined, note: string) => Proposal;
}

/** The cases one keyword proposes from its value, before the validator sorts them. */
export type Proposer = (at: ProposalSite, keyword: string, value: unknown) => Proposal[];

export function proposalSite(model: SpecModel, site: Site, current: JsonValue | undefined): ProposalSite {
  const at = where(site.path);
  const inside = (v: JsonValue | undefined, note: string): Proposal => ({
    side: 'inside',
    value: v,
    note: `${at} ${note}`,
  });
  const outside = (v: JsonValue | undefined, note: string): Proposal => ({
    side: 'outside',
    value: v,
    note: `${at} ${note}`,
  });
  return { model, site, current, inside, outside };
}
