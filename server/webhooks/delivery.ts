// What a delivery is (deliveries.ts sends them): its settings, what the
// stub's schedule does to it, what the journal records of each attempt, and
// what it costs the queue's byte budget.
import type { PlantChangeEvent } from '../changes.js';
import { DELIVERY_OVERHEAD_BYTES } from '../limits.js';
import type { Outcome } from './retries.js';
import type { AttemptResult } from './send.js';

export interface DeliverySettings {
  /** Attempts per delivery, the first included. */
  attempts: number;
  /** The wait before the first retry; each later one doubles it, up to MAX_WEBHOOK_BACKOFF_MS. */
  backoffMs: number;
  /** Milliseconds one attempt may take. */
  timeoutMs: number;
  /** No attempt of a delivery starts later than this after its event (and a scheduled delay). */
  deadlineMs: number;
  /** Most deliveries pending at once. */
  queueSize: number;
  /** Most bytes the deliveries pending may hold together, as deliveryBytes() counts them. */
  queueBytes: number;
}

/** What a step of the stub's schedule does to one delivery, and the step as the journal shows it. */
export interface DeliveryFault {
  drop?: boolean;
  /** Times the delivery is sent, one after the other, each with the same webhook-id (at-least-once). */
  copies?: number;
  /** Milliseconds before its first attempt. */
  delayMs?: number;
  shown: unknown;
}

/** One attempt, as the journal records it: what was sent, where. */
export interface AttemptInfo {
  /** The webhook's name in the document, and the change it is sent for. */
  webhook: string;
  event: PlantChangeEvent;
  /** The webhook-id: one per event and webhook, the same for every receiver, retry and copy. */
  delivery: string;
  /** 1, or 2 and more for a copy the stub's schedule sends again. */
  copy: number;
  /** 1 for the first attempt of the copy; 0 for a delivery never attempted (dropped). */
  attempt: number;
  method: string;
  /** The receiver. */
  url: string;
  /** Sent exactly so (send.ts adds content-length only). */
  headers: Record<string, string>;
  body: Buffer;
}

/** A recorded attempt, told how it ended. */
export interface AttemptRecord {
  settled(result: AttemptResult & { outcome: Outcome }): void;
}

/** The stub's view of the deliveries: its fault schedule and its journal. */
export interface DeliveryObserver {
  nextFault(): DeliveryFault | undefined;
  record(info: AttemptInfo, fault: unknown): AttemptRecord | undefined;
}

/** A delivery as the queue holds it while it is pending. */
export interface Delivery {
  info: AttemptInfo;
  copies: number;
  deadline: number;
  fault: unknown;
  /** What it counts against the queue's byte budget (deliveryBytes). */
  bytes: number;
  /** The wait before its next attempt, or (while it waits for a place in flight) its deadline. */
  timer?: NodeJS.Timeout;
  abort?: AbortController;
}

/**
 * What a delivery counts against the queue's byte budget, as the journal
 * counts an entry: its body, each character of its URL, headers and names as
 * two bytes (UTF-16), and DELIVERY_OVERHEAD_BYTES besides. The body of one
 * event is shared by its receivers' deliveries, and counted in each: an
 * upper bound.
 */
export function deliveryBytes(info: AttemptInfo): number {
  let characters = info.url.length + info.webhook.length + info.delivery.length + info.method.length;
  for (const [name, value] of Object.entries(info.headers)) characters += name.length + value.length;
  return DELIVERY_OVERHEAD_BYTES + info.body.length + 2 * characters;
}
