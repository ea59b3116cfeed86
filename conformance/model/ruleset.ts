// The Spectral ruleset the harness lints with, loaded from its file
// (.spectral.yaml) with Spectral's ruleset bundler. A separate module so
// that the GitHub Action's bundle (scripts/bundle-action.mjs), which has no
// node_modules to load the ruleset's functions from at run time, can put
// in its place the same ruleset compiled when the bundle is made.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);

export async function loadRuleset(rulesetPath: string): Promise<unknown> {
  // CommonJS packages; Spectral's CLI brings the ruleset bundler and runtime.
  const { bundleAndLoadRuleset } = require('@stoplight/spectral-ruleset-bundler/with-loader') as {
    bundleAndLoadRuleset: (path: string, io: { fs: typeof fs; fetch: unknown }) => Promise<unknown>;
  };
  const { fetch } = require('@stoplight/spectral-runtime') as { fetch: unknown };
  return bundleAndLoadRuleset(resolve(rulesetPath), { fs, fetch });
}
