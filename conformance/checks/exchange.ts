// What a check sends and what came back, as data: the runner sends each
// case's RequestSpec (run/http.ts does the I/O) and hands the Exchange back
// to the check to grade; the reports and the curl line read the same record.
// An exchange without a usable answer carries `error`, a sentence naming the
// cause, and `failure`, its kind (the runner's dead-target policy reads it).
import type { Redactor } from '../redact/shorten.js';

export interface RequestSpec {
  method: string;
  /** Path relative to the target's base URL, e.g. `/plants`. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /**
   * Send the body with the chunked transfer coding (RFC 9112 §7.1), one chunk
   * per piece, with a short pause between pieces so that they reach the
   * target as separate reads; `body` is then the pieces joined (for reports).
   */
  chunks?: Buffer[];
  /**
   * The Authorization value as a double-quoted shell word that expands
   * $PLANTSTORE_TOKEN, for a credential derived from the token (a near miss):
   * the curl line then reproduces it without printing the token.
   */
  authorizationShell?: string;
  /** What this request is about, shown in reports. */
  note?: string;
}

export interface ResponseData {
  status: number;
  headers: Record<string, string>;
  bodyText: string;
}

/**
 * Why an exchange has no usable answer. All but `abandoned` and `request`
 * are the target's doing: `abandoned` means the runner gave up on the target
 * (the request was not sent, or was cut short), `request` that the harness
 * could not build the request.
 */
export type Failure =
  'unreachable' | 'timeout' | 'closed' | 'not-http' | 'too-large' | 'abandoned' | 'request' | 'rate-limited';

export interface Exchange {
  request: RequestSpec;
  url: string;
  response?: ResponseData;
  /** Why there is no response: timeout, refused connection... */
  error?: string;
  failure?: Failure;
  /** The system's or the HTTP client's error code when there is no answer (ECONNREFUSED, ERR_SSL_WRONG_VERSION_NUMBER, …): the diagnosis reads it. */
  code?: string;
  /**
   * Redacts the target's secrets from a text of this exchange before it is
   * shortened for a report (shorten in redact/shorten.ts): set by the
   * HttpClient that made it, which knows its target's; an exchange made
   * otherwise (a test's) knows of none.
   */
  redact?: Redactor;
  /** The check that sent it (set by the runner): reports tag each case with it, the HAR each entry. */
  sentBy?: string;
}
