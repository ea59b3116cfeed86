// Spec lint before a run, with Spectral's API and the project's own ruleset
// (.spectral.yaml: spectral:oas plus the plantstore-* rules). Errors stop the
// run; warnings go into the report.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { OPENAPI_PATH } from '../spec/openapi.js';
import { loadRuleset } from './ruleset.js';

const require = createRequire(import.meta.url);

export interface LintFinding {
  code: string;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  path: string;
}

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

/** The project's ruleset (.spectral.yaml at the project root, beside spec/): it applies to any document the harness reads. */
export const DEFAULT_RULESET = join(dirname(OPENAPI_PATH), '..', '.spectral.yaml');

export async function lintSpec(specPath: string, rulesetPath = DEFAULT_RULESET): Promise<LintFinding[]> {
  // CommonJS packages; Spectral's CLI brings the ruleset bundler and runtime.
  const { Spectral, Document } = require('@stoplight/spectral-core') as typeof import('@stoplight/spectral-core');
  const Parsers = require('@stoplight/spectral-parsers') as typeof import('@stoplight/spectral-parsers');
  const ruleset = await loadRuleset(rulesetPath);
  const spectral = new Spectral();
  spectral.setRuleset(ruleset as Parameters<typeof spectral.setRuleset>[0]);
  const doc = new Document(fs.readFileSync(specPath, 'utf8'), Parsers.Yaml, resolve(specPath));
  const results = await spectral.run(doc);
  return results.map((r) => ({
    code: String(r.code),
    severity: SEVERITY[r.severity] ?? 'hint',
    message: r.message,
    path: r.path.join('.'),
  }));
}
