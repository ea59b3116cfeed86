// Real deployments sit behind gateways (conformance/run/gateway.ts). Against
// loopback servers that behave that way: a rate-limited target answering
// 429 with Retry-After gets a complete, correct run under --rate-limit; a
// 429 or 503 with Retry-After is never a check's verdict (retries spent, or
// a wait past the deadline: error, with the reason); a 429 without it is an
// answer, graded; HTTP_PROXY sends every request through the proxy, and
// NO_PROXY keeps them off it; a private CA works through NODE_EXTRA_CA_CERTS.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { RETRIES, retryAfterMs } from '../../conformance/run/gateway.js';
import type { JsonReport } from '../../conformance/report/json.js';
import { runProcess } from '../../lib/process.js';
import { startFake, type FakeServer } from '../support/fake-server.js';
import { rateLimitedGateway, recordingProxy, tlsTerminator } from './loopback-gateways.js';

const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));
const TOKEN = 'gateway-test-token';
const folder = mkdtempSync(join(tmpdir(), 'plantstore-gateway-'));
const NO_PROXY_ENV = {
  HTTP_PROXY: undefined,
  HTTPS_PROXY: undefined,
  http_proxy: undefined,
  https_proxy: undefined,
  NO_PROXY: undefined,
  no_proxy: undefined,
};
let upstream: FakeServer;
let direct: Map<string, string>;
let runs = 0;
/** Where only the gateway's behaviour is looked at, a few checks are enough (the tests beside this file share the CPU). */
const LIGHT = ['--only', 'PS-AUTH-001,PS-ACCEPT-001,PS-REJECT-001'];

interface CliRun {
  code: number | null;
  output: string;
  outcomes: Map<string, string>;
  report: JsonReport | undefined;
}

/** The CLI against `url` with a fixed seed and few cases, in its own process (the environment is read at start). */
async function cli(url: string, args: string[] = [], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const json = join(folder, `run-${++runs}.json`);
  const ran = await runProcess({
    file: process.execPath,
    // One seed sends the same ids (--seed replays a run): each run against the one upstream gets its own id offset.
    args: [
      CLI,
      '--target',
      url,
      '--token',
      TOKEN,
      '--seed',
      '11',
      '--id-offset',
      String(runs),
      '--cases',
      '5',
      '--json',
      json,
      ...args,
    ],
    env: { ...NO_PROXY_ENV, NO_COLOR: '1', ...env },
    timeoutMs: 180_000,
    name: 'plantstore-conformance',
  });
  const report = existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as JsonReport) : undefined;
  const outcomes = new Map((report?.targets[0]?.results ?? []).map((r) => [r.id, r.outcome] as [string, string]));
  return { code: ran.code, output: [...ran.lines, ran.stderr].join('\n'), outcomes, report };
}

before(async () => {
  upstream = await startFake({ tokens: [TOKEN] });
  const baseline = await cli(upstream.url);
  assert.equal(baseline.code, 0, baseline.output);
  direct = baseline.outcomes;
});

after(async () => {
  await upstream.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('Retry-After (RFC 9110 §10.2.3)', () => {
  it('reads delay-seconds and HTTP-date; a date in the past is 0; anything else is no Retry-After', () => {
    const now = Date.parse('Sun, 06 Nov 1994 08:49:37 GMT');
    assert.equal(retryAfterMs('120', now), 120_000);
    assert.equal(retryAfterMs(' 0 ', now), 0);
    assert.equal(retryAfterMs('Sun, 06 Nov 1994 08:49:40 GMT', now), 3000);
    assert.equal(retryAfterMs('Sunday, 06-Nov-94 08:49:39 GMT', now), 2000, 'the obsolete RFC 850 form');
    assert.equal(retryAfterMs('Sun, 06 Nov 1994 08:49:00 GMT', now), 0);
    for (const bad of ['-1', '1.5', '', 'soon', '1e3', '2024-01-01T00:00:00Z'])
      assert.equal(retryAfterMs(bad, now), undefined, bad);
    assert.equal(retryAfterMs(undefined, now), undefined);
  });
});

describe('the harness behind gateways', () => {
  it('a target that answers 429 with Retry-After past 50 requests a second gets a complete, correct run under --rate-limit 40', async () => {
    const gate = await rateLimitedGateway(upstream.url, 50);
    try {
      const limited = await cli(gate.url, ['--rate-limit', '40']);
      assert.equal(limited.code, 0, limited.output);
      assert.deepEqual(limited.outcomes, direct, 'the same outcomes as against the target itself');
      assert.ok(gate.forwarded > 50, `the run needs more than a second's worth of requests (${gate.forwarded})`);
    } finally {
      await gate.close();
    }
  });

  it(`429 with Retry-After on every request: retried ${RETRIES} times, then error with the reason, never the verdict (exit 2)`, async () => {
    const gate = await rateLimitedGateway(upstream.url, 0, { retryAfter: '0' });
    try {
      const run = await cli(gate.url, LIGHT);
      assert.equal(run.code, 2, run.output);
      assert.match(
        run.output,
        new RegExp(
          `was not checked: the target, or a gateway before it, keeps asking to come back later\\.\\n.*rate limited: 429 with Retry-After: 0 after ${RETRIES} retries; a rate-limit answer is not the check's verdict`,
        ),
      );
      assert.equal(gate.limited, RETRIES + 1, 'the preflight and its retries; nothing after the target was given up');
      assert.deepEqual(
        [...new Set(run.outcomes.values())].filter((o) => o !== 'skip'),
        ['error'],
        'no check graded on a rate-limit answer',
      );
    } finally {
      await gate.close();
    }
  });

  it('503 with a Retry-After past the deadline (--timeout): not waited, error with the reason', async () => {
    const gate = await rateLimitedGateway(upstream.url, 0, { status: 503, retryAfter: '3600' });
    try {
      // A deadline a loaded machine's answers never miss, and still far shorter than the hour asked for.
      const run = await cli(gate.url, [...LIGHT, '--timeout', '60000']);
      assert.equal(run.code, 2, run.output);
      assert.match(
        run.output,
        /rate limited: 503 with Retry-After: 3600, longer than the 60 s deadline \(--timeout\); not waited/,
      );
      assert.equal(gate.limited, 1);
    } finally {
      await gate.close();
    }
  });

  it("429 without Retry-After is the target's answer, graded (exit 1)", async () => {
    const gate = await rateLimitedGateway(upstream.url, 0, { retryAfter: undefined });
    try {
      const run = await cli(gate.url, LIGHT);
      assert.equal(run.code, 1, run.output);
      assert.ok([...run.outcomes.values()].includes('fail'));
    } finally {
      await gate.close();
    }
  });

  it('HTTP_PROXY: every request goes through the proxy, and the run is the same; NO_PROXY keeps them off it', async () => {
    const proxy = await recordingProxy();
    try {
      const proxied = await cli(upstream.url, [], { HTTP_PROXY: proxy.url });
      assert.equal(proxied.code, 0, proxied.output);
      assert.deepEqual(proxied.outcomes, direct);
      assert.ok(proxy.seen.length > 0, 'the proxy saw the requests');
      assert.deepEqual(
        proxy.seen.filter((target) => !target.startsWith(`${upstream.url}/`)),
        [],
        'only requests to the target',
      );
      const before = proxy.seen.length;
      const bypassed = await cli(upstream.url, LIGHT, { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
      assert.equal(bypassed.code, 0, bypassed.output);
      assert.equal(proxy.seen.length, before, 'NO_PROXY: nothing through the proxy');
    } finally {
      await proxy.close();
    }
  });

  it('a target with a certificate of a private CA: refused without NODE_EXTRA_CA_CERTS, the same run with it', async (t) => {
    let cert: string;
    let key: string;
    try {
      // A self-signed certificate for 127.0.0.1: its own private CA.
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=plantstore private CA test',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
          '-keyout',
          join(folder, 'key.pem'),
          '-out',
          join(folder, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      cert = readFileSync(join(folder, 'cert.pem'), 'utf8');
      key = readFileSync(join(folder, 'key.pem'), 'utf8');
    } catch (err) {
      t.skip(`openssl could not make a certificate here: ${(err as Error).message}`);
      return;
    }
    const tls = await tlsTerminator(upstream.url, cert, key);
    try {
      const untrusted = await cli(tls.url, LIGHT);
      assert.equal(untrusted.code, 2, untrusted.output);
      assert.match(
        untrusted.output,
        /was not checked: the certificate of 127\.0\.0\.1:\d+ is not trusted \(self-signed certificate\)/,
      );
      const trusted = await cli(tls.url, [], { NODE_EXTRA_CA_CERTS: join(folder, 'cert.pem') });
      assert.equal(trusted.code, 0, trusted.output);
      assert.deepEqual(trusted.outcomes, direct);
    } finally {
      await tls.close();
    }
  });
});
