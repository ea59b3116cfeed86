// How many checks the seed's document rules out: the counts of a whole run
// against it (cli.test.ts) and the length of its output (first-run.test.ts)
// both depend on it.
/**
 * The checks the seed's document rules out, each a skip that says why: it has no list, read or delete (the six
 * state checks of every resource, PS-STATE-004..009), no combination or alternatives of schemes (PS-OP-005, 006),
 * no problem details (PS-RESP-005), no Location or server-assigned id (PS-IDENT-001, 002), no parent or reference
 * (PS-REF-001), no pages, filter or sort (PS-PAGE-001, PS-QUERY-001, 002), no conditional request (PS-COND-001..003)
 * and no idempotency key (PS-IDEM-001, 002).
 */
export const RULED_OUT = 20;
