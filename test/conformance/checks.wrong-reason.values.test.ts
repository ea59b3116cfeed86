// Issue 44, round two: the values the harness sends. Typical values first
// (a representative valid request uses what a client would send, never a
// boundary where another value is allowed), and each boundary a case of its
// own, graded by what the document says of that bound. Each row runs the
// checks of every operation and of the plant resource against the
// multi-operation fake (fake-resource.ts) with one break: a mutant fails
// for its rule, by name and value; an allowed choice fails nothing.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { typicalParameterValues, parameterBoundaries } from '../../conformance/cases/parameter-bounds.js';
import { outOfFormatValues } from '../../conformance/cases/parameter-values.js';
import { allowedEdgeIds } from '../../conformance/cases/bodies.js';
import { IdAllocator } from '../../conformance/cases/ids.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { failingResults, runResourceFake } from '../support/harness-runs.js';
import { fixturePath } from '../support/fixtures.js';

/** A document of one list operation whose limit has the schema given, loaded as the harness loads any. */
function listWithLimit(schema: string) {
  const dir = mkdtempSync(join(tmpdir(), 'typical-values-'));
  const path = join(dir, 'openapi.yaml');
  writeFileSync(
    path,
    [
      'openapi: 3.1.0',
      'info: { title: Limits, version: 1.0.0 }',
      'paths:',
      '  /plants:',
      '    get:',
      '      parameters:',
      `        - { name: limit, in: query, schema: ${schema} }`,
      '      responses:',
      "        '200': { description: ok }",
    ].join('\n'),
  );
  try {
    const model = loadSpecModel(path);
    return { model, limit: model.operations[0]!.parameters[0]! };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('typical values first: the value a request carries is one a client would send', () => {
  it("takes a small value inside an int32's range, not its minimum, and keeps both bounds as boundaries", () => {
    const { model, limit } = listWithLimit('{ type: integer, format: int32 }');
    assert.equal(typicalParameterValues(model, limit)[0]!.text, '7');
    assert.deepEqual(
      parameterBoundaries(model, limit).map((b) => [b.text, b.declared]),
      [
        ['-2147483648', false],
        ['2147483647', false],
      ],
    );
  });

  it('takes the example, then the default, before any value of its own', () => {
    const exampled = listWithLimit('{ type: integer, default: 25, examples: [12] }');
    assert.equal(typicalParameterValues(exampled.model, exampled.limit)[0]!.text, '12');
    const defaulted = listWithLimit('{ type: integer, minimum: 1, maximum: 100, default: 25 }');
    assert.equal(typicalParameterValues(defaulted.model, defaulted.limit)[0]!.text, '25');
  });

  it('takes a value just inside a range its small value would be clamped onto the bound of', () => {
    const { model, limit } = listWithLimit('{ type: integer, minimum: 1000, maximum: 2000 }');
    assert.equal(typicalParameterValues(model, limit)[0]!.text, '1001');
    assert.deepEqual(
      parameterBoundaries(model, limit).map((b) => [b.text, b.declared]),
      [
        ['1000', true],
        ['2000', true],
      ],
    );
  });
});

describe(
  'a parameter at a boundary of its range: a case of its own, graded by what the document says of the bound',
  { timeout: 300_000 },
  () => {
    it("a negative limit refused with the declared 400 is not failed: the starter's int32 says nothing of a negative maximum", async () => {
      const results = await runResourceFake('starter', ['limitNegative400']);
      const valid = results.find((x) => x.id === 'PS-OP-002')!;
      assert.equal(valid.outcome, 'non-strict', valid.actual ?? '');
      assert.match(valid.cause ?? '', /limit at a bound of its format \(-2147483648\) is refused with 400/);
      assert.deepEqual(failingResults(results), [], 'no check fails an allowed choice');
    });

    it('a 500 to the int32 minimum fails PS-OP-002 on the boundary case, naming the parameter and the value', async () => {
      const results = await runResourceFake('starter', ['limitMin500']);
      const valid = results.find((x) => x.id === 'PS-OP-002')!;
      assert.equal(valid.outcome, 'fail', valid.actual ?? '');
      assert.match(
        valid.cause ?? '',
        /GET \/plants with limit at a bound of its format \(-2147483648\) is answered 500/,
      );
      assert.match(valid.actual ?? '', /limit -2147483648|limit=-2147483648|-2147483648/);
      assert.deepEqual(
        failingResults(results).filter((f) => !f.startsWith('PS-OP-002 ')),
        [],
        'only the boundary case fails: every typical request is served',
      );
    });

    it('a dropped connection on the int32 minimum fails PS-OP-002 on the boundary case, not an error', async () => {
      const results = await runResourceFake('starter', ['limitMinDrops']);
      const valid = results.find((x) => x.id === 'PS-OP-002')!;
      assert.equal(valid.outcome, 'fail', valid.actual ?? '');
      assert.match(valid.cause ?? '', /limit at a bound of its format \(-2147483648\) drops the connection/);
    });

    it('a 400 to the maximum its schema writes fails: the document says that value is valid', async () => {
      const results = await runResourceFake('crud', ['limitMax400']);
      const valid = results.find((x) => x.id === 'PS-OP-002')!;
      assert.equal(valid.outcome, 'fail', valid.actual ?? '');
      assert.match(valid.cause ?? '', /limit at a bound its schema writes \(100\) is answered 400/);
    });

    it('the baseline fake is failed by none of these checks, boundaries included', async () => {
      assert.deepEqual(failingResults(await runResourceFake('starter', [])), []);
    });
  },
);

describe(
  'parameters outside their format: each value alone, refused, named when accepted',
  { timeout: 300_000 },
  () => {
    it('an int32 parameter gets both overflows on both sides, their exponent forms and a fraction', () => {
      const { model, limit } = listWithLimit('{ type: integer, format: int32 }');
      assert.deepEqual(
        outOfFormatValues(model, limit).map((v) => v.text),
        ['2147483648', '-2147483649', '1e10', '9223372036854775808', '-9223372036854775809', '1e19', '1.5'],
      );
    });

    it('an int64 parameter gets only what its schema refuses: not 2147483648, not 1e10', () => {
      const { model, limit } = listWithLimit('{ type: integer, format: int64 }');
      assert.deepEqual(
        outOfFormatValues(model, limit).map((v) => v.text),
        ['9223372036854775808', '-9223372036854775809', '1e19', '1.5'],
      );
    });

    it('a limit read into an int32 that wraps (2147483648 served as -2147483648) fails PS-OP-003, naming the value', async () => {
      const results = await runResourceFake('starter', ['limitWraps']);
      const refused = results.find((x) => x.id === 'PS-OP-003')!;
      assert.equal(refused.outcome, 'fail', refused.actual ?? '');
      assert.match(
        refused.cause ?? '',
        /GET \/plants invalid in one place \(limit=2147483648, outside its format\) is accepted \(200\)/,
      );
      assert.deepEqual(
        failingResults(results).filter((f) => !f.startsWith('PS-OP-003 ')),
        [],
        'no other check fails it',
      );
    });

    it('an overflow refused with an undeclared 422 is not failed (PS-OP-003 non-strict, as any invalid value)', async () => {
      const results = await runResourceFake('starter', ['invalid422']);
      assert.equal(results.find((x) => x.id === 'PS-OP-003')!.outcome, 'non-strict');
      assert.deepEqual(failingResults(results), []);
    });
  },
);

describe('ids the schema allows at its edges: created, then read back', { timeout: 300_000 }, () => {
  it("an int64 id gets a negative id, zero and int64's ends, each once in a run", () => {
    const model = loadSpecModel(fixturePath('operations/crud.yaml'));
    const ids = new IdAllocator(20240611);
    const edges = allowedEdgeIds(model, ids).map((e) => e.id);
    assert.equal(edges.length, 4, edges.join(', '));
    assert.ok(edges[0]! < 0n, 'a negative id first');
    assert.deepEqual(edges.slice(1), [0n, -(2n ** 63n), 2n ** 63n - 1n]);
    assert.deepEqual(allowedEdgeIds(model, ids).slice(1), [], 'zero and the ends are not given twice in a run');
  });

  it('a read whose route takes digits only (a negative id it stored is not found) fails PS-STATE-004, naming the id', async () => {
    const results = await runResourceFake('crud', ['readNegative404']);
    const read = results.find((x) => x.id === 'PS-STATE-004')!;
    assert.equal(read.outcome, 'fail', read.actual ?? '');
    assert.match(
      read.cause ?? '',
      /a created item with a negative id \(-\d+\), an id its schema allows, is missing from GET \/plants\/\{id\}/,
    );
    assert.deepEqual(
      failingResults(results).filter((f) => !f.startsWith('PS-STATE-004 ')),
      [],
      'no other check fails it',
    );
  });

  it('a DELETE whose route takes digits only (a negative id it stored is not found) fails PS-STATE-006, naming the id', async () => {
    const results = await runResourceFake('crud', ['deleteNegative404']);
    const gone = results.find((x) => x.id === 'PS-STATE-006')!;
    assert.equal(gone.outcome, 'fail', gone.actual ?? '');
    assert.match(
      gone.cause ?? '',
      /a created item with a negative id \(-\d+\), an id its schema allows, cannot be deleted \(404\)/,
    );
    assert.deepEqual(
      failingResults(results).filter((f) => !f.startsWith('PS-STATE-006 ')),
      [],
      'no other check fails it',
    );
  });

  it('the baseline crud fake, which stores and reads every id its schema allows, fails none of these checks', async () => {
    assert.deepEqual(failingResults(await runResourceFake('crud', [])), []);
  });
});

describe('never-stored neighbours of an id beyond 2^53: each an id of its own', { timeout: 300_000 }, () => {
  it('a store keyed by the double of each id (create, read and delete alike) fails PS-STATE-004 and PS-STATE-006 on a neighbour, by name', async () => {
    const results = await runResourceFake('crud', ['storeByDouble']);
    const read = results.find((x) => x.id === 'PS-STATE-004')!;
    assert.equal(read.outcome, 'fail', read.actual ?? '');
    assert.match(
      read.cause ?? '',
      /GET \/plants\/\{id\} answers the item just created for \d+ \(beside \d+\), a never-stored neighbour of its id/,
    );
    const gone = results.find((x) => x.id === 'PS-STATE-006')!;
    assert.equal(gone.outcome, 'fail', gone.actual ?? '');
    assert.match(
      gone.cause ?? '',
      /DELETE \/plants\/\{id\} of \d+ \(beside \d+\), a never-stored neighbour, deleted the item just created/,
    );
    assert.deepEqual(
      failingResults(results).filter((f) => !f.startsWith('PS-STATE-004 ') && !f.startsWith('PS-STATE-006 ')),
      [],
      'no other check fails it',
    );
  });

  it('neighbours refused with 400 rather than 404 are not failed (an id never stored: 404 is our decision)', async () => {
    const results = await runResourceFake('crud', ['unknownId400']);
    assert.equal(results.find((x) => x.id === 'PS-STATE-004')!.outcome, 'non-strict');
    assert.deepEqual(failingResults(results), []);
  });
});
