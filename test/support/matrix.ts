// The long matrices: end-to-end runs repeated over every row of a table
// (every evolved document of test/fixtures/, on each store). `npm test`, the
// quick default, runs one row per distinct thing a row proves; `npm run
// test:full` (PLANTSTORE_TEST_MATRIX=full), which CI runs after `npm test`,
// runs every row. docs/development.md says which files have a long matrix.

/** True when the whole matrix runs (`npm run test:full`, and CI). */
export const FULL_MATRIX = process.env.PLANTSTORE_TEST_MATRIX === 'full';

/**
 * The rows to run: all of them under FULL_MATRIX, otherwise the first row of
 * each distinct `proves` key (the rows that prove nothing new are left to the
 * full run). `pick: 'last'` takes the last row of each key instead: two
 * suites over one table then cover different rows between them. The order
 * of `rows` is kept.
 */
export function matrixRows<T>(rows: readonly T[], proves: (row: T) => string, pick: 'first' | 'last' = 'first'): T[] {
  if (FULL_MATRIX) return [...rows];
  const chosen = new Map<string, T>();
  for (const row of rows) {
    const key = proves(row);
    if (pick === 'last' || !chosen.has(key)) chosen.set(key, row);
  }
  const kept = new Set(chosen.values());
  return rows.filter((row) => kept.has(row));
}

/** Says in a suite's name how much of its matrix runs, so a log shows it. */
export function matrixLabel(ran: number, of: number): string {
  return ran === of ? `all ${of} rows` : `${ran} of ${of} rows (npm run test:full runs all)`;
}
