// Fills a store to its byte budget in a process of its own, where global.gc
// exists and nothing else shares the heap, and measures how much the process
// grew (robustness/memory.ts, fillToBudget):
//
//   node --expose-gc dist/robustness/budget-probe.js --kind control|non-latin|non-latin-control [--max-bytes N] [--name-length N]
//
// Prints one JSON line, a BudgetFill with the bounds it is held to
// (budgetRssBound, budgetHeapBound); exits 1 when the process grew past either.
import { parseArgs } from 'node:util';
import { BUDGET_NAME_KINDS, budgetHeapBound, budgetRssBound, fillToBudget, type BudgetNameKind } from './budget.js';

const { values } = parseArgs({
  options: {
    kind: { type: 'string', default: 'control' },
    'max-bytes': { type: 'string', default: String(64 * 1024 * 1024) },
    'name-length': { type: 'string', default: '10000' },
  },
});
const kind = values.kind as BudgetNameKind;
if (!Object.hasOwn(BUDGET_NAME_KINDS, kind))
  throw new Error(`--kind must be one of ${Object.keys(BUDGET_NAME_KINDS).join(', ')}`);
const maxBytes = Number(values['max-bytes']);
const fill = await fillToBudget(kind, maxBytes, Number(values['name-length']));
const bounds = { rssBoundBytes: budgetRssBound(maxBytes), heapBoundBytes: budgetHeapBound(maxBytes) };
process.stdout.write(`${JSON.stringify({ ...fill, ...bounds })}\n`);
process.exitCode = fill.rssGrowthBytes <= bounds.rssBoundBytes && fill.heapGrowthBytes <= bounds.heapBoundBytes ? 0 : 1;
