// Every default and bound of the server, in one place. config.ts reads the
// environment within these bounds; buildApp and the stub apply them.

/** Largest request body in bytes (413 beyond); PLANTSTORE_BODY_LIMIT. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** The largest body limit Fastify takes (a signed 32-bit length). */
export const MAX_BODY_LIMIT = 2 ** 31 - 1;

/** Most plants the store keeps (507 beyond); PLANTSTORE_MAX_PLANTS. */
export const DEFAULT_MAX_PLANTS = 1_000_000;
/**
 * Most bytes of plants the store keeps (507 beyond), counted per plant by
 * plantBytes() in store.ts; PLANTSTORE_MAX_BYTES. The count cap alone bounds
 * nothing: one plant may carry a name of nearly PLANTSTORE_BODY_LIMIT.
 * 256 MiB holds a million plants whose JSON text (latin1) and id have 76
 * characters together.
 */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/**
 * What a plant costs besides its text and its id (store.ts, plantBytes): the
 * in-memory store's index entries, a map entry for an id beyond 2^53, the
 * spare room of tables that double as they grow. Plants with names of 14
 * to 18 characters retain 170 bytes each, text included, where the budget
 * counts 241 (robustness/memory.ts): an upper bound.
 */
export const PLANT_OVERHEAD_BYTES = 192;

/** Most connections to the database (PLANTSTORE_DATABASE_POOL), per server process. */
export const DEFAULT_POOL_SIZE = 10;
export const MAX_POOL_SIZE = 1000;
/** Milliseconds to get a database connection before a request is answered 503 (the database is away). */
export const DATABASE_CONNECT_TIMEOUT = 2000;
/** Milliseconds a database statement may take before a request is answered 503. */
export const DATABASE_STATEMENT_TIMEOUT = 5000;
/** Retry-After of the 503s a store that does not answer causes (creates, GET /__health). */
export const STORE_RETRY_AFTER_SECONDS = 1;

/** The address `npm start` listens on unless HOST says otherwise: loopback, so a server started on a shared machine is not on the network. */
export const DEFAULT_HOST = '127.0.0.1';

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
/** What a journal entry costs besides its body, path and headers (journal.ts, entryBytes). */
export const JOURNAL_ENTRY_OVERHEAD_BYTES = 256;
/** Bytes the journal's entries may take together, the oldest going first; PLANTSTORE_JOURNAL_BYTES. */
export const DEFAULT_JOURNAL_BYTES = 16 * 1024 * 1024;
/**
 * The smallest journal budget: above the largest entry (a 64 KiB body plus
 * Node's 16 KiB of request line and headers), so the newest entry always fits.
 */
export const MIN_JOURNAL_BYTES = 128 * 1024;
export const MAX_JOURNAL_BYTES = 1024 * 1024 * 1024;
/** Entries one GET /__admin/journal answers by default (?limit=N), and at most. */
export const DEFAULT_JOURNAL_PAGE = 100;
export const MAX_JOURNAL_PAGE = 1000;
/**
 * Entry bytes one page holds at most (at least one entry): the answer stays a
 * few megabytes whatever the budget, where a whole journal of large entries
 * once passed V8's longest string and failed with 500.
 */
export const JOURNAL_PAGE_BYTES = 4 * 1024 * 1024;

/** Plants one GET /__admin/plants answers by default (?limit=N), and at most. */
export const DEFAULT_PLANTS_PAGE = 1000;
export const MAX_PLANTS_PAGE = 10_000;
/**
 * Bytes of plants one page holds at most, as the byte budget counts them (at
 * least one plant), so that its answer is at most twice as long: the whole
 * store in one answer was 100 MB at a budget of 32 MiB, blocked the event
 * loop for seconds, and at the default budget would pass V8's longest string.
 */
export const PLANTS_PAGE_BYTES = 4 * 1024 * 1024;
/**
 * Plants one page of the API's list reads at most to judge a filter
 * (`?tag=…`): a page that reaches it ends there, short or empty, with its
 * cursor where the list declares one. Its work stays bounded however few
 * plants match among a million.
 */
export const LIST_MAX_EXAMINED = 10_000;
/**
 * Bytes of plants one page of the API's list reads at most to judge a filter,
 * as the byte budget counts them (at least one plant): a page that reaches it
 * ends there, with its cursor where the list declares one. The count alone
 * bounded nothing: 240 plants of a megabyte whose text the cheap look could
 * not rule out were parsed whole for one 40-byte GET (2.3 to 2.9 s, every
 * other client waiting; issue 41).
 */
export const LIST_MAX_EXAMINED_BYTES = 4 * 1024 * 1024;

/**
 * Items a sorted list reads at most, and their bytes as the byte budget
 * counts them: a sort orders the whole list before it pages it, so a list
 * past either is answered 507 (sort less: filter, or ask unsorted) rather
 * than read whole at every request.
 */
export const LIST_MAX_SORTED = 10_000;
export const LIST_SORTED_BYTES = 16 * 1024 * 1024;

/**
 * Idempotency keys (operations/idempotency.ts) this process keeps at most,
 * and the bytes of their first answers: past either the oldest key goes.
 * A key is kept a day (the draft's example), and one whose first request is
 * still being answered a minute at most (then a retry is done again).
 */
export const IDEMPOTENCY_MAX_KEYS = 10_000;
export const IDEMPOTENCY_MAX_BYTES = 16 * 1024 * 1024;
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_IN_FLIGHT_MS = 60_000;

/** Longest answer delay of the stub in milliseconds; PLANTSTORE_DELAY_MS. */
export const MAX_DELAY_MS = 60_000;
/**
 * Answers that may wait out the delay at once; past it a request is answered
 * 503 at once. Each waiting answer holds a socket and its body (up to
 * PLANTSTORE_BODY_LIMIT), so the delay cannot hold the server's memory.
 */
export const MAX_WAITING_ANSWERS = 64;
/**
 * Of those, most one credential (one Authorization value) holds at once, a
 * quarter: one API client asking for `hang` 64 times once left every other
 * client's delayed create a 503 (security review, issue 32).
 */
export const MAX_WAITING_PER_CREDENTIAL = 16;

/**
 * Most steps the stub's fault schedule holds (POST /__admin/faults): a
 * schedule is a test's scenario, and a runaway script cannot grow it without end.
 */
export const MAX_FAULT_STEPS = 1000;
/** Largest `Retry-After` a forced answer carries, in seconds (a day). */
export const MAX_RETRY_AFTER_SECONDS = 86_400;
/**
 * Longest the stub holds an answer for the `hang` fault (then the connection
 * is closed with no answer) and a `dribble` (then the rest is sent at once).
 * A client under test gives up well before; one without a timeout of its own
 * is told so by a closed connection, not held for ever. Held answers count
 * against MAX_WAITING_ANSWERS with the delay's.
 */
export const MAX_HOLD_MS = 120_000;
/** The `dribble` fault's chunk: bytes per chunk by default, and at most. */
export const DEFAULT_DRIBBLE_BYTES = 16;
export const MAX_DRIBBLE_BYTES = 1024;
/** The `dribble` fault's pause between chunks in milliseconds, by default and at most. */
export const DEFAULT_DRIBBLE_INTERVAL_MS = 100;
export const MAX_DRIBBLE_INTERVAL_MS = 10_000;
/** Largest K of a scheduled step's `{"every": K}`. */
export const MAX_FAULT_EVERY = 1_000_000;

// Webhooks (server/webhooks/, docs/stub.md "Webhooks"): every delivery is
// bounded in attempts, time and number, so a receiver that is down or slow
// costs the server a known amount of memory and sockets.
/** Attempts per delivery, the first included; PLANTSTORE_WEBHOOK_ATTEMPTS. */
export const DEFAULT_WEBHOOK_ATTEMPTS = 5;
export const MAX_WEBHOOK_ATTEMPTS = 20;
/** The wait before the first retry in milliseconds, doubled for each later one (with jitter); PLANTSTORE_WEBHOOK_BACKOFF_MS. */
export const DEFAULT_WEBHOOK_BACKOFF_MS = 1000;
/** The longest wait between two attempts, whatever the doubling reaches. */
export const MAX_WEBHOOK_BACKOFF_MS = 60_000;
/** Milliseconds one attempt may take, connection, answer and its body included; PLANTSTORE_WEBHOOK_TIMEOUT_MS. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
export const MAX_WEBHOOK_TIMEOUT_MS = 60_000;
/** Milliseconds after its event (and a scheduled delay) past which no attempt of a delivery starts; PLANTSTORE_WEBHOOK_DEADLINE_MS. */
export const DEFAULT_WEBHOOK_DEADLINE_MS = 60_000;
export const MAX_WEBHOOK_DEADLINE_MS = 3_600_000;
/** Deliveries pending at once (waiting, in flight, or waiting to retry); past it a new one is dropped and logged; PLANTSTORE_WEBHOOK_QUEUE. */
export const DEFAULT_WEBHOOK_QUEUE = 1000;
export const MAX_WEBHOOK_QUEUE = 100_000;
/**
 * Bytes the pending deliveries may hold together, counted as the journal
 * counts its entries (deliveries.ts, deliveryBytes); past it a new one is
 * dropped, logged and journaled; PLANTSTORE_WEBHOOK_QUEUE_BYTES. The count
 * alone let 1000 deliveries of a megabyte hold a gigabyte while a receiver
 * was down (issue 41). The smallest budget holds a delivery of the default
 * body limit.
 */
export const DEFAULT_WEBHOOK_QUEUE_BYTES = 64 * 1024 * 1024;
export const MIN_WEBHOOK_QUEUE_BYTES = 2 * 1024 * 1024;
export const MAX_WEBHOOK_QUEUE_BYTES = 1024 * 1024 * 1024;
/** What a pending delivery costs besides its body, URL, headers and names (deliveryBytes). */
export const DELIVERY_OVERHEAD_BYTES = 256;
/** Milliseconds a closing server (SIGTERM) waits for pending deliveries before it drops them; PLANTSTORE_WEBHOOK_SHUTDOWN_MS. */
export const DEFAULT_WEBHOOK_SHUTDOWN_MS = 5000;
export const MAX_WEBHOOK_SHUTDOWN_MS = 60_000;
/** The webhooks' settings when none is given (buildApp used as a library; start.ts reads each from the environment). */
export const WEBHOOK_DEFAULTS = {
  attempts: DEFAULT_WEBHOOK_ATTEMPTS,
  backoffMs: DEFAULT_WEBHOOK_BACKOFF_MS,
  timeoutMs: DEFAULT_WEBHOOK_TIMEOUT_MS,
  deadlineMs: DEFAULT_WEBHOOK_DEADLINE_MS,
  queueSize: DEFAULT_WEBHOOK_QUEUE,
  queueBytes: DEFAULT_WEBHOOK_QUEUE_BYTES,
  shutdownMs: DEFAULT_WEBHOOK_SHUTDOWN_MS,
} as const;
/** Attempts in flight at once, to every receiver together; the other deliveries wait their turn. */
export const MAX_CONCURRENT_DELIVERIES = 32;
/** Receivers at once (PLANTSTORE_WEBHOOK_URL and PUT /__admin/webhooks). */
export const MAX_WEBHOOK_RECEIVERS = 16;
/** Longest receiver URL, in characters. */
export const MAX_RECEIVER_URL_LENGTH = 2048;
/** Bytes of a receiver's answer read (and thrown away) before the connection is closed: its body is never kept. */
export const MAX_RECEIVER_ANSWER_BYTES = 1024 * 1024;
/** Most copies of one delivery a scheduled step sends ({"copies": N}). */
export const MAX_DELIVERY_COPIES = 10;
/**
 * Values the server's log learns to redact while it runs (a webhook
 * receiver's credentials, logging.ts), the last ones kept: the admin may
 * replace the receivers any number of times, and the log's redaction does
 * not grow without end (16 receivers hold far fewer).
 */
export const MAX_LEARNT_LOG_SECRETS = 256;
