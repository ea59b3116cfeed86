// Harness runs several test files make the same way: every check of every
// operation and of the plant resource against a fake of fake-resource.ts with
// breaks; the reference server's real entry point serving a document with its
// plants in a fresh PostgreSQL database; and the checks a run fails.
import type { TargetResult } from '../../conformance/run/result.js';
import { runTarget } from '../../conformance/run/runner.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { startEntry } from './entry.js';
import type { Break } from './fake-resource-breaks.js';
import { startResourceFake } from './fake-resource.js';
import type { TestDatabases } from './postgres.js';
import { RESOURCE_CHECKS } from './resource-mutants.js';

const TOKEN = 'harness-runs-token';

/** The results of RESOURCE_CHECKS against the fake of `fixture` (test/fixtures/operations/) with `breaks`. */
export async function runResourceFake(fixture: string, breaks: readonly Break[]): Promise<TargetResult['results']> {
  const fake = await startResourceFake(fixture, TOKEN, breaks);
  try {
    const result = await runTarget(
      { model: fake.model, targets: [], seed: 20240611, cases: 5, timeoutMs: 10_000, only: RESOURCE_CHECKS },
      { name: 'fake', url: fake.url, token: TOKEN, role: 'target', informs: false, restrictsTokens: true },
    );
    return result.results;
  } finally {
    await fake.close();
  }
}

/** Every check of the document at `spec` against the reference server serving it, its plants in a fresh database. */
export async function runReferenceOnPostgres(
  databases: TestDatabases,
  spec: string,
  seed: number,
): Promise<TargetResult['results']> {
  const server = await startEntry({
    PLANTSTORE_SPEC: spec,
    PLANTSTORE_DATABASE_URL: await databases.fresh(),
    PLANTSTORE_TOKENS: TOKEN,
    LOG_LEVEL: 'info',
  });
  try {
    const result = await runTarget(
      { model: loadSpecModel(spec), targets: [], seed, cases: 5, timeoutMs: 60_000 },
      { name: 'postgres', url: server.url, token: TOKEN, role: 'target', informs: false, restrictsTokens: true },
    );
    return result.results;
  } finally {
    await server.stop();
  }
}

/** The checks a run fails (or errs on), each `ID outcome: ` and what it saw. */
export function failingResults(results: TargetResult['results']): string[] {
  return results
    .filter((r) => r.outcome === 'fail' || r.outcome === 'error')
    .map((r) => `${r.id} ${r.outcome}: ${r.cause ?? `expected ${r.expected ?? '-'}; actual ${r.actual ?? '-'}`}`);
}
