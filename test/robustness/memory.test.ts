// Memory per plant: the heap a stored plant keeps, measured in a process of
// its own with global.gc (robustness/memory-probe.ts), against what the
// store's byte budget counts for it. A plant that kept its request text alive
// (a name sliced from a 100 KB body) retains its whole body.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../../lib/process.js';
import { BUDGET_NAME_KINDS, type BudgetFill } from '../../robustness/budget.js';
import { FUZZ_SEED } from '../../robustness/requests.js';
import { matrixLabel, matrixRows } from '../support/matrix.js';

const PROBE = fileURLToPath(new URL('../../robustness/memory-probe.js', import.meta.url));
const BUDGET_PROBE = fileURLToPath(new URL('../../robustness/budget-probe.js', import.meta.url));

test(
  `memory per plant: padded request bodies are not retained, and plain plants keep no more than the byte budget counts (seed ${FUZZ_SEED})`,
  { timeout: 180_000 },
  async () => {
    const { code, lines, stderr } = await runProcess({
      file: process.execPath,
      args: ['--expose-gc', PROBE, '--runs', '5', '--plain', '20000', '--seed', String(FUZZ_SEED)],
      timeoutMs: 120_000,
    });
    const report = JSON.parse(lines.at(-1) ?? '{}') as {
      property?: string;
      plain?: { retainedPerPlant: number; countedPerPlant: number };
    };
    assert.equal(report.property, 'ok', `the property failed:\n${report.property}\n${stderr}`);
    assert.ok(report.plain !== undefined, `no measurement of plain plants: ${lines.join('\n')}\n${stderr}`);
    assert.equal(
      code,
      0,
      `plain plants retained ${report.plain.retainedPerPlant} bytes each; the budget counts ${report.plain.countedPerPlant}`,
    );
  },
);

// The byte budget against what the process grows by: a store of 64 MiB
// filled with names whose stored text is larger than their characters.
// Counting 2 bytes a character let control-character names grow the
// process by 3 to 5 times the budget. The bounds (robustness/budget.ts) hold
// with both cores busy: RSS depends on when the collector frees request
// buffers, by up to 40 % of the budget.
// A long matrix (test/support/matrix.ts): the store keeps a text in latin1
// or in UTF-16 (server/store/plant-texts.ts), so `npm test` fills one store
// per encoding, each with escapes (control, and non-latin-control); `npm run
// test:full` (CI) adds the non-latin names, UTF-16 without escapes.
const KINDS = Object.keys(BUDGET_NAME_KINDS) as (keyof typeof BUDGET_NAME_KINDS)[];
const FILLS = matrixRows(KINDS, (kind) => (kind === 'control' ? 'latin1' : 'utf16'), 'last');
for (const kind of FILLS) {
  test(
    `${matrixLabel(FILLS.length, KINDS.length)}: a store filled to a byte budget of 64 MiB with ${kind} names holds at most the budget and an eighth (heap and buffers), and grows RSS by at most the budget and a half, plus 16 MiB`,
    { timeout: 180_000 },
    async () => {
      const { code, lines, stderr } = await runProcess({
        file: process.execPath,
        args: [
          '--expose-gc',
          BUDGET_PROBE,
          '--kind',
          kind,
          '--max-bytes',
          String(64 * 1024 * 1024),
          '--name-length',
          '10000',
        ],
        timeoutMs: 150_000,
      });
      const fill = JSON.parse(lines.at(-1) ?? '{}') as Partial<BudgetFill> & {
        rssBoundBytes?: number;
        heapBoundBytes?: number;
      };
      assert.ok(
        fill.rssGrowthBytes !== undefined && fill.heapGrowthBytes !== undefined,
        `no measurement: ${lines.join('\n')}\n${stderr}`,
      );
      const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
      const told = `${fill.plants} plants, counted ${mib(fill.countedBytes!)}: heap and buffers grew ${mib(fill.heapGrowthBytes)} (bound ${mib(fill.heapBoundBytes!)}), RSS ${mib(fill.rssGrowthBytes)} (bound ${mib(fill.rssBoundBytes!)})`;
      assert.ok(fill.heapGrowthBytes <= fill.heapBoundBytes!, told);
      assert.ok(fill.rssGrowthBytes <= fill.rssBoundBytes!, told);
      assert.equal(code, 0, told);
    },
  );
}
