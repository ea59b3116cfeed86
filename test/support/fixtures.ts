// The evolved documents of test/fixtures/: each is spec/openapi.yaml with one
// change a spec author would plausibly make, its examples kept valid. For
// each, the reference server must pass the harness, and the fake server's
// baseline, which follows only today's document, must be reported.
import { fileURLToPath } from 'node:url';

/** The path of a fixture, from the compiled tests (dist/test/…) or the sources. */
export function fixturePath(file: string): string {
  const up = import.meta.url.includes('/dist/') ? '../../../test/fixtures/' : '../fixtures/';
  return fileURLToPath(new URL(`${up}${file}`, import.meta.url));
}

/** Fixtures that are not one plausible change: every-keyword.yaml uses keywords the harness derives no cases from, for the coverage test. */
export const NOT_EVOLVED = ['every-keyword.yaml'];

export interface EvolvedDocument {
  file: string;
  change: string;
  /** A check that reports the fake server's baseline, which ignores the change. */
  reportedBy: string;
  /** How: `fail`, or `non-strict` (then only --strict makes it exit 1). */
  outcome: 'fail' | 'non-strict';
}

export const EVOLVED_DOCUMENTS: EvolvedDocument[] = [
  {
    file: 'name-max-length.yaml',
    change: 'Plant.name gets maxLength 50',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  { file: 'name-min-length.yaml', change: 'Plant.name gets minLength 1', reportedBy: 'PS-REJECT-012', outcome: 'fail' },
  { file: 'name-pattern.yaml', change: 'Plant.name gets a pattern', reportedBy: 'PS-REJECT-012', outcome: 'fail' },
  { file: 'tag-enum.yaml', change: 'Plant.tag gets an enum', reportedBy: 'PS-REJECT-012', outcome: 'fail' },
  {
    file: 'tag-nullable.yaml',
    change: 'Plant.tag becomes type [string, "null"]',
    reportedBy: 'PS-ACCEPT-012',
    outcome: 'fail',
  },
  { file: 'id-minimum.yaml', change: 'NewPlant.id gets minimum 1', reportedBy: 'PS-REJECT-012', outcome: 'fail' },
  {
    file: 'id-maximum-multiple-of.yaml',
    change: 'NewPlant.id gets minimum 1, maximum 1000000 and multipleOf 3 (no id above 2^53)',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'new-plant-closed.yaml',
    change: 'NewPlant gets unevaluatedProperties: false',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'new-required-field.yaml',
    change: 'NewPlant gets a new required field, quantity',
    reportedBy: 'PS-REJECT-001',
    outcome: 'fail',
  },
  {
    file: 'get-plant-by-id.yaml',
    change: 'a second operation, GET /plants/{id}',
    reportedBy: 'PS-DOC-001',
    outcome: 'non-strict',
  },
  {
    file: 'integer-without-format.yaml',
    change: 'Plant gets count, an integer without a format (a house lint rule, no stop)',
    reportedBy: 'PS-ACCEPT-001',
    outcome: 'fail',
  },
  // Plant gains a property: a server that ignores the change answers without it.
  {
    file: 'plant-extra-string.yaml',
    change: 'Plant gets another string',
    reportedBy: 'PS-ACCEPT-001',
    outcome: 'fail',
  },
  {
    file: 'plant-big-integer.yaml',
    change: 'Plant gets an integer beyond 2^53',
    reportedBy: 'PS-ACCEPT-001',
    outcome: 'fail',
  },
  { file: 'plant-declares-id.yaml', change: 'Plant declares the id', reportedBy: 'PS-ACCEPT-002', outcome: 'fail' },
  {
    file: 'plant-all-of.yaml',
    change: 'Plant gets a property through allOf',
    reportedBy: 'PS-ACCEPT-001',
    outcome: 'fail',
  },
  {
    file: 'plant-array-of-objects.yaml',
    change: 'Plant gets an array of objects',
    reportedBy: 'PS-ACCEPT-001',
    outcome: 'fail',
  },
  {
    file: 'plant-array-of-closed-objects.yaml',
    change: 'Plant gets an array of closed objects with enum and decimal multipleOf, minItems and maxItems',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'plant-nested-object.yaml',
    change: 'Plant gets a nested object',
    reportedBy: 'PS-ACCEPT-001',
    outcome: 'fail',
  },
  {
    file: 'plant-nested-object-enum.yaml',
    change: 'Plant gets an object in an object, with a required enum and an int64',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'plant-one-of-objects.yaml',
    change: 'Plant gets oneOf two objects',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'plant-any-of-objects.yaml',
    change: 'Plant gets an object with anyOf two required members',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'plant-if-then-else.yaml',
    change: 'Plant gets if/then/else on kind and height',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'plant-dependent-schemas.yaml',
    change: 'Plant gets dependentSchemas: a pot needs a potSize of 1, 2 or 3',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'plant-prefix-items.yaml',
    change: 'Plant gets prefixItems, a pair of latitude and longitude',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'plant-contains.yaml',
    change: 'Plant gets an array with contains, minContains, maxContains and uniqueItems',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'plant-property-names.yaml',
    change: 'Plant gets an object with propertyNames',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'plant-pattern-properties.yaml',
    change: 'Plant gets patternProperties of its own',
    reportedBy: 'PS-ACCEPT-001',
    outcome: 'fail',
  },
  {
    file: 'plant-pattern-measures.yaml',
    change: 'Plant gets an object of patternProperties, nothing else',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'plant-min-max-properties.yaml',
    change: 'Plant gets an object with minProperties and maxProperties',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'plant-const-enum-non-strings.yaml',
    change: 'Plant gets const 2 and an enum of 0, 0.5, 1, true and null',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'plant-exclusive-bounds.yaml',
    change: 'Plant gets exclusiveMinimum and exclusiveMaximum',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
  {
    file: 'plant-multiple-of-decimal.yaml',
    change: 'Plant gets multipleOf 0.01',
    reportedBy: 'PS-REJECT-012',
    outcome: 'fail',
  },
];
