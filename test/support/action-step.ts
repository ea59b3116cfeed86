// The GitHub Action run the way the runner runs a JavaScript action: `node`
// on action.yml's `runs.main` (the committed bundle), each input in
// INPUT_<NAME> (the given value, else the input's default), in a fresh
// workspace, with GITHUB_STEP_SUMMARY and GITHUB_OUTPUT pointing at files.
// The tests of test/action/ run it through runStep.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { runProcess } from '../../lib/process.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ActionYml {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main: string; steps?: unknown };
}
export const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionYml;
export const TOKEN = 'action-test-token';
const workspaces: string[] = [];
after(() => workspaces.forEach((w) => rmSync(w, { recursive: true, force: true })));

export function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  workspaces.push(folder);
  return folder;
}

export interface StepRun {
  code: number | null;
  log: string;
  summary: string;
  outputs: Record<string, string>;
  workspace: string;
}

export interface StepOptions {
  /** The action's checkout (default: this repository). */
  actionPath?: string;
  /** A workspace an earlier step used (default: a fresh one). */
  workspace?: string;
  /** More of the step's environment (its `env:`). */
  env?: Record<string, string>;
  /** The module run, inside the action's path (default: action.yml's `runs.main`, the committed bundle; `dist/scripts/action.js` runs the step as built from the sources). */
  entry?: string;
}

/** The action as the runner runs it: `node {action path}/{runs.main}`, the inputs in INPUT_*, in a fresh workspace. */
export async function runStep(
  inputs: Record<string, string>,
  {
    actionPath = ROOT,
    workspace = tempFolder('plantstore-action-'),
    env: extra = {},
    entry = action.runs.main,
  }: StepOptions = {},
): Promise<StepRun> {
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
  for (const [name, spec] of Object.entries(action.inputs))
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = inputs[name] ?? spec.default ?? '';
  const ran = await runProcess({
    file: process.execPath,
    args: [join(actionPath, entry)],
    cwd: workspace,
    env,
    timeoutMs: 120_000,
    name: 'the action',
  });
  const outputs = Object.fromEntries(
    readFileSync(outputFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
  return {
    code: ran.code,
    log: [...ran.lines, ran.stderr].join('\n'),
    summary: readFileSync(summaryFile, 'utf8'),
    outputs,
    workspace,
  };
}

/** A checkout of the action alone (what a workflow's `uses:` fetches): action.yml, the bundle, and what it reads at run time; no node_modules, no dist/. */
export function actionCheckout(): string {
  const checkout = tempFolder('plantstore-action-checkout-');
  for (const path of ['action.yml', 'action', 'package.json', '.spectral.yaml', join('spec', 'openapi.yaml')]) {
    mkdirSync(join(checkout, path, '..'), { recursive: true });
    cpSync(join(ROOT, path), join(checkout, path), { recursive: true });
  }
  return checkout;
}
