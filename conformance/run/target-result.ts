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
}

export type Summary = Record<Outcome, number>;

export interface TargetResult {
  target: Target;
  summary: Summary;
  results: CheckResult[];
  /** Why the harness stopped sending requests to this target (dead-target policy), or undefined. */
  unreachable?: string;
  /** Every request the target was sent and the status it answered, for the coverage of the document. */
  observed?: ObservedExchange[];
  /** Why no check could mean anything against this target (the token refused, nothing listening, …): then none was run. */
  diagnosis?: Diagnosis;
}

