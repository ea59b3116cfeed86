// Every default and bound of the server, in one place. config.ts reads the
// environment within these bounds; buildApp and the stub apply them.

/** Largest request body in bytes (413 beyond); PLANTSTORE_BODY_LIMIT. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** The largest body limit Fastify takes (a signed 32-bit length). */
export const MAX_BODY_LIMIT = 2 ** 31 - 1;

/** Most plants the in-memory store keeps (507 beyond); PLANTSTORE_MAX_PLANTS. */
export const DEFAULT_MAX_PLANTS = 1_000_000;

/**
 * Milliseconds a client has to send a whole request, headers and body
 * (Fastify's default is no limit): past it the client gets 408 and the
 * connection is closed, so a body that never completes holds no socket forever.
 */
export const DEFAULT_REQUEST_TIMEOUT = 30_000;
/**
 * How often Node looks for requests past their timeout (its default, 30 s,
 * would let a request live up to twice its timeout).
 */
export const TIMEOUT_CHECK_INTERVAL = 1000;

/** Deepest nesting of arrays and objects a JSON text may have (400 beyond): hostile input cannot exhaust the stack. */
export const JSON_MAX_DEPTH = 64;

/** Requests the stub's journal keeps by default; PLANTSTORE_JOURNAL_SIZE. */
export const DEFAULT_JOURNAL_SIZE = 100;
export const MAX_JOURNAL_SIZE = 10_000;
/** Bytes of a request body the journal keeps; the rest is cut and the entry says so. */
export const JOURNAL_BODY_LIMIT = 64 * 1024;

/** Longest answer delay of the stub in milliseconds; PLANTSTORE_DELAY_MS. */
export const MAX_DELAY_MS = 60_000;
