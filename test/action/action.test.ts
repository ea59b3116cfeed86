// The GitHub Action, run the way the runner runs a JavaScript action:
// `node` on action.yml's `runs.main` (the committed bundle), each input in
// INPUT_<NAME> (the given value, else the input's default), in a fresh
// workspace, with GITHUB_STEP_SUMMARY and GITHUB_OUTPUT pointing at files.
// Against the fake server's baseline it exits 0; against a mutant it exits 1
// (the step fails) and the summary lists each failure with its curl line;
// against a refused port, or without the token a target requires, it exits 2
// and says why; hostile text from the target cannot close the summary's code
// blocks; a token the target echoes, cut anywhere, leaves no 8 of its
// characters in the summary or the log (each run of 8 is masked); a run that
// ends before its report never shows an earlier run's. The committed bundle must be what scripts/bundle-action.mjs makes
// of the sources today, and must run from a checkout without node_modules
// or dist/.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { freePort, runProcess } from '../../lib/process.js';
import type { JsonReport } from '../../conformance/report/json.js';
import { maskedValues, summaryMarkdown } from '../../scripts/action.js';
import { echoed, fragmentsIn, startEchoingTarget } from '../support/echoing-target.js';
import { startFake } from '../support/fake-server.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface ActionYml {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main: string; steps?: unknown };
}
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionYml;
const TOKEN = 'action-test-token';
const workspaces: string[] = [];
after(() => workspaces.forEach((w) => rmSync(w, { recursive: true, force: true })));

function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  workspaces.push(folder);
  return folder;
}

interface StepRun {
  code: number | null;
  log: string;
  summary: string;
  outputs: Record<string, string>;
  workspace: string;
}

interface StepOptions {
  /** The action's checkout (default: this repository). */
  actionPath?: string;
  /** A workspace an earlier step used (default: a fresh one). */
  workspace?: string;
  /** More of the step's environment (its `env:`). */
  env?: Record<string, string>;
}

/** The action as the runner runs it: `node {action path}/{runs.main}`, the inputs in INPUT_*, in a fresh workspace. */
async function runStep(inputs: Record<string, string>, { actionPath = ROOT, workspace = tempFolder('plantstore-action-'), env: extra = {} }: StepOptions = {}): Promise<StepRun> {
  const summaryFile = join(workspace, 'step-summary.md');
  const outputFile = join(workspace, 'step-output.txt');
  writeFileSync(summaryFile, '');
  writeFileSync(outputFile, '');
  const env: Record<string, string | undefined> = {
    ...extra,
    GITHUB_ACTIONS: 'true',
    GITHUB_ACTION_PATH: actionPath,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_OUTPUT: outputFile,
    PLANTSTORE_TOKEN: undefined,
    NO_COLOR: '1',
  };
  // The runner's rule: INPUT_ and the name in upper case with spaces as underscores; the value given, else the default.
  for (const [name, spec] of Object.entries(action.inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = inputs[name] ?? spec.default ?? '';
  const ran = await runProcess({ file: process.execPath, args: [join(actionPath, action.runs.main)], cwd: workspace, env, timeoutMs: 120_000, name: 'the action' });
  const outputs = Object.fromEntries(readFileSync(outputFile, 'utf8').split('\n').filter(Boolean).map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]));
  return { code: ran.code, log: [...ran.lines, ran.stderr].join('\n'), summary: readFileSync(summaryFile, 'utf8'), outputs, workspace };
}

describe('the GitHub Action (action.yml, as the runner runs it)', { timeout: 300_000 }, () => {
  it('action.yml is a JavaScript action that runs the committed bundle: no install, no build', () => {
    assert.deepEqual(Object.keys(action.inputs).sort(), ['compat-base', 'reports', 'seed', 'strict', 'target', 'token']);
    assert.deepEqual(Object.keys(action.outputs).sort(), ['compat-exit-code', 'compat-report', 'exit-code', 'html-report', 'json-report', 'junit-report']);
    // Required unless compat-base is given: the step says so (below).
    assert.equal(action.inputs.target!.required, false);
    assert.equal(action.runs.using, 'node24');
    assert.equal(action.runs.main, 'action/index.mjs');
    assert.equal(action.runs.steps, undefined, 'no composite steps (npm ci, a build)');
  });

  it('the committed bundle is what scripts/bundle-action.mjs makes of the sources today', async () => {
    const { bundleAction, BUNDLE_FILES } = (await import(pathToFileURL(join(ROOT, 'scripts', 'bundle-action.mjs')).href)) as {
      bundleAction: (outdir: string) => Promise<string[]>;
      BUNDLE_FILES: string[];
    };
    const fresh = tempFolder('plantstore-bundle-');
    await bundleAction(fresh);
    for (const file of BUNDLE_FILES) {
      const committed = readFileSync(join(ROOT, 'action', file));
      assert.ok(committed.equals(readFileSync(join(fresh, file))), `action/${file} is stale: run npm run bundle:action and commit it`);
    }
  });

  it('runs from a checkout that has neither node_modules nor dist/', async () => {
    const checkout = tempFolder('plantstore-action-checkout-');
    for (const path of ['action.yml', 'action', 'package.json', '.spectral.yaml', join('spec', 'openapi.yaml')]) {
      mkdirSync(join(checkout, path, '..'), { recursive: true });
      cpSync(join(ROOT, path), join(checkout, path), { recursive: true });
    }
    const fake = await startFake({ tokens: [TOKEN] });
    try {
      const step = await runStep({ target: fake.url, token: TOKEN, seed: '3', reports: 'out' }, { actionPath: checkout });
      assert.equal(step.code, 0, step.log);
      const report = JSON.parse(readFileSync(join(step.workspace, 'out', 'conformance.json'), 'utf8')) as JsonReport;
      assert.equal(report.targets[0]!.summary.fail, 0);
      assert.ok(report.lint.length > 0, 'the document was linted with the ruleset inside the bundle');
    } finally {
      await fake.close();
    }
  });

  it('an empty token against a target that requires one: exit 2 with the diagnosis, never "the service is broken"', async () => {
    const fake = await startFake({ tokens: [TOKEN] });
    try {
      const step = await runStep({ target: fake.url });
      assert.equal(step.code, 2, step.log);
      assert.equal(step.outputs['exit-code'], '2');
      assert.match(step.summary, /^## Plant Store conformance: NOT CHECKED: no token was given, and the target requires one$/m);
      assert.match(step.summary, /What to do: Give the action's `token` input a token this target accepts/);
      assert.doesNotMatch(step.summary, /\| target \| pass/, 'no counts: no check was run');
      assert.match(step.summary, /The action's `token` input is empty/);
      assert.doesNotMatch(step.summary, /### Failures|FAILED/);
      assert.ok(step.log.trim().split('\n').length <= 15, step.log);
    } finally {
      await fake.close();
    }
  });

  it('against a conforming target: exit 0, the three reports, a summary with the counts, the outputs', async () => {
    const fake = await startFake({ tokens: [TOKEN] });
    try {
      const step = await runStep({ target: fake.url, token: TOKEN, seed: '42', reports: 'out' });
      assert.equal(step.code, 0, step.log);
      for (const file of ['conformance.json', 'conformance.junit.xml', 'conformance.html']) assert.ok(existsSync(join(step.workspace, 'out', file)), file);
      const report = JSON.parse(readFileSync(join(step.workspace, 'out', 'conformance.json'), 'utf8')) as JsonReport;
      const s = report.targets[0]!.summary;
      assert.equal(report.seed, 42);
      assert.match(step.summary, /^## Plant Store conformance: passed$/m);
      assert.ok(step.summary.includes(`| ${fake.url} | ${s.pass} | ${s['non-strict']} | ${s.fail} | ${s.skip} | ${s.error} |`), step.summary);
      assert.doesNotMatch(step.summary, /### Failures/);
      assert.equal(step.outputs['exit-code'], '0');
      assert.equal(step.outputs['json-report'], join(step.workspace, 'out', 'conformance.json'));
      assert.match(step.log, new RegExp(`^::add-mask::${TOKEN}$`, 'm'), 'the token is masked in the log');
    } finally {
      await fake.close();
    }
  });

  it('against a target that breaks a rule: exit 1, each failure in the summary with Expected, Actual and its curl line', async () => {
    const fake = await startFake({ tokens: [TOKEN], noWwwAuthenticate: true });
    try {
      const step = await runStep({ target: fake.url, token: TOKEN });
      assert.equal(step.code, 1, step.log);
      assert.equal(step.outputs['exit-code'], '1');
      assert.match(step.summary, /^## Plant Store conformance: FAILED: a check failed$/m);
      const report = JSON.parse(readFileSync(join(step.workspace, 'conformance-reports', 'conformance.json'), 'utf8')) as JsonReport;
      const failed = report.targets[0]!.results.filter((r) => r.outcome === 'fail');
      assert.ok(failed.length > 0);
      assert.match(step.summary, new RegExp(`^### Failures \\(${failed.length}\\)$`, 'm'));
      for (const r of failed) {
        assert.match(step.summary, new RegExp(`^#### ${r.id} `, 'm'), r.id);
        assert.ok(step.summary.includes(r.reproduce!), `${r.id}'s curl line`);
      }
      assert.ok(!step.summary.includes(TOKEN), 'the curl lines read the token from $PLANTSTORE_TOKEN');
    } finally {
      await fake.close();
    }
  });

  it('with strict: a non-strict outcome fails the step and is listed', async () => {
    const fake = await startFake({ tokens: [TOKEN], status422: true });
    try {
      const step = await runStep({ target: fake.url, token: TOKEN, strict: 'true', seed: '7' });
      assert.equal(step.code, 1, step.log);
      assert.match(step.summary, /; strict\./);
      assert.match(step.summary, /^#### PS-\S+ .*: non-strict /m);
    } finally {
      await fake.close();
    }
  });

  it('against a port nothing listens on: exit 2, and the summary says why', async () => {
    const port = await freePort();
    const step = await runStep({ target: `http://127.0.0.1:${port}`, token: TOKEN });
    assert.equal(step.code, 2, step.log);
    assert.match(step.summary, /^## Plant Store conformance: NOT CHECKED: cannot connect: nothing listens on 127\.0\.0\.1:\d+ \\\(connection refused\\\)$/m);
    assert.match(step.summary, /was not checked: cannot connect/);
  });

  it('compat-base alone, on a pull request: compares the workspace\'s document with the base revision, from a checkout without node_modules or dist/, and puts its Markdown in the summary', async () => {
    const checkout = tempFolder('plantstore-action-checkout-');
    for (const path of ['action.yml', 'action', 'package.json', '.spectral.yaml', join('spec', 'openapi.yaml')]) {
      mkdirSync(join(checkout, path, '..'), { recursive: true });
      cpSync(join(ROOT, path), join(checkout, path), { recursive: true });
    }
    // The workspace: a repository whose pull request adds a required property to the shipped document.
    const workspace = tempFolder('plantstore-action-pr-');
    mkdirSync(join(workspace, 'spec'));
    cpSync(join(ROOT, 'spec', 'openapi.yaml'), join(workspace, 'spec', 'openapi.yaml'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
    git('init', '-q', '-b', 'main');
    git('add', 'spec');
    git('commit', '-q', '-m', 'base');
    cpSync(join(ROOT, 'test', 'fixtures', 'new-required-field.yaml'), join(workspace, 'spec', 'openapi.yaml'));
    const step = await runStep({ 'compat-base': 'main', seed: '3' }, { actionPath: checkout, workspace });
    assert.equal(step.code, 1, step.log);
    assert.match(step.summary, /^## Plant Store compatibility: BREAKING: breaks existing clients \\\(C1\\\)/m);
    assert.match(step.summary, /required: quantity added/);
    assert.match(step.summary, /```sh\ncurl -sS -i -X POST 'http:\/\/127\.0\.0\.1:4010\/plants'/);
    assert.equal(step.outputs['compat-exit-code'], '1');
    assert.ok(existsSync(join(workspace, 'conformance-reports', 'compat.json')));
    assert.equal(step.outputs['exit-code'], undefined, 'no target: the harness did not run');
  });

  it('without a target, or with strict not true or false: exit 2 naming the input, and no run', async () => {
    const missing = await runStep({ target: '' });
    assert.equal(missing.code, 2);
    assert.match(missing.log, /the input `target` is required/);
    const wrong = await runStep({ target: 'http://127.0.0.1:1', strict: 'yes' });
    assert.equal(wrong.code, 2);
    assert.match(wrong.log, /the input `strict` is true or false, not "yes"/);
  });

  it('a target that echoes the token, cut where the harness shortens what it shows: no 8 of its characters in the summary or the log, and each run of 8 is masked', async () => {
    const token = 'Zq7/Kp+Rw9.Xt~Lm-Nb_Vc3/Hd8+Jf2.Gs5~Ty6=';
    const echoing = await startEchoingTarget(token);
    try {
      // A body shown cut at 300 characters, an Error message cut at 100 by the diagnosis "the token was refused".
      for (const [kind, form, offset] of [['answer', 'plain', 270], ['answer', 'percent', 262], ['refuse', 'plain', 80]] as const) {
        const step = await runStep({ target: echoing.url(kind, form, offset), token, seed: '3' });
        assert.ok(step.code === 1 || step.code === 2, step.log);
        const masks = new Set(step.log.split('\n').filter((line) => line.startsWith('::add-mask::')).map((line) => line.slice('::add-mask::'.length)));
        for (const written of [token, echoed(token, 'json'), echoed(token, 'percent')]) {
          for (let i = 0; i + 8 <= written.length; i++) {
            // A workflow command's value has "%" escaped as "%25".
            const run = written.slice(i, i + 8).replace(/%/g, '%25');
            assert.ok(masks.has(run), `::add-mask:: for ${run}`);
          }
        }
        const logged = step.log.split('\n').filter((line) => !line.startsWith('::add-mask::')).join('\n');
        assert.deepEqual(fragmentsIn(step.summary, token), [], `${kind} ${form} at ${offset}: part of the token in the summary:\n${step.summary}`);
        assert.deepEqual(fragmentsIn(logged, token), [], `${kind} ${form} at ${offset}: part of the token in the log`);
        assert.match(step.summary, /the plant is not valid/, 'the summary shows what the target answered');
      }
    } finally {
      await echoing.close();
    }
  });

  it('maskedValues: the token, each run of 8 of its characters in each form a target writes it; nothing for no token', () => {
    assert.deepEqual(maskedValues(''), []);
    assert.deepEqual(maskedValues('short'), ['short']);
    const values = maskedValues('abcdefghij/k');
    for (const value of ['abcdefghij/k', 'abcdefgh', 'bcdefghi', 'defghij/', 'efghij/k', 'abcdefghij\\/k', 'fghij\\/k', 'abcdefghij%2Fk', 'ghij%2Fk']) assert.ok(values.includes(value), value);
  });

  it('a run that ends before it writes its report: the summary says so, never the results of an earlier run in the same workspace', async () => {
    const fake = await startFake({ tokens: [TOKEN], noWwwAuthenticate: true });
    try {
      const first = await runStep({ target: fake.url, token: TOKEN, seed: '3' });
      assert.equal(first.code, 1, first.log);
      assert.ok(existsSync(join(first.workspace, 'conformance-reports', 'conformance.json')));
      // The same workspace, and an option the harness refuses: exit 2 before any check, and no report.
      const second = await runStep({ target: fake.url, token: TOKEN, seed: '3' }, { workspace: first.workspace, env: { PLANTSTORE_CASES: 'many' } });
      assert.equal(second.code, 2, second.log);
      assert.match(second.log, /PLANTSTORE_CASES/);
      assert.match(second.summary, /^## Plant Store conformance: ERROR: the harness could not finish$/m);
      assert.match(second.summary, /No report: the run ended before checks ran \(exit 2\)/);
      assert.doesNotMatch(second.summary, /### Failures|What failed|\| target \| pass/, second.summary);
      assert.ok(!existsSync(join(first.workspace, 'conformance-reports', 'conformance.json')), "the earlier run's report is not left to be taken for this run's");
    } finally {
      await fake.close();
    }
  });

  it('hostile text from a target stays inside its code block', () => {
    const report = {
      seed: 1,
      strict: false,
      lint: [],
      targets: [
        {
          name: 'target',
          url: 'http://127.0.0.1:1',
          role: 'target',
          informs: false,
          summary: { pass: 0, 'non-strict': 0, fail: 1, skip: 0, error: 0 },
          results: [
            {
              id: 'PS-X-001',
              title: 'a title',
              level: 'MUST',
              outcome: 'fail',
              requirement: 'r',
              source: { document: 'RFC 9110', section: '§1', url: null },
              expected: '200',
              actual: 'body ```\n# injected heading\n```',
              reproduce: "curl -sS 'http://127.0.0.1:1/plants'",
            },
          ],
        },
      ],
    } as unknown as JsonReport;
    const md = summaryMarkdown(report, 1, { target: 'http://127.0.0.1:1', token: '', strict: false, seed: '', reports: 'r' });
    const block = md.slice(md.indexOf('Actual:'));
    assert.match(block, /^Actual:\n````\nbody ```\n# injected heading\n```\n````$/m, 'the fence is longer than any backtick run inside');
  });
});
