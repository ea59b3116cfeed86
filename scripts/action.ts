// The GitHub Action's step (action.yml runs action/index.mjs, this file
// bundled by scripts/bundle-action.mjs, with the inputs in INPUT_*
// variables): with `compat-base`, first compares the workspace's document
// with that revision (`compat`, its Markdown into the job summary); then, with
// `target`, runs the harness against the
// target, writes the JSON, JUnit and HTML reports into the `reports` folder,
// adds a job summary (the counts, each failure with its Expected, Actual and
// curl line) to $GITHUB_STEP_SUMMARY, sets the step's outputs, and exits
// with the harness's code, so the step fails on 1 (a check failed) or 2 (the
// harness could not do its job). The harness's options come from the inputs
// alone, and every path it reads or writes stays in the workspace, compat's
// documents included (action-workspace.ts).
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../conformance/cli/main.js';
import type { JsonReport } from '../conformance/report/json.js';
import { consequenceText } from '../conformance/run/root-causes.js';
import { fenced, inline } from '../conformance/report/markdown.js';
import { FRAGMENT } from '../conformance/redact/shorten.js';
import { tokenForms } from '../conformance/redact/secrets.js';
import { DEFAULT_DOCUMENT } from '../conformance/compat/revision.js';
import {
  actionConfigPolicy,
  compatDocuments,
  harnessEnvironment,
  insideWorkspace,
  variableNames,
  workspaceOf,
} from './action-workspace.js';

export interface ActionInputs {
  /** Empty when only compat runs. */
  target: string;
  token: string;
  strict: boolean;
  seed: string;
  reports: string;
  /** A git revision (or a file in the workspace, resolved) to compare the workspace's spec/openapi.yaml with (`compat --base`); empty: no compat. */
  compatBase?: string;
  /** The workspace's spec/openapi.yaml, resolved inside it (`compat --head`); with compatBase only. */
  compatHead?: string;
  /** A configuration file in the workspace that tunes the run (`config`), resolved; empty: none is read. */
  config?: string;
  /** The environment variables the configuration file's ${VAR} may read (`config-variables`). */
  configVariables?: string[];
}

/** The inputs as action.yml passes them (`env: INPUT_TARGET: ${{ inputs.target }}`, …). */
export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const target = (env.INPUT_TARGET ?? '').trim();
  // The runner keeps the hyphen: INPUT_ and the name in upper case, spaces as underscores (actions/toolkit getInput).
  const compatInput = (env['INPUT_COMPAT-BASE'] ?? '').trim();
  if (!target && !compatInput)
    throw new Error(
      'the input `target` is required: the base URL of the server to check (or `compat-base` alone, to compare the document with a git revision)',
    );
  const strict = (env.INPUT_STRICT ?? '').trim().toLowerCase() || 'false';
  if (strict !== 'true' && strict !== 'false')
    throw new Error(`the input \`strict\` is true or false, not ${JSON.stringify(env.INPUT_STRICT)}`);
  const workspace = workspaceOf(env);
  const reports = (env.INPUT_REPORTS ?? '').trim() || 'conformance-reports';
  insideWorkspace(workspace, reports, 'reports');
  const configInput = (env.INPUT_CONFIG ?? '').trim();
  const config = configInput ? insideWorkspace(workspace, configInput, 'config') : '';
  const configVariables = variableNames(env['INPUT_CONFIG-VARIABLES'] ?? '');
  // The documents compat reads are the pull request's too: a committed link must not lead out of the workspace.
  const compat = compatInput ? compatDocuments(workspace, compatInput, DEFAULT_DOCUMENT) : undefined;
  return {
    target,
    token: env.INPUT_TOKEN ?? '',
    strict: strict === 'true',
    seed: (env.INPUT_SEED ?? '').trim(),
    reports,
    compatBase: compat?.base ?? '',
    compatHead: compat?.head,
    config,
    configVariables,
  };
}

/** The harness's arguments (each value after `=`: an input that starts with a dash is a value, never an option); the token travels in PLANTSTORE_TOKEN, never on a command line. */
export function harnessArgs(inputs: ActionInputs): string[] {
  return [
    `--target=${inputs.target}`,
    `--reports=${inputs.reports}`,
    ...(inputs.strict ? ['--strict'] : []),
    ...(inputs.seed ? [`--seed=${inputs.seed}`] : []),
    ...(inputs.config ? [`--config=${inputs.config}`] : []),
  ];
}

/** The files the harness writes into the `reports` folder. */
export const REPORT_FILES = ['conformance.json', 'conformance.junit.xml', 'conformance.html'];

/** The files `compat` writes into the `reports` folder. */
export const COMPAT_FILES = ['compat.json', 'compat.md'];

/** compat's arguments: the workspace's document against `compat-base`, the reports beside the harness's. */
export function compatArgs(inputs: ActionInputs): string[] {
  return [
    `--base=${inputs.compatBase ?? ''}`,
    ...(inputs.compatHead ? [`--head=${inputs.compatHead}`] : []),
    `--json=${join(inputs.reports, COMPAT_FILES[0]!)}`,
    `--markdown=${join(inputs.reports, COMPAT_FILES[1]!)}`,
    ...(inputs.seed ? [`--seed=${inputs.seed}`] : []),
  ];
}

/**
 * What the step asks GitHub to mask in its log (`::add-mask::`): the token,
 * and every run of FRAGMENT characters of it as a target writes it (as is,
 * JSON-escaped, percent-encoded). GitHub masks each value where it appears
 * whole, so a part of the token 8 or more characters long, which contains
 * one of these runs, is masked too, not only the whole token. A token
 * shorter than that is masked whole.
 */
export function maskedValues(token: string): string[] {
  const values = new Set<string>();
  for (const form of token === '' ? [] : tokenForms(token)) {
    values.add(form);
    for (let i = 0; i + FRAGMENT <= form.length; i++) values.add(form.slice(i, i + FRAGMENT));
  }
  return [...values];
}

/** A workflow command's value, escaped as the runner reads it back (actions/toolkit's escapeData). */
function commandValue(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Most failures the summary details; the reports hold them all. */
export const SUMMARY_FAILURES = 50;

const VERDICT: Record<number, string> = {
  0: 'passed',
  1: 'FAILED: a check failed',
  2: 'ERROR: the harness could not finish',
};

/** The job summary: verdict, counts per target, and each failure (with --strict, each non-strict too) with its curl line. */
export function summaryMarkdown(report: JsonReport | undefined, code: number, inputs: ActionInputs): string {
  const diagnosed = report?.targets.find((t) => t.diagnosis !== undefined);
  // A configuration mistake is said as such, never as a broken service.
  const verdict = diagnosed?.diagnosis
    ? `NOT CHECKED: ${inline(diagnosed.diagnosis.problem)}`
    : (VERDICT[code] ?? `exit ${code}`);
  const lines = [`## Plant Store conformance: ${verdict}`, ''];
  if (!report) {
    lines.push(`No report: the run ended before checks ran (exit ${code}). Its log, above this summary, says why.`, '');
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    `Target ${inline(inputs.target)}; seed ${report.seed} (\`seed: ${report.seed}\` replays the generated cases)${report.strict ? '; strict' : ''}.`,
    '',
  );
  // A target that was not checked has no counts to show (its checks were not run): it has its diagnosis below.
  const checked = report.targets.filter((t) => !t.diagnosis);
  if (checked.length > 0) {
    lines.push('| target | pass | non-strict | fail | skip | error |', '|---|---|---|---|---|---|');
    for (const t of checked) {
      const s = t.summary;
      lines.push(`| ${inline(t.url)} | ${s.pass} | ${s['non-strict']} | ${s.fail} | ${s.skip} | ${s.error} |`);
    }
    lines.push('');
  }
  for (const t of report.targets) {
    const d = t.diagnosis;
    if (d) {
      // The token reaches the harness from the `token` input: that is what to set.
      const fix =
        d.kind === 'no-token' || d.kind === 'token-refused'
          ? "Give the action's `token` input a token this target accepts (from a secret)."
          : inline(d.fix);
      lines.push(
        `**${inline(t.url)} was not checked: ${inline(d.problem)}.**${d.evidence ? ` ${inline(d.evidence)}` : ''}`,
        '',
        `What to do: ${fix}`,
        '',
      );
      if ((d.kind === 'no-token' || d.kind === 'gateway') && inputs.token === '') {
        lines.push(
          "The action's `token` input is empty. A workflow run for a pull request from a fork gets no secrets: run this step only when the secret is there (e.g. `if: env.PLANTSTORE_TOKEN != ''` with the secret in the job's `env`).",
          '',
        );
      }
    } else if (t.unreachable) lines.push(`**Gave up on ${inline(t.url)}:** ${inline(t.unreachable)}`, '');
  }
  const failing = report.targets
    .filter((t) => !t.diagnosis)
    .flatMap((t) =>
      t.results
        .filter((r) => r.outcome === 'fail' || r.outcome === 'error' || (report.strict && r.outcome === 'non-strict'))
        .map((r) => ({ target: t, result: r })),
    );
  const groups = report.targets.filter((t) => !t.informs).flatMap((t) => t.failures ?? []);
  if (groups.length > 0) {
    lines.push(`### What failed: ${groups.length} cause(s)`, '');
    for (const g of groups) {
      lines.push(
        `- **${inline(g.cause)}** (${g.checks.length} check${g.checks.length === 1 ? '' : 's'}): ${g.checks.join(', ')}`,
      );
      // The later failures it explains, each by the answer that carries what the target took wrongly.
      for (const q of g.consequences ?? []) lines.push(`  - ${inline(consequenceText(q))} (${q.checks.join(', ')})`);
    }
    lines.push('');
  }
  if (failing.length > 0) {
    lines.push(`### Failures (${failing.length})`, '');
    for (const { result: r } of failing.slice(0, SUMMARY_FAILURES)) {
      lines.push(
        `#### ${r.id} ${inline(r.title)}: ${r.outcome} (${r.level}, ${inline(r.source.document)} ${inline(r.source.section)})`,
        '',
      );
      if (r.expected) lines.push('Expected:', fenced(r.expected), '');
      if (r.actual) lines.push('Actual:', fenced(r.actual), '');
      if (r.reproduce)
        lines.push('Reproduce (the token is read from `$PLANTSTORE_TOKEN`):', fenced(r.reproduce, 'sh'), '');
    }
    if (failing.length > SUMMARY_FAILURES)
      lines.push(`… and ${failing.length - SUMMARY_FAILURES} more: see the reports.`, '');
  }
  lines.push(`Reports: ${REPORT_FILES.map((file) => `\`${join(inputs.reports, file)}\``).join(', ')}.`, '');
  return `${lines.join('\n')}\n`;
}

/** compat against `compat-base`: its Markdown goes into the job summary as it is; returns its exit code. */
async function runCompat(inputs: ActionInputs, env: NodeJS.ProcessEnv): Promise<number> {
  for (const file of COMPAT_FILES) rmSync(resolve(inputs.reports, file), { force: true });
  // None of the step's PLANTSTORE_COMPAT_* variables: the inputs say what to compare, and where the reports go.
  const code = await main(['compat', ...compatArgs(inputs)], { env: {} });
  const markdown = resolve(inputs.reports, COMPAT_FILES[1]!);
  const summary = existsSync(markdown)
    ? readFileSync(markdown, 'utf8')
    : `## Plant Store compatibility: COULD NOT RUN\n\nNo report: compat ended before it compared the documents (exit ${code}). Its log, above this summary, says why (a revision the checkout does not hold: fetch it, e.g. \`actions/checkout\` with \`fetch-depth: 0\`).\n`;
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, summary);
  if (env.GITHUB_OUTPUT)
    appendFileSync(
      env.GITHUB_OUTPUT,
      `compat-exit-code=${code}\ncompat-report=${resolve(inputs.reports, COMPAT_FILES[0]!)}\n`,
    );
  return code;
}

/** The worse of two exit codes: 2 (could not run) over 1 (failed) over 0. */
const worseCode = (a: number, b: number) => Math.max(a, b);

/** The whole step; returns the exit code. */
export async function runAction(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let inputs: ActionInputs;
  try {
    inputs = readInputs(env);
  } catch (err) {
    process.stderr.write(`plantstore conformance action: ${(err as Error).message}\n`);
    return 2;
  }
  const compatCode = inputs.compatBase ? await runCompat(inputs, env) : 0;
  if (!inputs.target) return compatCode;
  return worseCode(compatCode, await runHarness(inputs, env));
}

/** The harness against `target`: reports, job summary, outputs; returns its exit code. */
async function runHarness(inputs: ActionInputs, env: NodeJS.ProcessEnv): Promise<number> {
  // In Actions, the token, and any part of it 8 or more characters long, that appears in the log is masked;
  // so is each variable the configuration file may read (8 characters or more: the reports redact those too).
  const variables = (inputs.configVariables ?? [])
    .map((name) => env[name] ?? '')
    .filter((value) => value.length >= FRAGMENT);
  if (env.GITHUB_ACTIONS === 'true')
    for (const value of [inputs.token, ...variables].flatMap(maskedValues))
      process.stdout.write(`::add-mask::${commandValue(value)}\n`);
  // A report left by an earlier run in the same workspace is not this run's: one that ends before it
  // writes its own (exit 2 on an option it refuses, say) must not be summarized with the old results.
  for (const file of REPORT_FILES) rmSync(resolve(inputs.reports, file), { force: true });
  const code = await main(harnessArgs(inputs), {
    env: harnessEnvironment(inputs.token),
    policy: actionConfigPolicy(inputs.configVariables ?? [], env),
  });
  const json = resolve(inputs.reports, REPORT_FILES[0]!);
  const report = existsSync(json) ? (JSON.parse(readFileSync(json, 'utf8')) as JsonReport) : undefined;
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, summaryMarkdown(report, code, inputs));
  if (env.GITHUB_OUTPUT) {
    const outputs = {
      'exit-code': String(code),
      'json-report': json,
      'junit-report': resolve(inputs.reports, REPORT_FILES[1]!),
      'html-report': resolve(inputs.reports, REPORT_FILES[2]!),
    };
    appendFileSync(
      env.GITHUB_OUTPUT,
      Object.entries(outputs)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
    );
  }
  return code;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await runAction();
}
