// The targets no check could mean anything against, first on the console
// and before any table: one paragraph per cause, however many targets share
// it (three targets and one missing token are one mistake, said once), each
// target named as given.
import { decidingTargets, type RunResult, type TargetResult } from '../run/result.js';
import { terminalSafe } from './console-parts.js';
import { painter, type Paint } from './console-text.js';

/** How a diagnosis names a target: `Target NAME (URL)`, or `The target (URL)` for the one unnamed --target. */
function subject(t: TargetResult['target']): string {
  return t.name === 'target' ? `The target (${t.url})` : `Target ${t.name} (${t.url})`;
}

/** The diagnosed targets grouped by their cause (what is wrong and what to do), in the run's order. */
export function diagnosisGroups(targets: TargetResult[]): TargetResult[][] {
  const groups = new Map<string, TargetResult[]>();
  for (const t of targets) {
    if (!t.diagnosis) continue;
    const key = `${t.diagnosis.kind}\n${t.diagnosis.problem}\n${t.diagnosis.fix}`;
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  return [...groups.values()];
}

function groupLines(group: TargetResult[], paint: Paint): string[] {
  const d = group[0]!.diagnosis!;
  if (group.length === 1) {
    return [
      paint(31, `${subject(group[0]!.target)} was not checked: ${d.problem}.`),
      ...(d.evidence ? [`  ${d.evidence}`] : []),
      `  What to do: ${d.fix}`,
    ];
  }
  const evidence = new Set(group.map((t) => t.diagnosis!.evidence ?? ''));
  const shown =
    evidence.size === 1
      ? [...(d.evidence ? [`  ${d.evidence}`] : [])]
      : group.filter((t) => t.diagnosis!.evidence).map((t) => `  ${t.target.name}: ${t.diagnosis!.evidence}`);
  return [
    paint(31, `${group.length} targets were not checked, for one cause: ${d.problem}.`),
    `  ${group.map((t) => `${t.target.name} (${t.target.url})`).join(', ')}`,
    ...shown,
    `  What to do: ${d.fix}`,
  ];
}

/** The diagnosis paragraphs of the deciding targets (an informing target's, e.g. Prism's, too: it was not checked either), each followed by a blank line; none when every target was checked. */
export function diagnosisLines(given: RunResult, color: boolean): string[] {
  const run = terminalSafe(given);
  const paint = painter(color);
  const targets = [...decidingTargets(run.targets), ...run.targets.filter((t) => t.target.informs)];
  return diagnosisGroups(targets).flatMap((g) => [...groupLines(g, paint), '']);
}
