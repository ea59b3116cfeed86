// A new user's first run, end to end against real local servers: the
// harness tells the user's mistake from the server's fault. A missing or
// wrong token, a wrong base URL, a TLS/plain-HTTP mismatch and an
// unreachable target each exit 2 with a line of their own and no per-check
// noise, one diagnosis per cause, each target named as given.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { freePort } from '../../lib/process.js';
import { assertNotChecked, cliIn, MOST_LINES, scratchFolder, TOKEN, withFake } from '../support/first-run-cli.js';

const dir = scratchFolder();
const cli = cliIn(dir);

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
          // A P-256 key: any key makes the port speak TLS, and an RSA key of 2048 bits costs openssl about half a
          // second of CPU to generate.
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
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
});
