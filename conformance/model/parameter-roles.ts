// Parameters whose value the protocol defines, not their schema: a value
// drawn from the schema would be a wrong request. The harness fills them
// from the exchange they belong to (checks/op-requests.ts):
// - `If-Match` and `If-None-Match` (RFC 9110 §13.1.1, §13.1.2): an entity
//   tag a read answered (a list of entity tags or `*`);
// - an idempotency key (the IETF httpapi draft "The Idempotency-Key HTTP
//   Header Field"): a header named Idempotency-Key or X-Idempotency-Key, or
//   one whose description speaks of idempotency (inference `idempotency`,
//   docs/checks.md): fresh for each logical request, the same on its retry.
import type { ParameterModel } from './operation-model.js';

export type ParameterRole = 'if-match' | 'if-none-match' | 'idempotency-key';

/** Header names that are an idempotency key, in lower case. */
export const IDEMPOTENCY_HEADERS = ['idempotency-key', 'x-idempotency-key'];

/** What the protocol makes of a parameter, and whether it rests on an inference (the idempotency key found by its description). */
export function parameterRole(
  p: ParameterModel,
): { role: ParameterRole; by: 'protocol' | 'name' | 'description' } | undefined {
  if (p.in !== 'header') return undefined;
  const name = p.name.toLowerCase();
  if (name === 'if-match') return { role: 'if-match', by: 'protocol' };
  if (name === 'if-none-match') return { role: 'if-none-match', by: 'protocol' };
  if (IDEMPOTENCY_HEADERS.includes(name)) return { role: 'idempotency-key', by: 'name' };
  if (/idempoten/i.test(p.description ?? '')) return { role: 'idempotency-key', by: 'description' };
  return undefined;
}

/** The idempotency key parameter of an operation, if it declares one. */
export function idempotencyKeyOf(op: { parameters: ParameterModel[] }): ParameterModel | undefined {
  return op.parameters.find((p) => parameterRole(p)?.role === 'idempotency-key');
}
