// A set of accepted credential values (tokens, API keys, user-id:password
// pairs), compared in constant time.
import { hash, timingSafeEqual } from 'node:crypto';

/** The values a scheme accepts; `restricts` false: any well-formed value is accepted. */
export interface AcceptedValues {
  readonly restricts: boolean;
  accepts(value: string): boolean;
}

/** Accepts exactly `values`; undefined accepts any value (the caller has checked its form). */
export function acceptedValues(values: readonly string[] | undefined): AcceptedValues {
  if (values === undefined) return { restricts: false, accepts: () => true };
  // Values are compared through their SHA-256 digests with timingSafeEqual:
  // equal-length inputs, so neither the content nor the length of an accepted
  // value leaks through the comparison's timing.
  const digests = values.map(digest);
  return {
    restricts: true,
    accepts(value) {
      const presented = digest(value);
      let accepted = false;
      // No early exit: every accepted value is compared.
      for (const known of digests) accepted = timingSafeEqual(presented, known) || accepted;
      return accepted;
    },
  };
}

function digest(value: string): Buffer {
  // One-shot hashing: no Hash object per request.
  return hash('sha256', value, 'buffer');
}
