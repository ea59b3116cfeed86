// The cases of the object keywords (JSON Schema Validation 2020-12 §6.5, and
// additionalProperties and unevaluatedProperties from the Core): which
// properties a body has, and how many.
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import { MAX_MADE_VALUES } from '../../spec/value-budget.js';
import type { JsonValue } from '../model/json.js';
import { samplesOf, setAt, typeExemplars } from './schema-values.js';
import { show, UNNAMED_PROPERTY } from './keyword-sites.js';
import { createOf } from '../model/spec-model.js';
import type { Proposal, ProposalSite, Proposer } from './keyword-proposals.js';

/** required: the base with only the required properties and with every one, inside; without each required one, outside. */
function proposeRequired(at: ProposalSite, _keyword: string, value: unknown): Proposal[] {
  const { model, current, inside, outside } = at;
  if (!Array.isArray(value) || !isSchemaObject(current)) return [];
  const only = Object.fromEntries(
    Object.entries(current).filter(
      ([k]) => (value as string[]).includes(k) || createOf(model).request.required.includes(k),
    ),
  ) as JsonValue;
  return [
    inside(only, 'with only the required properties'),
    inside(current, 'with every property'),
    ...(value as string[]).map((name) => outside(setAt(current, [name], undefined), `without the required ${name}`)),
  ];
}

/** dependentRequired: the trigger without each property it requires, outside. */
function proposeDependentRequired(at: ProposalSite, _keyword: string, value: unknown): Proposal[] {
  const { current, outside } = at;
  if (!isSchemaObject(value) || !isSchemaObject(current)) return [];
  return Object.entries(value).flatMap(([trigger, needed]) =>
    (Array.isArray(needed) ? (needed as string[]) : []).map((name) =>
      outside(setAt(current, [name], undefined), `with ${trigger} but without ${name}`),
    ),
  );
}

/** additionalProperties and unevaluatedProperties: a property the schema does not name, allowed or not. */
function proposeAdditional(at: ProposalSite, keyword: string, value: unknown): Proposal[] {
  const { model, site, current, inside, outside } = at;
  if (!isSchemaObject(current) || value === true) return [];
  if (value === false)
    return [
      inside(current, 'with only the properties the schema names'),
      outside(
        setAt(current, [UNNAMED_PROPERTY], 'x'),
        `with a property the schema does not name (${UNNAMED_PROPERTY})`,
      ),
    ];
  const samples = samplesOf(model, value, childPointer(site.pointer, keyword));
  const digits = '7';
  return [
    ...samples
      .slice(0, 2)
      .map((s) => inside(setAt(current, [UNNAMED_PROPERTY], s), `with ${UNNAMED_PROPERTY}: ${show(s)}`)),
    ...typeExemplars(digits).map((e) =>
      outside(setAt(current, [UNNAMED_PROPERTY], e.value), `with ${UNNAMED_PROPERTY} as ${e.label}`),
    ),
  ];
}

/** minProperties and maxProperties: the base trimmed or padded to the bound, and one past it. */
function proposePropertyCount(at: ProposalSite, keyword: string, value: unknown): Proposal[] {
  const { current, inside, outside } = at;
  // An object of more members than the budget of a made value is not made: the keyword gets no case, and coverage says why.
  if (!isSchemaObject(current) || typeof value !== 'number' || value + 1 > MAX_MADE_VALUES) return [];
  const keys = Object.keys(current);
  const trimmed = (n: number) => Object.fromEntries(keys.slice(0, n).map((k) => [k, current[k]!])) as JsonValue;
  const padded = (n: number) =>
    Object.fromEntries([
      ...keys.map((k) => [k, current[k]!]),
      ...Array.from({ length: Math.max(0, n - keys.length) }, (_, i) => [`${UNNAMED_PROPERTY}${i}`, 'x']),
    ]) as JsonValue;
  return keyword === 'minProperties'
    ? [inside(padded(value), `with ${value} properties`), outside(trimmed(value - 1), `with ${value - 1} properties`)]
    : [inside(trimmed(value), `with ${value} properties`), outside(padded(value + 1), `with ${value + 1} properties`)];
}

export const OBJECT_PROPOSERS: Record<string, Proposer> = {
  required: proposeRequired,
  dependentRequired: proposeDependentRequired,
  additionalProperties: proposeAdditional,
  unevaluatedProperties: proposeAdditional,
  minProperties: proposePropertyCount,
  maxProperties: proposePropertyCount,
};
