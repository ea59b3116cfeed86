// "Did you mean": the known word closest to one that is not known, for
// options, configuration keys, commands and check IDs.
import { editDistance } from '../redact/secrets.js';

/**
 * The candidate closest to `word` (letter case ignored), when it is close
 * enough to be a slip: within a third of its length in edits (at least 1, at
 * most 3), or one that starts with it. Undefined otherwise.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const bound = Math.min(3, Math.max(1, Math.floor(lower.length / 3)));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase(), bound);
    if (distance <= bound && (!best || distance < best.distance)) best = { candidate, distance };
  }
  if (best) return best.candidate;
  const prefixed = lower.length >= 3 ? candidates.filter((c) => c.toLowerCase().startsWith(lower)) : [];
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** ` (did you mean X?)`, or '' when nothing is close. */
export function didYouMean(
  word: string,
  candidates: readonly string[],
  show: (candidate: string) => string = (c) => c,
): string {
  const near = closest(word, candidates);
  return near === undefined ? '' : ` (did you mean ${show(near)}?)`;
}
