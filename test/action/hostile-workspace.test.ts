// The GitHub Action in a hostile workspace: the checkout of a pull request
// whose files try to redirect the run, copy a CI secret into a request or a
// report, and write outside the workspace (issue 35, finding 2: a one-line
// `header: ["X-Build: ${FAKE_CI_SECRET}"]` once sent the secret to the target
// and printed it in the log, the job summary and every report). The action
// reads no file it was not given, lets a file it was given read only the
// variables the workflow allows and set only what tunes the run, and
// refuses every path out of the workspace.
import { strict as assert } from 'node:assert';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runStep, tempFolder, TOKEN } from '../support/action-step.js';

const SECRET = 'ci-secret-0f3c9a7d2b51e846';
const ALLOWED = 'gateway-key-7d41e0c29ab3f568';

/** A target that records every request's headers and echoes them in a 400, so that a header sent would reach every report. */
async function startRecorder(): Promise<{ url: string; seen: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 40001, message: JSON.stringify(req.headers) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** Every file under `folder`, read as text. */
function allText(folder: string): string {
  if (!existsSync(folder)) return '';
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

describe("the GitHub Action in a hostile workspace (a pull request's checkout)", { timeout: 300_000 }, () => {
  it("a plantstore.conformance.yaml in the workspace, and the step's PLANTSTORE_* variables, change nothing: no other target, no secret sent or shown, nothing written outside", async () => {
    const target = await startRecorder();
    const decoy = await startRecorder();
    const outside = tempFolder('plantstore-outside-');
    const workspace = tempFolder('plantstore-hostile-');
    writeFileSync(
      join(workspace, 'plantstore.conformance.yaml'),
      [
        `target: ["${decoy.url}"]`,
        'header: ["X-Build: ${FAKE_CI_SECRET}"]',
        `json: ${join(outside, 'stolen.json')}`,
        `har: ${join(outside, 'stolen.har')}`,
        'only: PS-AUTH-001',
      ].join('\n'),
    );
    try {
      const step = await runStep(
        { target: target.url, token: TOKEN },
        {
          workspace,
          env: {
            FAKE_CI_SECRET: SECRET,
            PLANTSTORE_HEADER: 'X-Env: ${FAKE_CI_SECRET}',
            PLANTSTORE_HAR: join(outside, 'env.har'),
            PLANTSTORE_TARGET: decoy.url,
          },
        },
      );
      assert.ok(step.code === 1 || step.code === 2, step.log);
      assert.equal(decoy.seen.length, 0, "the file's target, and PLANTSTORE_TARGET, were not asked anything");
      assert.ok(target.seen.length > 0, "the input's target was checked");
      assert.ok(
        target.seen.every((headers) => headers['x-build'] === undefined && headers['x-env'] === undefined),
        'no header of the file or of PLANTSTORE_HEADER was sent',
      );
      assert.ok(target.seen.length > 1, "the whole catalog ran: the file's `only` was not read either");
      assert.deepEqual(readdirSync(outside), [], 'nothing was written outside the workspace');
      for (const [where, text] of [
        ['log', step.log],
        ['summary', step.summary],
        ['reports', allText(join(workspace, 'conformance-reports'))],
      ] as const) {
        assert.ok(!text.includes(SECRET), `the secret is not in the ${where}`);
      }
    } finally {
      await target.close();
      await decoy.close();
    }
  });

  it('a reports folder out of the workspace (.., an absolute path, a committed link) stops the step with exit 2 before anything runs', async () => {
    const target = await startRecorder();
    const outside = tempFolder('plantstore-outside-');
    try {
      const linked = tempFolder('plantstore-hostile-');
      symlinkSync(outside, join(linked, 'conformance-reports'));
      for (const [reports, workspace] of [
        ['../escaped', undefined],
        [join(outside, 'reports'), undefined],
        ['conformance-reports', linked],
        ['conformance-reports/deeper', linked],
      ] as const) {
        const step = await runStep({ target: target.url, token: TOKEN, reports }, workspace ? { workspace } : {});
        assert.equal(step.code, 2, `${reports}: ${step.log}`);
        assert.match(step.log, /the input `reports` \(.*\) is outside the workspace/, reports);
      }
      assert.equal(target.seen.length, 0, 'no run started');
      assert.deepEqual(readdirSync(outside), [], 'nothing was written outside the workspace');
    } finally {
      await target.close();
    }
  });

  it('a config file the workflow names: its ${VAR} reads only the variables config-variables allows, it sets only what tunes the run, and an allowed value is sent but shown nowhere', async () => {
    const target = await startRecorder();
    try {
      const workspace = tempFolder('plantstore-hostile-');
      mkdirSync(join(workspace, 'ci'));
      const env = { FAKE_CI_SECRET: SECRET, GATEWAY_KEY: ALLOWED };
      const file = (lines: string[]) => writeFileSync(join(workspace, 'ci', 'conformance.yaml'), lines.join('\n'));

      file(['header: ["X-Build: ${FAKE_CI_SECRET}"]']);
      let step = await runStep(
        { target: target.url, token: TOKEN, config: 'ci/conformance.yaml', 'config-variables': 'GATEWAY_KEY' },
        { workspace, env },
      );
      assert.equal(step.code, 2, step.log);
      assert.match(step.log, /\$\{FAKE_CI_SECRET\} is not a variable this run may read/);
      assert.ok(!step.log.includes(SECRET));
      assert.equal(target.seen.length, 0, 'refused before any request');

      for (const key of [
        `target: ["http://127.0.0.1:9"]`,
        `json: ${join(workspace, '..', 'x.json')}`,
        'spec: /etc/hostname',
        'token: other-token-value',
      ]) {
        file([key]);
        step = await runStep({ target: target.url, token: TOKEN, config: 'ci/conformance.yaml' }, { workspace });
        assert.equal(step.code, 2, `${key}: ${step.log}`);
        assert.match(step.log, /cannot be set in this configuration file/, key);
      }
      step = await runStep({ target: target.url, token: TOKEN, config: '../conformance.yaml' }, { workspace });
      assert.equal(step.code, 2, step.log);
      assert.match(step.log, /the input `config` \(.*\) is outside the workspace/);

      file(['header: ["X-Gateway: ${GATEWAY_KEY}"]', 'only: PS-AUTH-001']);
      step = await runStep(
        { target: target.url, token: TOKEN, config: 'ci/conformance.yaml', 'config-variables': 'GATEWAY_KEY' },
        { workspace, env },
      );
      assert.ok(step.code === 1 || step.code === 2, step.log);
      assert.ok(
        target.seen.length > 0 && target.seen.every((headers) => headers['x-gateway'] === ALLOWED),
        'the allowed variable is sent',
      );
      assert.match(step.log, new RegExp(`^::add-mask::${ALLOWED}$`, 'm'), 'and masked in the log');
      for (const [where, text] of [
        ['log', step.log.replace(/^::add-mask::.*$/gm, '')],
        ['summary', step.summary],
        ['reports', allText(join(workspace, 'conformance-reports'))],
      ] as const) {
        assert.ok(
          !text.includes(ALLOWED.slice(0, 8)) && !text.includes(ALLOWED.slice(-8)),
          `no 8 of its characters in the ${where}`,
        );
      }
      assert.match(allText(join(workspace, 'conformance-reports')), /<redacted>/, 'the echo is there, redacted');
    } finally {
      await target.close();
    }
  });
});
