// The harness against the reference server with its plants in PostgreSQL
// (PLANTSTORE_DATABASE_URL): every check of the catalog passes, as it does
// against the in-memory default (reference.test.ts), so the database store
// answers the behaviour table the same way.
import { strict as assert } from 'node:assert';
import { after, describe, it } from 'node:test';
import { runTarget } from '../../conformance/run/runner.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { startEntry } from '../support/entry.js';
import { POSTGRES_MISSING, useTestDatabases } from '../support/postgres.js';

const databases = useTestDatabases();

describe('the reference server on PostgreSQL', { skip: POSTGRES_MISSING, timeout: 180_000 }, () => {
  const stops: Array<() => Promise<unknown>> = [];
  after(async () => {
    await Promise.all(stops.map((stop) => stop()));
  });

  it('passes every check, two replicas on one database taking turns', async () => {
    const url = await databases.fresh();
    const token = 'postgres-backed-token';
    const env = { PLANTSTORE_DATABASE_URL: url, PLANTSTORE_TOKENS: token, LOG_LEVEL: 'info' };
    const replicas = await Promise.all([startEntry(env), startEntry(env)]);
    stops.push(...replicas.map((replica) => () => replica.stop()));
    const model = loadSpecModel();
    for (const [index, replica] of replicas.entries()) {
      const target = {
        name: `postgres-${index}`,
        url: replica.url,
        token,
        role: 'target' as const,
        informs: false,
        restrictsTokens: true,
      };
      const result = await runTarget({ model, targets: [], seed: 2000 + index, cases: 30, timeoutMs: 10_000 }, target);
      // The state checks skip where the shipped document declares no list, read or delete, saying why.
      const bad = result.results
        .filter((x) => x.outcome !== 'pass' && !(x.outcome === 'skip' && x.ruledOut))
        .map((x) => `${x.id} ${x.outcome}: ${x.expected} / ${x.actual}`);
      assert.deepEqual(bad, [], `replica ${index}`);
    }
  });
});
