// The GitHub Action's entry point (bundled into action/index.mjs by
// scripts/bundle-action.mjs): the step itself is scripts/action.ts.
import { runAction } from './action.js';

process.exitCode = await runAction();
