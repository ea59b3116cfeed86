// The harness's memory is bounded by what its verdicts need, not by what the
// target sends: a whole CLI run (every report written, --har too) against a
// target that answers 1 MiB that is not UTF-8 to every request stays under
// MAX_RSS, measured in the CLI's own process (bench/harness-memory.ts). When
// it kept every exchange's body for the aggregate checks, it peaked at 623
// MiB; against answers of 100 bytes a run peaks near 175 MiB (Node, the
// document, Spectral).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { measureHarnessMemory } from '../../bench/harness-memory.js';

/** The cap: the fixed costs, and room for the answers in flight (at most 12 at once, 1 MiB each, read as bytes and then as text). */
export const MAX_RSS_MIB = 400;

describe('the harness against a target that answers 1 MiB to every request', { timeout: 300_000 }, () => {
  it(`peaks under ${MAX_RSS_MIB} MiB of resident memory for a whole run`, async () => {
    const m = await measureHarnessMemory();
    assert.ok(m.requests > 200, `the run sent the whole catalog (${m.requests} requests)`);
    assert.ok(m.exitCode === 1, `the run ended with its verdicts (exit ${m.exitCode})`);
    const mib = m.maxRssBytes / 1024 / 1024;
    assert.ok(mib < MAX_RSS_MIB, `peak RSS ${mib.toFixed(0)} MiB, over ${MAX_RSS_MIB} MiB`);
  });
});
