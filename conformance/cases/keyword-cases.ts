// Each keyword of the request schema, as written in the document, yields
// cases just inside its boundary (a body the schema accepts) and just outside
// it (a body the schema refuses, and would accept without that keyword). The
// cases are proposed from the keyword's value (maxLength 50: 50 and 51
// characters) and then sorted by the request validator, so the expectation
// always comes from the document as written. Keywords without cases say why.
// JSON Schema Validation 2020-12: https://json-schema.org/draft/2020-12/json-schema-validation
import { childPointer, keywordInfo, type KeywordUse } from '../../spec/schema-keywords.js';
import { isCheckedFormat } from '../../spec/validator.js';
import type { JsonValue } from '../model/json.js';
import { baseBodies } from './bodies.js';
import { getAt, setAt, type InstancePath } from './schema-values.js';
import { sites, type Site } from './keyword-sites.js';
import { createOf, type SpecModel } from '../model/spec-model.js';
import { MAX_CASES, proposalSite, type Proposal, type Proposer, type Side } from './keyword-proposals.js';
import { ANY_TYPE_PROPOSERS } from './keyword-any-type.js';
import { STRING_PROPOSERS } from './keyword-strings.js';
import { NUMBER_PROPOSERS } from './keyword-numbers.js';
import { OBJECT_PROPOSERS } from './keyword-objects.js';
import { ARRAY_PROPOSERS } from './keyword-arrays.js';
import { APPLICATOR_PROPOSERS } from './keyword-applicators.js';

export type { Side } from './keyword-proposals.js';

export interface KeywordCase {
  side: Side;
  /** The whole request body (its id is the base's; a case that is not about the id gets a fresh one when sent). */
  body: JsonValue;
  /** What the case sends, e.g. "/name of 51 characters". */
  note: string;
  /** The case puts this value in the id field itself (a boundary of the id): graded as a fixed id is. */
  fixedId?: bigint;
}

export interface KeywordDerivation {
  use: KeywordUse;
  /** Where in the body the keyword applies. */
  path: InstancePath;
  inside: KeywordCase[];
  outside: KeywordCase[];
}

export { UNNAMED_PROPERTY } from './keyword-sites.js';

/** Each keyword that has cases, with what proposes them (a Map: a document's keyword may be named `constructor`). */
const PROPOSERS = new Map<string, Proposer>(
  Object.entries({
    ...ANY_TYPE_PROPOSERS,
    ...STRING_PROPOSERS,
    ...NUMBER_PROPOSERS,
    ...OBJECT_PROPOSERS,
    ...ARRAY_PROPOSERS,
    ...APPLICATOR_PROPOSERS,
  }),
);
/** Keywords that only lead to other schemas: exercised through the keywords they lead to. */
export const STRUCTURAL = new Set([
  'properties',
  'items',
  'prefixItems',
  '$ref',
  '$defs',
  'then',
  'else',
  '$id',
  '$schema',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$vocabulary',
  '$comment',
]);
/** Keywords whose inside cases are particular values (a bound, a listed value), not any value of a kind. */
const VALUE_BOUNDARIES = new Set([
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'enum',
  'const',
]);

/** The cases one keyword proposes, before the validator sorts them; none for a keyword without a proposer. */
function propose(
  model: SpecModel,
  site: Site,
  keyword: string,
  value: unknown,
  current: JsonValue | undefined,
): Proposal[] {
  return PROPOSERS.get(keyword)?.(proposalSite(model, site, current), keyword, value) ?? [];
}

const derived = new WeakMap<SpecModel, KeywordDerivation[]>();

/** The cases of every keyword of the request schema, in document order; cached per model. */
export function keywordDerivations(model: SpecModel): KeywordDerivation[] {
  const cached = derived.get(model);
  if (cached) return cached;
  const { full, idField } = baseBodies(model);
  const validate = createOf(model).validateRequest;
  const out: KeywordDerivation[] = [];
  for (const site of sites(model)) {
    const current = getAt(full, site.path);
    for (const [keyword, value] of Object.entries(site.node)) {
      const pointer = childPointer(site.pointer, keyword);
      const use: KeywordUse = { keyword, value, pointer, schemaPointer: site.pointer };
      const derivation: KeywordDerivation = { use, path: site.path, inside: [], outside: [] };
      out.push(derivation);
      if (
        keywordInfo(keyword)?.kind === 'annotation' &&
        !(keyword === 'format' && typeof value === 'string' && isCheckedFormat(value))
      )
        continue;
      if (STRUCTURAL.has(keyword)) continue;
      let without: ((body: unknown) => unknown[]) | undefined;
      const seen = new Set<string>();
      for (const p of propose(model, site, keyword, value, current)) {
        const list = p.side === 'inside' ? derivation.inside : derivation.outside;
        if (list.length >= MAX_CASES) continue;
        // One case per intent: proposals with the same note (say, several ways to write 51 characters) are alternatives.
        const intent = `${p.side} ${p.intent ?? p.note}`;
        if (seen.has(intent)) continue;
        const body = site.path.length === 0 ? (p.value ?? {}) : setAt(full, site.path, p.value);
        const valid = validate(body).length === 0;
        if (p.side === 'inside' && !valid) continue;
        if (p.side === 'outside') {
          // Just outside: refused as written, accepted without this one keyword.
          without ??= model.requestValidatorWithout([pointer]);
          if (valid || without(body).length > 0) continue;
        }
        // A boundary value of the id itself is a fixed id; a case where any valid id does (type, required) gets a fresh one.
        const id =
          site.path.length === 1 && site.path[0] === idField && p.side === 'inside' && VALUE_BOUNDARIES.has(keyword)
            ? p.value
            : undefined;
        const fixedId = typeof id === 'number' || typeof id === 'bigint' ? BigInt(id) : undefined;
        seen.add(intent);
        list.push({ side: p.side, body, note: p.note, ...(fixedId !== undefined ? { fixedId } : {}) });
      }
    }
  }
  derived.set(model, out);
  return out;
}
