// JUnit XML (--junit FILE): one testsuite per target, one testcase per check,
// in the dialect CI systems display (Jenkins, GitLab, GitHub actions).
// fail -> <failure>, error -> <error>, skip -> <skipped>; non-strict is a
// <failure> under --strict, otherwise a passing case with a note.
import type { TargetResult } from '../runner.js';

export function xmlEscape(s: string): string {
  // Characters XML 1.0 cannot carry at all are dropped.
  // eslint-disable-next-line no-control-regex
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function toJunit(targets: TargetResult[], seed: number, strict: boolean): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const total = targets.reduce((n, t) => n + t.results.length, 0);
  const failures = (t: TargetResult) => t.summary.fail + (strict ? t.summary['non-strict'] : 0);
  out.push(
    `<testsuites name="plantstore-conformance" tests="${total}" failures="${targets.reduce((n, t) => n + failures(t), 0)}" errors="${targets.reduce((n, t) => n + t.summary.error, 0)}">`,
  );
  for (const t of targets) {
    out.push(
      `  <testsuite name="${xmlEscape(t.name)}" tests="${t.results.length}" failures="${failures(t)}" errors="${t.summary.error}" skipped="${t.summary.skip}">`,
    );
    out.push(`    <properties><property name="url" value="${xmlEscape(t.url)}"/><property name="seed" value="${seed}"/><property name="strict" value="${strict}"/></properties>`);
    for (const r of t.results) {
      const head = `    <testcase classname="plantstore.conformance.${xmlEscape(t.name)}" name="${xmlEscape(`${r.id} ${r.title}`)}"`;
      const detail = xmlEscape(
        [`Requirement (${r.level}, ${r.source.document} ${r.source.section}): ${r.requirement}`, r.expected && `Expected: ${r.expected}`, r.actual && `Actual: ${r.actual}`, r.reproduce && `Reproduce: ${r.reproduce}`]
          .filter(Boolean)
          .join('\n'),
      );
      const msg = xmlEscape(r.actual ?? r.outcome);
      if (r.outcome === 'pass') out.push(`${head}/>`);
      else if (r.outcome === 'fail' || (strict && r.outcome === 'non-strict')) out.push(`${head}><failure message="${msg}" type="${r.outcome}">${detail}</failure></testcase>`);
      else if (r.outcome === 'error') out.push(`${head}><error message="${msg}">${detail}</error></testcase>`);
      else if (r.outcome === 'skip') out.push(`${head}><skipped message="${msg}"/></testcase>`);
      else out.push(`${head}><system-out>non-strict: ${detail}</system-out></testcase>`);
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}
