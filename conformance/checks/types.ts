// The shape of a check, after h2spec (one shape for a case) and Schemathesis
// (a check is one named function with its precondition and its inputs).
// Checks are data plus pure functions: a check's cases say which requests to
// send and carry what each one sent; the runner does all I/O and hands the
// cases back to the check, each with its exchange, to be graded.
import type fc from 'fast-check';
import type { Exchange, RequestSpec } from './exchange.js';
import type { IdAllocator } from '../cases/ids.js';
import type { SpecModel } from '../model/spec-model.js';
import type { Target } from '../model/target.js';
import type { JsonValue } from '../model/json.js';

/** After Autobahn|Testsuite's grading. */
export type Outcome = 'pass' | 'non-strict' | 'fail' | 'skip' | 'error';
export const OUTCOMES: Outcome[] = ['pass', 'non-strict', 'fail', 'skip', 'error'];

/** How bad an outcome is, to pick the worst of several: error > fail > non-strict > skip > pass. */
export const SEVERITY: Readonly<Record<Outcome, number>> = { pass: 0, skip: 1, 'non-strict': 2, fail: 3, error: 4 };

export type Level = 'MUST' | 'SHOULD';

export interface Source {
  /** e.g. "Plant Store specification", "RFC 9110". */
  document: string;
  /** e.g. "Create plant, rule 1", "§11.6.1". */
  section: string;
  url?: string;
}

/**
 * What a verdict is about, as data, beside its prose: reports render it
 * (the JSON report carries it as it is), and nothing parses the prose.
 */
export interface Facts {
  /** The answer's status. */
  status?: number;
  /** The header field the verdict is about, and its value (null: absent). */
  header?: { name: string; value: string | null };
  /** Where in the answer's body (a JSON pointer), when the verdict is about a value in it. */
  pointer?: string;
  /** The value expected there (as sent, or as the document declares it), as JSON text. */
  expectedValue?: string;
  /** The value found there, as JSON text; absent when there was none. */
  actualValue?: string;
}

export interface Verdict {
  outcome: Outcome;
  expected?: string;
  actual?: string;
  facts?: Facts;
  /** Index of the case (and so of the exchange) the verdict is about, for the curl line. */
  exchange?: number;
  /** The exchange to reproduce when it is not one of the check's own cases (property and aggregate checks). */
  reproduce?: Exchange;
  /** A skip because the document rules out what the check needs (listed in the coverage), not because of the target. */
  ruledOut?: boolean;
  /**
   * What departs, in words that are the same for every check it happens to
   * ("a valid POST /plants is answered 201, not 200"): reports group
   * failures by it. The runner words one from Expected and the answer when
   * a check gives none.
   */
  cause?: string;
  /**
   * For a check whose cases reach several operations: how each operation
   * fared (its worst case), so that a report says per operation what passed
   * (coverage.ts); a failing case names its operation in its Actual.
   */
  operations?: OperationOutcome[];
  /**
   * The family of input that shows the departure, when not the check's own
   * (CheckBase.family): a cause shown only by some families of input is one
   * departure per family (run/result.ts failureGroups).
   */
  family?: string;
  /**
   * Every case of the check that departs (fail, error, non-strict), in the
   * order sent, each with its exchange (or `reproduce`): the verdict itself
   * is the worst of them. Set by `worst` (grades.ts); a verdict without it
   * stands for its one case. The reports list each (bounded), so that a
   * departure is not hidden behind another case of the same check.
   */
  cases?: Verdict[];
  /** Departing cases not kept in `cases` (an aggregate check keeps a bounded number). */
  casesOmitted?: number;
}

/** How one operation fared in a check's cases: its worst outcome, and what departed. */
export interface OperationOutcome {
  /** `METHOD /path`, as the document declares it. */
  operation: string;
  outcome: Outcome;
  /** What departed (the Actual of its worst case); absent on pass. */
  detail?: string;
}

export interface CheckContext {
  model: SpecModel;
  target: Target;
  ids: IdAllocator;
  /** The random seed of the generated cases. */
  seed: number;
  cases: number;
  /**
   * The Authorization value of the target's bearer token. A request to an
   * operation carries its own scheme's credentials through createRequest,
   * operationCall or, built by hand, withOperationCredentials
   * (credentials.ts): an API key or a cookie is no Authorization value.
   */
  auth(): string;
  /** The inferences from the document the checks grade by (--inferences; docs/checks.md): each on unless switched off. */
  inferences: ReadonlySet<Inference>;
  /** The items stored before the checks for the requests that need them (parents, referenced items: prerequisites.ts); undefined before the runner stored them. */
  prerequisites?: Prerequisites;
}

/** An item the runner stored before the checks (a parent, an item another's body names). */
export interface StoredItem {
  collection: string;
  /** The id that names it (its item parameter's value). */
  id: JsonValue;
  /** The texts of its parents' ids in its path, outermost first. */
  ancestors: string[];
}

/** What the runner stored before the checks, by collection path, and why a collection has none. */
export interface Prerequisites {
  stored: ReadonlyMap<string, readonly StoredItem[]>;
  missing: ReadonlyMap<string, string>;
}

/**
 * What the harness infers from the shape of the document and the method
 * semantics of RFC 9110 §9.3, beyond what the document says outright: each
 * can be switched off (--inferences), and a check that rests on one skips.
 * - `resource`: operations on the plant resource found by their path's shape
 *   (`/plants/{id}` beside the create's `/plants`); links are the document's
 *   own word and are always read.
 * - `read-back`: a created plant is read back by GET on its item as the create answered it.
 * - `listed`: a created plant is in the list.
 * - `delete`: after a successful DELETE the plant is gone (GET refused, not listed).
 * - `update`: PUT and PATCH change what GET answers.
 * - `limit`: a list parameter that names itself a limit bounds the array.
 * - `filter`: a list parameter named after an item property selects the items whose property equals it (an array: any of them).
 * - `identity`: the answer's member that carries a created item's id (readOnly, named like the path parameter, the only id-like one).
 * - `location`: a created item's id is read from the Location its create answered, matched against the item path.
 * - `reference`: a create's member named `<item>Id` or `<item>_id` names an item of that collection (links need no inference).
 * - `nested`: an item of a nested collection exists under its own parent only.
 * - `pages`: a list's pages are reached by its cursor, offset or page number parameter (Link rel="next" is RFC 8288's).
 * - `sort`: a list parameter whose enum values are property names (`-` descending) orders the items by that property.
 * - `idempotency`: a header named Idempotency-Key (or whose description says idempotency) makes a create's retry replay its first answer.
 */
export type Inference =
  | 'resource'
  | 'read-back'
  | 'listed'
  | 'delete'
  | 'update'
  | 'limit'
  | 'filter'
  | 'identity'
  | 'location'
  | 'reference'
  | 'nested'
  | 'pages'
  | 'sort'
  | 'idempotency';
export const INFERENCES: readonly Inference[] = [
  'resource',
  'read-back',
  'listed',
  'delete',
  'update',
  'limit',
  'filter',
  'identity',
  'location',
  'reference',
  'nested',
  'pages',
  'sort',
  'idempotency',
];

/** The most cases one batch may hold (sent at once): the runner keeps as many connections for a batch beside the checks running at once. */
export const MAX_BATCH = 8;

/** The most rounds of cases a check's `follow` may add: a list's pages are followed this far at most. */
export const MAX_FOLLOW_ROUNDS = 32;

/** One request of a check, and what the check needs to grade its answer (e.g. the body it sent). */
export interface Case<Sent = undefined> {
  request: RequestSpec;
  sent: Sent;
  /**
   * Adjacent cases with the same batch are sent at once (concurrently), the
   * batch after the cases before it have been answered; cases without one
   * are sent one after the other. A batch holds MAX_BATCH cases at most.
   */
  batch?: number;
}

/** A case the runner sent, with the exchange it got. */
export interface CaseExchange<Sent = undefined> extends Case<Sent> {
  exchange: Exchange;
}

/**
 * When the runner sends a check's requests (docs/conformance.md, "Order of
 * checks"), stage after stage:
 * - `ordinary`: the default, several checks at once;
 * - `alone`: reads a whole list page by page (PS-PAGE-*, PS-QUERY-*): one
 *   check at a time, so that no other check's creates and deletes move items
 *   between the pages it walks (an offset shifts when an item before it goes);
 * - `fixed-ids`: stores fixed ids (0, the ends of int64), which a lenient
 *   reading of another check's invalid id would meet (an id past int64 read
 *   as a double is int64's end): after every ordinary check, so that such a
 *   refusal meets no plant of this run;
 * - `load`, `extreme`, `hostile`: may knock a server out (concurrent floods,
 *   valid but extreme bodies and heads, hostile bodies): last, one check at a
 *   time, the most hostile last, so that a target that stops answering keeps
 *   every verdict reached before and the request that stopped it is known.
 */
export type Stage = 'ordinary' | 'alone' | 'fixed-ids' | 'load' | 'extreme' | 'hostile';
export const STAGES: readonly Stage[] = ['ordinary', 'alone', 'fixed-ids', 'load', 'extreme', 'hostile'];
/** The stages whose checks may knock a target out: run one check at a time. */
export const DISRUPTIVE: ReadonlySet<Stage> = new Set(['load', 'extreme', 'hostile']);
/** The stages whose checks run one at a time: the disruptive ones, and those that walk a list. */
export const ONE_AT_A_TIME: ReadonlySet<Stage> = new Set(['alone', ...DISRUPTIVE]);

interface CheckBase {
  id: string;
  title: string;
  level: Level;
  source: Source;
  /** The rule, quoted from its source. */
  requirement: string;
  /**
   * Why the check has its level and how each departure is graded, from its
   * source: MUST and `fail` only where the specification, the document read
   * as JSON Schema 2020-12, or an RFC's MUST binds; where a source allows the
   * behaviour (RFC 8259 §9, an RFC's SHOULD or MAY) or the specification is
   * silent (our own decisions), at most `non-strict` (docs/checks.md, audit).
   */
  grading: string;
  /** What must be observed before the check passes; where it cannot be, the outcome is `skip` with the reason, never `pass`. */
  evidence: string;
  /**
   * A reason the document gives to skip the check (it rules out what the
   * check needs), or undefined when the check can run. Building the cases
   * may say so too, by throwing RuledOut (draw.ts).
   */
  precondition?: (ctx: CheckContext) => string | undefined;
  /** When the runner sends it (Stage); default `ordinary`. */
  stage?: Stage;
  /**
   * The family of input its cases send, in a few words ("an empty string",
   * "id 0"): failures are grouped by cause and family (a Go server that
   * refuses an empty name, id 0 and 1.0 departs three times), unless a plain
   * check shows the cause too (then the target does it to every request of
   * the kind: a 201 for every valid create is one departure). Default: the
   * check's title. `plain`: the check sends the plain request of its kind,
   * varied in nothing (PS-ACCEPT-001), or grades every answer (the
   * aggregate checks).
   */
  family?: string;
  plain?: boolean;
}

// The functions a runner calls back are declared as methods: a check with
// its own `Sent` type then still fits the catalog's `Check` (TypeScript
// compares method parameters bivariantly), and the runner only ever hands a
// check back its own cases.

/** Sends its cases one after the other, then grades them together. */
export interface ExchangeCheck<Sent = undefined> extends CheckBase {
  kind: 'exchange';
  cases(ctx: CheckContext): Array<Case<Sent>>;
  /**
   * The cases to send after those sent so far, built from their answers (the
   * next page of a list, an id a create answered with); none: done. Called
   * after the planned cases, then after each round it adds, at most
   * MAX_FOLLOW_ROUNDS times.
   */
  follow?(sent: Array<CaseExchange<Sent>>, ctx: CheckContext): Array<Case<Sent>>;
  verify(cases: Array<CaseExchange<Sent>>, ctx: CheckContext): Verdict;
}

/** Generated cases (a fast-check property): each drawn value becomes a case, graded on its own. */
export interface PropertyCheck<Value = unknown, Sent = undefined> extends CheckBase {
  kind: 'property';
  /** What is drawn; the run's seed makes it repeatable. */
  values(ctx: CheckContext): fc.Arbitrary<Value>;
  /** The case a drawn value becomes: its request, and what it sent. */
  toCase(value: Value, ctx: CheckContext): Case<Sent>;
  grade(sent: CaseExchange<Sent>, ctx: CheckContext): Verdict;
}

/** Grades every exchange of the run against the document (response conformance). */
export interface AggregateCheck extends CheckBase {
  kind: 'aggregate';
  /** An exchange the check does not apply to is `skip`, which does not make the check a skip. */
  verifyEach(exchange: Exchange, ctx: CheckContext): Verdict;
  /**
   * Why the check is skip when it applied to no exchange of the run (none
   * set: it passes then); where its precondition gives a reason too, the
   * skip is the document's doing (ruled out).
   */
  noneApplied?: string;
}

export type Check = ExchangeCheck<unknown> | PropertyCheck<unknown, unknown> | AggregateCheck;
