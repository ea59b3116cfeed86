// The shape of a check. Checks are data plus pure functions: they say which
// requests to send and grade the exchanges; the runner does all I/O.
import type { Exchange, RequestSpec } from '../http.js';
import type { SpecModel } from '../spec-model.js';
import type { IdAllocator } from '../ids.js';

/** After Autobahn|Testsuite's grading. */
export type Outcome = 'pass' | 'non-strict' | 'fail' | 'skip' | 'error';
export const OUTCOMES: Outcome[] = ['pass', 'non-strict', 'fail', 'skip', 'error'];

export type Level = 'MUST' | 'SHOULD';

export interface Source {
  /** e.g. "Plant Store specification", "RFC 9110". */
  document: string;
  /** e.g. "Create plant, rule 1", "§11.6.1". */
  section: string;
  url?: string;
}

export interface Verdict {
  outcome: Outcome;
  expected?: string;
  actual?: string;
  /** Index of the exchange the verdict is about (for the curl line). */
  exchange?: number;
  /** Exchanges to reproduce when the verdict is not about one of the check's own (aggregate checks). */
  reproduce?: Exchange;
}

export interface Target {
  name: string;
  url: string;
  token: string;
  /** The target is known to accept only some tokens (a precondition of PS-AUTH-006). */
  restrictsTokens: boolean;
}

export interface CheckContext {
  model: SpecModel;
  target: Target;
  ids: IdAllocator;
  seed: number;
  cases: number;
  /** The Authorization value that the target accepts. */
  auth(): string;
}

interface CheckBase {
  id: string;
  title: string;
  level: Level;
  source: Source;
  /** The rule, quoted from its source. */
  requirement: string;
  /** A reason to skip, or undefined when the check can run. */
  precondition?: (ctx: CheckContext) => string | undefined;
}

/** Sends a fixed list of requests, one after the other, then grades them. */
export interface ExchangeCheck extends CheckBase {
  kind: 'exchange';
  requests: (ctx: CheckContext) => RequestSpec[];
  verify: (exchanges: Exchange[], ctx: CheckContext) => Verdict;
}

/** Generated cases: drives its own requests through `send` (fast-check property). */
export interface PropertyCheck extends CheckBase {
  kind: 'property';
  run: (ctx: CheckContext, send: (req: RequestSpec) => Promise<Exchange>) => Promise<Verdict>;
}

/** Grades every exchange of the run against the document (response conformance). */
export interface AggregateCheck extends CheckBase {
  kind: 'aggregate';
  verifyEach: (exchange: Exchange, ctx: CheckContext) => Verdict;
}

export type Check = ExchangeCheck | PropertyCheck | AggregateCheck;
