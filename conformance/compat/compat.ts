// `compat`: the rules (diff.ts) say what each change does to existing
// clients and servers; the execution (execute.ts) shows it with real
// requests. This file sets the two side by side: each departure of a crossed
// run is tied to the change it comes from, each breaking change gets its
// proof, and where the two disagree (a rule says breaking and no check
// fails; a check fails that no rule saw), the result says so and which way.
// The result is data; report.ts renders it.
import type { CheckResult } from '../run/result.js';
import { loadOpenApi } from '../../spec/openapi.js';
import { describeDocumentError } from '../model/spec-errors.js';
import { SIDES, worse, type Change, type Side, type SideVerdict } from './change.js';
import { diffDocuments } from './diff.js';
import { execute, type CrossRun, type ExecutionOptions } from './execute.js';
import { witnessOf, type Witness } from './witness.js';
import { loadSpecModel, type SpecModel } from '../model/spec-model.js';

export interface DocumentRef {
  /** How the report names it: a file, or `REV:path`. */
  label: string;
  /** The file read (a temporary copy for a git revision). */
  path: string;
}

/** A departure of a crossed run: a request someone already deployed gets wrong. */
export interface Finding {
  side: Side;
  check: CheckResult;
  /** The changes it is tied to: by the names and keywords its Expected and Actual mention, or because only one change could explain it. */
  changes: string[];
  tiedBy: 'names' | 'only-candidate' | 'none';
}

/**
 * A check that expected a refusal and got a 2xx: the server accepts a
 * request its document refuses. No one who follows that document sends it,
 * so it breaks no one (a server may be more lenient than its contract): it
 * is listed, and counts for no side.
 */
export function lenient(check: CheckResult): boolean {
  const refusalExpected = check.id.startsWith('PS-REJECT-') || check.id === 'PS-GEN-002' || /^an? (4xx )?rejection/i.test(check.expected ?? '');
  return refusalExpected && /(^|\] )2\d\d\b/.test(check.actual ?? '');
}

/** Where the rules and the execution meet, per change and side. */
export interface Agreement {
  change: string | null;
  side: Side;
  /** proven: the rule says breaking, and a check fails; rule-only: no check fails; execution-only: a check fails the rules did not call breaking. */
  kind: 'proven' | 'rule-only' | 'execution-only';
  checks: string[];
  /** Which of the two is wrong, when they disagree, and why. */
  explanation: string;
  /** For a rule no check confirms: a body the documents' own validators judge as the rule says. */
  witness?: Witness;
}

export interface SideResult {
  /** What the rules say of the side over every change. */
  rules: SideVerdict;
  /** What the crossed run showed: departures, none, or not run. */
  execution: 'departures' | 'none' | 'not run' | 'not checked';
  /** Breaks when the rules or the execution say so. */
  verdict: SideVerdict;
}

export interface CompatResult {
  base: DocumentRef;
  head: DocumentRef;
  seed: number;
  changes: Change[];
  execution?: { clients: CrossRun; servers: CrossRun };
  findings: Finding[];
  agreements: Agreement[];
  sides: Record<Side, SideResult>;
  /** Departures that break no one: a server accepting what the checking document refuses (lenient()). */
  lenient: Array<{ side: Side; check: CheckResult }>;
  /** 0 compatible, 1 breaking, 2 could not run. */
  exitCode: 0 | 1 | 2;
}

export interface CompatOptions extends Omit<ExecutionOptions, 'basePath' | 'headPath'> {
  base: DocumentRef;
  head: DocumentRef;
  /** Compare by the rules only (no server started). */
  rulesOnly?: boolean;
  /** What the reproduction lines name as the server (default the reference's own on npm start's port). */
  replayUrl?: string;
}

/** Where `npm start` (and the image) listens: the curl lines are rewritten to it, so that they replay against a reference started by hand. */
export const REPLAY_URL = 'http://127.0.0.1:4010';

const DESCRIPTIVE_KEYWORDS = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs', 'tags', 'operationId', 'deprecated']);

/** The names a departure's text may mention for a change: the properties along its pointer, the name it is about, its keyword. */
function namesOf(change: Change): { names: string[]; keyword: string } {
  const tokens = change.pointer.split('/').map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
  const names = new Set<string>();
  tokens.forEach((t, i) => {
    if (i > 0 && (tokens[i - 1] === 'properties' || tokens[i - 1] === 'patternProperties')) names.add(t);
  });
  for (const v of [change.after, change.before]) if (typeof v === 'string' && ['required', 'echo', 'response', 'content', 'operation'].includes(change.keyword)) names.add(v);
  const detail = /^required: (\S+)/.exec(change.what)?.[1];
  if (detail) names.add(detail);
  if (change.keyword === 'operation') {
    const [method, path] = String(change.after ?? change.before).split(' ');
    if (path) names.add(path.replace(/\{[^}]*\}/g, ''));
    if (method) names.add(`${method} `);
  }
  return { names: [...names].filter((n) => n.length > 0), keyword: change.keyword };
}

function mentions(text: string, name: string): boolean {
  // A name as a JSON pointer segment, a quoted member, or a word: "/name", "\"name\"", "name of 10000 characters".
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[/"'\\s(\\[])${escaped}($|[/"'\\s:,.)\\]])`).test(text);
}

/** The changes a departure is tied to, and how. */
function tie(check: CheckResult, side: Side, changes: Change[]): { changes: string[]; tiedBy: Finding['tiedBy'] } {
  const text = [check.title, check.expected, check.actual, check.reproduce].filter(Boolean).join('\n');
  const pool = changes.filter((c) => !(DESCRIPTIVE_KEYWORDS.has(c.keyword) && c.bearings.every((b) => b.effect === 'none')) && c.bearings.some((b) => b.role !== 'operation' || c.keyword === 'operation'));
  let best = 0;
  let tied: Change[] = [];
  for (const c of pool) {
    const { names, keyword } = namesOf(c);
    const score = names.filter((n) => mentions(text, n.trim()) || (n.endsWith(' ') && text.includes(n))).length * 2 + (mentions(text, keyword) ? 1 : 0);
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

/** Why a breaking rule has no failing check: what the execution could not reach, and what the validators say of a witness. */
function ruleOnlyExplanation(change: Change, side: Side, witness: Witness | 'none' | undefined): string {
  const whose = side === 'clients' ? 'old' : 'new';
  if (witness === 'none') {
    return `the rule is not confirmed: no check of the ${whose} document meets this change, and no body tried at ${change.instancePath?.join('/') || 'the root'} is judged differently by the two documents' validators; the rule may be wrong, or the difference needs another body`;
  }
  if (witness) {
    const body = JSON.stringify(witness.body, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
    const as = witness.role === 'request' ? 'request' : 'answer';
    return `the rule stands, as the documents' own validators show: the ${as} ${body} is valid under the ${witness.validUnder} document and refused by the ${witness.validUnder === 'old' ? 'new' : 'old'} one (${witness.refusal}); no check of the ${whose} document sent it (a gap in what the checks send)`;
  }
  return ruleOnlyReason(change, side);
}

function ruleOnlyReason(change: Change, side: Side): string {
  if (change.keyword === 'security' || change.keyword === 'securityScheme') {
    return 'the rule stands: the reference server authenticates with bearer tokens whatever the document says (docs/server.md), and the harness sends bearer credentials, so execution cannot show a change of scheme';
  }
  if (change.keyword === 'parameter' || change.bearings.some((b) => / parameter /.test(b.usage))) {
    return 'the rule stands: the reference server reads no parameter of the operations it serves (it implements the body), so execution cannot show a parameter change';
  }
  if (change.keyword === 'response' || change.keyword === 'content') {
    return side === 'clients'
      ? 'the rule stands: the reference answers as it did, and a status or media type the new document allows is a promise no check of the old document meets until a server uses it'
      : 'the rule stands: a server answers what its behaviour gives; the checks do not make the reference give every declared answer';
  }
  const whose = side === 'clients' ? 'old' : 'new';
  return `the rule stands on its source; no check of the ${whose} document sent a request that meets this change (a gap in what the checks send, not a sign the rule is wrong)`;
}

function executionOnlyExplanation(check: CheckResult, change: Change | undefined, side: Side): string {
  const whose = side === 'clients' ? 'an existing client' : 'an existing server';
  const shows = `the execution stands: ${check.id} (${check.source.document}, ${check.source.section}) shows a request ${whose} gets wrong`;
  if (!change) return `${shows}, and no rule ties it to a change: the rules missed it`;
  if (change[side] === 'unknown') return `${shows}, where the rules could not tell for ${change.id}: the execution decides, ${side} break`;
  return `${shows}, and the rules called ${change.id} compatible for ${side}: the rules missed it`;
}

/** A document that cannot be read, and which of the two it is. */
export class CompatDocumentError extends Error {
  constructor(
    readonly which: 'old' | 'new',
    readonly ref: DocumentRef,
    readonly error: unknown,
  ) {
    super(`cannot read the ${which} document ${describeDocumentError(error, ref.path).replace(ref.path, ref.label)}`);
  }
}

function readDocument(ref: DocumentRef, which: 'old' | 'new') {
  try {
    return loadOpenApi(ref.path);
  } catch (err) {
    throw new CompatDocumentError(which, ref, err);
  }
}

/** Rewrites the crossed runs' URLs to where a reference started by hand listens, so that each curl line replays. */
function replayable(run: CrossRun, url: string): CrossRun {
  const fix = (text: string | null) => (text === null ? null : text.replace(/http:\/\/127\.0\.0\.1:\d+/g, url));
  return { ...run, departures: run.departures.map((d) => ({ ...d, reproduce: fix(d.reproduce), actual: fix(d.actual), expected: fix(d.expected) })) };
}

/** Compares the documents, runs the crossings, ties them together. A document that cannot be read throws (DocumentError or ServeError). */
export async function compat(o: CompatOptions): Promise<CompatResult> {
  const changes = diffDocuments(readDocument(o.base, 'old'), readDocument(o.head, 'new'));
  let execution: CompatResult['execution'];
  // Two documents that do not differ have nothing to prove.
  if (!o.rulesOnly && changes.length > 0) {
    const raw = await execute({ basePath: o.base.path, headPath: o.head.path, seed: o.seed, cases: o.cases, timeoutMs: o.timeoutMs, concurrency: o.concurrency });
    const url = o.replayUrl ?? REPLAY_URL;
    execution = { clients: replayable(raw.clients, url), servers: replayable(raw.servers, url) };
  }
  return settle(o, changes, execution, witnesses(o, changes, execution));
}

/** For each change and side that the rules break and no check confirms, a witness (witness.ts); from the documents alone. */
function witnesses(o: CompatOptions, changes: Change[], execution: CompatResult['execution']): Map<string, Witness | 'none'> {
  const out = new Map<string, Witness | 'none'>();
  if (!execution) return out;
  let models: [SpecModel, SpecModel];
  try {
    models = [loadSpecModel(o.base.path), loadSpecModel(o.head.path)];
  } catch {
    return out;
  }
  for (const change of changes) {
    for (const side of SIDES) {
      if (change[side] !== 'breaks') continue;
      const w = witnessOf(change, side, ...models);
      if (w !== undefined) out.set(`${change.id}|${side}`, w);
    }
  }
  return out;
}

/** The findings, agreements, verdicts and exit code from the changes and the crossed runs. */
export function settle(o: Pick<CompatOptions, 'base' | 'head' | 'seed'>, changes: Change[], execution: CompatResult['execution'], witnessed: Map<string, Witness | 'none'> = new Map()): CompatResult {
  const findings: Finding[] = [];
  const agreements: Agreement[] = [];
  const sides = {} as Record<Side, SideResult>;
  let couldNotRun = false;
  const lenientOnes: CompatResult['lenient'] = [];
  for (const side of SIDES) {
    const run = execution?.[side];
    const all = (run?.departures ?? []).filter((d) => d.outcome === 'fail' || d.outcome === 'non-strict');
    for (const check of all.filter(lenient)) lenientOnes.push({ side, check });
    const departures = all.filter((d) => !lenient(d));
    for (const check of departures) findings.push({ side, check, ...tie(check, side, changes) });
    const onSide = findings.filter((f) => f.side === side);
    for (const change of changes) {
      const checks = onSide.filter((f) => f.changes.includes(change.id)).map((f) => f.check);
      if (change[side] === 'breaks') {
        if (checks.length > 0) agreements.push({ change: change.id, side, kind: 'proven', checks: checks.map((c) => c.id), explanation: `the rule and the execution agree: ${checks.map((c) => c.id).join(', ')}` });
        else if (run && !run.notChecked) {
          const witness = witnessed.get(`${change.id}|${side}`);
          agreements.push({ change: change.id, side, kind: 'rule-only', checks: [], explanation: ruleOnlyExplanation(change, side, witness), ...(witness && witness !== 'none' ? { witness } : {}) });
        }
      } else if (checks.length > 0) {
        agreements.push({ change: change.id, side, kind: 'execution-only', checks: checks.map((c) => c.id), explanation: checks.map((c) => executionOnlyExplanation(c, change, side)).join('; ') });
      }
    }
    for (const f of onSide.filter((f) => f.changes.length === 0)) {
      agreements.push({ change: null, side, kind: 'execution-only', checks: [f.check.id], explanation: executionOnlyExplanation(f.check, undefined, side) });
    }
    const rules = changes.reduce<SideVerdict>((v, c) => worse(v, c[side]), 'compatible');
    const execState: SideResult['execution'] = !run ? 'not run' : run.notChecked ? 'not checked' : departures.length > 0 ? 'departures' : 'none';
    // A crossing the harness could not check at all shows nothing; unless the rules already say breaking, the command could not do its job.
    if (execState === 'not checked' && rules !== 'breaks') couldNotRun = true;
    const verdict: SideVerdict = departures.length > 0 ? 'breaks' : rules;
    sides[side] = { rules, execution: execState, verdict };
  }
  const breaking = SIDES.some((s) => sides[s].verdict === 'breaks');
  const exitCode: 0 | 1 | 2 = breaking ? 1 : couldNotRun ? 2 : 0;
  return { base: o.base, head: o.head, seed: o.seed, changes, ...(execution ? { execution } : {}), findings, agreements, sides, lenient: lenientOnes, exitCode };
}
