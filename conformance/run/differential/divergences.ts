// The expected divergences of a target (today: the Prism mock), read from a
// file in the repository, and the comparison of a run's results with it.
// "Where targets disagree, say why": each entry gives the reason and the
// evidence. A departure the file does not list is "unexplained"; an entry
// whose check now has another outcome is "stale", so the file stays true.
import { StartError } from '../../../lib/start-error.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { catalog } from '../../checks/index.js';
import { OUTCOMES, type Outcome } from '../../checks/types.js';
import type { CheckResult, TargetResult } from '../target-result.js';

/** conformance/differential/divergences/prism.json (data, where --help says it is), found from this compiled file (dist/conformance/run/differential/divergences.js). */
export const PRISM_DIVERGENCES_PATH = fileURLToPath(
  new URL('../../../../conformance/differential/divergences/prism.json', import.meta.url),
);

export interface Divergence {
  check: string;
  /** The outcome the target gets on this check (never pass). */
  outcome: Outcome;
  /** Why the target differs. */
  reason: string;
  /** What was observed: the request and an excerpt of the answer. */
  evidence: string;
}

export interface DivergenceFile {
  /** The name of the target the file is about (e.g. "prism"). */
  target: string;
  description: string;
  divergences: Divergence[];
}

export class DivergenceFileError extends StartError {
  override readonly name = 'DivergenceFileError';
  constructor(message: string) {
    super('PLANTSTORE_DIVERGENCE_FILE', message);
  }
}

/** Parses and validates a divergence file; every problem is a clear error naming the file. */
export function parseDivergences(text: string, file: string): DivergenceFile {
  const bad = (why: string) => new DivergenceFileError(`divergence file ${file}: ${why}`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw bad(`not JSON: ${(err as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw bad('must be a JSON object');
  const o = data as Record<string, unknown>;
  if (typeof o.target !== 'string' || o.target === '') throw bad('"target" must be a non-empty string');
  if (!Array.isArray(o.divergences)) throw bad('"divergences" must be an array');
  const seen = new Set<string>();
  const divergences = o.divergences.map((raw, i): Divergence => {
    const at = `divergences[${i}]`;
    if (typeof raw !== 'object' || raw === null) throw bad(`${at} must be an object`);
    const e = raw as Record<string, unknown>;
    if (typeof e.check !== 'string' || !catalog.some((c) => c.id === e.check))
      throw bad(`${at}: "check" ${JSON.stringify(e.check)} is not a check of the catalog`);
    if (seen.has(e.check)) throw bad(`${at}: ${e.check} is listed twice`);
    seen.add(e.check);
    if (typeof e.outcome !== 'string' || !OUTCOMES.includes(e.outcome as Outcome) || e.outcome === 'pass') {
      throw bad(`${at} (${e.check}): "outcome" must be one of ${OUTCOMES.filter((x) => x !== 'pass').join(', ')}`);
    }
    for (const key of ['reason', 'evidence'] as const)
      if (typeof e[key] !== 'string' || e[key].trim() === '')
        throw bad(`${at} (${e.check}): "${key}" must be a non-empty string`);
    return {
      check: e.check,
      outcome: e.outcome as Outcome,
      reason: e.reason as string,
      evidence: e.evidence as string,
    };
  });
  return { target: o.target, description: typeof o.description === 'string' ? o.description : '', divergences };
}

export function loadDivergences(file = PRISM_DIVERGENCES_PATH): DivergenceFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new DivergenceFileError(`cannot read the divergence file ${file}: ${(err as Error).message}`);
  }
  return parseDivergences(text, file);
}

export interface DivergenceComparison {
  target: string;
  file: string;
  /** Departures the file lists with the outcome observed. */
  explained: Array<{ result: CheckResult; divergence: Divergence }>;
  /** Results that are not pass and that the file does not list. */
  unexplained: CheckResult[];
  /** Entries whose check ran and now has another outcome (pass, or a different departure). */
  stale: Array<{ divergence: Divergence; observed: Outcome }>;
}

/**
 * Compares one target's results with its divergence file. Entries for
 * checks that did not run (--only) are neither explained nor stale.
 */
export function compareDivergences(target: TargetResult, file: DivergenceFile, path: string): DivergenceComparison {
  const byCheck = new Map(file.divergences.map((d) => [d.check, d]));
  const out: DivergenceComparison = {
    target: target.target.name,
    file: path,
    explained: [],
    unexplained: [],
    stale: [],
  };
  for (const result of target.results) {
    const divergence = byCheck.get(result.id);
    if (divergence && divergence.outcome === result.outcome) out.explained.push({ result, divergence });
    else if (divergence) out.stale.push({ divergence, observed: result.outcome });
    // A stale entry with a departure is also unexplained: the file says something else.
    // A check the document rules out (a skip on every target, saying why) is no divergence.
    const ruledOut = result.outcome === 'skip' && result.ruledOut !== undefined;
    if (result.outcome !== 'pass' && !ruledOut && divergence?.outcome !== result.outcome) out.unexplained.push(result);
  }
  return out;
}
