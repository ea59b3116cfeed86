// Console report, after h2spec: per check the ID, title and outcome; for a
// check that is not a pass, the requirement, Expected/Actual and a curl line.
import type { LintFinding } from '../lint.js';
import type { TargetResult } from '../runner.js';

const MARK: Record<string, string> = { pass: '✔', 'non-strict': '~', fail: '×', skip: '-', error: '!' };

export interface ConsoleOptions {
  seed: number;
  strict: boolean;
  color: boolean;
  lint: LintFinding[];
}

export function renderConsole(targets: TargetResult[], o: ConsoleOptions): string {
  const paint = (code: number, s: string) => (o.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const colour: Record<string, number> = { pass: 32, 'non-strict': 33, fail: 31, skip: 90, error: 35 };
  const lines: string[] = [];
  const warnings = o.lint.filter((f) => f.severity !== 'error');
  if (warnings.length > 0) {
    lines.push(`Spec lint: ${warnings.length} warning(s)`);
    for (const w of warnings) lines.push(`  ${w.code}: ${w.message}`);
    lines.push('');
  }
  for (const t of targets) {
    lines.push(`Target ${t.name} (${t.url})`);
    for (const r of t.results) {
      const counts = r.outcome === 'fail' || (o.strict && r.outcome === 'non-strict');
      lines.push(`  ${paint(colour[r.outcome]!, `${MARK[r.outcome]} ${r.outcome.padEnd(10)}`)} ${r.id} ${r.title}`);
      if (r.outcome === 'pass') continue;
      if (counts || r.outcome === 'non-strict' || r.outcome === 'error') {
        lines.push(`      Requirement (${r.level}, ${r.source.document} ${r.source.section}${r.source.url ? `, ${r.source.url}` : ''}):`);
        lines.push(`        ${r.requirement}`);
      }
      if (r.expected) lines.push(`      Expected: ${r.expected}`);
      if (r.actual) lines.push(`        Actual: ${r.actual}`);
      if (r.reproduce) lines.push(`      Reproduce: ${r.reproduce}`);
    }
    const s = t.summary;
    lines.push(
      `Summary ${t.name}: ${t.results.length} checks, ${s.pass} pass, ${s['non-strict']} non-strict, ${s.fail} fail, ${s.skip} skip, ${s.error} error; seed ${o.seed}${o.strict ? ' (strict)' : ''}`,
    );
    lines.push('');
  }
  return lines.join('\n');
}
