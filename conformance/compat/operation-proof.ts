// What the execution shows of a change to an operation or to one of its
// parameters. The harness checks every operation a document declares
// (PS-OP-001: implemented at all; PS-OP-002: a valid request, with only its
// required parameters, answered with a declared success), so a crossed run
// calls the operation as the checking document describes it, on a server
// that follows the other document:
// - the change breaks the side: a check of that operation fails, and the
//   report says in one line which operation broke whom, with the status and
//   the check ("GET /plants removed: existing clients' calls to GET /plants
//   are answered 405 (PS-OP-001)");
// - the check that is the claim's own subject passed on that operation: the
//   execution refutes the rule (the server answers the call as the checking
//   document says), and no verdict rests on it.
import type { CheckResult } from '../run/result.js';
import type { Change, Side } from './change.js';

/** What a crossed run's PS-OP-001 and PS-OP-002 found, per operation (`GET /plants`): the operations the checking document's calls reached. */
export interface OperationMet {
  check: string;
  operation: string;
  outcome: string;
}

/** The checks whose outcome per operation the crossed runs keep: whether it is there, and whether a valid request with only its required parameters succeeds. */
export const OPERATION_CHECKS = ['PS-OP-001', 'PS-OP-002'] as const;

/** The operations a crossed run's checks met, with each one's outcome (passes included: a pass is what refutes a rule). */
export function operationsMet(results: CheckResult[]): OperationMet[] {
  return results
    .filter((r) => (OPERATION_CHECKS as readonly string[]).includes(r.id))
    .flatMap((r) => (r.operations ?? []).map((o) => ({ check: r.id, operation: o.operation, outcome: o.outcome })));
}

/** The operation a change is about, as the checks name it (`GET /plants`), and for a parameter its name: before and after (a moved operation differs). */
export interface OperationSubject {
  /** Where existing clients call: the old document's operation. */
  old?: string;
  /** Where new clients call: the new document's operation. */
  new?: string;
  /** The parameter the change is about, when it is one. */
  parameter?: string;
  /** The check whose subject the change is: PS-OP-001 (is the operation there) or PS-OP-002 (is a request with only the required parameters served). */
  check: (typeof OPERATION_CHECKS)[number];
  /** Whether the change alters which requests are required to carry what (a parameter added or removed, made required or optional): PS-OP-002's minimal request is then its subject. */
  requiredness: boolean;
}

const PARAMETER_USAGE = /^(query|header|path|cookie) parameter (\S+) of ([A-Z]+ \S+)$/;

/** The operation (and parameter) a change bears on, or undefined for a change of a schema of a body, an answer, a document-wide part. */
export function operationSubject(change: Change): OperationSubject | undefined {
  if (change.keyword === 'operation') {
    const label = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return {
      ...(label(change.before) ? { old: label(change.before) } : {}),
      ...(label(change.after) ? { new: label(change.after) } : {}),
      check: 'PS-OP-001',
      requiredness: false,
    };
  }
  const usage = change.bearings.map((b) => PARAMETER_USAGE.exec(b.usage)).find((m) => m !== null);
  if (!usage) return undefined;
  const [, , parameter, operation] = usage;
  // A parameter added or removed, or its `required` flipped, changes which requests must carry it; a change of its schema, which values it takes.
  const requiredness =
    change.keyword === 'parameter' ||
    (change.keyword === 'required' && /became (required|optional)$/.test(change.what));
  return { old: operation, new: operation, parameter, check: 'PS-OP-002', requiredness };
}

/** The operation the side's calls go to: existing clients call the old document's; new clients, the new document's (on existing servers). */
export function calledBy(subject: OperationSubject, side: Side): string | undefined {
  return side === 'clients' ? subject.old : subject.new;
}

/** Whether a check's cases reached the operation. */
export function meets(check: CheckResult, operation: string): boolean {
  return (
    (check.operations ?? []).some((o) => o.operation === operation) || (check.actual ?? '').startsWith(`[${operation}`)
  );
}

/** The status the check's answer shows: the one it says each request was answered, or the first after the case's label. */
export function statusOf(check: CheckResult): string | undefined {
  const actual = check.actual ?? '';
  const answered = /answered (\d{3})\b/.exec(actual);
  if (answered) return answered[1];
  const afterLabel = actual.replace(/^\[[^\]]*\]\s*/, '');
  return /(?:^|: )([1-5]\d\d)(?=[,;:]|$)/.exec(afterLabel)?.[1];
}

/**
 * The one line that says which operation broke which side, from the proof a
 * spec author reads first: `GET /plants removed: existing clients' calls to
 * GET /plants are answered 405 (PS-OP-001)`.
 */
export function operationShows(change: Change, side: Side, proof: CheckResult): string | undefined {
  const subject = operationSubject(change);
  if (!subject) return undefined;
  const called = calledBy(subject, side);
  if (!called) return undefined;
  const status = statusOf(proof);
  const answered = status
    ? `answered ${status}`
    : `answered as the ${side === 'clients' ? 'old' : 'new'} document does not allow`;
  const what =
    change.keyword !== 'operation'
      ? `${change.what} on ${called}`
      : subject.old && subject.new
        ? `${subject.old} moved to ${subject.new}`
        : subject.old
          ? `${subject.old} removed`
          : `${subject.new} added`;
  const without =
    subject.requiredness && subject.parameter
      ? ` (with only the parameters the ${side === 'clients' ? 'old' : 'new'} document requires)`
      : '';
  return side === 'clients'
    ? `${what}: existing clients' calls to ${called}${without} are ${answered} by a server following the new document (${proof.id})`
    : `${what}: existing servers answer a new client's call to ${called}${without} ${status ? `with ${status}` : 'as the new document does not allow'} (${proof.id})`;
}

/**
 * Whether the crossed run refutes the rule: the check whose subject the
 * change is (PS-OP-001 for an operation gone, come or moved; PS-OP-002 for a
 * parameter now required or optional) met the operation and passed. Then
 * the server answers the call as the checking document says it should.
 */
export function refutation(change: Change, side: Side, met: OperationMet[] | undefined): string | undefined {
  const subject = operationSubject(change);
  if (!subject || !met) return undefined;
  if (change.keyword !== 'operation' && !subject.requiredness) return undefined;
  const called = calledBy(subject, side);
  const found = met.find((m) => m.check === subject.check && m.operation === called);
  if (!found || found.outcome !== 'pass') return undefined;
  const whose = side === 'clients' ? 'old' : 'new';
  const serving = side === 'clients' ? 'new' : 'old';
  return `the execution refutes it: ${found.check} of the ${whose} document passed on ${called} against the reference serving the ${serving} document (${found.check === 'PS-OP-001' ? 'the operation is there' : 'a request with only the required parameters is served'})`;
}

/** Among the proofs of an operation's change: the check that is its subject, on the operation the side calls, first. */
export function operationRank(change: Change, side: Side, check: CheckResult): number {
  const subject = operationSubject(change);
  if (!subject) return 0;
  const called = calledBy(subject, side);
  return (called && meets(check, called) ? 2 : 0) + (check.id === subject.check ? 4 : 0);
}
