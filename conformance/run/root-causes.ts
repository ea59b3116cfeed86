// A target's failures grouped by the departure behind them (issue 45): one
// server mistake that fails many checks reads as one cause, with the checks
// it fails later listed under it as its consequences.
//
// A departure is a cause (the rule broken) with the family of input that
// shows it (a Go server that refuses an empty name, id 0 and 1.0 breaks
// rule 1 three times), unless a plain case shows the cause too (then the
// target does it to every request of the kind: one group). Beyond that, the
// grouping reads what each departing case shows of the target's state
// (traces.ts), never the names of checks:
// - a root: the target answered 2xx to a body its operation's schema
//   refuses. Every such departure at the same place of the same operation's
//   body (`/tag` of POST /plants: a tag of the wrong type, a null tag, a tag
//   just outside a keyword's bound) is one root: the target does not judge
//   that member;
// - a consequence: a later answer whose body its declared schema refuses at
//   values the target accepted that way (the same member, the same value:
//   `/37/tag` 42 in the list after a create with `tag: 42` was accepted;
//   every value the schema refuses there at a member where a root took
//   values, one of them a value it took), in a departure that names them.
//   It is listed under its root, by the operation and status of the answer;
// - a valid create refused whose id is one IEEE 754 double with an id the
//   target accepted in the run: every such refusal of one operation is one
//   root (the target reads ids as doubles), whichever check sent it.
import { SEVERITY } from '../checks/types.js';
import { parseExact, sameValue } from '../model/json.js';
import type { TargetResult, ValueAt } from './target-result.js';
import {
  CONSEQUENCE_VALUES,
  checksOf,
  departuresOf,
  keepShorter,
  symptomGroups,
  type Consequence,
  type Departure,
  type FailureGroup,
} from './failure-groups.js';

export {
  CONSEQUENCE_VALUES,
  checksOf,
  consequenceText,
  counts,
  departureText,
  failing,
  type Consequence,
  type FailureGroup,
} from './failure-groups.js';

/** A pointer's member names, array indices left out: `/37/tag` and `/tag` are the same member of a plant. */
function memberPath(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .filter((t) => !/^\d+$/.test(t));
}

/** Whether a value found in an answer sits at a member where one was accepted: the answer's path ends with the request's (`/37/tag` and `/tag`). */
function sameMember(found: ValueAt, accepted: ValueAt): boolean {
  const f = memberPath(found.pointer);
  const a = memberPath(accepted.pointer);
  return a.length > 0 && f.length >= a.length && a.every((t, i) => t === f[f.length - a.length + i]);
}

/** Whether a value found in an answer is one accepted in a request: the same member and the same value (numbers exactly, a missing member as missing). */
function sameStored(found: ValueAt, accepted: ValueAt): boolean {
  if (!sameMember(found, accepted)) return false;
  if (found.value === undefined || accepted.value === undefined) return found.value === accepted.value;
  if (found.value === accepted.value) return true;
  const x = parseExact(found.value);
  const y = parseExact(accepted.value);
  return x.ok && y.ok && sameValue(x.value, y.value);
}

interface Root {
  group: FailureGroup;
  accepted: ValueAt[];
  consequences: Map<string, Consequence>;
}

/** Where a departure took a value the document refuses: the operation and the member. */
const siteKeys = (c: Departure['c']) =>
  c.trace!.accepted!.map((v) => `${c.trace!.operation} /${memberPath(v.pointer).join('/')}`);

/**
 * The roots: departures whose request body the document refuses and the
 * target accepted, one per operation and member (a departure that took
 * values at several members joins their roots into one).
 */
/**
 * One group of departures: the first one's Expected and Actual, every check that shows it, the worst outcome, the
 * shortest reproduction (keepShorter), and `each` told of every departure for what the kind of group gathers.
 */
function groupOf(
  members: Departure[],
  kind: Pick<FailureGroup, 'sameDouble'>,
  each: (c: Departure['c']) => void,
): FailureGroup {
  const first = members[0]!.c;
  const group: FailureGroup = {
    cause: '',
    outcome: first.outcome,
    checks: [],
    reproduce: null,
    expected: first.expected,
    actual: first.actual,
    ...kind,
  };
  for (const { check, c } of members) {
    if (!group.checks.includes(check)) group.checks.push(check);
    if (SEVERITY[c.outcome] > SEVERITY[group.outcome]) group.outcome = c.outcome;
    keepShorter(group, c);
    each(c);
  }
  return group;
}

function rootsOf(departures: Departure[]): Root[] {
  // Sites joined by a departure that took values at both are one root (union-find).
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    const p = parent.get(k) ?? k;
    return p === k ? k : find(p);
  };
  for (const d of departures) {
    const [first, ...others] = siteKeys(d.c).map(find);
    parent.set(first!, first!);
    for (const o of others) parent.set(o, first!);
  }
  const clusters = new Map<string, Departure[]>();
  for (const d of departures) {
    const key = find(siteKeys(d.c)[0]!);
    clusters.set(key, [...(clusters.get(key) ?? []), d]);
  }
  return [...clusters.values()].map((members) => {
    const accepted: ValueAt[] = [];
    const group = groupOf(members, {}, (c) => {
      for (const v of c.trace!.accepted!)
        if (!accepted.some((a) => a.pointer === v.pointer && a.value === v.value)) accepted.push(v);
    });
    group.accepted = { operation: members[0]!.c.trace!.operation, values: accepted };
    return { group, accepted, consequences: new Map() };
  });
}

/** Whether a departure is about its answer's body: it quotes the first value the declared schema refuses there, as the checks word it. */
function aboutAnswer(c: Departure['c']): boolean {
  const first = c.trace?.answered?.[0]?.problem;
  return first !== undefined && `${c.actual ?? ''} ${c.cause}`.includes(first);
}

/**
 * Whether a departure is the target taking a body the document refuses: a
 * case of the check that sent that body (which asks for its refusal), not
 * about what it answered. An aggregate check's departure on the same
 * exchange (its content type, its status) is a departure of its own.
 */
function isRoot(d: Departure): boolean {
  return d.c.trace?.accepted !== undefined && (d.c.check ?? d.check) === d.check && !aboutAnswer(d.c);
}

/**
 * The root that explains a departure about its answer's body: every value
 * the declared schema refuses there sits at a member where a root took
 * values the document refuses, and one of them is a value that root took,
 * or one the departure's own request carried and the target accepted (an
 * answer that echoes it). (A property check reports its smallest case
 * alone: the other values it had accepted show up in the list too, at the
 * same member.)
 */
function explaining(roots: Root[], c: Departure['c']): Root | undefined {
  const answered = c.trace?.answered;
  if (!answered || !aboutAnswer(c)) return undefined;
  const near = roots.filter((r) => answered.some((v) => r.accepted.some((a) => sameMember(v, a))));
  if (!answered.every((v) => near.some((r) => r.accepted.some((a) => sameMember(v, a))))) return undefined;
  const own = c.trace?.accepted ?? [];
  if (answered.some((v) => own.some((a) => sameStored(v, a))))
    return near.find((r) => r.group.accepted?.operation === c.trace?.operation) ?? near[0];
  return near.find((r) => answered.some((v) => r.accepted.some((a) => sameStored(v, a))));
}

/** The words of a root: the operation, where and what it took. */
function rootCause(root: Root): string {
  const op = root.group.accepted!.operation;
  const where = [...new Set(root.accepted.map((v) => v.pointer))];
  const values = [...new Set(root.accepted.map((v) => v.value ?? '(missing)'))];
  const shown = values.length > 5 ? `${values.slice(0, 5).join(', ')}, …` : values.join(', ');
  return `${op} accepts what its request schema refuses at ${where.join(', ')} (${shown})${root.consequences.size > 0 ? ', and later answers carry it' : ''}`;
}

/**
 * Valid creates refused because the target took their ids for ids it had
 * accepted, the same IEEE 754 double (traces.ts linkSameDouble): one root
 * per operation, whatever check sent them (ids above 2^53 that a double
 * cannot tell apart, drawn ids near the int64 ends).
 */
function sameDoubleGroups(departures: Departure[]): FailureGroup[] {
  const byOperation = new Map<string, Departure[]>();
  for (const d of departures) {
    const op = d.c.trace!.operation;
    byOperation.set(op, [...(byOperation.get(op) ?? []), d]);
  }
  return [...byOperation].map(([operation, members]) => {
    const ids: Array<{ refused: string; as: string }> = [];
    const group = groupOf(members, { sameDouble: { operation, ids } }, (c) => {
      const pair = { refused: c.trace!.refusedId!, as: c.trace!.sameDoubleAs! };
      if (!ids.some((p) => p.refused === pair.refused)) ids.push(pair);
    });
    const shown = ids.slice(0, 2).map((p) => `${p.refused} refused as ${p.as}`);
    group.cause = `${operation} takes ids that are one IEEE 754 double for one plant (${shown.join(', ')}${ids.length > 2 ? ', …' : ''}): ids read as doubles`;
    return group;
  });
}

/**
 * A target's failures grouped by the departure behind them, the group that
 * accounts for the most checks first (then in report order): each root with
 * the consequences it explains, then every other departure as its cause
 * and family group it. One server mistake that fails many checks reads as
 * one; distinct mistakes that read alike stay apart, each with its curl line.
 */
export function failureGroups(t: TargetResult, strict: boolean): FailureGroup[] {
  const departures = departuresOf(t, strict);
  const roots = rootsOf(departures.filter((d) => isRoot(d)));
  // A refused create's own check (not an aggregate grading the same answer's content type or body).
  const conflated = departures.filter(
    (d) => !isRoot(d) && d.c.trace?.sameDoubleAs !== undefined && (d.c.check ?? d.check) === d.check,
  );
  const rest: Departure[] = [];
  const seen = new Map<Consequence, Set<string>>();
  for (const d of departures) {
    if (isRoot(d) || conflated.includes(d)) continue;
    const root = explaining(roots, d.c);
    if (!root) {
      rest.push(d);
      continue;
    }
    const trace = d.c.trace!;
    const key = `${trace.operation} ${trace.status}`;
    let q = root.consequences.get(key);
    if (!q) {
      q = {
        operation: trace.operation,
        status: trace.status,
        values: [],
        count: 0,
        outcome: d.c.outcome,
        checks: [],
        reproduce: null,
        expected: d.c.expected,
        actual: d.c.actual,
      };
      root.consequences.set(key, q);
    }
    const known = seen.get(q) ?? new Set<string>();
    seen.set(q, known);
    for (const v of trace.answered!) {
      const key = `${v.pointer}\u0000${v.value ?? ''}`;
      if (known.has(key)) continue;
      known.add(key);
      q.count++;
      if (q.values.length < CONSEQUENCE_VALUES)
        q.values.push({ pointer: v.pointer, ...(v.value !== undefined ? { value: v.value } : {}) });
    }
    if (!q.checks.includes(d.check)) q.checks.push(d.check);
    if (SEVERITY[d.c.outcome] > SEVERITY[q.outcome]) q.outcome = d.c.outcome;
    keepShorter(q, d.c);
  }
  const order = t.results.map((r) => r.id);
  const byReport = (ids: string[]) => ids.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const rooted = roots.map((root) => {
    byReport(root.group.checks);
    const consequences = [...root.consequences.values()];
    for (const q of consequences) byReport(q.checks);
    return {
      ...root.group,
      cause: rootCause(root),
      ...(consequences.length > 0 ? { consequences } : {}),
    };
  });
  return [...rooted, ...sameDoubleGroups(conflated), ...symptomGroups(rest)].sort(
    (a, b) => checksOf(b).length - checksOf(a).length,
  );
}
