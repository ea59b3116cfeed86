// `plantstore-conformance compat` as a spec author runs it: files and git
// revisions (a throwaway repository in a temporary folder), the exit codes,
// the JSON and Markdown reports, and the arguments it refuses.
import { strict as assert } from 'node:assert';
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { COMPAT_OPTIONS } from '../../conformance/cli/compat-args.js';
import type { CompatResult } from '../../conformance/compat/compat.js';

const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));
const SPEC = fileURLToPath(new URL('../../../spec/openapi.yaml', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plantstore-compat-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(
  args: string[],
  cwd = dir,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'compat', ...args],
      { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 120_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

describe('compat command', { timeout: 300_000 }, () => {
  it('exits 1 on a breaking change, prints it grouped with its proof, and writes the JSON and Markdown reports', async () => {
    const json = join(dir, 'out', 'compat.json');
    const md = join(dir, 'out', 'compat.md');
    const r = await cli([
      '--base',
      SPEC,
      '--head',
      fixture('new-required-field.yaml'),
      '--seed',
      '3',
      '--cases',
      '5',
      '--json',
      json,
      '--markdown',
      md,
    ]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /Breaking changes\n {2}C1 required property quantity added; breaks existing clients\n/);
    assert.match(r.stdout, /proof of C1 for existing clients: PS-[A-Z]+-\d{3} fail \(MUST, /);
    assert.match(r.stdout, /curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:4010\/plants'/);
    assert.match(r.stdout, /BREAKING: breaks existing clients \(C1\); seed 3\n/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as CompatResult;
    assert.equal(report.exitCode, 1);
    assert.equal(report.changes[0]!.pointer, '#/components/schemas/NewPlant/allOf/1/required');
    assert.equal(report.changes[0]!.source.section, '§6.5.3 required');
    assert.equal(report.sides.clients.verdict, 'breaks');
    assert.equal(report.sides.servers.rules, 'compatible');
    const markdown = readFileSync(md, 'utf8');
    assert.match(markdown, /^## Plant Store compatibility: BREAKING/);
    assert.match(markdown, /\| C1 \| required property quantity added .* \| \*\*breaks\*\* \| compatible \|/);
    assert.match(markdown, /```sh\ncurl /);
  });

  it('exits 0 when every change is compatible (descriptions and examples)', async () => {
    const text = readFileSync(SPEC, 'utf8')
      .replace('description: The name of the plant', 'description: What the plant is called')
      .replace('name: Monstera', 'name: Ficus');
    const head = join(dir, 'described.yaml');
    writeFileSync(head, text);
    // The rules decide it: that the crossed runs depart nowhere on a compatible pair is execution.test.ts's (its exit-0
    // row, a new optional property, judged as this pair of pairs.yaml is); here, the CLI's exit and its lines.
    const r = await cli(['--base', SPEC, '--head', head, '--seed', '3', '--rules-only']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Compatible: C1 description changed/);
    assert.match(r.stdout, /COMPATIBLE: no change breaks existing clients or servers; seed 3/);
  });

  it('reads the base from a git revision: REV (its spec/openapi.yaml) or REV:path, the head from the working copy', async () => {
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, 'spec'), { recursive: true });
    copyFileSync(SPEC, join(repo, 'spec', 'openapi.yaml'));
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: repo,
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
    git('add', '.');
    git('commit', '-q', '-m', 'the shipped document');
    // The working copy's document gains a bound: the head by default.
    copyFileSync(fixture('name-max-length.yaml'), join(repo, 'spec', 'openapi.yaml'));
    const byRevision = await cli(['--base', 'main', '--seed', '3', '--cases', '5'], repo);
    assert.equal(byRevision.code, 1, byRevision.stdout + byRevision.stderr);
    assert.match(
      byRevision.stdout,
      /^Compatibility of spec\/openapi\.yaml \(new\) with main:spec\/openapi\.yaml \(old\): 1 change\(s\)/,
    );
    assert.match(byRevision.stdout, /C1 maxLength added: 50/);
    // The old document's 10,000-character name refused is non-strict (RFC 8259 §9): seen, no proof; the witness shows the change.
    assert.match(byRevision.stdout, /seen, not a proof \(non-strict: [^)]*\): PS-ACCEPT-004 /);
    assert.match(byRevision.stdout, /example: request body of POST \/plants: \{"id":1,"name":"w+…\(51 characters\)"/);
    assert.match(byRevision.stdout, /proof of C1 for existing servers: PS-RESP-003 fail/);
    const byPath = await cli(['--base', 'HEAD:spec/openapi.yaml', '--rules-only'], repo, {
      PLANTSTORE_COMPAT_HEAD: 'spec/openapi.yaml',
    });
    assert.equal(byPath.code, 1, byPath.stdout + byPath.stderr);
    assert.match(byPath.stdout, /with HEAD:spec\/openapi\.yaml \(old\)/);
    assert.match(byPath.stdout, /Execution: not run \(--rules-only\)/);
    // A revision that does not exist, or has no such file: exit 2, saying what was tried.
    const missing = await cli(['--base', 'origin/nowhere'], repo);
    assert.equal(missing.code, 2);
    assert.match(
      missing.stderr,
      /cannot read the document: --base "origin\/nowhere": not a file, nor a git revision with that document \(git show origin\/nowhere:\.\/spec\/openapi\.yaml: fatal: /,
    );
  });

  it('exits 1, not 2, when a crossed run cannot run (no create operation): the rules decide, and the report says why in a line', async () => {
    const noCreate = join(dir, 'no-create.yaml');
    writeFileSync(
      noCreate,
      readFileSync(SPEC, 'utf8')
        .replace(/^ {2}\/plants:\n/m, '  /plants-elsewhere:\n')
        .replace(/operationId: createPlant/, 'operationId: somethingElse'),
    );
    const r = await cli(['--base', SPEC, '--head', noCreate, '--seed', '1', '--cases', '2']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /: not possible: [^\n]+; existing clients are judged by the rules\n/);
    assert.doesNotMatch(r.stdout, /\n\s+at [^\n]+\.js:\d+/);
    assert.match(r.stdout, /BREAKING: breaks existing clients \(C\d+/);
  });

  it('exits 2 with one line when a document cannot be read, and on arguments it refuses', async () => {
    const noBase = await cli([]);
    assert.equal(noBase.code, 2);
    assert.match(noBase.stderr, /compat needs --base OLD/);
    const typo = await cli(['--bsae', SPEC]);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /unknown option --bsae \(did you mean --base\?\)/);
    const misspelt = join(dir, 'misspelt.yaml');
    writeFileSync(
      misspelt,
      readFileSync(SPEC, 'utf8').replace(
        'type: string\n          description: The name of the plant',
        'type: string\n          maxLenght: 5\n          description: The name of the plant',
      ),
    );
    // A keyword of no vocabulary: nothing can be said of a change to it.
    const unread = await cli(['--base', SPEC, '--head', misspelt, '--seed', '1', '--cases', '2']);
    assert.equal(unread.code, 2, unread.stdout + unread.stderr);
    assert.match(unread.stderr, /^plantstore-conformance compat: cannot read the new document .*maxLenght/);
    assert.doesNotMatch(unread.stderr, /\n\s+at /);
    const notOpenApi = join(dir, 'not-openapi.yaml');
    writeFileSync(notOpenApi, 'openapi: 3.0.3\npaths: {}\n');
    const old = await cli(['--base', notOpenApi, '--head', SPEC, '--rules-only']);
    assert.equal(old.code, 2);
    assert.match(
      old.stderr,
      /cannot read the old document .*not-openapi\.yaml:1:\d+: openapi at #\/openapi: "3\.0\.3": only OpenAPI 3\.1 documents are read/,
    );
  });

  it('documents its options, each with its environment variable, in --help and in docs/compatibility.md', async () => {
    const r = await cli(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Exit codes: 0 compatible, 1 a change breaks/);
    const docs = readFileSync(fileURLToPath(new URL('../../../docs/compatibility.md', import.meta.url)), 'utf8');
    for (const o of COMPAT_OPTIONS) {
      assert.match(r.stdout, new RegExp(`--${o.name}\\b`));
      assert.ok(docs.includes(`\`--${o.name}`), `docs/compatibility.md names --${o.name}`);
      if (o.env) {
        assert.ok(r.stdout.includes(`[${o.env}]`), `--help names ${o.env}`);
        assert.ok(docs.includes(`\`${o.env}\``), `docs/compatibility.md names ${o.env}`);
      }
    }
  });
});
