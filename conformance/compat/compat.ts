// `compat`: the rules (diff.ts) name what each change may do to existing
// clients and servers; evidence decides. A change breaks a side when a
// crossed run fails a check tied to it (execute.ts), or when a witness (an
// exchange one document allows and the other refuses, witness.ts) shows it.
// A rule neither confirms is "unconfirmed": reported, and no verdict rests
// on it; unless the side could not be run at all, or --rules-only asks for
// the rules alone, where the rules' verdict stands. A check that fails where
// no rule called the change breaking still breaks its side. The result is
// data; report.ts renders it.
import type { CheckResult } from '../run/result.js';
import { loadOpenApi, operationsOf, type OpenApiDocument } from '../../spec/openapi.js';
import { childPointer } from '../../spec/schema-keywords.js';
import { schemaValidators } from '../../spec/validator.js';
import { describeDocumentError } from '../model/spec-errors.js';
import { Numeral } from '../model/json.js';
import { SIDES, worse, type Change, type Side, type SideVerdict } from './change.js';
import { diffDocuments } from './diff.js';
import { execute, type CrossRun, type ExecutionOptions } from './execute.js';
import { executionOnlyExplanation, ruleOnlyExplanation } from './explanations.js';
import { refutation } from './operation-proof.js';
import { provenLine } from './proof-line.js';
import { presentBefore, withoutPresentBefore } from './preexisting.js';
import { lenient, proofOrder, refusal, tie } from './tie.js';
import { witnessDocument, witnessOf, type Witness } from './witness.js';

export { lenient, refusal };

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
 * Where the rules and the evidence meet, per change and side:
 * - proven: the rule says breaking, and a check of the crossed run fails (a failure: a non-strict departure is no proof);
 * - witnessed: no check fails, and a witness shows it;
 * - unconfirmed: no check fails, and every exchange tried is judged alike by the two documents;
 * - rule-only: neither can be had for this kind of change (the reference cannot show it, no exchange can be built): the rule stands;
 * - execution-only: a check fails that no rule called breaking.
 */
export interface Agreement {
  change: string | null;
  side: Side;
  kind: 'proven' | 'witnessed' | 'unconfirmed' | 'rule-only' | 'execution-only';
  checks: string[];
  /** Which of the two is wrong, when they disagree, and why. */
  explanation: string;
  /** The exchange that shows the change breaks this side (its one-line example), when the documents give one. */
  witness?: Witness;
  /** For a proven change: which call broke the side, how it was answered, by which check, and why that check proves the change (proof-line.ts). */
  shows?: string;
}

export interface SideResult {
  /** What the rules say of the side over every change. */
  rules: SideVerdict;
  /** What the crossed run showed: departures, none, not run (--rules-only, or no change), or not checked (it could not run: the reason is the run's notChecked). */
  execution: 'departures' | 'none' | 'not run' | 'not checked';
  /** Breaks when a check or a witness shows a change breaks it (or, judged by the rules alone, when a rule says so). */
  verdict: SideVerdict;
  /** How the verdict was reached: by evidence, or by the rules alone (--rules-only, or the crossed run could not run). */
  judgedBy: 'evidence' | 'rules';
  /** Changes the rules call breaking for this side that nothing confirms. */
  unconfirmed: string[];
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
  /**
   * The old document's refusal checks (refusal()) that the new server answers otherwise than with the refusal
   * they expect: existing clients never send those requests, so they are no evidence that clients break.
   */
  notClientsEvidence: CheckResult[];
  /** Departures the old document's checks show against the reference serving the old document too, before the change (preexisting.ts): no proof of it. */
  preexisting: Array<{ side: Side; check: CheckResult }>;
  /** 0 compatible, 1 breaking (2, a document that cannot be read, is thrown: CompatDocumentError). */
  exitCode: 0 | 1;
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

/**
 * The document as this project reads one: OpenAPI 3.1, its references
 * resolved, every schema an operation uses compiled by the validators the
 * server uses (a keyword of no vocabulary, a `minimum` that is no number, a
 * pattern that is no regular expression cannot be read: nothing can be said
 * of a change to it).
 */
function readDocument(ref: DocumentRef, which: 'old' | 'new'): OpenApiDocument {
  try {
    const doc = loadOpenApi(ref.path);
    const validators = schemaValidators(doc, {
      numeral: (v) => (v instanceof Numeral ? v.text : undefined),
      unknownKeywords: 'refuse',
    });
    for (const op of operationsOf(doc))
      for (const { schema, pointer } of schemasOf(op.pointer, op.operation, op.parameters))
        validators.compile(schema, pointer);
    return doc;
  } catch (err) {
    throw new CompatDocumentError(which, ref, err);
  }
}

/** The schemas an operation uses, with their pointers: its parameters', its request body's and its answers' (references to whole bodies and answers are compiled where they point). */
function schemasOf(
  at: string,
  operation: { requestBody?: unknown; responses?: Record<string, unknown> },
  parameters: Array<{ parameter: { schema?: unknown }; pointer: string }>,
): Array<{ schema: unknown; pointer: string }> {
  const out = parameters
    .filter((p) => p.parameter.schema !== undefined)
    .map((p) => ({ schema: p.parameter.schema, pointer: childPointer(p.pointer, 'schema') }));
  const media = (body: unknown, pointer: string) => {
    const content = (body as { content?: Record<string, { schema?: unknown }> } | undefined)?.content ?? {};
    for (const [type, m] of Object.entries(content))
      if (m?.schema !== undefined)
        out.push({ schema: m.schema, pointer: childPointer(pointer, 'content', type, 'schema') });
  };
  media(operation.requestBody, childPointer(at, 'requestBody'));
  for (const [status, r] of Object.entries(operation.responses ?? {})) media(r, childPointer(at, 'responses', status));
  return out;
}

/** Rewrites the crossed runs' URLs to where a reference started by hand listens, so that each curl line replays. */
function replayable(run: CrossRun, url: string): CrossRun {
  const fix = (text: string | null) => (text === null ? null : text.replace(/http:\/\/127\.0\.0\.1:\d+/g, url));
  return {
    ...run,
    departures: run.departures.map((d) => ({
      ...d,
      reproduce: fix(d.reproduce),
      actual: fix(d.actual),
      expected: fix(d.expected),
      // A proof may show a case of its own (preexisting.ts: the cases present before the change left out).
      ...(d.cases
        ? {
            cases: d.cases.map((c) => ({
              ...c,
              reproduce: fix(c.reproduce),
              actual: fix(c.actual),
              expected: fix(c.expected),
            })),
          }
        : {}),
    })),
  };
}

/** Compares the documents, runs the crossings, looks for witnesses, weighs the evidence. A document that cannot be read throws CompatDocumentError. */
export async function compat(o: CompatOptions): Promise<CompatResult> {
  const base = readDocument(o.base, 'old');
  const head = readDocument(o.head, 'new');
  const changes = diffDocuments(base, head);
  let execution: CompatResult['execution'];
  // Two documents whose effective constraints do not differ have nothing to prove.
  if (!o.rulesOnly && changes.length > 0) {
    const raw = await execute({
      basePath: o.base.path,
      headPath: o.head.path,
      seed: o.seed,
      cases: o.cases,
      timeoutMs: o.timeoutMs,
      concurrency: o.concurrency,
    });
    const url = o.replayUrl ?? REPLAY_URL;
    execution = { clients: replayable(raw.clients, url), servers: replayable(raw.servers, url) };
  }
  return settle(o, changes, execution, witnesses(changes, base, head));
}

/** For each change and side the rules break: a witness, 'none' (tried, none found), or nothing (no exchange can be built for the change). */
export function witnesses(
  changes: Change[],
  base: OpenApiDocument,
  head: OpenApiDocument,
): Map<string, Witness | 'none'> {
  const out = new Map<string, Witness | 'none'>();
  const docs = changes.some((c) => c.clients === 'breaks' || c.servers === 'breaks')
    ? ([witnessDocument(base), witnessDocument(head)] as const)
    : undefined;
  if (!docs) return out;
  for (const change of changes) {
    for (const side of SIDES) {
      if (change[side] !== 'breaks') continue;
      const w = witnessOf(change, side, ...docs);
      if (w !== undefined) out.set(`${change.id}|${side}`, w);
    }
  }
  return out;
}

/** The findings, agreements, verdicts and exit code from the changes, the crossed runs and the witnesses. */
export function settle(
  o: Pick<CompatOptions, 'base' | 'head' | 'seed'>,
  changes: Change[],
  execution: CompatResult['execution'],
  witnessed: Map<string, Witness | 'none'> = new Map(),
): CompatResult {
  const findings: Finding[] = [];
  const agreements: Agreement[] = [];
  const sides = {} as Record<Side, SideResult>;
  const lenientOnes: CompatResult['lenient'] = [];
  const notClientsEvidence: CheckResult[] = [];
  const preexisting: CompatResult['preexisting'] = [];
  for (const side of SIDES) {
    const run = execution?.[side];
    const ran = run !== undefined && run.notChecked === undefined;
    const all = (ran ? run.departures : []).filter((d) => d.outcome === 'fail' || d.outcome === 'non-strict');
    for (const check of all.filter(lenient)) lenientOnes.push({ side, check });
    // Only a request an existing client of the old document can send is evidence that clients break.
    const notEvidence = (d: CheckResult) => side === 'clients' && refusal(d);
    if (side === 'clients') notClientsEvidence.push(...all.filter((d) => !lenient(d) && notEvidence(d)));
    // A departure the old document's checks show against the reference serving the old document too is there
    // before the change, on both sides: the reference's own, no proof of the change.
    const baseline = ran && run.baseline ? new Set(run.baseline) : undefined;
    const before = all.filter((d) => !lenient(d) && !notEvidence(d) && presentBefore(d, baseline));
    for (const check of before) preexisting.push({ side, check });
    const evidence = all
      .filter((d) => !lenient(d) && !notEvidence(d) && !before.includes(d))
      .map((d) => withoutPresentBefore(d, baseline));
    for (const check of evidence) findings.push({ side, check, ...tie(check, side, changes) });
    const onSide = findings.filter((f) => f.side === side);
    for (const change of changes) {
      const checks = onSide.filter((f) => f.changes.includes(change.id)).map((f) => f.check.id);
      // A proof is binding: only a failed check proves a change breaks a side. A non-strict departure is another
      // correct implementation's choice (the reference's 400 where the new document declares 409), at most a witness.
      const failing = onSide.filter((f) => f.changes.includes(change.id) && f.check.outcome === 'fail');
      const found = witnessed.get(`${change.id}|${side}`);
      const witness = found !== undefined && found !== 'none' ? { witness: found } : {};
      if (change[side] === 'breaks') {
        // The check whose subject an operation's change is passed on that operation: the execution refutes the rule.
        const refuted = failing.length === 0 && ran ? refutation(change, side, run.operations) : undefined;
        const kind: Agreement['kind'] =
          failing.length > 0
            ? 'proven'
            : refuted || found === 'none'
              ? 'unconfirmed'
              : found
                ? 'witnessed'
                : 'rule-only';
        const explanation =
          kind === 'proven'
            ? `the rule and the execution agree: ${failing.map((f) => f.check.id).join(', ')}`
            : (refuted ?? ruleOnlyExplanation(change, side, found, ran));
        const first = kind === 'proven' ? failing.map((f) => f.check).sort(proofOrder(change, side))[0] : undefined;
        const shows = first ? provenLine(change, side, first) : undefined;
        agreements.push({
          change: change.id,
          side,
          kind,
          checks,
          explanation,
          ...(refuted ? {} : witness),
          ...(shows ? { shows } : {}),
        });
      } else if (onSide.some((f) => f.changes.includes(change.id) && f.check.outcome === 'fail')) {
        agreements.push({
          change: change.id,
          side,
          kind: 'execution-only',
          checks,
          explanation: onSide
            .filter((f) => checks.includes(f.check.id))
            .map((f) => executionOnlyExplanation(f.check, change, side))
            .join('; '),
        });
      }
    }
    // A departure no rule ties to a change decides only where it is a failure: a
    // non-strict one is a choice the sources leave open (the reference's own
    // 400 for /plants/abc, say), which both documents' servers may make.
    for (const f of onSide.filter((f) => f.changes.length === 0 && f.check.outcome === 'fail'))
      agreements.push({
        change: null,
        side,
        kind: 'execution-only',
        checks: [f.check.id],
        explanation: executionOnlyExplanation(f.check, undefined, side),
      });
    const rules = changes.reduce<SideVerdict>((v, c) => worse(v, c[side]), 'compatible');
    const mine = agreements.filter((a) => a.side === side);
    const unconfirmed = mine.filter((a) => a.kind === 'unconfirmed').map((a) => a.change!);
    const judgedBy = ran ? 'evidence' : 'rules';
    const shown = mine.some((a) => a.kind !== 'unconfirmed');
    // By evidence, a rule nothing confirms decides nothing: what is left is what the rules could not tell.
    const byEvidence: SideVerdict = shown
      ? 'breaks'
      : changes.reduce<SideVerdict>((v, c) => worse(v, c[side] === 'unknown' ? 'unknown' : 'compatible'), 'compatible');
    sides[side] = {
      rules,
      execution: !run ? 'not run' : !ran ? 'not checked' : onSide.length > 0 ? 'departures' : 'none',
      verdict: judgedBy === 'rules' ? rules : byEvidence,
      judgedBy,
      unconfirmed,
    };
  }
  const exitCode = SIDES.some((s) => sides[s].verdict === 'breaks') ? 1 : 0;
  return {
    base: o.base,
    head: o.head,
    seed: o.seed,
    changes,
    ...(execution ? { execution } : {}),
    findings,
    agreements,
    sides,
    lenient: lenientOnes,
    notClientsEvidence,
    preexisting,
    exitCode,
  };
}
