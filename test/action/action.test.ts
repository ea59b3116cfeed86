// The GitHub Action's step, run the way action.yml runs it: its `run` line
// and `env` mapping are read from action.yml (the inputs' defaults applied,
// as Actions does) and run with bash in a fresh workspace, with
// GITHUB_ACTION_PATH at this checkout and GITHUB_STEP_SUMMARY and
// GITHUB_OUTPUT pointing at files.
// Against the fake server's baseline it exits 0; against a mutant it exits 1
// (the step fails) and the summary lists each failure with its curl line;
// against a refused port it exits 2 with the reason; hostile text from the
// target cannot close the summary's code blocks.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { freePort, runProcess } from '../../lib/process.js';
import type { JsonReport } from '../../conformance/report/json.js';
import { summaryMarkdown } from '../../scripts/action.js';
import { startFake } from '../support/fake-server.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface ActionYml {
  inputs: Record<string, { default?: string; required?: boolean }>;
  runs: { steps: Array<{ id?: string; run?: string; env?: Record<string, string> }> };
}
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionYml;
const actionStep = action.runs.steps.find((s) => s.id === 'run')!;
const TOKEN = 'action-test-token';
const workspaces: string[] = [];
after(() => workspaces.forEach((w) => rmSync(w, { recursive: true, force: true })));

interface StepRun {
  code: number | null;
  log: string;
  summary: string;
  outputs: Record<string, string>;
  workspace: string;
}

/** action.yml's step: same command, same variables, in a fresh workspace. */
async function runStep(inputs: Record<string, string>): Promise<StepRun> {
  const workspace = mkdtempSync(join(tmpdir(), 'plantstore-action-'));
  workspaces.push(workspace);
  const summaryFile = join(workspace, 'step-summary.md');
  const outputFile = join(workspace, 'step-output.txt');
  writeFileSync(summaryFile, '');
  writeFileSync(outputFile, '');
  const env: Record<string, string | undefined> = {
    GITHUB_ACTIONS: 'true',
    GITHUB_ACTION_PATH: ROOT,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_OUTPUT: outputFile,
    PLANTSTORE_TOKEN: undefined,
    NO_COLOR: '1',
  };
  // `${{ inputs.NAME }}` as Actions expands it: the value given, else the input's default.
  for (const [name, value] of Object.entries(actionStep.env ?? {})) {
    env[name] = value.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, input: string) => inputs[input] ?? action.inputs[input]?.default ?? '');
  }
  const ran = await runProcess({ file: 'bash', args: ['-e', '-c', actionStep.run!], cwd: workspace, env, timeoutMs: 120_000, name: 'the action step' });
  const outputs = Object.fromEntries(readFileSync(outputFile, 'utf8').split('\n').filter(Boolean).map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]));
  return { code: ran.code, log: [...ran.lines, ran.stderr].join('\n'), summary: readFileSync(summaryFile, 'utf8'), outputs, workspace };
}

describe('the GitHub Action step (scripts/action.ts, as action.yml runs it)', () => {
  it('action.yml has the inputs target, token, strict, seed and reports, and its step runs the compiled script', () => {
    assert.deepEqual(Object.keys(action.inputs).sort(), ['reports', 'seed', 'strict', 'target', 'token']);
    assert.equal(action.inputs.target!.required, true);
    assert.equal(actionStep.run!.trim(), 'node "$GITHUB_ACTION_PATH/dist/scripts/action.js"');
    assert.deepEqual(Object.keys(actionStep.env ?? {}).sort(), ['INPUT_REPORTS', 'INPUT_SEED', 'INPUT_STRICT', 'INPUT_TARGET', 'INPUT_TOKEN']);
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
    assert.match(step.summary, /^## Plant Store conformance: ERROR: the harness could not finish$/m);
    assert.match(step.summary, /\*\*Gave up on .*:\*\* target unreachable/);
  });

  it('without a target, or with strict not true or false: exit 2 naming the input, and no run', async () => {
    const missing = await runStep({ target: '' });
    assert.equal(missing.code, 2);
    assert.match(missing.log, /the input `target` is required/);
    const wrong = await runStep({ target: 'http://127.0.0.1:1', strict: 'yes' });
    assert.equal(wrong.code, 2);
    assert.match(wrong.log, /the input `strict` is true or false, not "yes"/);
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
