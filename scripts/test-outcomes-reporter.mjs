// A node:test reporter (scripts/run-tests.mjs passes it with
// `--test-reporter`, beside the readable one) that writes one JSON line per
// failed test: its file, its name, and why it failed (node's failureType:
// testTimeoutFailure for a deadline reached, cancelledByParent for a test cut
// short, anything else for a failure). run-tests.mjs reads the lines back to
// print the closing summary. Only events of Node 20.18 are used (test:fail's
// `file`, `nesting`, `todo`, `details.error.failureType`).
export default async function* outcomes(source) {
  for await (const event of source) {
    if (event.type !== 'test:fail' || event.data.todo) continue;
    const { file, name, nesting, details } = event.data;
    const error = details?.error;
    // The runner wraps a test's error; the cause holds the test's own message.
    const message = String(error?.cause?.message ?? error?.message ?? '').split('\n')[0];
    yield `${JSON.stringify({ file: file ?? name, name, nesting, failureType: error?.failureType ?? 'unknown', message })}\n`;
  }
}
