// A new user's first run, end to end against real local servers: the
// harness tells the user's mistake from the server's fault. A missing or
// wrong token, a wrong base URL, a TLS/plain-HTTP mismatch and an
// unreachable target each exit 2 with a line of their own and no per-check
// noise; --wait-for waits for a server that starts late; -H reaches a
// gateway that wants its own header; --har records every exchange; the
// failures of a server that answers 201 end the output as one group.
import { strict as assert } from 'node:assert';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { freePort } from '../../lib/process.js';
import type { JsonReport } from '../../conformance/report/json.js';
import { startFake, type FakeServer } from '../support/fake-server.js';
import type { FakeOptions } from '../support/fake-mutations.js';

const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plantstore-first-run-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'first-run-token-42';
/** At most this many lines, stdout and stderr together, for a run that cannot mean anything. */
const MOST_LINES = 15;

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr together. */
  output: string;
  lines: number;
}

// Asynchronous on purpose: the fake servers answer from this process's event loop.
function cli(args: string[], env: Record<string, string | undefined> = {}, cwd = dir): Promise<CliRun> {
  const environment: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: '1',
    PLANTSTORE_TOKEN: undefined,
    ...env,
  };
  for (const [k, v] of Object.entries(environment)) if (v === undefined) delete environment[k];
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, env: environment, timeout: 120_000 }, (err, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      resolve({
        code: err ? (typeof err.code === 'number' ? err.code : -1) : 0,
        stdout,
        stderr,
        output,
        lines: output.split('\n').filter((l) => l !== '').length,
      });
    });
  });
}

async function withFake<T>(opts: FakeOptions, body: (fake: FakeServer) => Promise<T>): Promise<T> {
  const fake = await startFake({ tokens: [TOKEN], ...opts });
  try {
    return await body(fake);
  } finally {
    await fake.close();
  }
}

/** A run that cannot mean anything: exit 2, its own line, nothing per check, few lines. */
function assertNotChecked(run: CliRun, line: RegExp): void {
  assert.equal(run.code, 2, run.output);
  assert.match(run.output, line);
  assert.ok(run.lines <= MOST_LINES, `${run.lines} lines:\n${run.output}`);
  assert.doesNotMatch(run.output, /PS-[A-Z]+-\d{3}/, 'no per-check line');
  assert.match(run.stdout, /^INCOMPLETE: the target not checked \(see above\), seed \d+$/m);
}

describe('first runs: the harness tells a user mistake from a server fault', { timeout: 300_000 }, () => {
  it('a wrong token: exit 2, "the token from --token was refused", with what the target answered', async () => {
    await withFake({}, async (fake) => {
      const run = await cli(['--target', fake.url, '--token', 'not-the-token']);
      assertNotChecked(
        run,
        /was not checked: the token from --token was refused\.\n {2}A valid POST \/plants with it was answered 401 \(WWW-Authenticate: Bearer realm="plantstore", error="invalid_token"; "Unknown token\."\)\./,
      );
      assert.match(run.stdout, /What to do: Give --token a token this target accepts\./);
      assert.ok(!run.output.includes('not-the-token'), 'the token is not printed');
    });
  });

  it('no token, against a target that restricts tokens: exit 2, "no token was given"', async () => {
    await withFake({}, async (fake) => {
      const run = await cli(['--target', fake.url]);
      assertNotChecked(run, /was not checked: no token was given, and the target requires one\./);
      assert.match(run.stdout, /What to do: Set PLANTSTORE_TOKEN/);
    });
  });

  it('three targets and one missing token: one diagnosis first, naming each target as given, and no table', async () => {
    await withFake({}, async (fake) => {
      await withFake({}, async (other) => {
        const run = await cli([
          '--target',
          `notag=${fake.url}`,
          '--target',
          `b=${other.url}`,
          '--target',
          `c=${fake.url}`,
        ]);
        assert.equal(run.code, 2, run.output);
        const lines = run.stdout.split('\n');
        assert.equal(
          lines[0],
          '3 targets were not checked, for one cause: no token was given, and the target requires one.',
          run.stdout,
        );
        assert.equal(lines[1], `  notag (${fake.url}), b (${other.url}), c (${fake.url})`);
        assert.equal(run.stdout.match(/What to do: Set PLANTSTORE_TOKEN/g)?.length, 1, 'the cause and its fix once');
        assert.doesNotMatch(run.output, /PS-[A-Z]+-\d{3}|! error|Notag/);
        assert.ok(run.lines <= MOST_LINES, `${run.lines} lines:\n${run.output}`);
        assert.match(run.stdout, /^INCOMPLETE: notag, b, c not checked \(see above\), seed \d+$/m);
      });
    });
  });

  it('two targets, two causes: a diagnosis each, each target named as given', async () => {
    await withFake({}, async (fake) => {
      const port = await freePort();
      const run = await cli(['--target', `notag=${fake.url}`, '--target', `down=http://127.0.0.1:${port}`]);
      assert.equal(run.code, 2, run.output);
      assert.match(
        run.stdout,
        /^Target notag \(http:\/\/127\.0\.0\.1:\d+\) was not checked: no token was given, and the target requires one\.$/m,
      );
      assert.match(
        run.stdout,
        new RegExp(`^Target down \\(http://127\\.0\\.0\\.1:${port}\\) was not checked: cannot connect`, 'm'),
      );
      assert.doesNotMatch(run.output, /PS-[A-Z]+-\d{3}|! error/);
    });
  });

  it('the token from PLANTSTORE_TOKEN, refused: the diagnosis names the variable', async () => {
    await withFake({}, async (fake) => {
      const run = await cli(['--target', fake.url], { PLANTSTORE_TOKEN: 'a-stale-token' });
      assertNotChecked(run, /the token from PLANTSTORE_TOKEN was refused/);
    });
  });

  it('a base URL that already ends with the operation path: exit 2, "no Plant Store at this base URL", and the URL to use', async () => {
    await withFake({}, async (fake) => {
      const run = await cli(['--target', `${fake.url}/plants`, '--token', TOKEN]);
      assertNotChecked(run, /was not checked: no Plant Store at this base URL\./);
      assert.ok(
        run.stdout.includes(
          `The base URL already ends with /plants, which the harness appends itself: use ${fake.url}.`,
        ),
        run.stdout,
      );
    });
  });

  it('a wrong path prefix: the same line, and where the prefix belongs', async () => {
    await withFake({ prefix: '/api/v1' }, async (fake) => {
      const run = await cli(['--target', `${fake.url}/apii/v1`, '--token', TOKEN]);
      assertNotChecked(run, /no Plant Store at this base URL/);
      assert.match(run.stdout, /a path prefix \(e\.g\. \/api\/v1\) belongs in the base URL/);
    });
  });

  it('https:// against a plain HTTP port: exit 2 with its own line, no OpenSSL text', async () => {
    await withFake({}, async (fake) => {
      const run = await cli(['--target', fake.url.replace('http:', 'https:'), '--token', TOKEN]);
      assertNotChecked(run, /was not checked: the URL says https:\/\/ but 127\.0\.0\.1:\d+ speaks plain HTTP\./);
      assert.doesNotMatch(run.output, /ssl3_get_record|SSL routines|openssl/i);
    });
  });

  it('http:// against a TLS port: exit 2 with its own line', async (t) => {
    let cert: string;
    let key: string;
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
      cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
      key = readFileSync(join(dir, 'key.pem'), 'utf8');
    } catch (err) {
      t.skip(`openssl could not make a certificate here: ${(err as Error).message}`);
      return;
    }
    const server = createHttpsServer({ cert, key }, (_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const run = await cli([
        '--target',
        `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        '--token',
        TOKEN,
      ]);
      assertNotChecked(
        run,
        /was not checked: the URL says http:\/\/ but 127\.0\.0\.1:\d+ speaks TLS\.\n {2}What to do: Use https:\/\/127\.0\.0\.1:\d+\./,
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('nothing listening: exit 2 in one line, and --wait-for named', async () => {
    const port = await freePort();
    const run = await cli(['--target', `http://127.0.0.1:${port}`, '--token', TOKEN]);
    assertNotChecked(
      run,
      new RegExp(
        `was not checked: cannot connect: nothing listens on 127\\.0\\.0\\.1:${port} \\(connection refused\\)\\.`,
      ),
    );
    assert.match(run.stdout, /--wait-for SECONDS/);
  });

  it('--wait-for: a server that starts 5 s after the run is waited for, then checked (exit 0)', async () => {
    const port = await freePort();
    let fake: FakeServer | undefined;
    const late = setTimeout(() => void startFake({ tokens: [TOKEN], port }).then((f) => (fake = f)), 5000);
    try {
      const run = await cli([
        '--target',
        `http://127.0.0.1:${port}`,
        '--token',
        TOKEN,
        '--wait-for',
        '90',
        '--only',
        'PS-ACCEPT-001,PS-AUTH-001',
        '--cases',
        '2',
      ]);
      assert.equal(run.code, 0, run.output);
      assert.match(
        run.stderr,
        new RegExp(
          `^target \\(http://127\\.0\\.0\\.1:${port}\\): waiting up to 90 s for it to answer \\(--wait-for\\)$`,
          'm',
        ),
      );
      assert.match(run.stderr, /: answered after \d/);
      assert.match(run.stderr, /: running 2 checks$/m, 'a plain progress line outside a terminal');
      assert.match(run.stdout, /^OK: /m);
    } finally {
      clearTimeout(late);
      await fake?.close();
    }
  });

  it('-H reaches a gateway that requires x-api-key; without it, the run says a gateway may want a header', async () => {
    const key = 'gateway-key-5150';
    await withFake({ gatewayHeader: { name: 'x-api-key', value: key } }, async (fake) => {
      const without = await cli(['--target', fake.url, '--token', TOKEN]);
      assertNotChecked(without, /was not checked: every request is refused with 403 before the token is looked at\./);
      assert.match(without.stdout, /-H "Name: value"/);
      const json = join(dir, 'gateway.json');
      const withKey = await cli([
        '--target',
        fake.url,
        '--token',
        TOKEN,
        '-H',
        `x-api-key: ${key}`,
        '--json',
        json,
        '--cases',
        '5',
      ]);
      assert.equal(withKey.code, 0, withKey.output);
      const report = readFileSync(json, 'utf8');
      assert.ok(!withKey.output.includes(key) && !report.includes(key), 'the key is redacted');
    });
  });

  it('--har writes HAR 1.2 with one entry per exchange the target received, and no credential', async () => {
    const key = 'har-gateway-key-99';
    await withFake({}, async (fake) => {
      const har = join(dir, 'run.har');
      const run = await cli([
        '--target',
        fake.url,
        '--token',
        TOKEN,
        '-H',
        `x-api-key: ${key}`,
        '--har',
        har,
        '--cases',
        '5',
        '--seed',
        '9',
      ]);
      assert.equal(run.code, 0, run.output);
      const text = readFileSync(har, 'utf8');
      const log = (
        JSON.parse(text) as { log: { version: string; creator: { name: string }; entries: Array<Record<string, any>> } }
      ).log;
      assert.equal(log.version, '1.2');
      assert.equal(log.creator.name, 'plantstore-conformance');
      assert.equal(log.entries.length, fake.requests(), 'one entry per request the target received');
      for (const e of log.entries) {
        assert.ok(!Number.isNaN(Date.parse(e.startedDateTime)), 'startedDateTime');
        assert.equal(typeof e.time, 'number');
        for (const key of [
          'method',
          'url',
          'httpVersion',
          'headers',
          'queryString',
          'cookies',
          'headersSize',
          'bodySize',
        ])
          assert.ok(key in e.request, `request.${key}`);
        for (const key of [
          'status',
          'statusText',
          'httpVersion',
          'headers',
          'cookies',
          'content',
          'redirectURL',
          'headersSize',
          'bodySize',
        ])
          assert.ok(key in e.response, `response.${key}`);
        for (const key of ['send', 'wait', 'receive']) assert.equal(typeof e.timings[key], 'number', `timings.${key}`);
      }
      assert.ok(!text.includes(TOKEN) && !text.includes(key), 'no token, no secret header');
      assert.ok(
        log.entries.some((e) =>
          (e.request.headers as Array<{ name: string; value: string }>).some(
            (h) => h.value === 'Bearer $PLANTSTORE_TOKEN',
          ),
        ),
      );
    });
  });

  it('a server that answers 201 to valid creates: the output ends with one group naming all its 201 failures', async () => {
    await withFake({ status201: true }, async (fake) => {
      const json = join(dir, '201.json');
      const run = await cli(['--target', fake.url, '--token', TOKEN, '--cases', '5', '--seed', '4', '--json', json]);
      assert.equal(run.code, 1, run.output);
      const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
      const failed = report.targets[0]!.results.filter((r) => r.outcome === 'fail').map((r) => r.id);
      assert.ok(failed.length > 10, `${failed.length} checks failed`);
      const lines = run.stdout.trimEnd().split('\n');
      const start = lines.findIndex((l) => l.startsWith('What failed on the target'));
      assert.ok(start >= 0, run.stdout);
      const section = lines.slice(start);
      assert.equal(section[0], `What failed on the target (${fake.url}): ${failed.length} check(s), 1 cause(s)`);
      // Numbered: each failing check's line points to it ([1]).
      assert.equal(section[1], `  [1] × a valid POST /plants is answered 201, not 200 (${failed.length} checks)`);
      const named = section
        .slice(2, -4)
        .join(' ')
        .split(/[\s,]+/)
        .filter(Boolean);
      assert.deepEqual(named.sort(), [...failed].sort(), 'the group names every failing check');
      assert.match(section.at(-4)!, /^ {6}Expected: 200 /);
      assert.match(section.at(-3)!, /^ {8}Actual: .*201/);
      assert.match(section.at(-2)!, /^ {5}Reproduce: curl -sS -i -X POST /);
      assert.match(section.at(-1)!, /^FAILED: \d+ check\(s\) failed, 1 cause\(s\), on 1 target\(s\), seed 4$/);
      assert.deepEqual(
        report.targets[0]!.failures.map((g) => [g.cause, g.checks.length]),
        [['a valid POST /plants is answered 201, not 200', failed.length]],
      );
      assert.doesNotMatch(run.stdout, /status 201: 201|undefined/);
    });
  });

  it('--fail-fast stops starting checks after the first failure; those not run are skip', async () => {
    await withFake({ status201: true }, async (fake) => {
      const json = join(dir, 'fail-fast.json');
      const run = await cli([
        '--target',
        fake.url,
        '--token',
        TOKEN,
        '--fail-fast',
        '--concurrency',
        '1',
        '--cases',
        '5',
        '--json',
        json,
      ]);
      assert.equal(run.code, 1, run.output);
      const results = (JSON.parse(readFileSync(json, 'utf8')) as JsonReport).targets[0]!.results;
      assert.equal(results.filter((r) => r.outcome === 'fail').length, 1);
      const stopped = results.filter(
        (r) => r.outcome === 'skip' && r.actual?.startsWith('not run: the run stopped after 1 failure(s)'),
      );
      assert.ok(stopped.length > 10, `${stopped.length} checks not run`);
    });
  });

  it('the configuration file and the environment give the same run as the flags; flags win over the environment, which wins over the file', async () => {
    await withFake({}, async (fake) => {
      const only = 'PS-ACCEPT-001,PS-AUTH-001,PS-HTTP-001';
      const report = (file: string) => {
        const r = JSON.parse(readFileSync(join(dir, file), 'utf8')) as JsonReport;
        return {
          seed: r.seed,
          strict: r.strict,
          targets: r.targets.map((t) => ({
            name: t.name,
            url: t.url,
            outcomes: t.results.map((x) => [x.id, x.outcome]),
          })),
        };
      };
      // One seed sends the same ids (--seed replays a run): each run against the same fake gives its own id offset.
      const flags = await cli([
        '--target',
        `staging=${fake.url}`,
        '--token',
        TOKEN,
        '--seed',
        '21',
        '--id-offset',
        '1',
        '--cases',
        '3',
        '--only',
        only,
        '--strict',
        '--json',
        'flags.json',
      ]);
      assert.equal(flags.code, 0, flags.output);

      const env = await cli([], {
        PLANTSTORE_TARGET: `staging=${fake.url}`,
        PLANTSTORE_TOKEN: TOKEN,
        PLANTSTORE_SEED: '21',
        PLANTSTORE_ID_OFFSET: '2',
        PLANTSTORE_CASES: '3',
        PLANTSTORE_ONLY: only,
        PLANTSTORE_STRICT: 'true',
        PLANTSTORE_JSON: 'env.json',
      });
      assert.equal(env.code, 0, env.output);

      const folder = mkdtempSync(join(dir, 'config-'));
      writeFileSync(
        join(folder, 'plantstore.conformance.yaml'),
        [
          'target:',
          '  staging: ${STAGING_URL}',
          'token: ${FIRST_RUN_TOKEN}',
          'seed: 21',
          'id-offset: 3',
          'cases: 3',
          `only: ${only}`,
          'strict: true',
          'json: ../file.json',
          '',
        ].join('\n'),
      );
      const file = await cli([], { STAGING_URL: fake.url, FIRST_RUN_TOKEN: TOKEN }, folder);
      assert.equal(file.code, 0, file.output);
      assert.deepEqual(report('env.json'), report('flags.json'));
      assert.deepEqual(report('file.json'), report('flags.json'));
      assert.equal(report('flags.json').targets[0]!.name, 'staging');

      // Precedence: the environment's seed over the file's, a flag's over both.
      const overEnv = await cli(
        ['--json', '../precedence.json'],
        { STAGING_URL: fake.url, FIRST_RUN_TOKEN: TOKEN, PLANTSTORE_SEED: '22' },
        folder,
      );
      assert.equal(overEnv.code, 0, overEnv.output);
      assert.equal(report('precedence.json').seed, 22);
      const overFlag = await cli(
        ['--json', '../precedence.json', '--seed', '23'],
        { STAGING_URL: fake.url, FIRST_RUN_TOKEN: TOKEN, PLANTSTORE_SEED: '22' },
        folder,
      );
      assert.equal(overFlag.code, 0, overFlag.output);
      assert.equal(report('precedence.json').seed, 23);

      // A variable the file names that is not set is an error naming it.
      const unset = await cli([], { STAGING_URL: fake.url }, folder);
      assert.equal(unset.code, 2);
      assert.match(
        unset.stderr,
        /plantstore\.conformance\.yaml: token: \$\{FIRST_RUN_TOKEN\} is not set in the environment/,
      );
    });
  });
});
