// The store's byte budget against what the process really grows by: a store
// filled to its budget with plants whose stored text is larger than their
// characters (escapes, UTF-16), measured in RSS. robustness/budget-probe.ts
// runs it in a process of its own. It imports nothing of the fuzz generators,
// whose module alone holds some 90 MB of heap that would blur the measure.
import { buildApp } from '../server/app.js';
import { memoryAfterCollection } from './collect.js';

const TOKEN = 'budget-token';

/** Names whose stored JSON text is larger than their characters: escapes (6 characters for a control character), UTF-16 (2 bytes a code unit past U+00FF), or both. */
export const BUDGET_NAME_KINDS = {
  /** U+0001 is written \u0001: 6 latin1 bytes a character. */
  control: '\u0001',
  /** U+0436 makes the text UTF-16: 2 bytes a character. */
  'non-latin': '\u0436',
  /** Both: \u0001 in a UTF-16 text is 12 bytes. */
  'non-latin-control': '\u0436\u0001',
} as const;
export type BudgetNameKind = keyof typeof BUDGET_NAME_KINDS;

/**
 * What the store may hold, heap and buffers together, when it fills a byte
 * budget: the budget and an eighth of it (its buffers of texts are
 * allocated whole, the last one partly filled, and each one's tail that a
 * text did not fit in stays empty), plus 2 MiB.
 */
export function budgetHeapBound(maxBytes: number): number {
  return maxBytes * 1.125 + 2 * 1024 * 1024;
}

/**
 * What the process may grow by, in RSS, while its store fills a byte budget:
 * the budget and a half of it, plus 16 MiB. RSS grows up to 40 % more than
 * the heap and buffers, and by how much depends on the scheduler: the
 * allocator's heap grows around the store's buffers, between request
 * buffers the collector frees sooner or later (measured, 2 cores busy with
 * other work: 58 to 88 MiB for a budget of 64 MiB; 34 to 65 MiB for 32 MiB).
 */
export function budgetRssBound(maxBytes: number): number {
  return maxBytes * 1.5 + 16 * 1024 * 1024;
}

export interface BudgetFill {
  kind: BudgetNameKind;
  maxBytes: number;
  nameLength: number;
  /** Plants stored before the first 507. */
  plants: number;
  /** The store's count of their bytes. */
  countedBytes: number;
  /** RSS after the fill, less RSS before it, both after full collections. */
  rssGrowthBytes: number;
  /** The same for the heap and the buffers outside it. */
  heapGrowthBytes: number;
}

/**
 * Fills a store with a byte budget of `maxBytes` with plants whose names are
 * `nameLength` characters of one kind, until it answers 507, and measures
 * how much the process grew. Before measuring, the same requests are sent
 * as duplicates of one stored plant (parsed, validated, refused: nothing
 * stored) until they have carried twice the budget, so that the young
 * generation and the allocator have grown to what such requests need: what
 * grows after that is what the store keeps.
 */
export async function fillToBudget(kind: BudgetNameKind, maxBytes: number, nameLength: number): Promise<BudgetFill> {
  const unit = BUDGET_NAME_KINDS[kind];
  const name = unit.repeat(Math.ceil(nameLength / unit.length)).slice(0, nameLength);
  const app = buildApp({ tokens: [TOKEN], maxBytes, bodyLimit: 16 * 1024 * 1024 });
  const post = (id: number) =>
    app.inject({
      method: 'POST',
      url: '/plants',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      payload: `{"id":${id},"name":${JSON.stringify(name)}}`,
    });
  try {
    const bodyBytes = Buffer.byteLength(`{"id":0,"name":${JSON.stringify(name)}}`);
    if ((await post(0)).statusCode !== 200) throw new Error('the first plant was not stored');
    for (let sent = 0; sent < 2 * maxBytes; sent += bodyBytes) await post(0);
    const start = await memoryAfterCollection();
    const counted = (await app.plantStore.usage()).bytes;
    let id = 1;
    for (;;) {
      const { statusCode, body } = await post(id);
      if (statusCode === 507) break;
      if (statusCode !== 200) throw new Error(`create answered ${statusCode}: ${body.slice(0, 200)}`);
      id++;
    }
    const end = await memoryAfterCollection();
    return {
      kind,
      maxBytes,
      nameLength,
      plants: id - 1,
      countedBytes: (await app.plantStore.usage()).bytes - counted,
      rssGrowthBytes: end.rss - start.rss,
      heapGrowthBytes: end.heapUsed + end.arrayBuffers - start.heapUsed - start.arrayBuffers,
    };
  } finally {
    await app.close();
  }
}
