// The cases of the keywords for any instance type (JSON Schema Validation
// 2020-12 §6.1): type, enum and const.
import { noteText, type JsonValue } from '../model/json.js';
import { baseBodies } from './bodies.js';
import { getAt, jsonTypeOf, samplesOf, typeAllowed, typeExemplars } from './schema-values.js';
import { numberValue } from './number-values.js';
import { add, rational, show } from './keyword-sites.js';
import { MAX_CASES, type Proposal, type ProposalSite, type Proposer } from './keyword-proposals.js';

/** type: a value of each allowed type, inside; one of each other JSON type, outside. */
function proposeType(at: ProposalSite, _keyword: string, value: unknown): Proposal[] {
  const { model, site, current, inside, outside } = at;
  const { node } = site;
  const allowed = (Array.isArray(value) ? value : [value]) as string[];
  const ins = allowed.map((t) => {
    const own =
      current !== undefined && jsonTypeOf(current) === t
        ? current
        : samplesOf(model, node, site.pointer, { type: t })[0];
    return inside(own, `as ${t} ${show(own)}`);
  });
  const { full, idField } = baseBodies(model);
  const digits = noteText((idField !== undefined ? getAt(full, [idField]) : undefined) ?? 7);
  const outs = typeExemplars(digits)
    .filter((e) => !typeAllowed(allowed, e.type))
    .map((e) => outside(e.value, `as ${e.label}, ${show(e.value)}`));
  return [...ins, ...outs];
}

/** enum and const: each listed value, inside; near misses of them (another case, a neighbouring number), outside. */
function proposeListed(at: ProposalSite, keyword: string, value: unknown): Proposal[] {
  const { inside, outside } = at;
  const listed = (keyword === 'const' ? [value] : Array.isArray(value) ? value : []) as JsonValue[];
  const variants: JsonValue[] = [];
  for (const v of listed) {
    if (typeof v === 'string')
      variants.push(`${v}-unlisted`, v.toUpperCase() === v ? v.toLowerCase() : v.toUpperCase(), '');
    else if (typeof v === 'boolean') variants.push(!v);
    const r = rational(v);
    if (r) variants.push(numberValue(add(r, { n: 1n, d: 1n })), numberValue(add(r, { n: -1n, d: 1n })));
  }
  return [
    ...listed
      .slice(0, MAX_CASES)
      .map((v) => inside(v, `${show(v)}, ${keyword === 'const' ? 'the constant' : 'a listed value'}`)),
    ...variants
      .filter((v) => !listed.some((l) => JSON.stringify(l) === JSON.stringify(v)))
      .map((v) => outside(v, `${show(v)}, not ${keyword === 'const' ? 'the constant' : 'listed'}`)),
  ];
}

export const ANY_TYPE_PROPOSERS: Record<string, Proposer> = {
  type: proposeType,
  enum: proposeListed,
  const: proposeListed,
};
