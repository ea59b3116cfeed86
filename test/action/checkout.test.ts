// The Action's checkout: action.yml runs the committed bundle with no
// install and no build; the bundle is what scripts/bundle-action.mjs makes
// of the sources today; and it runs from a checkout without node_modules or
// dist/, the harness and the compatibility check alike.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { JsonReport } from '../../conformance/report/json.js';
import { action, actionCheckout, ROOT, runStep, tempFolder, TOKEN } from '../support/action-step.js';
import { startFake } from '../support/fake-server.js';

describe("the GitHub Action's checkout (action.yml and the committed bundle)", { timeout: 300_000 }, () => {
  it('action.yml is a JavaScript action that runs the committed bundle: no install, no build', () => {
    assert.deepEqual(Object.keys(action.inputs).sort(), [
      'compat-base',
      'config',
      'config-variables',
      'reports',
      'seed',
      'strict',
      'target',
      'token',
    ]);
    assert.deepEqual(Object.keys(action.outputs).sort(), [
      'compat-exit-code',
      'compat-report',
      'exit-code',
      'html-report',
      'json-report',
      'junit-report',
    ]);
    // Required unless compat-base is given: the step says so (below).
    assert.equal(action.inputs.target!.required, false);
    assert.equal(action.runs.using, 'node24');
    assert.equal(action.runs.main, 'action/index.mjs');
    assert.equal(action.runs.steps, undefined, 'no composite steps (npm ci, a build)');
  });

  it('the committed bundle is what scripts/bundle-action.mjs makes of the sources today', async () => {
    const { bundleAction, BUNDLE_FILES } = (await import(
      pathToFileURL(join(ROOT, 'scripts', 'bundle-action.mjs')).href
    )) as {
      bundleAction: (outdir: string) => Promise<string[]>;
      BUNDLE_FILES: string[];
    };
    const fresh = tempFolder('plantstore-bundle-');
    await bundleAction(fresh);
    for (const file of BUNDLE_FILES) {
      const committed = readFileSync(join(ROOT, 'action', file));
      assert.ok(
        committed.equals(readFileSync(join(fresh, file))),
        `action/${file} is stale: run npm run bundle:action and commit it`,
      );
    }
  });

  it('runs from a checkout that has neither node_modules nor dist/', async () => {
    const checkout = actionCheckout();
    const fake = await startFake({ tokens: [TOKEN] });
    try {
      const step = await runStep(
        { target: fake.url, token: TOKEN, seed: '3', reports: 'out' },
        { actionPath: checkout },
      );
      assert.equal(step.code, 0, step.log);
      const report = JSON.parse(readFileSync(join(step.workspace, 'out', 'conformance.json'), 'utf8')) as JsonReport;
      assert.equal(report.targets[0]!.summary.fail, 0);
      // The action checks the shipped document (no input or configuration key names another), whose lint cannot
      // change the run: it is not run, and the report says why (issue 45: the lint never delays a target run).
      assert.deepEqual(report.lint, []);
      assert.match(report.lintSkipped ?? '', /^the shipped document, against a --target/);
    } finally {
      await fake.close();
    }
  });

  it("compat-base alone, on a pull request: compares the workspace's document with the base revision, from a checkout without node_modules or dist/, and puts its Markdown in the summary", async () => {
    const checkout = actionCheckout();
    // The workspace: a repository whose pull request adds a required property to the shipped document.
    const workspace = tempFolder('plantstore-action-pr-');
    mkdirSync(join(workspace, 'spec'));
    cpSync(join(ROOT, 'spec', 'openapi.yaml'), join(workspace, 'spec', 'openapi.yaml'));
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: workspace,
        stdio: 'pipe',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@example.com',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@example.com',
        },
      });
    git('init', '-q', '-b', 'main');
    git('add', 'spec');
    git('commit', '-q', '-m', 'base');
    cpSync(join(ROOT, 'test', 'fixtures', 'new-required-field.yaml'), join(workspace, 'spec', 'openapi.yaml'));
    const step = await runStep({ 'compat-base': 'main', seed: '3' }, { actionPath: checkout, workspace });
    assert.equal(step.code, 1, step.log);
    assert.match(step.summary, /^## Plant Store compatibility: BREAKING: breaks existing clients \\\(C1\\\)/m);
    assert.match(step.summary, /required property quantity added/);
    assert.match(step.summary, /```sh\ncurl -sS -i -X POST 'http:\/\/127\.0\.0\.1:4010\/plants'/);
    assert.equal(step.outputs['compat-exit-code'], '1');
    assert.ok(existsSync(join(workspace, 'conformance-reports', 'compat.json')));
    assert.equal(step.outputs['exit-code'], undefined, 'no target: the harness did not run');
  });
});
