// Plant ids unique to a run, so that a run against a long-lived target never
// collides with an earlier run: the base is drawn from a CSPRNG (not from the
// seed, which a user repeats on purpose).
//
// Ordinary checks take consecutive ids from a base in [2^40, 2^52): random
// enough that two runs do not meet, and below 2^53 on purpose, so that a
// server that keeps ids as doubles fails the int64 checks (PS-ACCEPT-009/010,
// PS-REJECT-004/005, PS-STATE-002) and only those, instead of every check.
import { randomBytes } from 'node:crypto';

export class IdAllocator {
  private next: bigint;
  /** A run-unique salt for ids drawn by fast-check (see generated.ts). */
  readonly salt: bigint;
  /** A run-unique offset in [1, 2^40): keeps edge-case ids (near int64 ends, above 2^53) fresh. */
  readonly offset: bigint;
  private readonly used = new Set<bigint>();

  constructor() {
    this.next = (1n << 40n) + (randomBytes(8).readBigUInt64BE() >> 13n) % ((1n << 52n) - (1n << 41n)); // [2^40, 2^52 - 2^40)
    this.salt = randomBytes(8).readBigUInt64BE();
    this.offset = (randomBytes(8).readBigUInt64BE() >> 24n) + 1n; // [1, 2^40]
  }

  /** A fresh positive id. */
  fresh(): bigint {
    let id = this.next++;
    while (this.used.has(id)) id = this.next++;
    this.used.add(id);
    return id;
  }

  /** Marks an id as used; false when this run already used it. */
  claim(id: bigint): boolean {
    if (this.used.has(id)) return false;
    this.used.add(id);
    return true;
  }
}
