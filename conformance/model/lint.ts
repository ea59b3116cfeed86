// Spec lint before a run, with Spectral's API and the project's own ruleset
// (.spectral.yaml: spectral:oas plus the plantstore-* rules). Findings go
// into the report; none stops a run: only a document that cannot be served
// or checked does (it does not load or compile: spec-model.ts). Our own
// plantstore-* rules are house style, so for a run they are warnings
// whatever their severity for `npm run lint:spec`, which may still fail on
// them for our own document.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { OPENAPI_PATH } from '../../spec/openapi.js';
import { Worker } from 'node:worker_threads';
import { keepFindings, keptFindings, lintCacheDir, lintKey } from './lint-cache.js';
import { SEVERITIES, type LintFinding } from './lint-finding.js';
import { loadRuleset } from './ruleset.js';
import { describeDocumentError } from './spec-errors.js';

const require = createRequire(import.meta.url);

export type { LintFinding } from './lint-finding.js';
/** The prefix of the project's own rules (.spectral.yaml). */
export const HOUSE_RULE = 'plantstore-';

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
    severity:
      String(r.code).startsWith(HOUSE_RULE) && (r.severity as number) === 0
        ? 'warning'
        : (SEVERITIES[r.severity] ?? 'hint'),
    message: r.message,
    path: r.path.join('.'),
  }));
}

/** The outcome of a lint run apart: the findings, or why the document could not be linted (as describeDocumentError says it). */
export type LintOutcome = { findings: LintFinding[] } | { error: string };

/**
 * lintSpec on a worker thread (lint-worker.ts), so that Spectral's long
 * synchronous stretches (seconds on a busy machine) hold no timer or answer
 * of the run beside it. Where the worker cannot start (a bundle that ships
 * without lint-worker.js), the lint runs here instead. Never rejects. The
 * findings of a document linted before are read from the cache instead
 * (lint-cache.ts, PLANTSTORE_CACHE_DIR).
 */
export async function lintApart(specPath: string): Promise<LintOutcome> {
  // Findings kept from an earlier lint of the same bytes with the same ruleset and Spectral (lint-cache.ts).
  const dir = lintCacheDir();
  const key = dir === undefined ? undefined : lintKey(specPath, DEFAULT_RULESET);
  const kept = dir === undefined || key === undefined ? undefined : keptFindings(dir, key);
  if (kept !== undefined) return { findings: kept };
  const outcome = await lintOnItsThread(specPath);
  if (dir !== undefined && key !== undefined && 'findings' in outcome) keepFindings(dir, key, outcome.findings);
  return outcome;
}

function lintOnItsThread(specPath: string): Promise<LintOutcome> {
  const here = () =>
    lintSpec(specPath).then(
      (findings): LintOutcome => ({ findings }),
      (err: unknown): LintOutcome => ({ error: describeDocumentError(err, specPath) }),
    );
  const script = new URL('./lint-worker.js', import.meta.url);
  if (!fs.existsSync(script)) return here();
  return new Promise<LintOutcome>((resolve) => {
    const worker = new Worker(script, { workerData: { spec: specPath } });
    let settled = false;
    worker.once('message', (outcome: LintOutcome) => {
      settled = true;
      resolve(outcome);
      void worker.terminate();
    });
    worker.once('error', (err) => {
      settled = true;
      resolve({ error: describeDocumentError(err, specPath) });
    });
    worker.once('exit', (code) => {
      if (!settled) resolve({ error: `${specPath}: the lint's thread ended (exit ${code}) without a result` });
    });
  });
}
