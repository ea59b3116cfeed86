// JUnit XML (--junit FILE): one testsuite per target, one testcase per check,
// in the dialect CI systems display (Jenkins, GitLab, GitHub actions).
// fail -> <failure>, error -> <error>, skip -> <skipped>; non-strict is a
// <failure> under --strict, otherwise a passing case with a note.
// A documented divergence of an informing target (the Prism mock) is
// <skipped> with its reason: that column informs, it does not fail the run.
import { divergenceOf } from '../run/differential/matrix.js';
import {
  checksOf,
  consequenceText,
  departureText as departure,
  failureGroups,
  type CheckResult,
  type RunResult,
  type TargetResult,
} from '../run/result.js';

export function xmlEscape(s: string): string {
  // Characters XML 1.0 cannot carry at all are dropped.

  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Every departing case of a check, when it has more than the one its Expected and Actual say: each with its cause, the check that sent it, Actual and reproduce line. */
function caseLines(r: CheckResult): string[] {
  const cases = r.cases ?? [];
  if (cases.length < 2 && r.moreCases === undefined) return [];
  return [
    `Cases (${cases.length + (r.moreCases ?? 0)}):`,
    ...cases.flatMap((c, i) => [
      `${i + 1}. ${c.outcome}: ${departure(c)}${c.check !== r.id ? ` (a request of ${c.check})` : ''}`,
      ...(c.actual ? [`   Actual: ${c.actual}`] : []),
      ...(c.reproduce ? [`   Reproduce: ${c.reproduce}`] : []),
    ]),
    ...(r.moreCases !== undefined ? [`… and ${r.moreCases} more`] : []),
  ];
}

export function toJunit(run: RunResult): string {
  const { targets, seed, strict } = run;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const total = targets.reduce((n, t) => n + (t.diagnosis ? 1 : t.results.length), 0);
  /** The reason of a documented divergence of an informing target, else undefined. */
  const documented = (t: TargetResult, id: string) => {
    const d = t.target.informs ? divergenceOf(run.matrix, id, t.target.name) : undefined;
    return d?.status === 'documented' ? d.reason : undefined;
  };
  const counted = (t: TargetResult) => t.results.filter((r) => documented(t, r.id) === undefined);
  const failures = (t: TargetResult) =>
    counted(t).filter((r) => r.outcome === 'fail' || (strict && r.outcome === 'non-strict')).length;
  const errors = (t: TargetResult) => counted(t).filter((r) => r.outcome === 'error').length;
  const skipped = (t: TargetResult) =>
    t.results.filter((r) => r.outcome === 'skip' || documented(t, r.id) !== undefined).length;
  out.push(
    `<testsuites name="plantstore-conformance" tests="${total}" failures="${targets.reduce((n, t) => n + (t.diagnosis ? 0 : failures(t)), 0)}" errors="${targets.reduce((n, t) => n + (t.diagnosis ? 1 : errors(t)), 0)}">`,
  );
  for (const t of targets) {
    if (t.diagnosis) {
      // No check could mean anything: one case says why, instead of every check in error.
      const d = t.diagnosis;
      out.push(`  <testsuite name="${xmlEscape(t.target.name)}" tests="1" failures="0" errors="1" skipped="0">`);
      out.push(
        `    <properties><property name="url" value="${xmlEscape(t.target.url)}"/><property name="seed" value="${seed}"/><property name="diagnosis" value="${xmlEscape(d.kind)}"/></properties>`,
      );
      out.push(
        `    <testcase classname="plantstore.conformance.${xmlEscape(t.target.name)}" name="${xmlEscape(`not checked: ${d.problem}`)}"><error message="${xmlEscape(d.problem)}">${xmlEscape([d.evidence, `What to do: ${d.fix}`].filter(Boolean).join('\n'))}</error></testcase>`,
      );
      out.push('  </testsuite>');
      continue;
    }
    out.push(
      `  <testsuite name="${xmlEscape(t.target.name)}" tests="${t.results.length}" failures="${failures(t)}" errors="${errors(t)}" skipped="${skipped(t)}">`,
    );
    out.push(
      `    <properties><property name="url" value="${xmlEscape(t.target.url)}"/><property name="seed" value="${seed}"/><property name="strict" value="${strict}"/></properties>`,
    );
    // The failures grouped by cause: what a CI page shows beside the cases.
    const groups = t.target.informs ? [] : failureGroups(t, strict);
    if (groups.length > 0) {
      const text = groups
        .map((g) =>
          [
            `${departure(g)} (${checksOf(g).length}): ${g.checks.join(', ')}${g.reproduce ? `\n  Reproduce: ${g.reproduce}` : ''}`,
            ...(g.consequences ?? []).map(
              (q) =>
                `  → ${consequenceText(q)}: ${q.checks.join(', ')}${q.reproduce ? `\n    Reproduce: ${q.reproduce}` : ''}`,
            ),
          ].join('\n'),
        )
        .join('\n');
      out.push(`    <system-out>${xmlEscape(`What failed, by root cause:\n${text}`)}</system-out>`);
    }
    for (const r of t.results) {
      const head = `    <testcase classname="plantstore.conformance.${xmlEscape(t.target.name)}" name="${xmlEscape(`${r.id} ${r.title}`)}"`;
      const detail = xmlEscape(
        [
          ...groups
            .filter((g) => checksOf(g).includes(r.id))
            .map((g) => {
              const n = checksOf(g).length;
              const later = (g.consequences ?? []).filter((q) => q.checks.includes(r.id) && !g.checks.includes(r.id));
              return `Cause: ${departure(g)} (${n} check${n === 1 ? '' : 's'})${later.map((q) => `; here: ${consequenceText(q)}`).join('')}`;
            }),
          `Requirement (${r.level}, ${r.source.document} ${r.source.section}): ${r.requirement}`,
          r.expected && `Expected: ${r.expected}`,
          r.actual && `Actual: ${r.actual}`,
          r.reproduce && `Reproduce: ${r.reproduce}`,
          ...caseLines(r),
        ]
          .filter(Boolean)
          .join('\n'),
      );
      const msg = xmlEscape(r.actual ?? r.outcome);
      const reason = documented(t, r.id);
      if (r.outcome === 'pass') out.push(`${head}/>`);
      else if (reason !== undefined)
        out.push(
          `${head}><skipped message="${xmlEscape(`documented divergence (${r.outcome}): ${reason}`)}"/><system-out>${detail}</system-out></testcase>`,
        );
      else if (r.outcome === 'fail' || (strict && r.outcome === 'non-strict'))
        out.push(`${head}><failure message="${msg}" type="${r.outcome}">${detail}</failure></testcase>`);
      else if (r.outcome === 'error') out.push(`${head}><error message="${msg}">${detail}</error></testcase>`);
      else if (r.outcome === 'skip') out.push(`${head}><skipped message="${msg}"/></testcase>`);
      else out.push(`${head}><system-out>non-strict: ${detail}</system-out></testcase>`);
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}
