// The image, built from the Dockerfile and run on a real container engine:
// its health check, its user, the API, the stub controls, the conformance
// suite, and a clean `docker stop`. Then the README's own `docker build` and
// `docker run` commands, exactly as written there.
//
// Needs a Docker-compatible engine (DOCKER_HOST) and the docker CLI:
// `npm run test:container`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { engine, portIsFree, run, waitForHttp, waitUntilHealthy } from './engine.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url)); // from dist/container-test/
const CONFORMANCE_CLI = join(ROOT, 'dist', 'conformance', 'cli.js');
const TOKEN = 'ci-token';
const ADMIN_TOKEN = 'ci-admin-token';
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
const API = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const SEED = '[{"id": 1, "name": "Seeded Monstera", "tag": "tropical"}, {"id": 9223372036854775807, "name": "Seeded Max"}]';

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

test('the image built from the Dockerfile with testcontainers', { timeout: 15 * 60_000 }, async (t) => {
  const image = `plantstore-container-test:${process.pid}`;
  const built = await GenericContainer.fromDockerfile(ROOT).build(image, { deleteOnExit: false });
  let container: StartedTestContainer | undefined;
  let stopped = false;
  try {
    container = await built
      .withEnvironment({
        PLANTSTORE_TOKENS: TOKEN,
        PLANTSTORE_ADMIN_TOKEN: ADMIN_TOKEN,
        PLANTSTORE_SEED_FILE: '/home/node/seed.json',
      })
      .withCopyContentToContainer([{ content: SEED, target: '/home/node/seed.json', mode: 0o644 }])
      .withExposedPorts(4010)
      .withWaitStrategy(Wait.forHttp('/__health', 4010).withStartupTimeout(60_000))
      .start();
    const started = container;
    const base = `http://${started.getHost()}:${started.getMappedPort(4010)}`;

    await t.test('healthy by the image’s own HEALTHCHECK', async () => {
      const states = await waitUntilHealthy(started.getId());
      assert.equal(states.at(-1), 'healthy');
    });

    await t.test('runs as the non-root user node', async () => {
      const { body } = await engine('GET', `/containers/${started.getId()}/json`);
      assert.equal(body.Config.User, 'node');
      const id = await started.exec(['id', '-u']);
      assert.equal(id.exitCode, 0);
      assert.notEqual(id.output.trim(), '0');
      assert.equal(id.output.trim(), '1000');
    });

    await t.test('serves the API with the configured token and the seeded plants', async () => {
      const health = await call(`${base}/__health`);
      assert.deepEqual([health.status, health.body], [200, { status: 'ok' }]);
      const created = await call(`${base}/plants`, { method: 'POST', headers: API, body: '{"id": 2, "name": "Fern", "tag": "shade"}' });
      assert.deepEqual([created.status, created.body], [200, { name: 'Fern', tag: 'shade' }]);
      const seeded = await call(`${base}/plants`, { method: 'POST', headers: API, body: '{"id": 9223372036854775807, "name": "Again"}' });
      assert.equal(seeded.status, 400, 'the seeded id is taken');
      assert.equal(seeded.body.error, 40004);
      const anonymous = await call(`${base}/plants`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id": 3, "name": "Fern"}' });
      assert.equal(anonymous.status, 401);
      assert.match(String(anonymous.headers.get('www-authenticate')), /^Bearer realm="plantstore"/);
    });

    await t.test('stub controls: token, plants, journal, Prefer, delay', async () => {
      assert.equal((await call(`${base}/__admin/plants`)).status, 401, 'the admin token is required');
      assert.equal((await call(`${base}/__admin/plants`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 401);
      const plants = await call(`${base}/__admin/plants`, { headers: ADMIN });
      assert.deepEqual(plants.body, {
        plants: [
          { id: '1', name: 'Seeded Monstera', tag: 'tropical' },
          { id: '9223372036854775807', name: 'Seeded Max' },
          { id: '2', name: 'Fern', tag: 'shade' },
        ],
      });
      const journal = await call(`${base}/__admin/journal`, { headers: ADMIN });
      const create = journal.body.entries.find((e: { status: number; body: string }) => e.status === 200);
      assert.equal(create.method, 'POST');
      assert.equal(create.path, '/plants');
      assert.equal(create.body, '{"id": 2, "name": "Fern", "tag": "shade"}');
      assert.equal(create.headers.authorization, 'Bearer <redacted>');
      assert.ok(!JSON.stringify(journal.body).includes(TOKEN));

      const forced = await call(`${base}/plants`, { method: 'POST', headers: { ...API, prefer: 'code=400' }, body: '{"id": 5, "name": "Fern"}' });
      assert.equal(forced.status, 400);
      assert.equal(typeof forced.body.error, 'number');
      assert.equal(typeof forced.body.message, 'string');
      const undeclared = await call(`${base}/plants`, { method: 'POST', headers: { ...API, prefer: 'code=500' }, body: '{"id": 5, "name": "Fern"}' });
      assert.deepEqual([undeclared.status, undeclared.body.error], [400, 40022]);

      const put = await call(`${base}/__admin/delay`, { method: 'PUT', headers: { ...ADMIN, 'content-type': 'application/json' }, body: '{"ms": 5}' });
      assert.deepEqual(put.body, { ms: 5 });
      assert.deepEqual((await call(`${base}/__admin/delay`, { headers: ADMIN })).body, { ms: 5 });
      await call(`${base}/__admin/delay`, { method: 'PUT', headers: { ...ADMIN, 'content-type': 'application/json' }, body: '{"ms": 0}' });

      assert.deepEqual((await call(`${base}/__admin/plants`, { method: 'DELETE', headers: ADMIN })).body, { deleted: 3 });
      assert.deepEqual((await call(`${base}/__admin/journal`, { method: 'DELETE', headers: ADMIN })).status, 200);
    });

    await t.test('the conformance suite passes against the container', async (t) => {
      if (!existsSync(CONFORMANCE_CLI)) {
        t.skip(`the conformance harness is not built here (${join('dist', 'conformance', 'cli.js')} is missing)`);
        return;
      }
      const dir = mkdtempSync(join(tmpdir(), 'plantstore-conformance-'));
      try {
        const report = join(dir, 'report.json');
        const result = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
          const child = spawn(process.execPath, [CONFORMANCE_CLI, '--target', base, '--token', TOKEN, '--json', report], {
            cwd: ROOT,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          const timer = setTimeout(() => child.kill('SIGKILL'), 10 * 60_000);
          child.on('error', reject);
          child.on('exit', (code) => {
            clearTimeout(timer);
            resolve({ code, output });
          });
        });
        t.diagnostic(result.output.split('\n').slice(-5).join('\n'));
        assert.equal(result.code, 0, `conformance failures:\n${result.output.slice(-4000)}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    await t.test('docker stop answers the request in flight and exits 0', async (t) => {
      // A long delay keeps a create in flight; closing ends the delay early.
      await call(`${base}/__admin/delay`, { method: 'PUT', headers: { ...ADMIN, 'content-type': 'application/json' }, body: '{"ms": 30000}' });
      const before = (await call(`${base}/__admin/journal`, { headers: ADMIN })).body.total as number;
      const inFlight = call(`${base}/plants`, { method: 'POST', headers: API, body: '{"id": 77, "name": "In flight"}' });
      // The journal records a request before its delay: once it is there, the answer is pending.
      for (let i = 0; i < 100; i++) {
        if ((await call(`${base}/__admin/journal`, { headers: ADMIN })).body.total > before) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const t0 = performance.now();
      // An explicit grace period: like `docker stop` on Docker (10 s). The
      // server must not need it.
      await started.stop({ timeout: 10_000, remove: false });
      const elapsed = performance.now() - t0;
      stopped = true;
      t.diagnostic(`stop with a request in flight took ${elapsed.toFixed(0)} ms`);
      const answer = await inFlight;
      assert.deepEqual([answer.status, answer.body], [200, { name: 'In flight' }]);
      const { body } = await engine('GET', `/containers/${started.getId()}/json`);
      assert.equal(body.State.ExitCode, 0, 'exit 0: the server closed on SIGTERM rather than being killed');
    });
  } finally {
    if (container !== undefined) {
      if (!stopped) await container.stop({ timeout: 10_000, remove: false }).catch(() => undefined);
      await engine('DELETE', `/containers/${container.getId()}?force=true`).catch(() => undefined);
    }
    await engine('DELETE', `/images/${encodeURIComponent(image)}?force=true`).catch(() => undefined);
  }
});

test('the README’s docker build and docker run commands, exactly as written', { timeout: 15 * 60_000 }, async (t) => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('<!-- docker:start -->'), readme.indexOf('<!-- docker:end -->'));
  const lines = section.split('\n').map((line) => line.trim());
  const build = lines.find((line) => line.startsWith('docker build '));
  const runLine = lines.find((line) => line.startsWith('docker run ') && line.includes('-e PLANTSTORE_TOKENS=t plantstore'));
  assert.equal(build, 'docker build -t plantstore .');
  assert.equal(runLine, 'docker run -p 4010:4010 -e PLANTSTORE_TOKENS=t plantstore');

  if (!(await portIsFree(4010))) {
    t.skip('port 4010 is in use on this machine, and the README command publishes that port');
    return;
  }
  const built = await run(build, ROOT, 10 * 60_000);
  assert.equal(built.code, 0, built.output.slice(-4000));

  const child = spawn('sh', ['-c', runLine], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let running = true;
  void exited.then(() => (running = false));
  let id: string | undefined;
  try {
    await waitForHttp('http://127.0.0.1:4010/__health', 60_000, () => running);
    const mine = await containersPublishing4010();
    assert.equal(mine.length, 1, 'one container of the image publishes port 4010');
    id = mine[0] as string;

    const { body: inspect } = await engine('GET', `/containers/${id}/json`);
    assert.equal(inspect.Config.User, 'node');
    assert.equal((await waitUntilHealthy(id)).at(-1), 'healthy');
    const created = await call('http://127.0.0.1:4010/plants', {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
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
    assert.equal(await exited, 0, `docker run ended with the server's exit code 0:\n${output.slice(-2000)}`);
  } finally {
    for (const leftover of id !== undefined ? [id] : await containersPublishing4010().catch(() => [])) {
      await engine('DELETE', `/containers/${leftover}?force=true`).catch(() => undefined);
    }
    if (running) child.kill('SIGKILL');
  }
});

/** Ids of the running containers of the image `plantstore` that publish port 4010. */
async function containersPublishing4010(): Promise<string[]> {
  const { body } = await engine('GET', '/containers/json');
  return (body as Array<{ Id: string; Image: string; Ports?: Array<{ PublicPort?: number }> }>)
    .filter((c) => /(^|\/)plantstore(:latest)?$/.test(c.Image) && c.Ports?.some((p) => p.PublicPort === 4010))
    .map((c) => c.Id);
}
