// What the GitHub Action reads and writes, and where its options come from.
// The workspace is the checkout of whatever the workflow checked out, which
// may be a pull request's head: nothing in it may redirect the run, read a
// CI secret into a request or a report, or write outside it. So the harness
// takes its options from the action's inputs alone: no configuration file
// unless the `config` input names one, whose `${VAR}` may read only the
// variables the `config-variables` input lists and which may only tune the
// run (ACTION_CONFIG_KEYS: never the target, the token, the document or where
// a report goes); none of the step's PLANTSTORE_* variables; and every path
// it reads or writes (`reports`, `config`, the documents compat compares:
// spec/openapi.yaml and a `compat-base` that is a file) resolves inside the
// workspace, links followed.
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ConfigPolicy } from '../conformance/cli/args.js';

/** The options a configuration file named by the `config` input may set: how the run goes, never what it checks or where it writes. */
export const ACTION_CONFIG_KEYS = [
  'header',
  'wait-for',
  'invalid-token',
  'cases',
  'timeout',
  'concurrency',
  'rate-limit',
  'only',
  'max-failures',
  'fail-fast',
] as const;

/** The workspace: GITHUB_WORKSPACE, else the working directory (where the runner starts the step). */
export function workspaceOf(env: NodeJS.ProcessEnv): string {
  return resolve(env.GITHUB_WORKSPACE || process.cwd());
}

/**
 * `path` (relative to the working directory, as the harness reads it) when
 * it is inside the workspace once every link of it that exists is followed;
 * throws a message naming the input otherwise (`..`, an absolute path
 * elsewhere, a link committed in the workspace that points out of it).
 */
export function insideWorkspace(workspace: string, path: string, input: string): string {
  return within(workspace, path, `the input \`${input}\``);
}

/**
 * The documents compat reads, each resolved inside the workspace as
 * insideWorkspace resolves an input's path: the head (spec/openapi.yaml, the
 * pull request's document, which may be a committed link) and the base when
 * `compat-base` names a file rather than a git revision (read from git's
 * objects, where a committed link is only the text of its target). A file
 * that does not exist is left for compat to report.
 */
export function compatDocuments(workspace: string, base: string, head: string): { base: string; head: string } {
  return {
    base: readAsFile(resolve(base)) ? within(workspace, base, 'the input `compat-base`') : base,
    head: within(workspace, head, 'the new document compat compares'),
  };
}

/** Whether compat reads `path` as a file (conformance/compat/revision.ts): it is one, or a link that leads nowhere (refused as such). */
function readAsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    try {
      return lstatSync(path).isSymbolicLink();
    } catch {
      return false;
    }
  }
}

/** `path` resolved, links followed, when it is inside the workspace; else a message naming `what`. */
function within(workspace: string, path: string, what: string): string {
  const root = realpathSync(workspace);
  let existing = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      lstatSync(existing);
      break;
    } catch {
      if (dirname(existing) === existing) break;
      rest.unshift(basename(existing));
      existing = dirname(existing);
    }
  }
  let real: string;
  try {
    real = join(realpathSync(existing), ...rest);
  } catch {
    throw new Error(`${what} (${JSON.stringify(path)}) goes through a link that leads nowhere`);
  }
  const inside = relative(root, real);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new Error(
      `${what} (${JSON.stringify(path)}) is outside the workspace: the action reads and writes only there`,
    );
  }
  return real;
}

/** The `config-variables` input: names separated by commas, spaces or lines, each a variable name. */
export function variableNames(text: string): string[] {
  const names = text.split(/[\s,]+/).filter(Boolean);
  const bad = names.find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
  if (bad !== undefined)
    throw new Error(`the input \`config-variables\` lists environment variable names, not ${JSON.stringify(bad)}`);
  return names;
}

/** The harness's environment in the action: the token from the `token` input, and nothing of the step's environment. */
export function harnessEnvironment(token: string): NodeJS.ProcessEnv {
  return token ? { PLANTSTORE_TOKEN: token } : {};
}

/** The configuration policy of the action's run: the file only if named, the variables `names` lists only (read from `env`), the tuning keys only. */
export function actionConfigPolicy(names: readonly string[], env: NodeJS.ProcessEnv): ConfigPolicy {
  return {
    implicitFile: false,
    variables: Object.fromEntries(names.map((name) => [name, env[name]])),
    keys: ACTION_CONFIG_KEYS,
  };
}
