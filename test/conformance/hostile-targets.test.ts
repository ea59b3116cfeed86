// The harness against targets that misbehave at the transport level
// (docs/conformance.md, "When the target misbehaves"): every run ends, grades
// `error` with a message naming the cause, reads no body past the cap,
// follows no redirect and ends with the documented exit code. The servers are
// in test/support/hostile-servers.ts.
//
// No verdict here depends on the scheduler: a server whose answer must end
// in a timeout never completes one (a black hole, a drip that cannot end),
// so the short deadline is the only way out; every other run gets a deadline
// that a loaded machine does not reach, since its outcome (bytes that are not
// HTTP, a close, a cap) comes from what the server sends, not from when.
import { catalog } from '../../conformance/checks/index.js';
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { formatMs, MAX_BODY } from '../../conformance/run/http.js';
import type { JsonReport } from '../../conformance/report/json.js';
import { exitCode, type TargetResult } from '../../conformance/run/result.js';
import { run, runTarget } from '../../conformance/run/runner.js';
import { DEAD_AFTER } from '../../conformance/run/target-health.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { startFake } from '../support/fake-server.js';
import * as hostile from '../support/hostile-servers.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));
const model = loadSpecModel();
const TIMEOUT_MS = 2000;
/** The deadline of the runs that must end in a timeout; how the messages write it ("2 s"). */
const WITHIN = formatMs(TIMEOUT_MS);
/**
 * The deadline where a target does answer: long enough that the answers of
 * a healthy exchange never miss it on a loaded machine (these runs share
 * one event loop with the others and with the servers).
 */
const GENEROUS_MS = 60_000;
const CONCURRENCY = 4;

function runAgainst(url: string, timeoutMs = GENEROUS_MS): Promise<TargetResult> {
  return runTarget(
    { model, targets: [], seed: 7, cases: 2, timeoutMs, concurrency: CONCURRENCY },
    { name: 'hostile', url, token: 'hostile-token', role: 'target', informs: false, restrictsTokens: false },
  );
}

async function withServer<T>(
  start: Promise<hostile.HostileServer>,
  body: (s: hostile.HostileServer) => Promise<T>,
): Promise<T> {
  const s = await start;
  try {
    return await body(s);
  } finally {
    await s.close();
  }
}

/** The target was declared dead by the preflight: every check that could run is `error`, naming the cause. */
function assertDeadAtPreflight(r: TargetResult, cause: RegExp): void {
  assert.match(r.unreachable ?? '(not declared dead)', cause);
  assert.match(r.unreachable!, /\(preflight POST \/plants\)$/);
  for (const res of r.results) {
    assert.equal(res.outcome, 'error', `${res.id}: ${res.actual}`);
    assert.match(res.actual ?? '', /^not run: /, res.id);
    assert.match(res.actual ?? '', cause, res.id);
    assert.equal(res.requests, 0, `${res.id} sent no request`);
  }
  assert.equal(exitCode([r], false), 2);
}

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

// Asynchronous on purpose: the hostile servers run on this process's event loop.
function cli(args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

// Two runs at a time: as many as the machine has cores.
describe('the harness against hostile targets', { concurrency: 2, timeout: 300_000 }, () => {
  it('connection refused: error "target unreachable", nothing else sent', async () => {
    const port = await hostile.refusedPort();
    const r = await runAgainst(`http://127.0.0.1:${port}`);
    assertDeadAtPreflight(r, new RegExp(`target unreachable: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
  });

  it('a black hole (accepts, never answers): error "did not answer within 2 s (timeout)", only the preflight sent', async () => {
    await withServer(hostile.blackHole(), async (s) => {
      const r = await runAgainst(s.url, TIMEOUT_MS);
      assertDeadAtPreflight(r, new RegExp(`target did not answer within ${WITHIN} \\(timeout\\)`));
      assert.equal(s.requests(), 1, 'only the preflight reached the target');
    });
  });

  it('a slow drip (a head that never ends, a byte every 100 ms): the deadline covers the whole exchange, not idle time', async () => {
    // A byte arrives every 100 ms, so an idle timeout of 2000 ms would never fire.
    await withServer(hostile.slowDrip(100), async (s) => {
      assertDeadAtPreflight(
        await runAgainst(s.url, TIMEOUT_MS),
        new RegExp(`target did not answer within ${WITHIN} \\(timeout\\)`),
      );
    });
  });

  it('a slow drip of the body only: error "did not finish its answer"', async () => {
    await withServer(hostile.slowDrip(100, 'body'), async (s) => {
      assertDeadAtPreflight(
        await runAgainst(s.url, TIMEOUT_MS),
        new RegExp(
          `target did not finish its answer within ${WITHIN} \\(timeout\\) \\(status 401 received, \\d+ bytes of body read\\)`,
        ),
      );
    });
  });

  it('a connection closed at once: error "closed the connection before answering"', async () => {
    await withServer(hostile.immediateClose(), async (s) => {
      assertDeadAtPreflight(await runAgainst(s.url), /target closed the connection before answering/);
    });
  });

  for (const then of ['keep-open', 'close'] as const) {
    it(`bytes that are not HTTP (an SSH banner, then ${then}): error "answer is not HTTP"`, async () => {
      await withServer(hostile.notHttp(then), async (s) => {
        assertDeadAtPreflight(
          await runAgainst(s.url),
          /answer is not HTTP: .*; received "SSH-2\.0-OpenSSH_9\.6\\r\\n"/,
        );
      });
    });
  }

  it('an endless chunked body: reading stops past the 1 MiB cap and the connection is closed', async () => {
    await withServer(hostile.endlessBody('chunked'), async (s) => {
      // A long deadline: on a loaded machine, the cap and not the deadline must end this exchange.
      const r = await runAgainst(s.url);
      assertDeadAtPreflight(
        r,
        /body exceeded 1 MiB limit \(status 200; stopped reading after \d+ bytes, connection closed\)/,
      );
      // What was read before the harness stopped: past the cap by less than one read.
      const read = Number(/stopped reading after (\d+) bytes/.exec(r.unreachable!)![1]);
      assert.ok(read > MAX_BODY && read < 2 * MAX_BODY, `read ${read} bytes`);
    });
  });

  it('a Content-Length of 1 TiB: refused before reading', async () => {
    await withServer(hostile.endlessBody('content-length'), async (s) => {
      assertDeadAtPreflight(
        await runAgainst(s.url),
        /body exceeded 1 MiB limit \(status 200, Content-Length: 1099511627776; not read, connection closed\)/,
      );
    });
  });

  it('endless headers: refused past the 16 KiB header limit', async () => {
    await withServer(hostile.endlessHeaders(), async (s) => {
      assertDeadAtPreflight(
        await runAgainst(s.url),
        /headers exceeded 16 KiB limit \(UND_ERR_HEADERS_OVERFLOW; connection closed\)/,
      );
    });
  });

  it(`a target that stops answering mid-run: dead after ${DEAD_AFTER} exchanges in a row without an answer`, async () => {
    const answered = 3; // the diagnosis's preflight and valid create, and one more
    await withServer(hostile.goesDark(answered), async (s) => {
      const r = await runAgainst(s.url);
      assert.match(
        r.unreachable ?? '',
        new RegExp(
          `target closed the connection before answering .*\\(${DEAD_AFTER} requests in a row got no answer, from .+ on\\)`,
        ),
      );
      // The report names the request after which it stopped answering, and how to send it again.
      assert.ok(r.stoppedBy, 'stoppedBy is set');
      assert.match(r.stoppedBy.reproduce, /^curl /);
      // Sent after the target went dark: the DEAD_AFTER that declared it dead and the others then in flight.
      assert.ok(s.requests() <= answered + DEAD_AFTER + CONCURRENCY - 1, `${s.requests()} requests reached the target`);
      const notRun = r.results.filter((x) => x.outcome === 'error' && x.actual?.startsWith('not run: '));
      assert.ok(notRun.length > r.results.length / 2, `${notRun.length} checks graded "not run"`);
      assert.ok(!r.results.some((x) => x.outcome === 'pass'), 'nothing passes against a target that died');
      // Findings are kept: the one answer it gave a check before going dark may have failed it (exit 1); else 2.
      assert.equal(exitCode([r], false), r.summary.fail > 0 ? 1 : 2);
    });
  });

  for (const status of [302, 307] as const) {
    it(`a ${status} redirect to another server: graded as an answer (fail), never followed`, async () => {
      await withServer(hostile.recorder(), (elsewhere) =>
        withServer(hostile.redirecting(status, `${elsewhere.url}/plants`), async (s) => {
          const r = await runAgainst(s.url);
          assert.equal(elsewhere.connections(), 0, 'the redirect target was never contacted');
          assert.equal(r.unreachable, undefined);
          assert.ok(s.requests() > r.results.length, 'the catalog ran against the target');
          assert.deepEqual(
            r.results.filter((x) => x.outcome === 'error').map((x) => x.id),
            [],
          );
          const accept = r.results.find((x) => x.id === 'PS-ACCEPT-001')!;
          assert.equal(accept.outcome, 'fail');
          assert.match(
            accept.actual ?? '',
            new RegExp(
              `${status}.*redirect to http://127\\.0\\.0\\.1:${elsewhere.port}/plants not followed \\(the harness stays on the target\\)`,
            ),
          );
          assert.equal(exitCode([r], false), 1);
        }),
      );
    });
  }

  it('a dead target does not stop the run: the next target is still checked', async () => {
    const port = await hostile.refusedPort();
    const fake = await startFake({ tokens: ['t'] });
    try {
      const only = ['PS-ACCEPT-001', 'PS-AUTH-001', 'PS-RESP-002'];
      const [dead, alive] = await run({
        model,
        seed: 1,
        cases: 1,
        timeoutMs: GENEROUS_MS,
        only,
        targets: [
          {
            name: 'dead',
            url: `http://127.0.0.1:${port}`,
            token: 't',
            role: 'target',
            informs: false,
            restrictsTokens: true,
          },
          { name: 'alive', url: fake.url, token: 't', role: 'target', informs: false, restrictsTokens: true },
        ],
      });
      assert.deepEqual(dead!.summary, { pass: 0, 'non-strict': 0, fail: 0, skip: 0, error: 3 });
      assert.equal(alive!.unreachable, undefined);
      assert.deepEqual(alive!.summary, { pass: 3, 'non-strict': 0, fail: 0, skip: 0, error: 0 });
      assert.equal(exitCode([dead!, alive!], false), 2);
      assert.equal(exitCode([alive!], false), 0);
    } finally {
      await fake.close();
    }
  });

  // End to end through the CLI: the exit codes and the stderr line.
  it('CLI: a black hole exits 2 naming the cause', async () => {
    await withServer(hostile.blackHole(), async (s) => {
      const run = await cli(['--target', s.url, '--timeout', String(TIMEOUT_MS), '--cases', '2', '--seed', '1']);
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(
        run.stdout,
        new RegExp(
          `The target \\(${s.url}\\) was not checked: no answer from 127\\.0\\.0\\.1:\\d+ within ${WITHIN}\\.\\n.*target did not answer within ${WITHIN} \\(timeout\\)`,
        ),
      );
      assert.match(run.stdout, new RegExp(`${catalog.length} checks not run; seed 1`));
      assert.match(run.stdout, /^INCOMPLETE: /m);
    });
  });

  it('CLI: a target that fails checks and then drops every connection exits 1, naming the request after which it went silent', async () => {
    // It answers 40 requests (200 with a body that is no plant, to every request with a token: creates fail), then
    // closes every connection: the findings before it are kept (exit 1), and every report says where it stopped.
    await withServer(hostile.goesDark(40), async (s) => {
      const dir = mkdtempSync(join(tmpdir(), 'goes-dark-'));
      try {
        const json = join(dir, 'report.json');
        const run = await cli([
          '--target',
          s.url,
          '--token',
          'hostile-token',
          '--timeout',
          String(GENEROUS_MS),
          '--cases',
          '2',
          '--seed',
          '1',
          '--json',
          json,
        ]);
        assert.equal(run.code, 1, run.stdout + run.stderr);
        const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
        const t = report.targets[0]!;
        assert.ok(t.summary.fail > 0, JSON.stringify(t.summary));
        assert.ok(t.summary.error > 0, 'the checks after it went silent were not run');
        assert.match(t.unreachable ?? '', /requests in a row got no answer/);
        const by = t.stoppedBy!;
        assert.ok(by, 'the JSON report names the request after which it stopped answering');
        assert.match(by.reproduce, /^curl /);
        const request = `${by.check}'s ${by.method} ${by.path}`;
        assert.ok(run.stdout.includes(`It stopped answering after ${request}`), run.stdout);
        assert.match(
          run.stdout,
          new RegExp(
            `^FAILED: \\d+ check\\(s\\) failed, .*; the target stopped answering after ${escapeRegExp(request)}, seed 1`,
            'm',
          ),
        );
        assert.match(run.stderr, /gave up on /);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  it('CLI: a target that answers nothing from the start exits 2: nothing could be judged', async () => {
    await withServer(hostile.goesDark(0), async (s) => {
      const run = await cli([
        '--target',
        s.url,
        '--token',
        'hostile-token',
        '--timeout',
        String(GENEROUS_MS),
        '--cases',
        '2',
        '--seed',
        '1',
      ]);
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(run.stdout, /was not checked: /);
      assert.match(run.stdout, /^INCOMPLETE: /m);
      assert.equal(s.requests(), 1, 'only the preflight reached it');
    });
  });

  it('CLI: bytes that are not HTTP exit 2 naming the cause', async () => {
    await withServer(hostile.notHttp('close'), async (s) => {
      const run = await cli(['--target', s.url, '--timeout', String(GENEROUS_MS), '--cases', '2']);
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(run.stdout, /was not checked: 127\.0\.0\.1:\d+ does not speak HTTP\.\n.*answer is not HTTP: /);
    });
  });

  it('CLI: a redirecting target exits 1 and the redirect target is never contacted', async () => {
    // One check: the exit code and the lines are the CLI's; that no check of the whole catalog follows a redirect is
    // the test of the 307 redirect above (in process).
    await withServer(hostile.recorder(), (elsewhere) =>
      withServer(hostile.redirecting(307, `${elsewhere.url}/plants`), async (s) => {
        const run = await cli([
          '--target',
          s.url,
          '--timeout',
          String(GENEROUS_MS),
          '--cases',
          '2',
          '--only',
          'PS-ACCEPT-001',
        ]);
        assert.equal(run.code, 1, run.stdout + run.stderr);
        assert.equal(elsewhere.connections(), 0);
        assert.match(run.stdout, /redirect to http:\/\/127\.0\.0\.1:\d+\/plants not followed/);
        assert.match(run.stdout, /^FAILED: /m);
      }),
    );
  });
});
