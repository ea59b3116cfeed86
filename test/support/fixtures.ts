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

/**
 * Evolved documents of the server's tests (test/server/plant-properties.test.ts:
 * what the stored plant keeps of Plant) that the harness does not grade yet:
 * it validates an answer after JSON.parse (an int64 beyond 2^53 loses its
 * digits) and compares a nested object sent with its members reordered in
 * its own order (PS-RESP-003, PS-ACCEPT-009/010/012, PS-JSON-002).
 */
export const SERVER_FIXTURES = [
  'plant-extra-string.yaml',
  'plant-big-integer.yaml',
  'plant-array-of-objects.yaml',
  'plant-nested-object.yaml',
  'plant-all-of.yaml',
  'plant-declares-id.yaml',
  'plant-pattern-properties.yaml',
];

/** Fixtures that are not one plausible change (every-keyword.yaml uses keywords the harness derives no cases from, for the coverage test), and those the harness does not grade yet. */
export const NOT_EVOLVED = ['every-keyword.yaml', ...SERVER_FIXTURES];

export interface EvolvedDocument {
  file: string;
  change: string;
  /** A check that reports the fake server's baseline, which ignores the change. */
  reportedBy: string;
  /** How: `fail`, or `non-strict` (then only --strict makes it exit 1). */
  outcome: 'fail' | 'non-strict';
}

export const EVOLVED_DOCUMENTS: EvolvedDocument[] = [
  { file: 'name-max-length.yaml', change: 'Plant.name gets maxLength 50', reportedBy: 'PS-REJECT-012', outcome: 'fail' },
  { file: 'name-min-length.yaml', change: 'Plant.name gets minLength 1', reportedBy: 'PS-REJECT-012', outcome: 'fail' },
  { file: 'name-pattern.yaml', change: 'Plant.name gets a pattern', reportedBy: 'PS-REJECT-012', outcome: 'fail' },
  { file: 'tag-enum.yaml', change: 'Plant.tag gets an enum', reportedBy: 'PS-REJECT-012', outcome: 'fail' },
  { file: 'tag-nullable.yaml', change: 'Plant.tag becomes type [string, "null"]', reportedBy: 'PS-ACCEPT-012', outcome: 'fail' },
  { file: 'id-minimum.yaml', change: 'NewPlant.id gets minimum 1', reportedBy: 'PS-REJECT-012', outcome: 'fail' },
  { file: 'new-plant-closed.yaml', change: 'NewPlant gets unevaluatedProperties: false', reportedBy: 'PS-REJECT-012', outcome: 'fail' },
  { file: 'new-required-field.yaml', change: 'NewPlant gets a new required field, quantity', reportedBy: 'PS-REJECT-001', outcome: 'fail' },
  { file: 'get-plant-by-id.yaml', change: 'a second operation, GET /plants/{id}', reportedBy: 'PS-DOC-001', outcome: 'non-strict' },
];
