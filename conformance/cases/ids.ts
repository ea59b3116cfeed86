// Plant ids of a run, and every other value a check draws that is not a
// generated case (a random token, an unknown path): all from the run's seed
// and its id offset, so that `--seed N --id-offset K` sends the same requests
// again (issue 30 item 3: whether an id has 15 or 16 digits decides which
// departure a check catches). A run with no --seed draws its seed, so its ids
// are fresh; a rerun with one seed against the same long-lived target gives
// another --id-offset (docs/conformance.md, "Replaying a run").
//
// Each check draws from its own scope (scoped()), so that what it sends does
// not depend on which checks ran before it, at any concurrency.
//
// Ordinary checks take consecutive ids from a base in [2^40, 2^52): far
// enough apart that two runs do not meet, and below 2^53 on purpose, so that
// a server that keeps ids as doubles fails the int64 checks
// (PS-ACCEPT-009/010, PS-REJECT-004/005, PS-STATE-002) and only those,
// instead of every check.
import { createHash } from 'node:crypto';

export class IdAllocator {
  private next: bigint;
  /** A salt for ids drawn by fast-check (see gen.ts). */
  readonly salt: bigint;
  /** An offset in [1, 2^40]: keeps edge-case ids (near int64 ends, above 2^53) apart between runs. */
  readonly offset: bigint;

  /**
   * `seed` and `idOffset` decide every value; `scope` (a check's ID) gives
   * each check a stream of its own; `used` is shared by every scope of a
   * run, so that no id is given twice.
   */
  constructor(
    readonly seed = 0,
    readonly idOffset = 0n,
    private readonly scope = '',
    private readonly used = new Set<bigint>(),
    private readonly usedTexts = new Set<string>(),
  ) {
    this.next = (1n << 40n) + ((this.draw('base') >> 13n) % ((1n << 52n) - (1n << 41n))); // [2^40, 2^52 - 2^40)
    this.salt = this.draw('salt');
    this.offset = (this.draw('offset') >> 24n) + 1n; // [1, 2^40]
  }

  /** The allocator of one check (or the diagnosis): its own values, the run's ids. */
  scoped(scope: string): IdAllocator {
    return new IdAllocator(this.seed, this.idOffset, scope, this.used, this.usedTexts);
  }

  /** 64 bits decided by the seed, the id offset, the scope and `purpose`. */
  private draw(purpose: string): bigint {
    return this.bytes(purpose, 8).readBigUInt64BE();
  }

  /** `n` (at most 32) bytes decided by the seed, the id offset, the scope and `purpose`: a random token, a path. */
  bytes(purpose: string, n: number): Buffer {
    return createHash('sha256')
      .update(`${this.seed}\u0000${this.idOffset}\u0000${this.scope}\u0000${purpose}`)
      .digest()
      .subarray(0, n);
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

  /** Marks a string id as used (a UUID, a code of a pattern); false when this run already used it. */
  claimText(id: string): boolean {
    if (this.usedTexts.has(id)) return false;
    this.usedTexts.add(id);
    return true;
  }
}
