// The cases of the array keywords (JSON Schema Validation 2020-12 §6.4):
// minItems, maxItems and uniqueItems. contains and its bounds draw from the
// applicators' pool (keyword-applicators.ts).
import { MAX_MADE_VALUES } from '../../spec/value-budget.js';
import type { JsonValue } from '../model/json.js';
import { samplesOf } from './schema-values.js';
import type { Proposal, ProposalSite, Proposer } from './keyword-proposals.js';

/** minItems, maxItems and uniqueItems: arrays of the bound's length and one past it; two items the same. */
function proposeItems(at: ProposalSite, keyword: string, value: unknown): Proposal[] {
  const { model, site, current, inside, outside } = at;
  const { node } = site;
  const items = Array.isArray(current)
    ? current
    : ((samplesOf(model, node, site.pointer, { type: 'array' })[0] as JsonValue[] | undefined) ?? []);
  const item = items[0] ?? 'x';
  const of = (n: number) =>
    Array.from({ length: Math.max(0, n) }, (_, i) => (typeof item === 'string' ? `${item}${i}` : item));
  if (keyword === 'uniqueItems')
    return value === true
      ? [inside(of(2), 'with two different items'), outside([item, item], 'with the same item twice')]
      : [];
  // An array longer than the budget of a made value is not made: the keyword gets no case, and coverage says why.
  if (typeof value !== 'number' || value + 1 > MAX_MADE_VALUES) return [];
  return keyword === 'minItems'
    ? [inside(of(value), `with ${value} items`), outside(of(value - 1), `with ${value - 1} items`)]
    : [inside(of(value), `with ${value} items`), outside(of(value + 1), `with ${value + 1} items`)];
}

export const ARRAY_PROPOSERS: Record<string, Proposer> = {
  minItems: proposeItems,
  maxItems: proposeItems,
  uniqueItems: proposeItems,
};
