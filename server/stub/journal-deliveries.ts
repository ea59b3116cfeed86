// The journal's entries of webhook delivery attempts (journal.ts keeps them
// beside the API requests, in one order and one budget): what was sent,
// where, and what became of it. The receiver's answer body is never kept.
import { JOURNAL_BODY_LIMIT } from '../limits.js';
import { redactTarget } from '../redact.js';
import type { AttemptInfo, Outcome } from '../webhooks/deliveries.js';

/** A webhook delivery attempt: what was sent, where, and what became of it (never the receiver's body). */
export interface DeliverySlot {
  kind: 'delivery';
  seq: number;
  time: number;
  /** What was sent, less the body: a slot never holds the whole body of a large delivery. */
  info: Omit<AttemptInfo, 'body'>;
  /** The body sent, or a copy of its first JOURNAL_BODY_LIMIT bytes. */
  body: Buffer;
  /** The body's length as sent. */
  bodyBytes: number;
  status: number | null;
  error: string | null;
  outcome: Outcome | null;
  /** The step of the stub's delivery schedule applied to it, or null. */
  fault: unknown;
  bytes: number;
}

/**
 * A slot for an attempt starting now. It counts against the budget as a
 * request does (`requestBytes`: its body as kept, its URL and headers), and
 * the names it carries besides.
 */
export function deliverySlot(
  seq: number,
  info: AttemptInfo,
  fault: unknown,
  requestBytes: (url: string, headers: Record<string, string>, body: Buffer) => number,
): DeliverySlot {
  const { body: sent, ...described } = info;
  // A copy, not a slice: a slice would keep the whole body of a large delivery alive as long as the entry.
  const body = sent.length > JOURNAL_BODY_LIMIT ? Buffer.from(sent.subarray(0, JOURNAL_BODY_LIMIT)) : sent;
  const bytes =
    requestBytes(info.url, info.headers, body) +
    2 * (info.webhook.length + info.delivery.length + (JSON.stringify(fault)?.length ?? 0));
  return {
    kind: 'delivery',
    seq,
    time: Date.now(),
    info: described,
    body,
    bodyBytes: sent.length,
    status: null,
    error: null,
    outcome: null,
    fault,
    bytes,
  };
}

/** A webhook delivery attempt (docs/stub.md, "Deliveries in the journal"): what was sent (AttemptInfo), and what became of it. */
export interface DeliveryEntry extends Omit<AttemptInfo, 'body'> {
  kind: 'delivery';
  seq: number;
  time: string;
  /** The body sent, decoded as UTF-8 (its first JOURNAL_BODY_LIMIT bytes). */
  body: string;
  bodyBytes: number;
  bodyTruncated: boolean;
  /** The receiver's status; null while in flight, or when it gave none (then `error` says why). */
  status: number | null;
  error: string | null;
  /** null while in flight. */
  outcome: Outcome | null;
  fault: unknown;
}

export function presentDelivery(slot: DeliverySlot): DeliveryEntry {
  const { info, body } = slot;
  return {
    kind: 'delivery',
    seq: slot.seq,
    time: new Date(slot.time).toISOString(),
    ...info,
    // The receiver as the journal shows a request's target: credentials in its query redacted.
    url: redactTarget(info.url),
    body: body.toString('utf8'),
    bodyBytes: slot.bodyBytes,
    bodyTruncated: body.length !== slot.bodyBytes,
    status: slot.status,
    error: slot.error,
    outcome: slot.outcome,
    fault: slot.fault,
  };
}
