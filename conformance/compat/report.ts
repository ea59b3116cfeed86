// What `compat` prints and writes, from the CompatResult alone: the console
// (short, grouped by what each change does), the JSON report (--json), and
// Markdown fit for a pull-request comment or a job summary (--markdown).
import { fenced, inline } from '../report/markdown.js';
import type { CheckResult } from '../run/result.js';
import type { Change, Side, SideVerdict } from './change.js';
import type { Agreement, CompatResult, Finding } from './compat.js';
import { shown } from './schema-delta.js';

const SIDE_NAME: Record<Side, string> = { clients: 'existing clients', servers: 'existing servers' };
const CROSSING: Record<Side, string> = {
  clients: "the old document's checks against the reference serving the new one (what existing clients meet)",
  servers: "the new document's checks against the reference serving the old one (what existing servers do to new clients)",
};

interface Groups {
  breaksClients: Change[];
  breaksServers: Change[];
  unknown: Change[];
  compatible: Change[];
}

function groups(r: CompatResult): Groups {
  return {
    breaksClients: r.changes.filter((c) => c.clients === 'breaks'),
    breaksServers: r.changes.filter((c) => c.servers === 'breaks'),
    unknown: r.changes.filter((c) => c.clients !== 'breaks' && c.servers !== 'breaks' && (c.clients === 'unknown' || c.servers === 'unknown')),
    compatible: r.changes.filter((c) => c.clients === 'compatible' && c.servers === 'compatible'),
  };
}

/** One line for the verdict: what breaks whom, by which changes. */
export function verdictLine(r: CompatResult): string {
  const broken = (['clients', 'servers'] as Side[]).filter((s) => r.sides[s].verdict === 'breaks');
  const ids = (s: Side) => {
    const byRule = r.changes.filter((c) => c[s] === 'breaks').map((c) => c.id);
    const byRun = r.findings.filter((f) => f.side === s && f.changes.length === 0).map((f) => f.check.id);
    return [...byRule, ...byRun].join(', ');
  };
  if (r.exitCode === 2) return 'COULD NOT TELL: a crossed run could not check the reference (see above)';
  if (broken.length === 0) {
    const unknown = r.changes.filter((c) => c.clients === 'unknown' || c.servers === 'unknown').length;
    return `COMPATIBLE: no change breaks existing clients or servers${unknown > 0 ? `; ${unknown} change(s) cannot be told (see above)` : ''}`;
  }
  return `BREAKING: ${broken.map((s) => `breaks ${SIDE_NAME[s]} (${ids(s)})`).join(' and ')}`;
}

function pointerLine(c: Change): string {
  return c.basePointer ? `${c.pointer} (was ${c.basePointer})` : c.pointer;
}

function sourceText(c: Change): string {
  return `${c.source.document} ${c.source.section}`;
}

function bearingLines(c: Change, side: Side | undefined): string[] {
  return c.bearings.filter((b) => side === undefined || b[side] !== 'compatible').map((b) => `${b.usage}: ${b.why}`);
}

/** The findings tied to a change on a side, the easiest to replay first: a curl line before a script, a short one before a long one. */
function proofsFor(r: CompatResult, change: Change, side: Side): Finding[] {
  const cost = (f: Finding) => (f.check.reproduce?.startsWith('curl ') ? 0 : 1_000_000) + (f.check.reproduce?.length ?? 1_000_000);
  return r.findings.filter((f) => f.side === side && f.changes.includes(change.id)).sort((a, b) => cost(a) - cost(b));
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

const short = (text: string | null, max = 400) => (text === null ? '' : text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

// ---- console ----

export function renderCompatConsole(r: CompatResult, o: { color?: boolean } = {}): string {
  const paint = (code: string, text: string) => (o.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const g = groups(r);
  const out: string[] = [];
  out.push(`Compatibility of ${r.head.label} (new) with ${r.base.label} (old): ${r.changes.length} change(s)`);
  out.push(`  breaks existing clients: ${g.breaksClients.length}; breaks existing servers: ${g.breaksServers.length}; cannot tell: ${g.unknown.length}; compatible: ${g.compatible.length}`);
  for (const side of ['clients', 'servers'] as Side[]) {
    const list = side === 'clients' ? g.breaksClients : g.breaksServers;
    if (list.length === 0) continue;
    out.push('', paint('1;31', `Breaks ${SIDE_NAME[side]}`));
    for (const c of list) {
      out.push(`  ${c.id} ${c.what}`, `     at ${pointerLine(c)} (${sourceText(c)})`);
      for (const line of bearingLines(c, side)) out.push(`     ${line}`);
      const proofs = proofsFor(r, c, side);
      const agreement = agreementFor(r, c, side);
      if (proofs.length > 0) {
        for (const f of proofs.slice(0, 2)) out.push(...checkLines(f.check, '     proof: '));
        if (proofs.length > 2) out.push(`     … and ${proofs.length - 2} more check(s): ${proofs.slice(2).map((f) => f.check.id).join(', ')}`);
      } else if (agreement?.kind === 'rule-only') out.push(`     ${paint('33', 'no check fails')}: ${agreement.explanation}`);
    }
  }
  if (g.unknown.length > 0) {
    out.push('', paint('33', 'Cannot tell'));
    for (const c of g.unknown) out.push(`  ${c.id} ${c.what}`, `     at ${pointerLine(c)} (${sourceText(c)}): ${c.bearings.find((b) => b.clients === 'unknown' || b.servers === 'unknown')?.why ?? ''}`);
  }
  if (g.compatible.length > 0) {
    out.push('', `Compatible: ${g.compatible.map((c) => `${c.id} ${c.what.length > 60 ? `${c.what.slice(0, 60)}…` : c.what}`).join('; ')}`);
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
      out.push(run.notChecked ? `Execution, ${CROSSING[side]}: not checked: ${run.notChecked}` : `Execution, ${CROSSING[side]}: ${s.pass} pass, ${s['non-strict']} non-strict, ${s.fail} fail, ${s.skip} skip, ${s.error} error`);
    }
    if (r.lenient.length > 0) out.push(`  accepted what the checking document refuses (breaks no one who follows it): ${r.lenient.map((l) => `${l.check.id} (${l.side === 'clients' ? 'the new server' : 'the old server'})`).join(', ')}`);
    const ruleOnly = r.agreements.filter((a) => a.kind === 'rule-only');
    if (ruleOnly.length > 0) out.push(`  rules without a failing check: ${ruleOnly.map((a) => `${a.change} (${a.side})`).join(', ')}: each is explained above`);
    out.push(`  The curl lines replay against the reference serving the document in question: PLANTSTORE_SPEC=FILE PLANTSTORE_TOKENS="$PLANTSTORE_TOKEN" npm start`);
  } else out.push('', r.changes.length === 0 ? 'Execution: not run (the documents do not differ)' : 'Execution: not run (--rules-only)');
  out.push('', `${r.exitCode === 1 ? paint('1;31', verdictLine(r)) : r.exitCode === 0 ? paint('32', verdictLine(r)) : paint('33', verdictLine(r))}; seed ${r.seed}`, '');
  return out.join('\n');
}

function checkLines(c: CheckResult, prefix: string): string[] {
  const pad = ' '.repeat(prefix.length);
  return [
    `${prefix}${c.id} ${c.outcome} (${c.level}, ${c.source.document}, ${c.source.section}): ${c.title}`,
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
  lines.push(`${code(r.head.label)} (new) against ${code(r.base.label)} (old): ${r.changes.length} change(s); breaks existing clients: ${g.breaksClients.length}, existing servers: ${g.breaksServers.length}; cannot tell: ${g.unknown.length}; compatible: ${g.compatible.length}. Seed ${r.seed}.`, '');
  if (r.changes.length > 0) {
    lines.push('| change | what | where | clients | servers | source |', '|---|---|---|---|---|---|');
    for (const c of r.changes) lines.push(`| ${c.id} | ${inline(c.what)} | ${code(c.pointer).replace(/\|/g, '\\|')} | ${CELL[c.clients]} | ${CELL[c.servers]} | ${c.source.url ? `[${inline(`${c.source.document} ${c.source.section}`)}](${c.source.url})` : inline(sourceText(c))} |`);
    lines.push('');
  }
  for (const side of ['clients', 'servers'] as Side[]) {
    const list = side === 'clients' ? g.breaksClients : g.breaksServers;
    if (list.length === 0) continue;
    lines.push(`### Breaks ${SIDE_NAME[side]}`, '');
    for (const c of list) {
      lines.push(`#### ${c.id} ${inline(c.what)}`, '');
      lines.push(`At ${code(pointerLine(c))}: ${code(shown(c.before))} → ${code(shown(c.after))}.`, '');
      for (const line of bearingLines(c, side)) lines.push(`- ${inline(line)}`);
      lines.push('');
      const proofs = proofsFor(r, c, side);
      if (proofs.length > 0) {
        for (const f of proofs.slice(0, 2)) lines.push(...checkMarkdown(f.check));
        if (proofs.length > 2) lines.push(`And ${proofs.length - 2} more failing check(s): ${proofs.slice(2).map((f) => f.check.id).join(', ')}.`, '');
      }
      else {
        const a = agreementFor(r, c, side);
        if (a) lines.push(`No check fails: ${inline(a.explanation)}.`, '');
      }
    }
  }
  const onlyRun = r.agreements.filter((a) => a.kind === 'execution-only');
  if (onlyRun.length > 0) {
    lines.push('### Found by execution, which no rule called breaking', '');
    for (const a of onlyRun) {
      const f = r.findings.find((x) => x.side === a.side && a.checks.includes(x.check.id))!;
      lines.push(`Breaks ${SIDE_NAME[a.side]}${a.change ? ` (${a.change})` : ''}: ${inline(a.explanation)}.`, '', ...checkMarkdown(f.check));
    }
  }
  if (g.unknown.length > 0) {
    lines.push('### Cannot tell', '');
    for (const c of g.unknown) lines.push(`- ${c.id} ${inline(c.what)} at ${code(c.pointer)}: ${inline(c.bearings.find((b) => b.clients === 'unknown' || b.servers === 'unknown')?.why ?? '')}`);
    lines.push('');
  }
  if (r.execution) {
    lines.push('### Execution', '');
    for (const side of ['clients', 'servers'] as Side[]) {
      const run = r.execution[side];
      const s = run.summary;
      lines.push(`- ${inline(CROSSING[side])}: ${run.notChecked ? `not checked: ${inline(run.notChecked)}` : `${s.pass} pass, ${s['non-strict']} non-strict, ${s.fail} fail, ${s.skip} skip, ${s.error} error`}`);
    }
    if (r.lenient.length > 0) lines.push(`- accepted what the checking document refuses \\(breaks no one who follows it\\): ${r.lenient.map((l) => `${l.check.id} (${l.side === 'clients' ? 'the new server' : 'the old server'})`).join(', ')}`);
    lines.push('', 'Each curl line replays against the reference serving the document it names: `PLANTSTORE_SPEC=FILE PLANTSTORE_TOKENS="$PLANTSTORE_TOKEN" npm start`.', '');
  }
  return `${lines.join('\n')}\n`;
}

function checkMarkdown(c: CheckResult): string[] {
  return [
    `${c.id} **${c.outcome}** (${c.level}, ${inline(c.source.document)}, ${inline(c.source.section)}): ${inline(c.title)}`,
    '',
    ...(c.expected ? ['Expected:', fenced(short(c.expected, 1000)), ''] : []),
    ...(c.actual ? ['Actual:', fenced(short(c.actual, 1000)), ''] : []),
    ...(c.reproduce ? ['Reproduce (the token is read from `$PLANTSTORE_TOKEN`):', fenced(short(c.reproduce, 2000), 'sh'), ''] : []),
  ];
}

// ---- JSON ----

/** The JSON report: the CompatResult as it is, with integers beyond 2^53 written with their digits. */
export function renderCompatJson(r: CompatResult): string {
  const text = JSON.stringify(r, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n:bigint` : value), 2);
  return `${text.replace(/"(-?\d+)n:bigint"/g, '$1')}\n`;
}
