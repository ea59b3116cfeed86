// Which change a departure of a crossed run comes from: by the names its
// Expected and Actual mention (`/name must NOT have more than 50 characters`
// names the property `name`; `POST /plants` the operation), or, when only
// one change breaks that side, that change. And which of a change's proofs a
// spec author reads first: the one that names what changed.
import type { CheckResult } from '../run/result.js';
import type { Change, Side } from './change.js';
import { operationRank } from './operation-proof.js';

/**
 * The checks that send a request the checking document refuses: a body or a
 * parameter it rules out, missing or wrong credentials, a method or a path it
 * does not declare, a hostile body. No one who follows that document sends
 * them, so their departures are evidence about servers only: never that
 * existing clients break (what a server newly accepts, or refuses otherwise,
 * breaks no client that never sends it). PS-OP-004 refuses where the
 * operation requires credentials and serves where it needs none: a refusal
 * only where it expected one. PS-OP-005 (a combination with a scheme left
 * out) and PS-OP-007 (a wrong credential) send only what the document refuses.
 */
const REFUSAL_CHECKS = new Set([
  'PS-GEN-002',
  'PS-OP-003',
  'PS-OP-005',
  'PS-OP-007',
  'PS-AUTH-001',
  'PS-AUTH-002',
  'PS-AUTH-003',
  'PS-AUTH-004',
  'PS-AUTH-006',
  'PS-AUTH-007',
  'PS-AUTH-009',
  'PS-DOC-001',
  'PS-HTTP-001',
  'PS-HTTP-002',
  'PS-ROBUST-001',
]);

/** Whether a check sent a request its document refuses (REFUSAL_CHECKS), judged by its id, or by the refusal it expected. */
export function refusal(check: CheckResult): boolean {
  return (
    check.id.startsWith('PS-REJECT-') ||
    REFUSAL_CHECKS.has(check.id) ||
    (check.id === 'PS-OP-004' && /^40[01]\b/.test(check.expected ?? '')) ||
    /^an? (4xx )?rejection/i.test(check.expected ?? '')
  );
}

/**
 * A check that expected a refusal and got a 2xx: the server accepts a
 * request its document refuses. No one who follows that document sends it,
 * so it breaks no one (a server may be more lenient than its contract): it
 * is listed, and counts for no side.
 */
export function lenient(check: CheckResult): boolean {
  return refusal(check) && /(^|\] |: )2\d\d\b/.test(check.actual ?? '');
}

const DESCRIPTIVE_KEYWORDS = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'externalDocs',
  'tags',
  'operationId',
  'deprecated',
]);

/** The names a departure's text may mention for a change: the properties along its pointer, the property it is about, its operation, its keyword. */
function namesOf(change: Change): { names: string[]; keyword: string } {
  const tokens = change.pointer.split('/').map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
  const names = new Set<string>();
  tokens.forEach((t, i) => {
    if (i > 0 && (tokens[i - 1] === 'properties' || tokens[i - 1] === 'patternProperties')) names.add(t);
  });
  if (change.member) names.add(change.member);
  if (change.renamedFrom) names.add(change.renamedFrom);
  for (const v of [change.after, change.before])
    if (typeof v === 'string' && ['echo', 'response', 'content'].includes(change.keyword)) names.add(v);
  if (change.keyword === 'operation') {
    for (const label of [change.after, change.before]) {
      const [method, path] = (typeof label === 'string' ? label : '').split(' ');
      if (path) names.add(path.replace(/\{[^}]*\}/g, ''));
      if (method) names.add(`${method} `);
    }
  }
  return { names: [...names].filter((n) => n.length > 0), keyword: change.keyword };
}

function mentions(text: string, name: string): boolean {
  // A name as a JSON pointer segment, a quoted member, or a word: "/name", "\"name\"", "name of 10000 characters".
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[/"'\\s(\\[])${escaped}($|[/"'\\s:,.)\\]])`).test(text);
}

const textOf = (check: CheckResult) =>
  [check.title, check.expected, check.actual, check.reproduce].filter(Boolean).join('\n');

/** The changes a departure is tied to, and how. */
export function tie(
  check: CheckResult,
  side: Side,
  changes: Change[],
): { changes: string[]; tiedBy: 'names' | 'only-candidate' | 'none' } {
  const text = textOf(check);
  const pool = changes.filter(
    (c) =>
      !(DESCRIPTIVE_KEYWORDS.has(c.keyword) && c.bearings.every((b) => b.effect === 'none')) &&
      c.bearings.some((b) => b.role !== 'operation' || c.keyword === 'operation'),
  );
  let best = 0;
  let tied: Change[] = [];
  for (const c of pool) {
    const { names, keyword } = namesOf(c);
    const score =
      names.filter((n) => mentions(text, n.trim()) || (n.endsWith(' ') && text.includes(n))).length * 2 +
      (mentions(text, keyword) ? 1 : 0);
    // A name is needed: a keyword alone ("required") is said of many changes.
    if (score < 2) continue;
    const onSide = c[side] !== 'compatible' ? 1 : 0;
    const ranked = score * 2 + onSide;
    if (ranked > best) {
      best = ranked;
      tied = [c];
    } else if (ranked === best) tied.push(c);
  }
  if (tied.length > 0) return { changes: tied.map((c) => c.id), tiedBy: 'names' };
  const breaking = changes.filter((c) => c[side] === 'breaks');
  if (breaking.length === 1) return { changes: [breaking[0]!.id], tiedBy: 'only-candidate' };
  return { changes: [], tiedBy: 'none' };
}

/** A case labelled by the property and a value alone (`id 9011406893579412`): its subject is that value. */
const labelsValue = (label: string, property: string) =>
  label.startsWith(`${property} `) && /^-?\d+$/.test(label.slice(property.length + 1));

/**
 * How plainly a proof shows its change, highest first: a failure before a
 * non-strict departure (which compat.ts takes for no proof); for an operation
 * or a parameter, the check whose subject the change is, on the operation the
 * side calls (operation-proof.ts); for a schema, a case whose own label names
 * the property the change is at (`[id 9011406893579412]`, an id beyond a
 * narrowed int32) and whose answer names the keyword or its new value
 * (`(int32)`); where those tie, a check that sent a valid request before one
 * that sent a refused one; then a curl line before a script, a short one
 * before a long one.
 */
export function proofOrder(change: Change, side?: Side): (a: CheckResult, b: CheckResult) => number {
  const value = typeof change.after === 'string' || typeof change.after === 'number' ? String(change.after) : undefined;
  const property =
    change.member ?? [...(change.instancePath ?? [])].reverse().find((p): p is string => typeof p === 'string');
  const rank = (c: CheckResult) => {
    const said = `${c.actual ?? ''}\n${c.expected ?? ''}`;
    const label = /^\[([^\]]*)\]/.exec(c.actual ?? '')?.[1] ?? '';
    const answer = (c.actual ?? '').slice(label ? label.length + 2 : 0);
    const names =
      (mentions(answer, change.keyword) ? 4 : 0) +
      (value !== undefined && answer.includes(value) ? 4 : 0) +
      (change.member && mentions(said, change.member) ? 2 : 0) +
      (property !== undefined && mentions(label, property) ? 3 + (labelsValue(label, property) ? 1 : 0) : 0) +
      (side ? operationRank(change, side, c) * 4 : 0);
    const failed = c.outcome === 'fail' ? 1 : 0;
    // A valid request answered wrongly is what a client meets; a refusal answered otherwise (a 404 where a request
    // without credentials expects 401) shows the same departure less plainly.
    const valid = refusal(c) ? 0 : 1;
    const replay = (c.reproduce?.startsWith('curl ') ? 0 : 1_000_000) + (c.reproduce?.length ?? 1_000_000);
    return -failed * 1_000_000_000 - names * 10_000_000 - valid * 5_000_000 + replay;
  };
  return (a, b) => rank(a) - rank(b);
}
