// The order in which scripts/run-tests.mjs starts the test files: the
// costliest first. The runner starts files in the order it is given them, as
// many at a time as its concurrency, and a file started last that runs for a
// minute is a minute at the end of the run with one core idle. Started
// first, the long files run beside the many short ones, which fill the gaps
// (longest processing time first, the classic greedy for this schedule).
//
// The costs are each file's wall time run alone, as `npm run test:profile --
// --write-costs` measured it, in scripts/test-costs.json. The order changes
// only when files start: every file runs in a process of its own whatever
// its place, so no verdict can depend on it (a test that did would be a
// defect of that test). A file with no measured cost (a new one) is taken
// to cost the median, until the next profile measures it.

import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';

export const COSTS_FILE = new URL('test-costs.json', import.meta.url);

/**
 * The measured costs, by path under dist/test/ with `/` separators; an empty
 * map when the file is missing or unreadable (the order is then by name).
 * @returns {Map<string, {cpu: number, wall: number}>}
 */
export function readCosts(url = COSTS_FILE) {
  try {
    const { files } = JSON.parse(readFileSync(url, 'utf8'));
    return new Map(Object.entries(files ?? {}));
  } catch {
    return new Map();
  }
}

/** A test file's key in the costs: its path under the compiled test folder, with `/`. */
export function costKey(file, testRoot) {
  return relative(testRoot, file).split(sep).join('/');
}

/**
 * The files, costliest (by wall time alone) first; equal costs keep their
 * given order, so the order is the same on every run.
 * @param {string[]} files
 * @param {Map<string, {cpu: number, wall: number}>} costs
 * @param {string} testRoot the folder the keys are relative to (dist/test)
 */
export function orderByCost(files, costs, testRoot) {
  const known = files.map((file) => costs.get(costKey(file, testRoot))?.wall).filter((wall) => wall !== undefined);
  const sorted = [...known].sort((a, b) => a - b);
  const median = sorted.length > 0 ? sorted[Math.floor(sorted.length / 2)] : 0;
  return files
    .map((file, index) => ({ file, index, wall: costs.get(costKey(file, testRoot))?.wall ?? median }))
    .sort((a, b) => b.wall - a.wall || a.index - b.index)
    .map(({ file }) => file);
}
