// The fourth security review's findings on the Action and compat (issue 41):
// medium 3 (the compat step followed a committed link at spec/openapi.yaml
// out of the workspace, and the YAML parser's message quoted that file into
// the step's log) and low 3 on compat's side (a document whose answer made
// from a schema has no end ran compat to its deadline). Each test failed on
// the build the review read, and passes now. The step runs as built from
// the sources (dist/scripts/action.js): the committed bundle is remade from
// them when they land.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { compatWithDeadline } from '../../conformance/cli/compat-deadline.js';
import { DocumentError, readOpenApi } from '../../spec/openapi.js';
import { MAX_MADE_VALUES } from '../../spec/value-budget.js';
import { ROOT, runStep, tempFolder } from '../support/action-step.js';
import { fixturePath } from '../support/fixtures.js';
import { nestedArraysDocument } from '../support/review-4.js';

/** A credentials file laid out as ~/.aws/credentials (AWS's documented example key). */
const KEY_ID = 'AKIAIOSFODNN7EXAMPLE';
const SECRET_KEY = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const CREDENTIALS = `[default]\naws_access_key_id = ${KEY_ID}\naws_secret_access_key = ${SECRET_KEY}\n`;

/** Every file under `folder`, read as text. */
function allText(folder: string): string {
  if (!existsSync(folder)) return '';
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

/** Whether any 8 characters of the key id or of the secret are in `text`. */
function leaks(text: string): boolean {
  for (const secret of [KEY_ID, SECRET_KEY])
    for (let i = 0; i + 8 <= secret.length; i++) if (text.includes(secret.slice(i, i + 8))) return true;
  return false;
}

/** A workspace that is a git repository whose `main` holds the shipped document at spec/openapi.yaml. */
function repository(): { workspace: string; git: (...args: string[]) => void } {
  const workspace = tempFolder('plantstore-review-4-pr-');
  mkdirSync(join(workspace, 'spec'));
  cpSync(join(ROOT, 'spec', 'openapi.yaml'), join(workspace, 'spec', 'openapi.yaml'));
  const git = (...args: string[]) =>
    void execFileSync('git', args, {
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
  return { workspace, git };
}

const FROM_SOURCES = { entry: join('dist', 'scripts', 'action.js') };

/** compat of `base` and `head` under a deadline: its exit code, what it said on standard error, its Markdown report. */
async function compat(
  base: string,
  head: string,
  dir: string,
): Promise<{ code: number; stderr: string; markdown: string }> {
  const markdown = join(dir, 'compat.md');
  const stderr: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = (chunk: string | Uint8Array) => (stderr.push(String(chunk)), true);
  try {
    // The deadline is the review's proof: the build it read ran to it.
    const code = await compatWithDeadline(
      [`--base=${base}`, `--head=${head}`, `--markdown=${markdown}`, '--seed=1', '--deadline=240'],
      { env: {} },
    );
    return { code, stderr: stderr.join(''), markdown: existsSync(markdown) ? readFileSync(markdown, 'utf8') : '' };
  } finally {
    process.stderr.write = write;
  }
}

describe('the fourth security review: the Action and compat', { timeout: 600_000 }, () => {
  test('medium 3: a committed link at spec/openapi.yaml to a credentials file outside the workspace stops the compat step with exit 2, naming the input; nothing of the file is in the log, the summary or the reports', async () => {
    const outside = tempFolder('plantstore-outside-');
    writeFileSync(join(outside, 'credentials'), CREDENTIALS);
    const { workspace, git } = repository();
    git('checkout', '-q', '-b', 'pull-request');
    git('rm', '-q', 'spec/openapi.yaml');
    mkdirSync(join(workspace, 'spec'), { recursive: true });
    symlinkSync(join(outside, 'credentials'), join(workspace, 'spec', 'openapi.yaml'));
    git('add', 'spec');
    git('commit', '-q', '-m', 'the pull request: a link');
    const step = await runStep({ 'compat-base': 'main', seed: '3' }, { workspace, ...FROM_SOURCES });
    assert.equal(step.code, 2, step.log);
    assert.match(step.log, /spec\/openapi\.yaml.* is outside the workspace/);
    for (const [where, text] of [
      ['log', step.log],
      ['summary', step.summary],
      ['reports', allText(join(workspace, 'conformance-reports'))],
    ] as const)
      assert.ok(!leaks(text), `nothing of the credentials file in the ${where}: ${text}`);
  });

  test('medium 3: a compat-base that is a file is held to the workspace too; a link inside the workspace is followed', async () => {
    const outside = tempFolder('plantstore-outside-');
    writeFileSync(join(outside, 'credentials'), CREDENTIALS);
    const { workspace } = repository();
    symlinkSync(join(outside, 'credentials'), join(workspace, 'old.yaml'));
    let step = await runStep({ 'compat-base': 'old.yaml', seed: '3' }, { workspace, ...FROM_SOURCES });
    assert.equal(step.code, 2, step.log);
    assert.match(step.log, /compat-base.* is outside the workspace/);
    assert.ok(!leaks(step.log) && !leaks(step.summary), step.log);

    const { workspace: linked } = repository();
    mkdirSync(join(linked, 'api'));
    cpSync(join(ROOT, 'spec', 'openapi.yaml'), join(linked, 'api', 'plants.yaml'));
    symlinkSync(join(linked, 'api', 'plants.yaml'), join(linked, 'base.yaml'));
    step = await runStep({ 'compat-base': 'base.yaml', seed: '3' }, { workspace: linked, ...FROM_SOURCES });
    assert.equal(step.code, 0, step.log);
    assert.match(step.summary, /^## Plant Store compatibility/m);
  });

  test('medium 3: a file that is not YAML is refused by its position only, never with an excerpt; nor is a value that is not a version quoted', () => {
    const dir = tempFolder('plantstore-review-4-doc-');
    const credentials = join(dir, 'credentials');
    writeFileSync(credentials, CREDENTIALS);
    assert.throws(
      () => readOpenApi(credentials),
      (error) =>
        error instanceof DocumentError &&
        /is not YAML or JSON/.test(error.message) &&
        /line \d+, column \d+/.test(error.message) &&
        !leaks(error.message),
    );
    const versioned = join(dir, 'versioned.yaml');
    writeFileSync(versioned, `openapi: ${KEY_ID}${SECRET_KEY}\npaths: {}\n`);
    assert.throws(
      () => readOpenApi(versioned),
      (error) => error instanceof DocumentError && /only OpenAPI 3\.1/.test(error.message) && !leaks(error.message),
    );
  });

  test('low 3: compat on a document whose answer made from a schema would hold a thousand million values ends, and says the reference answers 501 past the budget', async () => {
    const dir = tempFolder('plantstore-review-4-compat-');
    const head = join(dir, 'nested-3.yaml');
    writeFileSync(head, nestedArraysDocument(3));
    const { code, stderr, markdown } = await compat(fixturePath('operations/unmapped.yaml'), head, dir);
    assert.notEqual(code, 2, stderr);
    assert.match(markdown, new RegExp(`more than ${MAX_MADE_VALUES} values`));
  });

  test('low 3: compat on a document whose maxLength is a hundred million ends: the harness writes out no string that long', async () => {
    const dir = tempFolder('plantstore-review-4-compat-');
    const head = join(dir, 'max-length.yaml');
    const name = '          description: The name of the plant\n';
    writeFileSync(
      head,
      readFileSync(join(ROOT, 'spec', 'openapi.yaml'), 'utf8').replace(name, `${name}          maxLength: 100000000\n`),
    );
    assert.match(readFileSync(head, 'utf8'), /maxLength: 100000000/);
    const { code, stderr, markdown } = await compat(join(ROOT, 'spec', 'openapi.yaml'), head, dir);
    assert.notEqual(code, 2, stderr);
    assert.match(markdown, /maxLength added: 100000000/);
  });
});
