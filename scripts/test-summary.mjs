// The closing summary of scripts/run-tests.mjs, from the failed tests that
// test-outcomes-reporter.mjs recorded. Each file that did not pass is in one
// group, the most telling first: timed out (its deadline was reached: the
// file's process was killed, or a test's own timeout ran out), then cancelled
// (a test was cut short, e.g. its parent ended first), then failed.

/**
 * @param {string[]} files every test file the run was given
 * @param {{file: string, name: string, failureType: string, message: string}[]} failures
 * @param {number} seconds the run's wall time
 */
export function summarize(files, failures, seconds) {
  const byFile = new Map();
  for (const failure of failures) {
    const list = byFile.get(failure.file) ?? [];
    list.push(failure);
    byFile.set(failure.file, list);
  }
  const timedOut = [];
  const cancelled = [];
  const failed = [];
  for (const [file, list] of byFile) {
    const types = new Set(list.map((f) => f.failureType));
    // A parent fails with subtestsFailed when a child fails: the child says why.
    const tests = list.filter((f) => f.failureType !== 'subtestsFailed');
    const entry = { file, tests: tests.length > 0 ? tests : list };
    if (types.has('testTimeoutFailure')) timedOut.push(entry);
    else if (types.has('cancelledByParent')) cancelled.push(entry);
    else failed.push(entry);
  }
  const failing = byFile.size;
  return { files: files.length, passed: files.length - failing, failed, cancelled, timedOut, seconds };
}

/** @param {ReturnType<typeof summarize>} summary @param {(file: string) => string} show */
export function formatSummary(summary, show) {
  const out = ['', '== run-tests summary'];
  out.push(
    `${summary.files} file${summary.files === 1 ? '' : 's'}: ${summary.passed} passed, ${summary.failed.length} failed, ` +
      `${summary.cancelled.length} cancelled, ${summary.timedOut.length} timed out, in ${formatTime(summary.seconds)}`,
  );
  for (const [label, group] of [
    ['timed out', summary.timedOut],
    ['cancelled', summary.cancelled],
    ['failed', summary.failed],
  ]) {
    for (const { file, tests } of group) {
      out.push(`${label}: ${show(file)}`);
      for (const test of tests.slice(0, 5)) out.push(`    ${test.name}: ${test.message || test.failureType}`);
      if (tests.length > 5) out.push(`    … and ${tests.length - 5} more`);
    }
  }
  return `${out.join('\n')}\n`;
}

function formatTime(seconds) {
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${seconds.toFixed(1)} s`;
}
