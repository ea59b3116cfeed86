// The image, built from the Dockerfile and run on a real container engine:
// its health check, its user, node as PID 1, the API, the stub controls, the
// conformance suite (from this checkout, and from the image itself:
// `docker run IMAGE conformance --target ...`), and a clean `docker stop`.
// The README's own commands: readme.test.ts.
//
// Needs a Docker-compatible engine (DOCKER_HOST) and the docker CLI:
// `npm run test:container`.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { runProcess } from '../lib/process.js';
import { call, engine, waitUntilHealthy } from './engine.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url)); // from dist/container-test/
const CONFORMANCE_CLI = join(ROOT, 'dist', 'conformance', 'cli', 'main.js');
const TOKEN = 'ci-token';
const ADMIN_TOKEN = 'ci-admin-token';
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
const API = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const INITIAL_PLANTS =
  '[{"id": 1, "name": "Initial Monstera", "tag": "tropical"}, {"id": 9223372036854775807, "name": "Initial Max"}]';

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
        PLANTSTORE_PLANTS_FILE: '/home/node/plants.json',
      })
      .withCopyContentToContainer([{ content: INITIAL_PLANTS, target: '/home/node/plants.json', mode: 0o644 }])
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

    await t.test('node is PID 1 (the entry point execs it), so docker stop signals the server itself', async () => {
      const pid1 = await started.exec(['cat', '/proc/1/cmdline']);
      assert.equal(pid1.exitCode, 0);
      assert.deepEqual(pid1.output.split('\0').filter(Boolean), ['node', '/app/dist/server/start.bundle.mjs']);
    });

    await t.test('serves the API with the configured token and the initial plants', async () => {
      const health = await call(`${base}/__health`);
      assert.deepEqual([health.status, health.body], [200, { status: 'ok', store: 'memory' }]);
      const created = await call(`${base}/plants`, {
        method: 'POST',
        headers: API,
        body: '{"id": 2, "name": "Fern", "tag": "shade"}',
      });
      assert.deepEqual([created.status, created.body], [200, { name: 'Fern', tag: 'shade' }]);
      const taken = await call(`${base}/plants`, {
        method: 'POST',
        headers: API,
        body: '{"id": 9223372036854775807, "name": "Again"}',
      });
      assert.equal(taken.status, 400, 'the id of an initial plant is taken');
      assert.equal(taken.body.error, 40004);
      const anonymous = await call(`${base}/plants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"id": 3, "name": "Fern"}',
      });
      assert.equal(anonymous.status, 401);
      assert.match(String(anonymous.headers.get('www-authenticate')), /^Bearer realm="plantstore"/);
    });

    await t.test('stub controls: token, plants, journal, Prefer, delay', async () => {
      assert.equal((await call(`${base}/__admin/plants`)).status, 401, 'the admin token is required');
      assert.equal(
        (await call(`${base}/__admin/plants`, { headers: { authorization: `Bearer ${TOKEN}` } })).status,
        401,
      );
      const plants = await call(`${base}/__admin/plants`, { headers: ADMIN });
      assert.deepEqual(plants.body, {
        plants: [
          { id: '1', name: 'Initial Monstera', tag: 'tropical' },
          { id: '9223372036854775807', name: 'Initial Max' },
          { id: '2', name: 'Fern', tag: 'shade' },
        ],
        next: null,
      });
      const journal = await call(`${base}/__admin/journal`, { headers: ADMIN });
      const create = journal.body.entries.find((e: { status: number; body: string }) => e.status === 200);
      assert.equal(create.method, 'POST');
      assert.equal(create.path, '/plants');
      assert.equal(create.body, '{"id": 2, "name": "Fern", "tag": "shade"}');
      assert.equal(create.headers.authorization, 'Bearer <redacted>');
      assert.ok(!JSON.stringify(journal.body).includes(TOKEN));

      const forced = await call(`${base}/plants`, {
        method: 'POST',
        headers: { ...API, prefer: 'code=400' },
        body: '{"id": 5, "name": "Fern"}',
      });
      assert.equal(forced.status, 400);
      assert.equal(typeof forced.body.error, 'number');
      assert.equal(typeof forced.body.message, 'string');
      const unavailable = await call(`${base}/plants`, {
        method: 'POST',
        headers: { ...API, prefer: 'code=503, retry-after=2' },
        body: '{"id": 5, "name": "Fern"}',
      });
      assert.deepEqual(
        [unavailable.status, unavailable.body.error, unavailable.headers.get('retry-after')],
        [503, 50399, '2'],
      );
      const undeclared = await call(`${base}/plants`, {
        method: 'POST',
        headers: { ...API, prefer: 'code=302' },
        body: '{"id": 5, "name": "Fern"}',
      });
      assert.deepEqual([undeclared.status, undeclared.body.error], [400, 40022]);

      const put = await call(`${base}/__admin/delay`, {
        method: 'PUT',
        headers: { ...ADMIN, 'content-type': 'application/json' },
        body: '{"ms": 5}',
      });
      assert.deepEqual(put.body, { ms: 5 });
      assert.deepEqual((await call(`${base}/__admin/delay`, { headers: ADMIN })).body, { ms: 5 });
      await call(`${base}/__admin/delay`, {
        method: 'PUT',
        headers: { ...ADMIN, 'content-type': 'application/json' },
        body: '{"ms": 0}',
      });

      assert.deepEqual((await call(`${base}/__admin/plants`, { method: 'DELETE', headers: ADMIN })).body, {
        deleted: 3,
      });
      assert.deepEqual((await call(`${base}/__admin/journal`, { method: 'DELETE', headers: ADMIN })).status, 200);
    });

    await t.test(
      'faults scheduled through the controls of the running image: a reset, a 503 with Retry-After, then the normal answer',
      async () => {
        const steps = [{ fault: 'reset' }, { code: 503, retryAfter: 1 }, 'normal'];
        const json = { 'content-type': 'application/json' };
        const refused = await call(`${base}/__admin/faults`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, ...json },
          body: JSON.stringify(steps),
        });
        assert.equal(refused.status, 401, 'only the admin token schedules faults');
        const scheduled = await call(`${base}/__admin/faults`, {
          method: 'POST',
          headers: { ...ADMIN, ...json },
          body: JSON.stringify(steps),
        });
        assert.deepEqual(scheduled.body, { added: 3, steps });
        const plant = { method: 'POST', headers: API, body: '{"id": 6, "name": "Fern"}' };
        const reset = await fetch(`${base}/plants`, { ...plant, signal: AbortSignal.timeout(30_000) }).then(
          () => assert.fail('the reset step answers nothing'),
          (error: Error & { cause?: { code?: string } }) => error,
        );
        assert.equal(
          reset.cause?.code,
          'ECONNRESET',
          `${reset.message}: ${(reset.cause as Error | undefined)?.message ?? 'no cause'}`,
        );
        const unavailable = await call(`${base}/plants`, plant);
        assert.deepEqual(
          [unavailable.status, unavailable.headers.get('retry-after'), unavailable.body.error],
          [503, '1', 50399],
        );
        const created = await call(`${base}/plants`, plant);
        assert.deepEqual([created.status, created.body], [200, { name: 'Fern' }]);
        assert.deepEqual((await call(`${base}/__admin/faults`, { headers: ADMIN })).body, { steps: [] });
        const plants = await call(`${base}/__admin/plants`, { headers: ADMIN });
        assert.equal(plants.body.plants.filter((p: { id: string }) => p.id === '6').length, 1, 'stored once');
        const journal = await call(`${base}/__admin/journal`, { headers: ADMIN });
        assert.deepEqual(
          journal.body.entries.slice(-3).map((e: { status: number | null; fault: unknown }) => [e.status, e.fault]),
          [
            [null, { from: 'schedule', step: { fault: 'reset' } }],
            [503, { from: 'schedule', step: { code: 503, retryAfter: 1 } }],
            [200, { from: 'schedule', step: 'normal' }],
          ],
        );
        const cleared = await call(`${base}/__admin/reset`, { method: 'POST', headers: { ...ADMIN, ...json } });
        assert.equal(cleared.status, 200);
        assert.equal(cleared.body.faultsCleared, 0);
      },
    );

    await t.test('the conformance suite passes against the container', async (t) => {
      if (!existsSync(CONFORMANCE_CLI)) {
        t.skip(
          `the conformance harness is not built here (${join('dist', 'conformance', 'cli', 'main.js')} is missing)`,
        );
        return;
      }
      const dir = mkdtempSync(join(tmpdir(), 'plantstore-conformance-'));
      try {
        const report = join(dir, 'report.json');
        const ran = await runProcess({
          file: process.execPath,
          args: [CONFORMANCE_CLI, '--target', base, '--token', TOKEN, '--json', report],
          cwd: ROOT,
          timeoutMs: 10 * 60_000,
          name: 'plantstore-conformance',
        });
        const result = { code: ran.code, output: [...ran.lines, ran.stderr].join('\n') };
        t.diagnostic(result.output.split('\n').slice(-5).join('\n'));
        assert.equal(result.code, 0, `conformance failures:\n${result.output.slice(-4000)}`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    await t.test(
      'the harness from the image (docker run IMAGE conformance --target ...) passes against the stub container',
      async (t) => {
        // The stub's mapped port is on the host's loopback: the harness's container shares the host's network.
        const reports = mkdtempSync(join(tmpdir(), 'plantstore-image-reports-'));
        // The image runs as uid 1000; the folder the reports go to must be writable by it.
        chmodSync(reports, 0o777);
        try {
          const ran = await runProcess({
            file: 'docker',
            args: [
              'run',
              '--rm',
              '--network',
              'host',
              '-v',
              `${reports}:/reports`,
              image,
              'conformance',
              '--target',
              base,
              '--token',
              TOKEN,
              '--reports',
              '/reports',
            ],
            timeoutMs: 10 * 60_000,
            name: 'docker run IMAGE conformance',
          });
          const output = [...ran.lines, ran.stderr].join('\n');
          t.diagnostic(ran.lines.slice(-3).join('\n'));
          assert.equal(ran.code, 0, `the harness from the image:\n${output.slice(-4000)}`);
          assert.match(output, /^OK: 1 target\(s\)/m);
          const json = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as {
            targets: Array<{ url: string; summary: Record<string, number> }>;
          };
          assert.equal(json.targets[0]!.url, base);
          assert.equal(json.targets[0]!.summary.fail, 0);
          assert.equal(json.targets[0]!.summary.error, 0);
          assert.ok((json.targets[0]!.summary.pass ?? 0) > 0);
        } finally {
          rmSync(reports, { recursive: true, force: true });
        }
      },
    );

    await t.test('docker stop answers the request in flight and exits 0', async (t) => {
      // A long delay keeps a create in flight; closing ends the delay early.
      await call(`${base}/__admin/delay`, {
        method: 'PUT',
        headers: { ...ADMIN, 'content-type': 'application/json' },
        body: '{"ms": 30000}',
      });
      const before = (await call(`${base}/__admin/journal`, { headers: ADMIN })).body.total as number;
      const inFlight = call(`${base}/plants`, {
        method: 'POST',
        headers: API,
        body: '{"id": 77, "name": "In flight"}',
      });
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
