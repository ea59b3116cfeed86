// The harness's version: the package's, read from its package.json (beside
// dist/ in the package, the repository's root in a clone or the Action).
import { readFileSync } from 'node:fs';

export function harnessVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      name?: string;
      version?: string;
    };
    if (pkg.name === 'plantstore' && typeof pkg.version === 'string') return pkg.version;
  } catch {
    // Not found where it should be: say so rather than guess.
  }
  return 'unknown';
}
