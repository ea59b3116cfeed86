// Where `--base` and `--head` come from: a file, or a git revision of the
// repository the command runs in (`origin/main`, read as
// `git show origin/main:./spec/openapi.yaml`; or `REV:path`, as git takes it).
// A revision's text is copied to a temporary file, as both the server and
// the harness read a document from a file. git reads the revision after
// --end-of-options, so no value given to compat is ever one of git's options.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import type { DocumentRef } from './compat.js';

/** The head's default, and the path read from a revision given without one. */
export const DEFAULT_DOCUMENT = 'spec/openapi.yaml';

export class RevisionError extends Error {}

export interface Documents {
  refs: DocumentRef[];
  /** Removes the temporary copies. */
  cleanup(): void;
}

/**
 * The documents the arguments name, in order: an existing file is read as
 * it is; anything else is a git revision (`REV` or `REV:path`). Throws
 * RevisionError, saying what was tried, when neither reads.
 */
export function readDocuments(specs: Array<{ value: string; from: string }>, cwd: string = process.cwd()): Documents {
  let dir: string | undefined;
  const cleanup = () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const refs = specs.map(({ value, from }, i) => {
      const file = resolve(cwd, value);
      if (existsSync(file) && statSync(file).isFile()) return { label: value, path: file };
      const colon = value.indexOf(':');
      const [rev, path] =
        colon > 0 ? [value.slice(0, colon), value.slice(colon + 1)] : [value, `./${DEFAULT_DOCUMENT}`];
      const object = `${rev}:${path}`;
      let text: string;
      try {
        // --end-of-options: a revision that starts with a dash (`--output=FILE`) is a revision git cannot find, never an option (git once wrote that file).
        text = execFileSync('git', ['show', '--end-of-options', object], {
          cwd,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          maxBuffer: 64 * 1024 * 1024,
        });
      } catch (err) {
        const stderr =
          String((err as { stderr?: string | Buffer }).stderr ?? (err as Error).message)
            .trim()
            .split('\n')[0] ?? '';
        const why =
          (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'git is not installed' : stderr || 'git show failed';
        throw new RevisionError(
          `${from} ${JSON.stringify(value)}: not a file, nor a git revision with that document (git show ${object}: ${why})`,
        );
      }
      dir ??= mkdtempSync(join(tmpdir(), 'plantstore-compat-'));
      const copy = join(dir, `${i}-${rev.replace(/[^A-Za-z0-9._-]+/g, '_')}${extname(path) || '.yaml'}`);
      writeFileSync(copy, text);
      return { label: colon > 0 ? value : `${rev}:${DEFAULT_DOCUMENT}`, path: copy };
    });
    return { refs, cleanup };
  } catch (err) {
    cleanup();
    throw err;
  }
}
