// Memory per plant: the heap a stored plant keeps, measured in a process of
// its own with global.gc (robustness/memory-probe.ts), against what the
// store's byte budget counts for it. A plant that kept its request text alive
// (a name sliced from a 100 KB body) retains its whole body.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../../lib/process.js';
import { FUZZ_SEED } from '../../robustness/requests.js';

const PROBE = fileURLToPath(new URL('../../robustness/memory-probe.js', import.meta.url));

test(`memory per plant: padded request bodies are not retained, and plain plants keep no more than the byte budget counts (seed ${FUZZ_SEED})`, async () => {
  const { code, lines, stderr } = await runProcess({
    file: process.execPath,
    args: ['--expose-gc', PROBE, '--runs', '5', '--plain', '20000', '--seed', String(FUZZ_SEED)],
    timeoutMs: 120_000,
  });
  const report = JSON.parse(lines.at(-1) ?? '{}') as { property?: string; plain?: { retainedPerPlant: number; countedPerPlant: number } };
  assert.equal(report.property, 'ok', `the property failed:\n${report.property}\n${stderr}`);
  assert.ok(report.plain !== undefined, `no measurement of plain plants: ${lines.join('\n')}\n${stderr}`);
  assert.equal(code, 0, `plain plants retained ${report.plain.retainedPerPlant} bytes each; the budget counts ${report.plain.countedPerPlant}`);
});
