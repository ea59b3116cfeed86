// The runner's `error` outcome: a request that gets no answer within the
// timeout is graded `error` (the harness could not run the case), not `fail`.
import { strict as assert } from 'node:assert';
import { it } from 'node:test';
import { runTarget } from '../../conformance/run/runner.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { startFake } from '../support/fake-server.js';

it('grades a request that times out as error', { timeout: 120_000 }, async () => {
  // GET is never answered, whatever the deadline; the other requests are
  // answered, and the deadline is long enough for a loaded machine to do so.
  const fake = await startFake({ tokens: ['t'], hangGet: true });
  try {
    const r = await runTarget(
      {
        model: loadSpecModel(),
        targets: [],
        seed: 1,
        cases: 1,
        timeoutMs: 10_000,
        only: ['PS-HTTP-001', 'PS-ACCEPT-001'],
      },
      { name: 'fake', url: fake.url, token: 't', role: 'target', informs: false, restrictsTokens: true },
    );
    const by = Object.fromEntries(r.results.map((x) => [x.id, x]));
    assert.equal(by['PS-HTTP-001']!.outcome, 'error');
    assert.match(by['PS-HTTP-001']!.actual ?? '', /timeout/);
    assert.equal(by['PS-ACCEPT-001']!.outcome, 'pass');
    assert.deepEqual(r.summary, { pass: 1, 'non-strict': 0, fail: 0, skip: 0, error: 1 });
  } finally {
    await fake.close();
  }
});
