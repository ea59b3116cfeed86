// The catalog: every check, in report order (by family, then by number). A
// check's ID names its file: PS-JSON-* are defined in json.ts, PS-ROBUST-* in
// the robust-*.ts files (test/conformance/catalog.test.ts holds every file to
// it). IDs are stable and never renumbered: frozen-ids.json lists every ID
// ever published (`npm run docs:checks` adds new ones), and a test fails when
// one of them is gone from the catalog.
import { acceptChecks } from './accept.js';
import { authChecks } from './auth.js';
import { docChecks } from './doc.js';
import { genChecks } from './gen.js';
import { httpChecks } from './http.js';
import { jsonChecks } from './json.js';
import { opChecks } from './op.js';
import { opSecurityChecks } from './op-security.js';
import { rejectChecks } from './reject.js';
import { respChecks } from './resp.js';
import { robustBodyChecks } from './robust-bodies.js';
import { robustByteChecks } from './robust-bytes.js';
import { robustHeadChecks } from './robust-heads.js';
import { stateChecks } from './state.js';
import { condChecks } from './cond.js';
import { headChecks } from './head.js';
import { idemChecks } from './idem.js';
import { identChecks } from './ident.js';
import { pageChecks } from './page.js';
import { queryChecks } from './query.js';
import { refChecks } from './ref.js';
import type { Check } from './types.js';

/**
 * The families in report order (what a server must accept, then refuse,
 * then the rest), each with the checks its files define: a file named the
 * family's name in lower case, or that name and a dash (robust-bytes.ts).
 */
export const FAMILIES: Readonly<Record<string, readonly Check[]>> = {
  ACCEPT: acceptChecks,
  JSON: jsonChecks,
  REJECT: rejectChecks,
  ROBUST: [...robustByteChecks, ...robustBodyChecks, ...robustHeadChecks],
  AUTH: authChecks,
  HTTP: httpChecks,
  STATE: stateChecks,
  OP: [...opChecks, ...opSecurityChecks],
  IDENT: identChecks,
  REF: refChecks,
  PAGE: pageChecks,
  QUERY: queryChecks,
  COND: condChecks,
  IDEM: idemChecks,
  HEAD: headChecks,
  GEN: genChecks,
  DOC: docChecks,
  RESP: respChecks,
};

export const catalog: Check[] = Object.values(FAMILIES).flatMap((checks) =>
  [...checks].sort((a, b) => a.id.localeCompare(b.id)),
);

export type { Check, CheckContext, Outcome, Verdict } from './types.js';
