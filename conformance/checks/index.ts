// The catalog: every check, in report order (by family, then by number). IDs
// are stable and never renumbered (test/conformance/catalog.test.ts holds the
// frozen list).
import { acceptChecks } from './accept.js';
import { authChecks } from './auth.js';
import { generatedChecks } from './generated.js';
import { httpChecks } from './http.js';
import { operationChecks } from './operations.js';
import { rejectChecks } from './reject.js';
import { responseChecks } from './responses.js';
import { robustnessChecks } from './robustness.js';
import { stateChecks } from './state.js';
import type { Check } from './types.js';
import { writingChecks } from './writing.js';

/** The families in report order: what a server must accept, then refuse, then the rest. */
const FAMILIES = ['ACCEPT', 'JSON', 'REJECT', 'ROBUST', 'AUTH', 'HTTP', 'STATE', 'GEN', 'DOC', 'RESP'];

const family = (c: Check): number => FAMILIES.indexOf(c.id.split('-')[1]!);

export const catalog: Check[] = [
  ...acceptChecks,
  ...writingChecks,
  ...rejectChecks,
  ...robustnessChecks,
  ...authChecks,
  ...httpChecks,
  ...stateChecks,
  ...generatedChecks,
  ...operationChecks,
  ...responseChecks,
].sort((a, b) => family(a) - family(b) || a.id.localeCompare(b.id));

export type { Check, CheckContext, Outcome, Verdict } from './types.js';
