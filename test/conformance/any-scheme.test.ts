// Every security scheme, and refusals in any declared media type (issue 42,
// items 4 and 5), on the documents of test/fixtures/documents/ that declare
// them: the correct fake of each (test/support/fake-secured.ts) is failed by
// no check, and the checks of its feature pass on it; each fake that breaks
// one rule is failed by the check that names the rule, Expected and Actual
// given, and by no check but those its row names; each allowed choice is
// graded as the source allows, never fail.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { runTarget } from '../../conformance/run/runner.js';
import type { TargetResult } from '../../conformance/run/result.js';
import { PLACEHOLDER_TOKEN, type Target } from '../../conformance/model/target.js';
import { startSecuredFake } from '../support/fake-secured.js';
import { fixturePath } from '../support/fixtures.js';
import {
  FAKE_TOKEN,
  GIVEN_CREDENTIALS,
  SECURED_ALLOWED,
  SECURED_BREAKS,
  SECURED_EVIDENCE,
  SECURED_FIXTURES,
  type SecuredBreak,
  type SecuredFixture,
} from '../support/fake-secured-breaks.js';

/** The whole catalog against the fixture's fake with `breaks` (serving `documentPath` if given), the token and every credential given. */
async function run(
  fixture: SecuredFixture,
  breaks: SecuredBreak[] = [],
  given: Partial<Target> = {},
  documentPath?: string,
): Promise<TargetResult> {
  const fake = await startSecuredFake(fixture, breaks, documentPath);
  try {
    const schemes = Object.keys(fake.model.doc.components.securitySchemes ?? {});
    return await runTarget(
      { model: fake.model, targets: [], seed: 42, cases: 5, timeoutMs: 10_000 },
      {
        name: 'fake',
        url: fake.url,
        token: FAKE_TOKEN,
        tokenFrom: '--token',
        credentials: GIVEN_CREDENTIALS.filter((c) => schemes.includes(c.scheme)),
        role: 'target',
        informs: false,
        restrictsTokens: true,
        ...given,
      },
    );
  } finally {
    await fake.close();
  }
}

/** The checks a run fails or errs on, each with its causes. */
const failing = (r: TargetResult) =>
  r.results
    .filter((x) => x.outcome === 'fail' || x.outcome === 'error')
    .map((x) => `${x.id} ${x.outcome}: ${[x.cause, ...(x.cases ?? []).map((c) => c.cause)].join(' / ')}`);

describe(
  'every security scheme and every error media type, on the documents that declare them',
  { timeout: 600_000 },
  () => {
    for (const fixture of SECURED_FIXTURES) {
      it(`${fixture}: the correct fake is failed by no check, and the checks of its feature pass`, async () => {
        const r = await run(fixture);
        assert.equal(r.diagnosis, undefined, 'the run goes through: the credentials are sent where the document says');
        assert.deepEqual(failing(r), []);
        for (const id of SECURED_EVIDENCE[fixture]) {
          const x = r.results.find((y) => y.id === id)!;
          assert.equal(x.outcome, 'pass', `${id}: ${x.actual ?? ''}`);
        }
      });
    }
    it('oauth2-scopes: the token given as --credential for each bearer scheme, not as --token, is the one every check sends', async () => {
      const r = await run('oauth2-scopes', [], {
        token: PLACEHOLDER_TOKEN,
        tokenFrom: undefined,
        credentials: ['oauth', 'oidc'].map((scheme) => ({ scheme, value: FAKE_TOKEN, from: `--credential ${scheme}` })),
      });
      assert.equal(r.diagnosis, undefined);
      assert.deepEqual(failing(r), []);
      for (const id of SECURED_EVIDENCE['oauth2-scopes'])
        assert.equal(r.results.find((y) => y.id === id)!.outcome, 'pass', id);
    });
    for (const fixture of ['problem-json', 'problem-default'] as const)
      it(`${fixture}: a second run against the same server, whose fixed ids the first stored, fails no check: a duplicate refused in problem details is recognised, each problem with an instance of its own`, async () => {
        const fake = await startSecuredFake(fixture, ['problemInstance']);
        try {
          for (const idOffset of [0n, 1n]) {
            const r = await runTarget(
              { model: fake.model, targets: [], seed: 42, idOffset, cases: 5, timeoutMs: 10_000 },
              { name: 'fake', url: fake.url, token: FAKE_TOKEN, role: 'target', informs: false, restrictsTokens: true },
            );
            assert.deepEqual(failing(r), [], `run ${idOffset + 1n}`);
            const fixedIds = r.results.filter((x) =>
              ['PS-ACCEPT-007', 'PS-ACCEPT-009', 'PS-ACCEPT-010'].includes(x.id),
            );
            for (const x of fixedIds)
              assert.equal(x.outcome, 'pass', `run ${idOffset + 1n}, ${x.id}: ${x.actual ?? ''}`);
          }
        } finally {
          await fake.close();
        }
      });
    for (const row of SECURED_BREAKS) {
      it(`${row.fixture}: ${row.broken} is failed by ${row.check}, for its rule (${row.why})`, async () => {
        const r = await run(row.fixture, [row.broken]);
        const x = r.results.find((y) => y.id === row.check)!;
        assert.equal(x.outcome, 'fail', `${x.id}: ${x.actual ?? ''}`);
        const causes = [x.cause, ...(x.cases ?? []).map((c) => c.cause)].filter((c): c is string => c !== undefined);
        assert.ok(
          causes.some((c) => row.cause.test(c)),
          `${row.check}: a cause names the rule broken (${row.cause}): ${causes.join(' / ')}`,
        );
        assert.ok(x.expected && x.actual, `${row.check}: a failure says what was expected and what came back`);
        const others = failing(r).filter(
          (f) => !f.startsWith(`${row.check} `) && !row.also.some((also) => f.startsWith(also)),
        );
        assert.deepEqual(others, [], 'no check fails it but those the row names');
      });
    }
    it('api-key with anonymous access allowed beside the key ([{plantKey: []}, {}]): a wrong key served anonymously is non-strict for PS-OP-007, and no check fails it (OpenAPI 3.1 §4.8.30: any one requirement satisfies; RFC 6750 §3.1: a bad credential SHOULD be 401)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'plantstore-anonymous-'));
      try {
        const doc = parse(readFileSync(fixturePath('documents/api-key.yaml'), 'utf8')) as Record<string, unknown>;
        const path = join(dir, 'api-key-anonymous.yaml');
        writeFileSync(path, stringify({ ...doc, security: [{ plantKey: [] }, {}] }));
        // The fake serves every operation whose requirements include {} whatever credentials come: anonymously.
        const r = await run('api-key', [], {}, path);
        const x = r.results.find((y) => y.id === 'PS-OP-007')!;
        assert.equal(x.outcome, 'non-strict', `PS-OP-007: ${x.actual ?? ''}`);
        assert.match(x.actual ?? '', /served anonymously/);
        assert.deepEqual(failing(r), [], 'no check fails an allowed choice');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
    for (const row of SECURED_ALLOWED) {
      it(`${row.fixture}: ${row.choice}, an allowed choice, is ${row.expected} for ${row.check} (${row.source})`, async () => {
        const r = await run(row.fixture, [row.choice]);
        const x = r.results.find((y) => y.id === row.check)!;
        assert.equal(x.outcome, row.expected, `${x.id}: ${x.actual ?? ''}`);
        assert.deepEqual(failing(r), [], 'no check fails an allowed choice');
      });
    }
  },
);
