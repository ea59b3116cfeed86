// The mutation tables. MUTANTS: check id → the fake-server switch that breaks
// its rule, and the outcome the grading policy gives that break (read by the
// mutation test and by the catalog test: every check must have a row).
// WRONG_REASON_MUTANTS: for every check, a fake server that breaks its rule
// for another reason, which a naive check is fooled by (wrong-reason-*.ts);
// ALLOWED_CHOICES: for every non-strict grade, a correct server that makes
// the choice a source allows (allowed-choices-*.ts); both read by
// test/conformance/checks.wrong-reason.test.ts. The rows' shape is in
// mutant-rows.ts.
import { catalog } from '../../conformance/checks/index.js';
import type { Outcome } from '../../conformance/checks/types.js';
import type { Mutation } from './fake-mutations.js';
import type { AllowedChoiceRow, FakeRow, WrongReasonRow } from './mutant-rows.js';
import { BODY_WRONG_REASONS } from './wrong-reason-bodies.js';
import { SERVICE_WRONG_REASONS } from './wrong-reason-service.js';
import { RFC_CHOICES } from './allowed-choices-rfc.js';
import { SPEC_CHOICES } from './allowed-choices-spec.js';

export { EARLIER_RUNS, type AllowedChoiceRow, type FakeRow, type WrongReasonRow } from './mutant-rows.js';

/** check id → the mutant that breaks its rule, and the outcome the policy gives. */
export const MUTANTS: Array<[string, Mutation, Outcome]> = [
  ['PS-ACCEPT-001', 'dropTag', 'fail'],
  ['PS-ACCEPT-001', 'status201', 'fail'],
  ['PS-ACCEPT-002', 'requireTag', 'fail'],
  ['PS-ACCEPT-003', 'rejectEmptyName', 'fail'],
  ['PS-ACCEPT-004', 'nameMaxLength', 'non-strict'],
  ['PS-ACCEPT-005', 'latin1Body', 'fail'],
  ['PS-ACCEPT-006', 'rejectUnknownProps', 'fail'],
  ['PS-ACCEPT-007', 'positiveIdsOnly', 'fail'],
  ['PS-ACCEPT-008', 'positiveIdsOnly', 'fail'],
  ['PS-ACCEPT-009', 'int53Ids', 'fail'],
  ['PS-ACCEPT-010', 'int53Ids', 'fail'],
  ['PS-ACCEPT-011', 'rejectIntegralNumerals', 'fail'],
  ['PS-ACCEPT-011', 'integralNumeralsAsDouble', 'fail'],
  ['PS-ACCEPT-013', 'trimStrings', 'fail'],
  ['PS-REJECT-013', 'caseInsensitiveNames', 'fail'],
  ['PS-AUTH-009', 'acceptTokenAnyScheme', 'fail'],
  ['PS-REJECT-001', 'acceptMissingName', 'fail'],
  ['PS-REJECT-002', 'coerceStrings', 'fail'],
  ['PS-REJECT-003', 'acceptNull', 'fail'],
  ['PS-REJECT-004', 'noInt64Bound', 'fail'],
  ['PS-REJECT-005', 'noInt64Bound', 'fail'],
  ['PS-REJECT-006', 'truncateFractions', 'fail'],
  ['PS-REJECT-007', 'unwrapArray', 'fail'],
  ['PS-REJECT-008', 'emptyBodyOk', 'fail'],
  ['PS-REJECT-009', 'acceptMalformed', 'non-strict'],
  ['PS-REJECT-010', 'acceptTrailingGarbage', 'non-strict'],
  ['PS-REJECT-011', 'ignoreContentType', 'non-strict'],
  ['PS-AUTH-001', 'noAuth', 'fail'],
  ['PS-AUTH-001', 'noWwwAuthenticate', 'fail'],
  ['PS-AUTH-002', 'acceptAnyScheme', 'fail'],
  ['PS-AUTH-003', 'acceptEmptyToken', 'fail'],
  ['PS-AUTH-004', 'acceptMalformedToken', 'fail'],
  ['PS-AUTH-005', 'lowercaseBearerRejected', 'fail'],
  ['PS-AUTH-006', 'acceptAnyToken', 'fail'],
  ['PS-AUTH-007', 'bodyBeforeAuth', 'non-strict'],
  ['PS-HTTP-001', 'no405Allow', 'fail'],
  ['PS-HTTP-001', 'no405', 'non-strict'],
  ['PS-HTTP-002', 'unknownPath200', 'non-strict'],
  ['PS-STATE-001', 'duplicatesAccepted', 'non-strict'],
  ['PS-STATE-002', 'roundIds', 'fail'],
  ['PS-STATE-002', 'duplicatesAccepted', 'skip'],
  ['PS-GEN-001', 'dropTag', 'fail'],
  ['PS-GEN-002', 'acceptMissingName', 'fail'],
  ['PS-RESP-001', 'status422', 'non-strict'],
  ['PS-RESP-002', 'wrongContentType', 'fail'],
  ['PS-RESP-003', 'errorBodyWrongShape', 'fail'],
  ['PS-ACCEPT-012', 'int53Ids', 'fail'],
  ['PS-REJECT-012', 'acceptNull', 'fail'],
  ['PS-DOC-001', 'noAuth', 'fail'],
  ['PS-DOC-002', 'wrongContentType', 'fail'],
  ['PS-ACCEPT-004', 'truncateLongStrings', 'fail'],
  ['PS-JSON-001', 'tabAndCrNotWhitespace', 'fail'],
  ['PS-JSON-002', 'idFirstOnly', 'fail'],
  ['PS-JSON-003', 'undecodedEscapes', 'fail'],
  ['PS-HTTP-003', 'exactMediaType', 'fail'],
  ['PS-HTTP-004', 'decodeEachChunk', 'fail'],
  ['PS-HTTP-004', 'lengthRequired', 'fail'],
  ['PS-HTTP-005', 'exactFieldNames', 'fail'],
  ['PS-AUTH-008', 'oneSpaceAfterBearer', 'fail'],
  ['PS-AUTH-006', 'tokenPrefixMatch', 'fail'],
  ['PS-AUTH-006', 'tokenIgnoreCase', 'fail'],
  ['PS-ROBUST-001', 'fatalOnBadUtf8', 'fail'],
  ['PS-ROBUST-001', 'dropDeepNesting', 'fail'],
  ['PS-ROBUST-002', 'deepNesting500', 'fail'],
  ['PS-ROBUST-003', 'storeBeforeValidate', 'fail'],
  ['PS-STATE-003', 'raceDuplicates', 'non-strict'],
  ['PS-STATE-003', 'duplicatesAccepted', 'skip'],
  ['PS-RESP-004', 'otherMethods500', 'fail'],
  ['PS-ROBUST-004', 'charsetCrash', 'fail'],
  ['PS-HTTP-001', 'otherMethods500', 'fail'],
  ['PS-HTTP-006', 'strictAccept', 'fail'],
  ['PS-AUTH-001', 'bareBearerChallenge', 'fail'],
];

// Each check ID of the catalog has at least one row (test/conformance/checks.wrong-reason.test.ts).
export const WRONG_REASON_MUTANTS: WrongReasonRow[] = [...BODY_WRONG_REASONS, ...SERVICE_WRONG_REASONS];

export const ALLOWED_CHOICES: AllowedChoiceRow[] = [...RFC_CHOICES, ...SPEC_CHOICES];

const AGGREGATES = new Set(catalog.filter((c) => c.kind === 'aggregate').map((c) => c.id));

/**
 * The checks run against a mutant (checks.mutants.test.ts): those of its rows, or the whole catalog (undefined)
 * where one of them is an aggregate check, which grades every exchange of the run.
 */
export function checksRunAgainst(mutant: Mutation): string[] | undefined {
  const ids = MUTANTS.filter(([, m]) => m === mutant).map(([id]) => id);
  return ids.some((id) => AGGREGATES.has(id)) ? undefined : ids;
}

/**
 * Whether checks.mutants.test.ts already makes an allowed choice's run and asserts its outcome: the row's fake is
 * one switch, a mutant of MUTANTS graded there as the row expects, with the same checks run (the row's alone, or
 * the whole catalog for an aggregate check), on spec/openapi.yaml, the target said to restrict tokens, and no
 * reason to match.
 */
export function runAsMutant(row: AllowedChoiceRow): boolean {
  const switches = Object.entries(row.fake);
  if (row.document !== undefined || row.restrictsTokens !== undefined || row.reason || switches.length !== 1)
    return false;
  const [mutant, on] = switches[0]!;
  if (on !== true || !MUTANTS.some(([id, m, o]) => id === row.check && m === mutant && o === row.expected))
    return false;
  const run = checksRunAgainst(mutant as Mutation);
  return AGGREGATES.has(row.check) ? run === undefined : run?.length === 1 && run[0] === row.check;
}

/**
 * The switches whose fake holds a create for seconds (test/support/fake-create.ts: a create with no twin in flight
 * waits 5 s in the race window, twice a run of PS-STATE-003): a run against them mostly waits, and the tests group
 * those runs. Two of them must never run at once: the window is shared by every fake of a process, by id.
 */
export const HOLDING: Mutation[] = ['raceDuplicates', 'uniqueViolation500'];

/** Whether a row's fake holds creates (HOLDING). */
export const holds = (row: FakeRow): boolean => HOLDING.some((mutant) => row.fake[mutant] === true);
