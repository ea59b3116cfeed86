// The compiled test files the runner (run-tests.mjs) and the profiler
// (profile-tests.mjs) take: every *.test.js under the given folders, or the
// given files, in name order. A root is taken under dist/ unless it is
// absolute or already there, so `test/server` means dist/test/server.
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** The root as a path: `test` is dist/test. */
export function compiledRoot(root) {
  return isAbsolute(root) || root === 'dist' || root.startsWith(`dist/`) ? root : join('dist', root);
}

/** Every *.test.js under `roots` (folders or files) that `keep` keeps, in name order. */
export function listTestFiles(roots, keep = () => true) {
  const files = [];
  const walk = (path) => {
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) walk(join(path, entry));
    else if (path.endsWith('.test.js') && keep(path)) files.push(path);
  };
  for (const root of roots) walk(compiledRoot(root));
  return files;
}
