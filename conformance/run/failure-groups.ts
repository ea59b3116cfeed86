// The failures of a target as the reports group them: the shapes (a group,
// a root's consequences), which outcomes count, the departing cases of a
// target, and the departures that no root explains, grouped by cause and
// family. What links a departure to a root is root-causes.ts.
import { SEVERITY, type Outcome } from '../checks/types.js';
import type { CaseResult, CheckResult, TargetResult, ValueAt } from './target-result.js';

/** Later failures that one departure explains: answers of one operation and status that carry values the target accepted wrongly. */
export interface Consequence {
  /** `METHOD /template` of the answers, and their status. */
  operation: string;
  status: number;
  /** The values those answers carry that their schema refuses (at most CONSEQUENCE_VALUES). */
  values: ValueAt[];
  /** How many such values in all. */
  count: number;
  outcome: Outcome;
  /** The checks that failed on them, in report order. */
  checks: string[];
  /** The shortest reproduction among them, with its Expected and Actual. */
  reproduce: string | null;
  expected: string | null;
  actual: string | null;
}

/**
 * One departure and the checks that show it: a cause (the rule broken, in
 * words shared by every check it happens to) with, where the target does it
 * only to some requests of the kind, the family of input that shows it; and
 * one way to reproduce it. A root also lists what it explains.
 */
export interface FailureGroup {
  cause: string;
  /** The family of input that shows it, when the cause depends on the input ("an empty string", "id 0"); absent when the target does it to every request of the kind. */
  family?: string;
  /** The worst outcome among them. */
  outcome: Outcome;
  /** The IDs of the checks whose requests show the departure itself, in report order. */
  checks: string[];
  /** The shortest reproduction among its cases, or null. */
  reproduce: string | null;
  /** Expected and Actual of the case reproduced. */
  expected?: string | null;
  actual?: string | null;
  /** For a departure that is a body the document refuses, accepted: the operation, and the values it took at each place. */
  accepted?: { operation: string; values: ValueAt[] };
  /** The later failures it explains: answers that carry the values it accepted. */
  consequences?: Consequence[];
  /** For valid creates refused because the target took their ids for others it had stored (one IEEE 754 double): each refused id and the id it was taken for. */
  sameDouble?: { operation: string; ids: Array<{ refused: string; as: string }> };
}

/** The most values a report names of one consequence. */
export const CONSEQUENCE_VALUES = 10;

/** The results that fail the run: fail and error, and under --strict non-strict. */
export function failing(results: CheckResult[], strict: boolean): CheckResult[] {
  return results.filter((r) => counts(r.outcome, strict));
}

/** Whether an outcome counts as a failure of the run: fail and error, and under --strict non-strict. */
export function counts(outcome: Outcome, strict: boolean): boolean {
  return outcome === 'fail' || outcome === 'error' || (strict && outcome === 'non-strict');
}

/** A departure as the reports name it: its cause, and the family of input that shows it. */
export function departureText(d: Pick<FailureGroup | CaseResult, 'cause' | 'family'>): string {
  return d.family === undefined ? d.cause : `${d.cause} (${d.family})`;
}

/** A consequence in words, the same in every report: which answers carry what (`then GET /plants answers 200 with it: /37/tag 42, /42/tag null`). */
export function consequenceText(q: Consequence): string {
  const values = q.values.map((v) => `${v.pointer} ${v.value ?? '(missing)'}`).join(', ');
  return `then ${q.operation} answers ${q.status} with it: ${values}${q.count > q.values.length ? `, … (${q.count} values)` : ''}`;
}

/** Every check a group accounts for: those that show the departure, then those that fail on its consequences. */
export function checksOf(g: FailureGroup): string[] {
  const all = [...g.checks];
  for (const c of g.consequences ?? []) for (const id of c.checks) if (!all.includes(id)) all.push(id);
  return all;
}

export type Departure = {
  check: string;
  c: Pick<CaseResult, 'outcome' | 'cause' | 'family' | 'reproduce' | 'expected' | 'actual' | 'trace'> & {
    /** The check that sent the request, when not the one graded (an aggregate's case). */
    check?: string;
  };
};

/** Every departing case of the target that counts as a failure (a check without cases stands for its one case). */
export function departuresOf(t: TargetResult, strict: boolean): Departure[] {
  const out: Departure[] = [];
  for (const r of failing(t.results, strict)) {
    const cases = (r.cases ?? []).filter((c) => counts(c.outcome, strict));
    if (cases.length > 0) for (const c of cases) out.push({ check: r.id, c });
    else
      out.push({
        check: r.id,
        c: {
          outcome: r.outcome,
          cause: r.cause ?? r.actual ?? r.outcome,
          reproduce: r.reproduce,
          expected: r.expected,
          actual: r.actual,
        },
      });
  }
  return out;
}

/** The shortest reproduction wins: the group takes its Expected and Actual with it. */
export function keepShorter(into: Pick<FailureGroup, 'reproduce' | 'expected' | 'actual'>, c: Departure['c']): void {
  if (c.reproduce !== null && (into.reproduce === null || c.reproduce.length < into.reproduce.length))
    Object.assign(into, { reproduce: c.reproduce, expected: c.expected, actual: c.actual });
}

/** Departures that no root explains, grouped by cause and family (a cause a plain case shows too: by cause alone). */
export function symptomGroups(departures: Departure[]): FailureGroup[] {
  const general = new Set(departures.filter((d) => d.c.family === undefined).map((d) => d.c.cause));
  const groups = new Map<string, FailureGroup>();
  for (const { check, c } of departures) {
    const family = general.has(c.cause) ? undefined : c.family;
    const key = `${c.cause}\u0000${family ?? ''}`;
    let g = groups.get(key);
    if (!g)
      groups.set(
        key,
        (g = {
          cause: c.cause,
          ...(family !== undefined ? { family } : {}),
          outcome: c.outcome,
          checks: [],
          reproduce: null,
          expected: c.expected,
          actual: c.actual,
        }),
      );
    if (!g.checks.includes(check)) g.checks.push(check);
    if (SEVERITY[c.outcome] > SEVERITY[g.outcome]) g.outcome = c.outcome;
    keepShorter(g, c);
  }
  return [...groups.values()];
}
