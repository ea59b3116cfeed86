// What `compat` prints and writes, from the CompatResult alone: the console
// (short, grouped by what each change does), the JSON report (--json), and
// Markdown fit for a pull-request comment or a job summary (--markdown).
import { fenced, inline } from '../report/markdown.js';
import type { CheckResult } from '../run/result.js';
import { SIDES, type Change, type Side, type SideVerdict } from './change.js';
import type { Agreement, CompatResult, Finding } from './compat.js';
import { shown } from './schema-delta.js';
import { setApart } from './set-apart.js';
import { proofOrder } from './tie.js';

const SIDE_NAME: Record<Side, string> = { clients: 'existing clients', servers: 'existing servers' };
const CROSSING: Record<Side, string> = {
  clients: "the old document's checks against the reference serving the new one (what existing clients meet)",
  servers:
    "the new document's checks against the reference serving the old one (what existing servers do to new clients)",
};

interface Groups {
  /** Each change that breaks a side, once, with the sides it breaks. */
  breaking: Array<{ change: Change; sides: Side[] }>;
  /** Changes a rule calls breaking that nothing confirms: reported, and no verdict rests on them. */
  unconfirmed: Change[];
  unknown: Change[];
  compatible: Change[];
}

/** The sides a change breaks as the verdict was reached: by evidence (a check, a witness, or a rule no evidence can be had for), or by the rules where the side was judged by them. */
export function sidesBroken(r: CompatResult, c: Change): Side[] {
  return SIDES.filter((s) => {
    if (c[s] !== 'breaks') return false;
    if (r.sides[s].judgedBy === 'rules') return true;
    const a = agreementFor(r, c, s);
    return a !== undefined && a.kind !== 'unconfirmed';
  });
}

function groups(r: CompatResult): Groups {
  const breaking = r.changes
    .map((change) => ({ change, sides: sidesBroken(r, change) }))
    .filter((b) => b.sides.length > 0);
  const listed = new Set(breaking.map((b) => b.change));
  const unconfirmed = r.changes.filter((c) => !listed.has(c) && SIDES.some((s) => c[s] === 'breaks'));
  const rest = r.changes.filter((c) => !listed.has(c) && !unconfirmed.includes(c));
  return {
    breaking,
    unconfirmed,
    unknown: rest.filter((c) => c.clients === 'unknown' || c.servers === 'unknown'),
    compatible: rest.filter((c) => c.clients === 'compatible' && c.servers === 'compatible'),
  };
}

/** One line for the verdict: what breaks whom, by which changes (or, where no rule saw it, by which checks). */
export function verdictLine(r: CompatResult): string {
  const broken = SIDES.filter((s) => r.sides[s].verdict === 'breaks');
  const ids = (s: Side) => {
    const byChange = r.changes
      .filter(
        (c) =>
          sidesBroken(r, c).includes(s) ||
          r.agreements.some((a) => a.side === s && a.change === c.id && a.kind === 'execution-only'),
      )
      .map((c) => c.id);
    const byRun = r.agreements.filter((a) => a.side === s && a.change === null).flatMap((a) => a.checks);
    return [...new Set([...byChange, ...byRun])];
  };
  const named = (s: Side) => (ids(s).length > 0 ? ` (${ids(s).join(', ')})` : '');
  if (broken.length === 0) {
    const unknown = r.changes.filter((c) => c.clients === 'unknown' || c.servers === 'unknown').length;
    const unconfirmed = groups(r).unconfirmed.length;
    return `COMPATIBLE: no change breaks existing clients or servers${unknown > 0 ? `; ${unknown} change(s) cannot be told (see above)` : ''}${unconfirmed > 0 ? `; ${unconfirmed} rule(s) unconfirmed (see above)` : ''}`;
  }
  return `BREAKING: ${broken.map((s) => `breaks ${SIDE_NAME[s]}${named(s)}`).join(' and ')}`;
}

const parentOf = (pointer: string) => pointer.slice(0, pointer.lastIndexOf('/'));

/** Where the change is in each document: a keyword added is in the new one only, one removed in the old one only. */
function pointerLine(c: Change): string {
  const old = c.basePointer ?? c.pointer;
  if (c.before === undefined && c.after !== undefined)
    return `${c.pointer} in the new document; not in the old one (at ${parentOf(old)})`;
  if (c.after === undefined && c.before !== undefined)
    return `${old} in the old document; not in the new one (at ${parentOf(c.pointer)})`;
  return old === c.pointer
    ? `${c.pointer} in both documents`
    : `${c.pointer} in the new document, ${old} in the old one`;
}

/** The change's one-line example on a side: its witness, and what each document says of it. */
function exampleLine(r: CompatResult, c: Change, side: Side): string | undefined {
  const w = agreementFor(r, c, side)?.witness;
  if (!w) return undefined;
  return `example: ${w.example} (allowed by the ${w.validUnder} document; the ${w.validUnder === 'old' ? 'new' : 'old'} one refuses it: ${w.refusal})`;
}

/** How a proof is titled: by the change it proves, then the check that showed it. */
function proofTitle(c: Change, side: Side, f: Finding): string {
  const check = f.check;
  return `proof of ${c.id} for ${SIDE_NAME[side]}: ${check.id} ${check.outcome} (${check.level}, ${check.source.document}, ${check.source.section})`;
}

function sourceText(c: Change): string {
  return `${c.source.document} ${c.source.section}`;
}

function bearingLines(c: Change, side: Side | undefined): string[] {
  return c.bearings.filter((b) => side === undefined || b[side] !== 'compatible').map((b) => `${b.usage}: ${b.why}`);
}

/** The failed checks tied to a change on a side (a proof is binding), the easiest to replay first: a curl line before a script, a short one before a long one. */
function proofsFor(r: CompatResult, change: Change, side: Side): Finding[] {
  const order = proofOrder(change, side);
  return r.findings
    .filter((f) => f.side === side && f.changes.includes(change.id) && f.check.outcome === 'fail')
    .sort((a, b) => order(a.check, b.check));
}

/** The non-strict departures tied to a change on a side, in one line: seen, but another correct implementation's choice, so no proof. */
function choicesLine(r: CompatResult, change: Change, side: Side): string | undefined {
  const seen = r.findings.filter((f) => f.side === side && f.changes.includes(change.id) && f.check.outcome !== 'fail');
  if (seen.length === 0) return undefined;
  return `seen, not a proof (non-strict: another correct implementation's choice): ${seen.map((f) => `${f.check.id} ${short(f.check.actual ?? '', 200)}`).join('; ')}`;
}

/** A code span the text cannot close early (CommonMark §6.1): no escapes inside, a fence longer than any run of backticks. */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${longest > 0 ? ' ' : ''}${text.replace(/[\r\n]+/g, ' ')}${longest > 0 ? ' ' : ''}${fence}`;
}

function agreementFor(r: CompatResult, change: Change, side: Side): Agreement | undefined {
  return r.agreements.find((a) => a.change === change.id && a.side === side);
}

const short = (text: string | null, max = 400) =>
  text === null ? '' : text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;

/** How many changes break each side (by the verdict's evidence), are unconfirmed, cannot be told, are compatible. */
function countsLine(r: CompatResult, g: Groups): string {
  const on = (s: Side) => g.breaking.filter((b) => b.sides.includes(s)).length;
  return `breaks existing clients: ${on('clients')}; breaks existing servers: ${on('servers')}; unconfirmed: ${g.unconfirmed.length}; cannot tell: ${g.unknown.length}; compatible: ${g.compatible.length}`;
}

// ---- console ----

export function renderCompatConsole(r: CompatResult, o: { color?: boolean } = {}): string {
  const paint = (code: string, text: string) => (o.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const g = groups(r);
  const out: string[] = [];
  out.push(`Compatibility of ${r.head.label} (new) with ${r.base.label} (old): ${r.changes.length} change(s)`);
  out.push(`  ${countsLine(r, g)}`);
  if (g.breaking.length > 0) out.push('', paint('1;31', 'Breaking changes'));
  for (const { change: c, sides } of g.breaking) {
    out.push(
      `  ${c.id} ${c.what}; breaks ${sides.map((s) => SIDE_NAME[s]).join(' and ')}`,
      `     at ${pointerLine(c)}; source: ${sourceText(c)}`,
    );
    for (const side of sides) {
      for (const line of bearingLines(c, side)) out.push(`     ${line}`);
      const example = exampleLine(r, c, side);
      if (example) out.push(`     ${example}`);
      const choices = choicesLine(r, c, side);
      if (choices) out.push(`     ${choices}`);
      const proofs = proofsFor(r, c, side);
      const agreement = agreementFor(r, c, side);
      if (proofs.length > 0) {
        if (agreement?.shows) out.push(`     shown by execution: ${agreement.shows}`);
        for (const f of proofs.slice(0, 2)) out.push(...checkLines(f.check, '     ', proofTitle(c, side, f)));
        if (proofs.length > 2)
          out.push(
            `     … and ${proofs.length - 2} more check(s): ${proofs
              .slice(2)
              .map((f) => f.check.id)
              .join(', ')}`,
          );
      } else if (agreement?.kind === 'rule-only')
        out.push(`     ${paint('33', 'no check fails')}: ${agreement.explanation}`);
      else if (agreement?.kind === 'witnessed')
        out.push(
          `     ${paint('33', 'no check fails')}: ${r.sides[side].judgedBy === 'rules' ? (r.execution ? 'the crossed run could not run (below)' : 'not executed (--rules-only)') : `no check of the ${side === 'clients' ? 'old' : 'new'} document met it`}; the example shows it`,
        );
      else if (r.sides[side].judgedBy === 'rules')
        out.push(
          `     ${paint('33', 'by the rules')}: ${r.execution ? 'the crossed run could not run (below)' : 'not executed (--rules-only)'}`,
        );
    }
  }
  if (g.unconfirmed.length > 0) {
    out.push(
      '',
      paint('33', 'Unconfirmed (a rule says breaking; no check and no example shows it: no verdict rests on it)'),
    );
    for (const c of g.unconfirmed) {
      out.push(`  ${c.id} ${c.what}`, `     at ${pointerLine(c)}; source: ${sourceText(c)}`);
      for (const side of SIDES.filter((s) => c[s] === 'breaks'))
        out.push(`     ${SIDE_NAME[side]}: ${agreementFor(r, c, side)?.explanation ?? ''}`);
    }
  }
  if (g.unknown.length > 0) {
    out.push('', paint('33', 'Cannot tell'));
    for (const c of g.unknown)
      out.push(
        `  ${c.id} ${c.what}`,
        `     at ${pointerLine(c)}; source: ${sourceText(c)}; ${c.bearings.find((b) => b.clients === 'unknown' || b.servers === 'unknown')?.why ?? ''}`,
      );
  }
  if (g.compatible.length > 0) {
    out.push(
      '',
      `Compatible: ${g.compatible.map((c) => `${c.id} ${c.what.length > 60 ? `${c.what.slice(0, 60)}…` : c.what}`).join('; ')}`,
    );
  }
  const onlyRun = r.agreements.filter((a) => a.kind === 'execution-only');
  if (onlyRun.length > 0) {
    out.push('', paint('1;31', 'Found by execution, which no rule called breaking'));
    for (const a of onlyRun) {
      const f = r.findings.find((x) => x.side === a.side && a.checks.includes(x.check.id))!;
      out.push(`  ${SIDE_NAME[a.side]}${a.change ? ` (${a.change})` : ''}: ${a.explanation}`);
      out.push(...checkLines(f.check, '     '));
    }
  }
  if (r.execution) {
    out.push('');
    for (const side of ['clients', 'servers'] as Side[]) {
      const run = r.execution[side];
      const s = run.summary;
      out.push(
        run.notChecked
          ? `Execution, ${CROSSING[side]}: not possible: ${run.notChecked}; ${SIDE_NAME[side]} are judged by the rules`
          : `Execution, ${CROSSING[side]}: ${s.pass} pass, ${s['non-strict']} non-strict, ${s.fail} fail, ${s.skip} skip, ${s.error} error`,
      );
    }
    for (const line of setApart(r)) out.push(`  ${line}`);
    out.push(
      `  The curl lines replay against the reference serving the document in question: PLANTSTORE_SPEC=FILE PLANTSTORE_TOKENS="$PLANTSTORE_TOKEN" npm start`,
    );
  } else
    out.push(
      '',
      r.changes.length === 0 ? 'Execution: not run (the documents do not differ)' : 'Execution: not run (--rules-only)',
    );
  out.push(
    '',
    `${r.exitCode === 1 ? paint('1;31', verdictLine(r)) : r.exitCode === 0 ? paint('32', verdictLine(r)) : paint('33', verdictLine(r))}; seed ${r.seed}`,
    '',
  );
  return out.join('\n');
}

/** A check's lines: its header (the check's own title, or the change it proves), Expected, Actual, the curl line. */
function checkLines(c: CheckResult, indent: string, header?: string): string[] {
  const pad = ' '.repeat(indent.length + 2);
  return [
    `${indent}${header ?? `${c.id} ${c.outcome} (${c.level}, ${c.source.document}, ${c.source.section}): ${c.title}`}`,
    ...(c.expected ? [`${pad}Expected: ${short(c.expected)}`] : []),
    ...(c.actual ? [`${pad}Actual: ${short(c.actual)}`] : []),
    ...(c.reproduce ? [`${pad}${short(c.reproduce, 600)}`] : []),
  ];
}

// ---- Markdown ----

const CELL: Record<SideVerdict, string> = { breaks: '**breaks**', compatible: 'compatible', unknown: 'cannot tell' };

export function renderCompatMarkdown(r: CompatResult): string {
  const g = groups(r);
  const lines: string[] = [];
  lines.push(`## Plant Store compatibility: ${inline(verdictLine(r))}`, '');
  lines.push(
    `${code(r.head.label)} (new) against ${code(r.base.label)} (old): ${r.changes.length} change(s); ${countsLine(r, g)}. Seed ${r.seed}.`,
    '',
  );
  if (r.changes.length > 0) {
    // Each side's cell is the verdict's: a rule nothing confirms reads "unconfirmed".
    const cell = (c: Change, s: Side) =>
      sidesBroken(r, c).includes(s) ? CELL.breaks : c[s] === 'breaks' ? 'unconfirmed' : CELL[c[s]];
    lines.push('| change | what | where | clients | servers | source |', '|---|---|---|---|---|---|');
    for (const c of r.changes)
      lines.push(
        `| ${c.id} | ${inline(c.what)} | ${code(c.pointer).replace(/\|/g, '\\|')} | ${cell(c, 'clients')} | ${cell(c, 'servers')} | ${c.source.url ? `[${inline(`${c.source.document} ${c.source.section}`)}](${c.source.url})` : inline(sourceText(c))} |`,
      );
    lines.push('');
  }
  if (g.breaking.length > 0) lines.push('### Breaking changes', '');
  for (const { change: c, sides } of g.breaking) {
    lines.push(`#### ${c.id} ${inline(c.what)}; breaks ${sides.map((s) => SIDE_NAME[s]).join(' and ')}`, '');
    lines.push(`At ${code(pointerLine(c))}: ${code(shown(c.before))} → ${code(shown(c.after))}.`, '');
    for (const side of sides) {
      for (const line of bearingLines(c, side)) lines.push(`- ${inline(line)}`);
      const example = exampleLine(r, c, side);
      if (example) lines.push(`- ${inline(example)}`);
      const choices = choicesLine(r, c, side);
      if (choices) lines.push(`- ${inline(choices)}`);
      lines.push('');
      const proofs = proofsFor(r, c, side);
      if (proofs.length > 0) {
        const shows = agreementFor(r, c, side)?.shows;
        if (shows) lines.push(`Shown by execution: ${inline(shows)}.`, '');
        for (const f of proofs.slice(0, 2)) lines.push(...checkMarkdown(f.check, proofTitle(c, side, f)));
        if (proofs.length > 2)
          lines.push(
            `And ${proofs.length - 2} more failing check(s): ${proofs
              .slice(2)
              .map((f) => f.check.id)
              .join(', ')}.`,
            '',
          );
      } else {
        const a = agreementFor(r, c, side);
        if (a?.kind === 'rule-only') lines.push(`No check fails: ${inline(a.explanation)}.`, '');
        else if (r.sides[side].judgedBy === 'rules')
          lines.push(
            `By the rules: ${r.execution ? 'the crossed run could not run (see Execution)' : 'not executed (--rules-only)'}.`,
            '',
          );
      }
    }
  }
  if (g.unconfirmed.length > 0) {
    lines.push(
      '### Unconfirmed',
      '',
      'A rule says breaking; no check and no example shows it, so no verdict rests on it.',
      '',
    );
    for (const c of g.unconfirmed) {
      for (const side of SIDES.filter((s) => c[s] === 'breaks'))
        lines.push(
          `- ${c.id} ${inline(c.what)} at ${code(pointerLine(c))}, ${SIDE_NAME[side]}: ${inline(agreementFor(r, c, side)?.explanation ?? '')}`,
        );
    }
    lines.push('');
  }
  const onlyRun = r.agreements.filter((a) => a.kind === 'execution-only');
  if (onlyRun.length > 0) {
    lines.push('### Found by execution, which no rule called breaking', '');
    for (const a of onlyRun) {
      const f = r.findings.find((x) => x.side === a.side && a.checks.includes(x.check.id))!;
      lines.push(
        `Breaks ${SIDE_NAME[a.side]}${a.change ? ` (${a.change})` : ''}: ${inline(a.explanation)}.`,
        '',
        ...checkMarkdown(f.check),
      );
    }
  }
  if (g.unknown.length > 0) {
    lines.push('### Cannot tell', '');
    for (const c of g.unknown)
      lines.push(
        `- ${c.id} ${inline(c.what)} at ${code(c.pointer)}: ${inline(c.bearings.find((b) => b.clients === 'unknown' || b.servers === 'unknown')?.why ?? '')}`,
      );
    lines.push('');
  }
  if (r.execution) {
    lines.push('### Execution', '');
    for (const side of ['clients', 'servers'] as Side[]) {
      const run = r.execution[side];
      const s = run.summary;
      lines.push(
        `- ${inline(CROSSING[side])}: ${run.notChecked ? `not possible: ${inline(run.notChecked)}; ${SIDE_NAME[side]} are judged by the rules` : `${s.pass} pass, ${s['non-strict']} non-strict, ${s.fail} fail, ${s.skip} skip, ${s.error} error`}`,
      );
    }
    for (const line of setApart(r)) lines.push(`- ${inline(line)}`);
    lines.push(
      '',
      'Each curl line replays against the reference serving the document it names: `PLANTSTORE_SPEC=FILE PLANTSTORE_TOKENS="$PLANTSTORE_TOKEN" npm start`.',
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}

function checkMarkdown(c: CheckResult, header?: string): string[] {
  return [
    header !== undefined
      ? inline(header)
      : `${c.id} **${c.outcome}** (${c.level}, ${inline(c.source.document)}, ${inline(c.source.section)}): ${inline(c.title)}`,
    '',
    ...(c.expected ? ['Expected:', fenced(short(c.expected, 1000)), ''] : []),
    ...(c.actual ? ['Actual:', fenced(short(c.actual, 1000)), ''] : []),
    ...(c.reproduce
      ? ['Reproduce (the token is read from `$PLANTSTORE_TOKEN`):', fenced(short(c.reproduce, 2000), 'sh'), '']
      : []),
  ];
}

// ---- JSON ----

/** The JSON report: the CompatResult as it is, with integers beyond 2^53 written with their digits. */
export function renderCompatJson(r: CompatResult): string {
  const text = JSON.stringify(r, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n:bigint` : value), 2);
  return `${text.replace(/"(-?\d+)n:bigint"/g, '$1')}\n`;
}
