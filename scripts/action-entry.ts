// The GitHub Action's entry point (bundled into action/index.mjs by
// scripts/bundle-action.mjs): the step itself is scripts/action.ts. The
// bundle is one file, so it is also what a compat worker thread loads
// (conformance/cli/compat-deadline.ts): there, the module that runs compat
// does the work, and the step does not start again.
import { isMainThread } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { setCompatWorkerEntry } from '../conformance/cli/compat-deadline.js';
import { runAction } from './action.js';

if (isMainThread) {
  // The runner starts the step as `node <action path>/action/index.mjs`.
  setCompatWorkerEntry(pathToFileURL(process.argv[1]!));
  process.exitCode = await runAction();
}
