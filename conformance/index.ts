// The harness as a library (the package's `plantstore/conformance` export):
// `main(argv)` is the CLI without the process (it returns the exit code);
// `run` runs the catalog against targets one builds oneself, and the
// reports render what it returns.
export { main } from './cli/main.js';
export { run, runTarget, type RunOptions } from './run/runner.js';
export { loadSpecModel, type SpecModel } from './model/spec-model.js';
export { catalog, type Check, type Outcome } from './checks/index.js';
export type { Target } from './model/target.js';
export { exitCode, runResult, type CheckResult, type RunResult, type TargetResult } from './run/result.js';
export { computeCoverage } from './run/coverage.js';
export { toJsonReport, type JsonReport } from './report/json.js';
export { toJunit } from './report/junit.js';
export { toHtml } from './report/html.js';
export { HarWriter } from './report/har.js';
export type { Diagnosis } from './run/diagnose.js';
