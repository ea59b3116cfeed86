// The shape of a row of the wrong-reason and allowed-choice tables
// (wrong-reason-*.ts, allowed-choices-*.ts, gathered in mutants.ts), and the
// ids a long-lived target holds, which rows of both tables store first.
import type { Outcome } from '../../conformance/checks/types.js';
import { INT64_MAX, INT64_MIN } from '../../spec/formats.js';
import type { FakeOptions } from './fake-mutations.js';

/** A fake server for a row of the tables: its switches and state (the test adds the token). */
export interface FakeRow {
  check: string;
  fake: FakeOptions;
  /** An evolved document of test/fixtures/ the run reads instead of spec/openapi.yaml. */
  document?: string;
}

/**
 * A mutant that breaks the check's rule for a reason other than the obvious
 * one (MUTANTS holds that), in a way a naive check is fooled by: a refusal
 * that another rule explains, an answer with the right status and content
 * type but the wrong body, a challenge that is there but unreadable.
 */
export interface WrongReasonRow extends FakeRow {
  /** `fail`, or `non-strict`/`skip` where the grading policy gives that (docs/checks.md, audit). */
  expected: Outcome;
  /** How the server breaks the rule, and what a naive check would take for evidence. */
  why: string;
  /** For a skip: what the reason must say (the check says that it cannot tell). */
  reason?: RegExp;
}

/** Ids a long-lived target holds from earlier runs: PS-ACCEPT-007's 0, the document's examples 1 and 2, the int64 ends. */
export const EARLIER_RUNS: bigint[] = [0n, 1n, 2n, INT64_MAX, INT64_MIN];

/**
 * A correct server that decides where a source lets it (RFC 8259 §9, an
 * RFC's SHOULD or MAY, the specification's silence): the check grades it
 * `non-strict` (or `pass`, or `skip` where it cannot tell), never `fail`
 * or `error`. One row per non-strict grade of the audit (docs/checks.md).
 */
export interface AllowedChoiceRow extends FakeRow {
  expected: 'pass' | 'non-strict' | 'skip';
  /** The choice the server makes. */
  choice: string;
  /** The source that allows it. */
  source: string;
  /** The target is not said to restrict tokens (--invalid-token not given). */
  restrictsTokens?: false;
  /** For a skip: what the reason must say. */
  reason?: RegExp;
}
