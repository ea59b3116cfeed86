// The cases of the applicators and the keywords that take a schema (allOf,
// anyOf, oneOf, not, if, contains, propertyNames, ...): no value follows
// from the keyword alone, so each draws from a pool of values, and the
// validator sorts each one to the side it falls on.
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import type { JsonValue } from '../model/json.js';
import { samplesOf, setAt, typeExemplars } from './schema-values.js';
import { show, type Site } from './keyword-sites.js';
import type { SpecModel } from '../model/spec-model.js';
import type { Proposal, ProposalSite, Proposer } from './keyword-proposals.js';

/** The keywords whose cases are drawn from a pool of values. */
const POOLED = [
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'contains',
  'minContains',
  'maxContains',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'unevaluatedItems',
];

/** Values to try for an applicator: the current one, samples of the schema and of its branches, and one of each JSON type. */
function pool(
  model: SpecModel,
  site: Site,
  keyword: string,
  value: unknown,
  current: JsonValue | undefined,
): Array<JsonValue | undefined> {
  const out: Array<JsonValue | undefined> = [current, ...samplesOf(model, site.node, site.pointer)];
  if (Array.isArray(value))
    value.forEach((b, i) => out.push(...samplesOf(model, b, childPointer(site.pointer, keyword, i))));
  else if (isSchemaObject(value)) out.push(...samplesOf(model, value, childPointer(site.pointer, keyword)));
  out.push(...typeExemplars('7').map((e) => e.value), '', 0, -1, 'x');
  if (isSchemaObject(current)) {
    for (const k of Object.keys(current)) out.push(setAt(current, [k], undefined));
    out.push({});
  }
  return out;
}

/** Every value of the pool, proposed on each side: the validator keeps those that fall there. */
function proposePooled(
  { model, site, current, inside, outside }: ProposalSite,
  keyword: string,
  value: unknown,
): Proposal[] {
  return pool(model, site, keyword, value, current).flatMap((v) => [inside(v, show(v)), outside(v, show(v))]);
}

export const APPLICATOR_PROPOSERS: Record<string, Proposer> = Object.fromEntries(
  POOLED.map((keyword) => [keyword, proposePooled]),
);
