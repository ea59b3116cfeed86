// The receivers webhooks are sent to: http(s) URLs, named only by the
// environment (PLANTSTORE_WEBHOOK_URL) or through the stub's controls
// (PUT /__admin/webhooks, behind the admin token when one is set). An API
// client never names one.
import { MAX_RECEIVER_URL_LENGTH, MAX_WEBHOOK_RECEIVERS } from '../limits.js';

/** A receiver the server cannot send to: the message says what a receiver must be, and never repeats a password. */
export class ReceiverError extends Error {}

/**
 * `raw` as a receiver's URL (normalised, its fragment dropped), or a
 * ReceiverError: an absolute http: or https: URL with a host, no user
 * information (a request carries no credentials the server was given), at
 * most MAX_RECEIVER_URL_LENGTH characters.
 */
export function receiverUrl(raw: string): string {
  if (raw.length > MAX_RECEIVER_URL_LENGTH)
    throw new ReceiverError(`a receiver's URL has at most ${MAX_RECEIVER_URL_LENGTH} characters, got ${raw.length}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ReceiverError(`a receiver is an absolute http:// or https:// URL, got ${JSON.stringify(shortened(raw))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ReceiverError(
      `a receiver is an http:// or https:// URL, got the scheme ${JSON.stringify(url.protocol.slice(0, -1))}`,
    );
  if (url.hostname === '') throw new ReceiverError('a receiver URL names a host');
  if (url.username !== '' || url.password !== '')
    throw new ReceiverError(
      'a receiver URL holds no user name or password: the server sends no credentials to receivers',
    );
  url.hash = '';
  return url.href;
}

/** A list of receivers, each checked, without repeats, at most MAX_WEBHOOK_RECEIVERS. */
export function receiverList(raw: readonly string[]): string[] {
  if (raw.length > MAX_WEBHOOK_RECEIVERS)
    throw new ReceiverError(`at most ${MAX_WEBHOOK_RECEIVERS} receivers, got ${raw.length}`);
  return [...new Set(raw.map(receiverUrl))];
}

function shortened(text: string): string {
  // A value that is not a URL may still hold a secret at its end: show its start only.
  return text.length > 32 ? `${text.slice(0, 29)}...` : text;
}
