// Before the checks, once per target: the items the document's requests
// need to exist first (a parent of a nested collection, an item another
// create's body names), stored in the order their own needs make
// (checks/prerequisites.ts plans them and reads what came back). Two of each
// parent, so that a child can be looked for under a parent it does not live
// under; one of each other. A collection none could be stored of is named
// with the reason: every request that needs one skips, saying it.
import { createCall } from '../checks/op-cases.js';
import { itemBody } from '../checks/item-bodies.js';
import { setupPlan, setupStored } from '../checks/prerequisites.js';
import { describe } from '../checks/grades.js';
import type { Exchange, RequestSpec } from '../checks/exchange.js';
import type { CheckContext, Prerequisites, StoredItem } from '../checks/types.js';
import { resourceNamed } from '../model/resource.js';
import { RuledOut } from '../model/ruled-out.js';
import type { JsonValue } from '../model/json.js';

/** Stores what the checks need first, with `send`; returns what was stored, and why a collection has nothing. */
export async function storePrerequisites(
  ctx: CheckContext,
  send: (spec: RequestSpec) => Promise<Exchange>,
): Promise<Prerequisites> {
  const stored = new Map<string, StoredItem[]>();
  const missing = new Map<string, string>();
  const prerequisites: Prerequisites = { stored, missing };
  // Each create reads what was stored before it (its own parent, its references).
  const withStored: CheckContext = { ...ctx, prerequisites };
  for (const { collection, count } of setupPlan(ctx.model)) {
    const r = resourceNamed(ctx.model.resources, collection);
    for (let i = 0; i < count; i++) {
      let sent: { request: RequestSpec; body: JsonValue };
      try {
        if (!r?.create) throw new RuledOut(r?.createMissing ?? `${collection} declares no create`);
        const body = itemBody(withStored, r);
        sent = {
          body,
          request: createCall(
            withStored,
            r,
            body,
            `before the checks: an item of ${collection} (${i + 1} of ${count})`,
          ),
        };
      } catch (err) {
        if (!(err instanceof RuledOut)) throw err;
        missing.set(collection, err.message);
        break;
      }
      const ex = await send(sent.request);
      const item = setupStored(withStored, collection, sent, ex, describe);
      if (typeof item === 'string') {
        if (!stored.has(collection)) missing.set(collection, item);
        break;
      }
      stored.set(collection, [...(stored.get(collection) ?? []), item]);
    }
  }
  return prerequisites;
}
