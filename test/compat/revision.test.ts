// compat's revisions (conformance/compat/revision.ts): a value that starts
// with a dash is a revision git cannot find, never one of git's options
// (issue 35, low 3: `compat "--base=--output=FILE"` made `git show` write
// FILE). A file and a revision of a repository still read.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readDocuments, RevisionError } from '../../conformance/compat/revision.js';
import { compatMain } from '../../conformance/cli/compat.js';

const scratch = mkdtempSync(join(tmpdir(), 'plantstore-revision-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A repository with spec/openapi.yaml committed once. */
function repository(): string {
  const repo = join(scratch, 'repo');
  mkdirSync(join(repo, 'spec'), { recursive: true });
  writeFileSync(join(repo, 'spec', 'openapi.yaml'), 'openapi: 3.1.0\n');
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args],
      { cwd: repo, stdio: 'ignore' },
    );
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'document');
  return repo;
}

describe('compat reads a revision with git, never an option', { timeout: 120_000 }, () => {
  const repo = repository();

  it('a revision like --output=FILE is refused as a revision git cannot find, and git writes no file', () => {
    const out = join(scratch, 'out');
    mkdirSync(out);
    for (const value of [`--output=${join(out, 'written')}:x`, `--output=${join(out, 'written')}`, '-p', '--help']) {
      assert.throws(
        () => readDocuments([{ value, from: '--base' }], repo),
        (err: unknown) => err instanceof RevisionError && err.message.includes(JSON.stringify(value)),
        value,
      );
    }
    assert.deepEqual(readdirSync(out), [], 'git wrote nothing');
  });

  it('through the command line, `--base=--output=FILE:x` ends with exit 2 and no file', async () => {
    const out = join(scratch, 'cli-out');
    mkdirSync(out);
    const code = await compatMain([`--base=--output=${join(out, 'written')}:x`, '--rules-only'], repo, {});
    assert.equal(code, 2);
    assert.deepEqual(readdirSync(out), []);
  });

  it('a revision, REV:path and a file still read', () => {
    const documents = readDocuments(
      [
        { value: 'HEAD', from: '--base' },
        { value: 'HEAD:spec/openapi.yaml', from: '--head' },
        { value: 'spec/openapi.yaml', from: '--head' },
      ],
      repo,
    );
    try {
      for (const ref of documents.refs) assert.equal(readFileSync(ref.path, 'utf8'), 'openapi: 3.1.0\n');
    } finally {
      documents.cleanup();
    }
  });
});
