// Coverage of the document: every keyword its schemas use is reported as
// exercised, an annotation, or not exercised with the reason, never left
// out; operations and declared responses say what the run reached; the
// console and JSON reports carry it.
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { computeCoverage, type Coverage } from '../../conformance/run/coverage.js';
import { renderConsole } from '../../conformance/report/console.js';
import { toJsonReport } from '../../conformance/report/json.js';
import { runResult } from '../../conformance/run/result.js';
import { runTarget } from '../../conformance/run/runner.js';
import { loadSpecModel, type SpecModel } from '../../conformance/model/spec-model.js';
import { startFake, type FakeServer } from '../support/fake-server.js';
import { fixturePath } from '../support/fixtures.js';

let fake: FakeServer;
before(async () => {
  fake = await startFake({ tokens: ['t'] });
});
after(() => fake.close());

async function covered(
  model: SpecModel,
): Promise<{ coverage: Coverage; console: string; json: ReturnType<typeof toJsonReport> }> {
  const target = await runTarget(
    { model, targets: [], seed: 9, cases: 5, timeoutMs: 10_000 },
    { name: 'fake', url: fake.url, token: 't', role: 'target', informs: false, restrictsTokens: true },
  );
  const coverage = computeCoverage(model, [target], new Map([['fake', target.observed ?? []]]));
  const run = runResult({ seed: 9, strict: false, lint: [], targets: [target], divergences: [], coverage });
  return { coverage, console: renderConsole(run, { color: false }), json: toJsonReport(run) };
}

const statusOf = (c: Coverage, pointerEnd: string) => c.keywords.find((k) => k.pointer.endsWith(pointerEnd))?.status;

describe('coverage of the document', () => {
  it('the shipped document: its one operation, both declared responses, every keyword exercised or an annotation', async () => {
    const { coverage, console, json } = await covered(loadSpecModel());
    assert.deepEqual(
      coverage.operations.map((o) => [o.method, o.path, o.known, o.requests > 0]),
      [['POST', '/plants', true, true]],
    );
    assert.deepEqual(
      coverage.responses.map((r) => [r.status, r.observedOn]),
      [
        ['200', ['fake']],
        ['400', ['fake']],
      ],
    );
    assert.deepEqual(
      coverage.keywords.filter((k) => k.status === 'not exercised'),
      [],
    );
    assert.equal(statusOf(coverage, 'NewPlant/allOf/1/properties/id/format'), 'exercised');
    assert.equal(
      statusOf(coverage, 'Error/properties/error/format'),
      'exercised',
      'the answers are checked against the Error schema',
    );
    assert.equal(statusOf(coverage, 'Plant/properties/name/description'), 'annotation');
    assert.match(
      console,
      /Coverage of the document: 1 of 1 operation\(s\) sent requests; 2 of 2 declared response\(s\) given; schema keywords: \d+ exercised, \d+ annotation\(s\), 0 not exercised/,
    );
    assert.deepEqual(json.coverage, coverage);
  });

  it('a document with keywords the harness derives no cases from lists each as not exercised, with why', async () => {
    const model = loadSpecModel(fixturePath('every-keyword.yaml'));
    const { coverage, console } = await covered(model);
    // Nothing the document writes is left out of the report.
    assert.deepEqual(coverage.keywords.map((k) => k.pointer).sort(), model.keywords.map((k) => k.pointer).sort());
    for (const exercised of [
      'height/multipleOf',
      'height/exclusiveMinimum',
      'height/maximum',
      'leaves/uniqueItems',
      'leaves/minItems',
      'leaves/items/minLength',
      'colour/oneOf',
      'colour/oneOf/0/enum',
      'since/format',
      'allOf/1/dependentRequired',
      'allOf/1/if',
    ]) {
      assert.equal(statusOf(coverage, exercised), 'exercised', exercised);
    }
    assert.equal(statusOf(coverage, 'code/x-origin'), 'annotation');
    const missing = coverage.keywords.filter((k) => k.status === 'not exercised');
    assert.deepEqual(missing.map((k) => k.pointer.replace('#/components/schemas/NewPlant/allOf/1/', '')).sort(), [
      'if/required',
      'properties/code/format',
      'properties/light/not/const',
      'propertyNames/maxLength',
      'then',
      'then/required',
    ]);
    assert.match(
      missing.find((k) => k.keyword === 'format')!.detail,
      /format "plant-code": no validator here checks it/,
    );
    for (const k of missing)
      assert.ok(console.includes(`not exercised: ${k.keyword} at ${k.pointer}: ${k.detail}`), k.pointer);
  });

  it('an operation beside the create is reached by the checks of every operation, with how it fared in each; a declared response no target gave is listed with why', async () => {
    const { coverage, console } = await covered(loadSpecModel(fixturePath('get-plant-by-id.yaml')));
    const read = coverage.operations.find((o) => o.path === '/plants/{id}')!;
    assert.equal(read.known, false);
    assert.ok(read.requests >= 2, 'PS-DOC-001 and PS-DOC-002 sent to it');
    assert.deepEqual(read.role, { role: 'read', by: 'shape' });
    assert.ok(
      read.checks.some((c) => c.check === 'PS-OP-001'),
      'PS-OP-001 says how GET /plants/{id} fared',
    );
    assert.match(
      console,
      /operation GET \/plants\/\{id\} \(getPlant\): PS-OP-\*, PS-DOC-\* and the state checks \(its role: read, by shape\)/,
    );
    assert.match(
      console,
      /response 200 of GET \/plants\/\{id\}: no target gave it \(its valid requests were answered \d{3}/,
    );
    assert.ok(coverage.responses.find((r) => r.path === '/plants/{id}' && r.status === '200')!.why);
  });
});

describe('coverage: a keyword no check exercised says how the checks that send its cases fared', () => {
  const model = loadSpecModel(fixturePath('operations/crud.yaml'));
  // A keyword with a case just inside and none outside: PS-ACCEPT-012 would send it.
  const POINTER = '#/components/schemas/Plant/type';
  const result = (id: string, outcome: 'skip' | 'fail') => ({
    id,
    title: id,
    level: 'MUST' as const,
    outcome,
    requirement: 'r',
    source: { document: 'd', section: 's' },
    expected: null,
    actual: outcome === 'skip' ? 'the rejection of id 0 equals the target’s duplicate answer' : 'x',
    reproduce: null,
    requests: 1,
  });
  const detailWith = (...results: Array<ReturnType<typeof result>>) => {
    const t = {
      target: {
        name: 't',
        url: 'http://127.0.0.1:1',
        token: 't',
        role: 'target' as const,
        informs: false,
        restrictsTokens: true,
      },
      summary: { pass: 0, 'non-strict': 0, fail: 0, skip: 0, error: 0 },
      results,
    };
    return computeCoverage(model, [t], new Map()).keywords.find((k) => k.pointer === POINTER)!;
  };

  it('ran and skipped is said so, never "did not run"', () => {
    const k = detailWith(result('PS-ACCEPT-012', 'skip'), result('PS-REJECT-012', 'fail'));
    assert.equal(k.status, 'not exercised');
    assert.match(k.detail, /but PS-ACCEPT-012 ran and skipped \(its result says why\)$/);
    assert.doesNotMatch(k.detail, /did not run/);
  });

  it('a check left out of the run (--only) did not run', () => {
    const k = detailWith(result('PS-REJECT-012', 'fail'));
    assert.match(k.detail, /but PS-ACCEPT-012 did not run$/);
  });
});
