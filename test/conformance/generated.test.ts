// The generated cases come from the document's schema: every valid sample
// validates against the request schema, every invalid sample breaks it.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { describe, it } from 'node:test';
import { invalidArb, validArb } from '../../conformance/checks/generated.js';
import { toJson } from '../../conformance/json.js';
import { loadSpecModel } from '../../conformance/spec-model.js';
import { integerRange } from '../../spec/formats.js';

const model = loadSpecModel();
const op = model.create;

/** Exact int64 check on the drawn value (JSON.parse would round it). */
function outOfRange(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  return op.request.fields.some((f) => {
    const v = (body as Record<string, unknown>)[f.name];
    const r = integerRange(f.format);
    return typeof v === 'bigint' && r !== undefined && (v < r[0] || v > r[1]);
  });
}

describe('generated NewPlants', () => {
  it('valid samples validate against the request schema', () => {
    for (const body of fc.sample(validArb(op.request), { seed: 7, numRuns: 300 })) {
      assert.deepEqual(op.validateRequest(JSON.parse(toJson(body))), [], toJson(body));
      for (const name of op.request.required) assert.ok(name in body, `${name} in ${toJson(body)}`);
    }
  });

  it('invalid samples break the request schema', () => {
    const kinds = new Set<string>();
    for (const { mutation, body } of fc.sample(invalidArb(op.request), { seed: 7, numRuns: 300 })) {
      kinds.add(mutation.replace(/^without required .*/, 'missing').replace(/.* of a wrong type$/, 'type').replace(/.* beyond .*/, 'range'));
      const invalid = outOfRange(body) || op.validateRequest(JSON.parse(toJson(body))).length > 0;
      assert.ok(invalid, `${mutation}: ${toJson(body)}`);
    }
    assert.deepEqual([...kinds].sort(), ['missing', 'not an object', 'range', 'type']);
  });
});
