// The catalog: every check, in report order. IDs are stable and never
// renumbered (test/conformance/catalog.test.ts holds the frozen list).
import { acceptChecks } from './accept.js';
import { authChecks } from './auth.js';
import { generatedChecks } from './generated.js';
import { httpChecks } from './http.js';
import { operationChecks } from './operations.js';
import { rejectChecks } from './reject.js';
import { responseChecks } from './responses.js';
import { stateChecks } from './state.js';
import type { Check } from './types.js';

export const catalog: Check[] = [...acceptChecks, ...rejectChecks, ...authChecks, ...httpChecks, ...stateChecks, ...generatedChecks, ...operationChecks, ...responseChecks];

export type { Check, CheckContext, Outcome, Verdict } from './types.js';
