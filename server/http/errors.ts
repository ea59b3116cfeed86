// Every error answer of the server, in one table: the HTTP status, the
// `error` number of the specification's Error record, and the message.
// The `error` numbers are ours (the specification leaves "the set of error
// values" open): the status times 100 plus a running number. docs/server.md's
// behaviour table lists them (docs/stub.md the stub's), and
// test/server/errors.test.ts holds the two together.
//
// This module declares; error-handler.ts sends. A message names no path of
// the API: where it says which operation, the route builds it from the
// document (routes.ts, notFound and methodNotAllowed).

export const ERRORS = {
  MALFORMED_JSON: { status: 400, error: 40001, message: 'Request body is not valid JSON.' },
  BODY_REQUIRED: { status: 400, error: 40002, message: 'Request body is required: send a NewPlant record.' },
  INVALID_NEW_PLANT: { status: 400, error: 40003, message: 'Request body is not a valid NewPlant.' },
  DUPLICATE_ID: { status: 400, error: 40004, message: 'A plant with this id already exists.' },
  MALFORMED_REQUEST: { status: 400, error: 40005, message: 'Malformed request.' },
  MALFORMED_HTTP: { status: 400, error: 40006, message: 'Malformed HTTP request.' },
  INVALID_PARAMETER: { status: 400, error: 40007, message: 'A parameter of the request is not valid.' },
  INVALID_BODY: { status: 400, error: 40008, message: "Request body is not valid against the operation's schema." },
  ID_MISMATCH: { status: 400, error: 40009, message: "The body's id is not the id of the plant the path names." },
  // A status the document declares for a condition is answered with it (400 where it declares none of the others).
  UNKNOWN_REFERENCE: { status: 400, error: 40010, message: 'The body names an item the store does not hold.' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 400,
    error: 40011,
    message: 'The idempotency key was used before with another request body.',
  },
  // 40021-40029: the stub's controls and its Prefer header (server/stub/).
  PREFER_MALFORMED: { status: 400, error: 40021, message: 'Malformed Prefer header (RFC 7240 §2).' },
  PREFER_UNDECLARED: {
    status: 400,
    error: 40022,
    message: 'Prefer asks for a response the operation does not declare.',
  },
  STUB_INVALID_REQUEST: { status: 400, error: 40023, message: 'Invalid request to the stub controls.' },
  MISSING_CREDENTIALS: {
    status: 401,
    error: 40101,
    message: 'Authentication required: send the header Authorization: Bearer <token>.',
  },
  UNSUPPORTED_SCHEME: {
    status: 401,
    error: 40102,
    message: 'Unsupported authentication scheme: use Authorization: Bearer <token>.',
  },
  MALFORMED_TOKEN: {
    status: 401,
    error: 40103,
    message:
      'Malformed bearer token: a token is one or more of A-Z a-z 0-9 - . _ ~ + / followed by any = (RFC 6750 §2.1).',
  },
  UNKNOWN_TOKEN: { status: 401, error: 40104, message: 'The bearer token is not accepted.' },
  MALFORMED_BASIC: {
    status: 401,
    error: 40105,
    message:
      'Malformed Basic credentials: send Authorization: Basic with the base64 of user-id:password, in UTF-8, without control characters (RFC 7617 §2).',
  },
  UNKNOWN_BASIC: { status: 401, error: 40106, message: 'The Basic credentials are not accepted.' },
  UNKNOWN_API_KEY: { status: 401, error: 40107, message: 'The API key is not accepted.' },
  // 40301-40309: the stub's controls and its Prefer header (server/stub/).
  PREFER_FORBIDDEN: {
    status: 403,
    error: 40301,
    message:
      "Prefer asks for a code, a fault or a delay, which need the stub's admin token here: send Plantstore-Admin-Authorization: Bearer <admin token>.",
  },
  CONTROLS_HOST_REFUSED: {
    status: 403,
    error: 40302,
    message:
      "The stub's controls have no token, so they answer only a Host that is a loopback name or an IP address (a page on another name could reach them through DNS rebinding): set PLANTSTORE_ADMIN_TOKEN, or name this host in PLANTSTORE_ALLOWED_HOSTS.",
  },
  NOT_FOUND: { status: 404, error: 40401, message: 'No such resource.' },
  PLANT_NOT_FOUND: { status: 404, error: 40402, message: 'No plant has this id.' },
  METHOD_NOT_ALLOWED: { status: 405, error: 40501, message: 'Method not allowed.' },
  DUPLICATE_CONFLICT: { status: 409, error: 40901, message: 'An item with this id already exists.' },
  UNKNOWN_REFERENCE_CONFLICT: { status: 409, error: 40902, message: 'The body names an item the store does not hold.' },
  IDEMPOTENCY_KEY_REUSED_CONFLICT: {
    status: 409,
    error: 40903,
    message: 'The idempotency key was used before with another request body.',
  },
  IDEMPOTENCY_KEY_IN_FLIGHT: {
    status: 409,
    error: 40904,
    message: 'A request with this idempotency key is still being answered: retry once it is.',
  },
  REQUEST_TIMEOUT: { status: 408, error: 40801, message: 'The request was not received in time.' },
  PRECONDITION_FAILED: {
    status: 412,
    error: 41201,
    message: 'Precondition failed: the item is not in the state the request names (If-Match, If-None-Match).',
  },
  PAYLOAD_TOO_LARGE: { status: 413, error: 41301, message: 'Request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    error: 41501,
    message: 'Unsupported media type: send Content-Type: application/json (UTF-8).',
  },
  UNKNOWN_REFERENCE_UNPROCESSABLE: {
    status: 422,
    error: 42201,
    message: 'The body names an item the store does not hold.',
  },
  IDEMPOTENCY_KEY_REUSED_UNPROCESSABLE: {
    status: 422,
    error: 42202,
    message: 'The idempotency key was used before with another request body.',
  },
  PRECONDITION_REQUIRED: {
    status: 428,
    error: 42801,
    message: 'This request must be conditional: send If-Match with the entity tag of the item as last read.',
  },
  HEADERS_TOO_LARGE: { status: 431, error: 43101, message: 'Request header fields are too large.' },
  INTERNAL: { status: 500, error: 50001, message: 'Internal server error.' },
  NO_EXAMPLE: {
    status: 501,
    error: 50101,
    message: 'The document gives no example for this answer, and none could be made from its schema.',
  },
  STUB_BUSY: {
    status: 503,
    error: 50301,
    message: 'Too many answers are held by the stub (its delays, hang and dribble faults): try again later.',
  },
  STORE_UNAVAILABLE: { status: 503, error: 50302, message: 'The plant store is unavailable: try again later.' },
  STUB_DRIBBLE: {
    status: 503,
    error: 50303,
    message: 'The stub sent this answer a few bytes at a time (the fault dribble): nothing was stored.',
  },
  STORE_FULL: { status: 507, error: 50701, message: 'The store is full: no more plants can be stored.' },
  TOO_MANY_TO_SORT: {
    status: 507,
    error: 50702,
    message: 'The list holds more items than the server sorts: ask for it unsorted, or filtered to fewer.',
  },
  NO_ID_LEFT: {
    status: 507,
    error: 50703,
    message: "No id is left: every id the id's schema allows that the server makes is taken.",
  },
} as const satisfies Record<string, { status: number; error: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** The Error record of the specification: `error` (int32) and `message`. */
export interface ErrorBody {
  error: number;
  message: string;
}

/** An error on its way to the client; `detail` replaces the table's message when given. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  constructor(
    readonly code: ErrorCode,
    detail?: string,
    readonly headers: Record<string, string> = {},
  ) {
    const entry = ERRORS[code];
    super(detail ?? entry.message);
    this.status = entry.status;
    this.body = { error: entry.error, message: detail ?? entry.message };
  }
}
