// The README's own `docker build` and `docker run` commands, exactly as
// written there, on a real container engine: the image builds, the stub
// answers on port 4010 and stops cleanly.
//
// Needs a Docker-compatible engine (DOCKER_HOST) and the docker CLI:
// `npm run test:container`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startProcess, type StartedProcess } from '../lib/process.js';
import { call, engine, portIsFree, run, waitUntilHealthy } from './engine.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url)); // from dist/container-test/

test('the README’s docker build and docker run commands, exactly as written', { timeout: 15 * 60_000 }, async (t) => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('<!-- docker:start -->'), readme.indexOf('<!-- docker:end -->'));
  const lines = section.split('\n').map((line) => line.trim());
  const build = lines.find((line) => line.startsWith('docker build '));
  const runLine = lines.find(
    (line) => line.startsWith('docker run ') && line.includes('-e PLANTSTORE_TOKENS=local-token '),
  );
  assert.equal(build, 'docker build -t plantstore .');
  assert.equal(
    runLine,
    'docker run -p 127.0.0.1:4010:4010 -e PLANTSTORE_TOKENS=local-token -e PLANTSTORE_ADMIN_TOKEN=local-admin plantstore',
  );

  if (!(await portIsFree(4010))) {
    t.skip('port 4010 is in use on this machine, and the README command publishes that port');
    return;
  }
  const built = await run(build, ROOT, 10 * 60_000);
  assert.equal(built.code, 0, built.output.slice(-4000));

  let docker: StartedProcess | undefined;
  let id: string | undefined;
  try {
    // Its own process group: a `docker run` left by a failed test is killed with the group.
    docker = await startProcess({
      file: 'sh',
      args: ['-c', runLine],
      cwd: ROOT,
      group: true,
      readyProbe: async () => (await fetch('http://127.0.0.1:4010/__health', { signal: AbortSignal.timeout(2000) })).ok,
      timeoutMs: 60_000,
      name: runLine,
    });
    const mine = await containersPublishing4010();
    assert.equal(mine.length, 1, 'one container of the image publishes port 4010');
    id = mine[0]!;

    const { body: inspect } = await engine('GET', `/containers/${id}/json`);
    assert.equal(inspect.Config.User, 'node');
    assert.equal((await waitUntilHealthy(id)).at(-1), 'healthy');
    const created = await call('http://127.0.0.1:4010/plants', {
      method: 'POST',
      headers: { authorization: 'Bearer local-token', 'content-type': 'application/json' },
      body: '{"id": 1, "name": "Monstera", "tag": "tropical"}',
    });
    assert.deepEqual([created.status, created.body], [200, { name: 'Monstera', tag: 'tropical' }]);
    const wrong = await call('http://127.0.0.1:4010/plants', {
      method: 'POST',
      headers: { authorization: 'Bearer other', 'content-type': 'application/json' },
      body: '{"id": 2, "name": "Fern"}',
    });
    assert.equal(wrong.status, 401);

    const t0 = performance.now();
    // -t 10: Docker's default grace period, stated because podman's Docker
    // API treats a missing one as 0 (kill at once).
    const stop = await run(`docker stop -t 10 ${id}`, ROOT, 60_000);
    t.diagnostic(`docker stop took ${(performance.now() - t0).toFixed(0)} ms`);
    assert.equal(stop.code, 0, stop.output);
    const ended = await docker.exited;
    assert.equal(
      ended.code,
      0,
      `docker run ended with the server's exit code 0:\n${[...docker.lines, docker.stderr()].join('\n').slice(-2000)}`,
    );
  } finally {
    for (const leftover of id !== undefined ? [id] : await containersPublishing4010().catch(() => [])) {
      await engine('DELETE', `/containers/${leftover}?force=true`).catch(() => undefined);
    }
    if (docker?.exit() === undefined) await docker?.stop(1_000);
  }
});

/** Ids of the running containers of the image `plantstore` that publish port 4010. */
async function containersPublishing4010(): Promise<string[]> {
  const { body } = await engine('GET', '/containers/json');
  return (body as Array<{ Id: string; Image: string; Ports?: Array<{ PublicPort?: number }> }>)
    .filter((c) => /(^|\/)plantstore(:latest)?$/.test(c.Image) && c.Ports?.some((p) => p.PublicPort === 4010))
    .map((c) => c.Id);
}
