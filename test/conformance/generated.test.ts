// The generated cases come from the document's schema: every valid sample
// validates against the request schema as written, every invalid sample
// breaks it, for the shipped document and for evolved ones.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { describe, it } from 'node:test';
import { invalidArb, validArb } from '../../conformance/checks/gen.js';
import { toJson } from '../../conformance/model/json.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { fixturePath } from '../support/fixtures.js';

const documents = [
  ['the shipped document', undefined],
  ['tag-enum.yaml', fixturePath('tag-enum.yaml')],
  ['new-required-field.yaml', fixturePath('new-required-field.yaml')],
] as const;

for (const [name, path] of documents) {
  const model = loadSpecModel(path);
  const op = model.create!;
  describe(`generated NewPlants, ${name}`, () => {
    it('valid samples validate against the request schema and hold every required field', () => {
      for (const body of fc.sample(validArb(model), { seed: 7, numRuns: 200 })) {
        assert.deepEqual(op.validateRequest(body), [], toJson(body));
        for (const field of op.request.required) assert.ok(field in body, `${field} in ${toJson(body)}`);
      }
    });

    it('invalid samples break the request schema, by every kind of mutation', () => {
      const kinds = new Set<string>();
      for (const { mutation, body } of fc.sample(invalidArb(model), { seed: 7, numRuns: 300 })) {
        kinds.add(
          mutation
            .replace(/^without required .*/, 'missing')
            .replace(/.* of a wrong type$/, 'type')
            .replace(/.* beyond .*/, 'range')
            .replace(/.* outside .*/, 'keyword'),
        );
        assert.ok(op.validateRequest(body).length > 0, `${mutation}: ${toJson(body)}`);
      }
      assert.deepEqual([...kinds].sort(), ['keyword', 'missing', 'not an object', 'range', 'type']);
    });
  });
}

it('a value the enum does not list is never drawn as valid', () => {
  const model = loadSpecModel(fixturePath('tag-enum.yaml'));
  const listed = ['tropical', 'succulent', 'fern', 'herb', 'cactus'];
  for (const body of fc.sample(validArb(model), { seed: 3, numRuns: 200 }))
    if ('tag' in body) assert.ok(listed.includes(body.tag as string), toJson(body));
});
