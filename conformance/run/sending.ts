// How a target's cases are sent: a bounded pool of workers, the cases a
// check sends together kept together, and the test that tells a request
// from one already sent (runner.ts sends through these).
import type { RequestSpec } from '../checks/exchange.js';

/** At most `limit` items worked on at once, in order. */
export async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  });
  await Promise.all(workers);
}

/** The cases in sending order: a run of adjacent cases with one batch number goes together, every other case alone. */
export function batches<C extends { batch?: number }>(cases: C[]): C[][] {
  const out: C[][] = [];
  for (const c of cases) {
    const last = out[out.length - 1];
    if (c.batch !== undefined && last && last[0]!.batch === c.batch) last.push(c);
    else out.push([c]);
  }
  return out;
}

/** The same method, path, headers and body (notes aside). */
export function sameRequest(a: RequestSpec, b: RequestSpec): boolean {
  const body = (r: RequestSpec) => (r.body === undefined ? '' : Buffer.from(r.body).toString('base64'));
  return (
    a.method === b.method &&
    a.path === b.path &&
    JSON.stringify(a.headers) === JSON.stringify(b.headers) &&
    body(a) === body(b) &&
    a.chunks === undefined &&
    b.chunks === undefined
  );
}
