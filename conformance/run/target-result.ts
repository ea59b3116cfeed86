// What a run produces for one target: each check's result, and what the
// target was sent. The types every module of the harness reads (the runner,
// the reports, the matrix, the divergence file, the coverage), in a module
// of their own that imports none of them, so that none depends on another
// through them.
import type { Facts, Level, OperationOutcome, Outcome, Source } from '../checks/types.js';
import type { Diagnosis } from './diagnose.js';
import type { Target } from '../model/target.js';

/** One request a target was sent, and the status it answered (undefined: no answer). */
export interface ObservedExchange {
  method: string;
  path: string;
  status?: number;
}

/** A value at a place in a JSON body, as the grouping by root cause compares them (root-causes.ts). */
export interface ValueAt {
  /** A JSON pointer into the body. */
  pointer: string;
  /** The value there as JSON text; absent: the member is missing. */
  value?: string;
  /** For a value an answer carries: what its schema says of it, as the checks word it (`/37/tag must be string`). */
  problem?: string;
}

/**
 * What a departing case shows of the target's state, as data (traces.ts):
 * the reports group a later failure under the departure that explains it
 * by these values.
 */
export interface CaseTrace {
  /** The operation the request went to (`METHOD /template`), and the status of its answer. */
  operation: string;
  status: number;
  /** The answer is 2xx to a body the document refuses: the values it refuses there, which the target took (and may have stored). */
  accepted?: ValueAt[];
  /** The answer has a declared status and content type, and a body its schema refuses: the values it refuses there. */
  answered?: ValueAt[];
  /** A create with a body the document accepts, refused with a 4xx: the id it carried (JSON text). */
  refusedId?: string;
  /** Another id the target accepted in the run that is the same IEEE 754 double as `refusedId`: the target takes them for one plant. */
  sameDoubleAs?: string;
}

/** The most cases of one check a report lists; the rest are counted (CheckResult.moreCases). */
export const CASES_SHOWN = 20;

/**
 * One case of a check that departs (fail, error, non-strict): what it sent,
 * what came back, and how to send it again. A check lists each (at most
 * CASES_SHOWN, one of each cause first), so that a departure is never hidden
 * behind another case of the same check.
 */
export interface CaseResult {
  outcome: Outcome;
  /** The check that sent the request: the check itself, or for an aggregate check (PS-RESP-*) the one whose request it graded. */
  check: string;
  /** What departs, in words shared by every check it happens to. */
  cause: string;
  /** The family of input that shows it, where the cause depends on the input (failures are grouped by cause and family); absent for a plain request. */
  family?: string;
  expected: string | null;
  actual: string | null;
  /** A command that sends the request again (the token as $PLANTSTORE_TOKEN), or null. */
  reproduce: string | null;
  /** Which of the check's requests (its note). */
  case?: string;
  facts?: Facts;
  /** What the exchange shows of the target's state: values it accepted that the document refuses, values its answer carries that the schema refuses. */
  trace?: CaseTrace;
}

/** The request after which a target stopped answering (the first of the exchanges in a row that got no answer). */
export interface StoppedBy {
  /** The check that sent it (`diagnosis` for the diagnosis's requests). */
  check: string;
  method: string;
  path: string;
  /** Its note. */
  case?: string;
  reproduce: string;
}

export interface CheckResult {
  id: string;
  title: string;
  level: Level;
  outcome: Outcome;
  requirement: string;
  source: Source;
  expected: string | null;
  actual: string | null;
  /** A curl command reproducing the exchange the verdict is about (the token as $PLANTSTORE_TOKEN), or null. */
  reproduce: string | null;
  /** What departs, in words shared by every check it happens to (failures are grouped by it); null on pass and skip. */
  cause?: string | null;
  /** Requests this check sent. */
  requests: number;
  /** Set when the check was skipped because the document rules out what it needs: why. */
  ruledOut?: string;
  /** Which of the check's requests the verdict is about (its note): data beside the Actual, which says it in words. */
  case?: string;
  /** What the verdict is about, as data (the status, a header, a pointer in the body, the expected and actual value there). */
  facts?: Facts;
  /** For a check whose cases reach several operations: each operation's worst outcome, and what departed. */
  operations?: OperationOutcome[];
  /** Every departing case (at most CASES_SHOWN; the verdict's own first among those of its cause); absent on pass and skip. */
  cases?: CaseResult[];
  /** Departing cases beyond those listed. */
  moreCases?: number;
}

export type Summary = Record<Outcome, number>;

export interface TargetResult {
  target: Target;
  summary: Summary;
  results: CheckResult[];
  /** Why the harness stopped sending requests to this target (dead-target policy), or undefined. */
  unreachable?: string;
  /** When it stopped answering mid-run: the request after which it did. */
  stoppedBy?: StoppedBy;
  /** Every request the target was sent and the status it answered, for the coverage of the document. */
  observed?: ObservedExchange[];
  /** Why no check could mean anything against this target (the token refused, nothing listening, …): then none was run. */
  diagnosis?: Diagnosis;
}
