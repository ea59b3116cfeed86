// The stub's journal: the most recent API requests and webhook delivery
// attempts, within a count and a byte budget (the oldest go first), read a
// page at a time, with every credential redacted when it is read
// (server/redact.ts): by the names that carry one, and by value, the
// configured secrets and those a request presents, wherever they appear in
// the entry.
import type { FastifyRequest } from 'fastify';
import { JOURNAL_BODY_LIMIT, JOURNAL_ENTRY_OVERHEAD_BYTES, JOURNAL_PAGE_BYTES } from '../limits.js';
import {
  NO_NAMES,
  presentedCredentials,
  redactHeaders,
  redactTarget,
  valueRedactor,
  type CredentialNames,
} from '../redact.js';
import type { AttemptInfo, AttemptRecord } from '../webhooks/deliveries.js';
import type { InjectedFault } from './fault-schedule.js';
import { deliverySlot, presentDelivery, type DeliveryEntry, type DeliverySlot } from './journal-deliveries.js';

export type { DeliveryEntry } from './journal-deliveries.js';

type JournalSlot = RequestSlot | DeliverySlot;

interface RequestSlot {
  kind: 'request';
  seq: number;
  time: number;
  method: string;
  url: string;
  headers: FastifyRequest['headers'];
  /** The body, or its first JOURNAL_BODY_LIMIT bytes. */
  body: Buffer | null;
  /** The size of the whole body. */
  bodyBytes: number | null;
  /** null while the answer waits out the stub's delay. */
  status: number | null;
  /** The client closed its connection while the stub held the answer back: nothing was sent. */
  abandoned: boolean;
  /** The stub's fault applied to the request (Prefer or the schedule), or null. */
  fault: InjectedFault | null;
  /** What the entry counts against the budget (entryBytes). */
  bytes: number;
}

/** An API request, as the journal shows it. */
export interface JournalEntry {
  kind: 'request';
  /** Running number since the server started; clearing does not reset it. */
  seq: number;
  time: string;
  method: string;
  /** The request target as sent: path and query, credentials redacted. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body as received, decoded as UTF-8; null when there was none or it was not read (answered before). */
  body: string | null;
  /** The body's size in bytes, null when the body was not read. */
  bodyBytes: number | null;
  /** True when `body` holds only the first JOURNAL_BODY_LIMIT bytes. */
  bodyTruncated: boolean;
  /** The status of the answer; null while it waits, or when none was sent (a fault on the wire, a request its client abandoned). */
  status: number | null;
  /** True when the client closed its connection while the stub held its answer back (the delay, a fault's delay, a hang): no answer was sent, and `status` stays null. */
  abandoned: boolean;
  /** The stub's fault applied to the request: where it came from (`prefer` or `schedule`) and the step; null when none. */
  fault: InjectedFault | null;
}

export interface JournalPage {
  /** Most entries kept. */
  size: number;
  /** Most bytes the entries may take together. */
  maxBytes: number;
  /** Bytes the kept entries take, as counted against maxBytes. */
  bytes: number;
  /** Journaled requests and webhook delivery attempts since start. */
  total: number;
  /** The entries after the page's `after`, oldest first. */
  entries: Array<JournalEntry | DeliveryEntry>;
  /** The `after` of the next page; null when this page holds the newest entry. */
  next: number | null;
}

/** A pending entry's handle: the answer's status, once known, the stub's fault, once applied, or that its client gave up. */
export interface PendingEntry {
  /** The answer left with this status (ignored once abandoned: what the server makes of a request whose client is gone is sent to no one). */
  answered(status: number): void;
  injected(fault: InjectedFault): void;
  /** The client closed its connection while the answer was held back: nothing was sent. */
  abandoned(): void;
}

export class Journal {
  // Oldest first; `head` entries at the front are already gone (dropped in
  // batches, so evicting one entry costs no shift of the whole array).
  private slots: JournalSlot[] = [];
  private head = 0;
  private seq = 0;
  private used = 0;

  constructor(
    readonly capacity: number,
    readonly maxBytes: number,
    /** The server's secrets (API tokens, the admin token, ...): never shown, wherever they appear. */
    private readonly secrets: readonly string[] = [],
    /** The document's API keys' names: the header, query parameter or cookie they are in is redacted by name. */
    private readonly names: CredentialNames = NO_NAMES,
  ) {}

  /** Bytes the kept entries count against the budget. */
  get bytes(): number {
    return this.used;
  }

  get count(): number {
    return this.slots.length - this.head;
  }

  /** Hot path: keeps references only; copying, redaction and decoding wait for page(). */
  record(request: FastifyRequest, status: number): void {
    this.add(request, status);
  }

  /** Records a webhook delivery attempt as it starts; the handle tells it how it ended. */
  recordDelivery(info: AttemptInfo, fault: unknown): AttemptRecord | undefined {
    this.seq++;
    if (this.capacity === 0) return undefined;
    const slot = deliverySlot(this.seq, info, fault, entryBytes);
    this.push(slot);
    return {
      settled: ({ status, error, outcome }) => {
        Object.assign(slot, { status, error, outcome });
      },
    };
  }

  /** Records a request whose answer waits (the stub's delay, a fault): its entry shows status null until answered. */
  recordPending(request: FastifyRequest, fault: InjectedFault | null = null): PendingEntry {
    const slot = this.add(request, null, fault);
    return {
      answered: (status) => void (slot !== undefined && !slot.abandoned && (slot.status = status)),
      abandoned: () => void (slot !== undefined && Object.assign(slot, { abandoned: true, status: null })),
      injected: (injected) => {
        if (slot === undefined || slot.fault !== null) return;
        // The fault's bytes count against the budget from now on (the budget evicts on the next add), if the entry is still kept.
        const bytes = faultBytes(injected);
        slot.fault = injected;
        slot.bytes += bytes;
        if (this.keeps(slot)) this.used += bytes;
      },
    };
  }

  /** Up to `limit` entries after seq `after`, and at most JOURNAL_PAGE_BYTES of them (one at least). */
  page(after: number, limit: number): JournalPage {
    const entries: Array<JournalEntry | DeliveryEntry> = [];
    let bytes = 0;
    let index = this.firstAfter(after);
    for (; index < this.slots.length && entries.length < limit; index++) {
      const slot = this.slots[index]!;
      if (entries.length > 0 && bytes + slot.bytes > JOURNAL_PAGE_BYTES) break;
      bytes += slot.bytes;
      entries.push(present(slot, this.secrets, this.names));
    }
    const last = entries.at(-1);
    return {
      size: this.capacity,
      maxBytes: this.maxBytes,
      bytes: this.used,
      total: this.seq,
      entries,
      next: index < this.slots.length && last ? last.seq : null,
    };
  }

  clear(): number {
    const cleared = this.count;
    this.slots = [];
    this.head = 0;
    this.used = 0;
    return cleared;
  }

  private add(
    request: FastifyRequest,
    status: number | null,
    fault: InjectedFault | null = null,
  ): RequestSlot | undefined {
    this.seq++;
    if (this.capacity === 0) return undefined;
    const received = request.rawBody;
    // A large body is copied down to the limit, so the journal never holds a
    // whole megabyte-sized upload per entry.
    const body =
      received !== null && received.length > JOURNAL_BODY_LIMIT
        ? Buffer.from(received.subarray(0, JOURNAL_BODY_LIMIT))
        : received;
    const slot: RequestSlot = {
      kind: 'request',
      seq: this.seq,
      time: Date.now(),
      method: request.method,
      url: request.url,
      headers: request.headers,
      body,
      bodyBytes: received === null ? null : received.length,
      status,
      abandoned: false,
      fault,
      bytes: entryBytes(request.url, request.headers, body) + faultBytes(fault),
    };
    this.push(slot);
    return slot;
  }

  private push(slot: JournalSlot): void {
    this.slots.push(slot);
    this.used += slot.bytes;
    // The newest entry always stays: MIN_JOURNAL_BYTES is above the largest entry.
    while (this.count > this.capacity || (this.used > this.maxBytes && this.count > 1)) this.dropOldest();
  }

  /** True while the slot is in the journal (not evicted, not cleared): seqs rise from the head. */
  private keeps(slot: JournalSlot): boolean {
    const first = this.slots[this.head];
    return first !== undefined && slot.seq >= first.seq;
  }

  private dropOldest(): void {
    this.used -= this.slots[this.head]!.bytes;
    this.slots[this.head++] = undefined as unknown as JournalSlot;
    if (this.head >= 1024 && this.head * 2 >= this.slots.length) {
      this.slots = this.slots.slice(this.head);
      this.head = 0;
    }
  }

  /** The index of the first kept entry with a seq above `after` (seqs rise with the index). */
  private firstAfter(after: number): number {
    let low = this.head;
    let high = this.slots.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.slots[middle]!.seq <= after) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * What an entry counts against the budget: the body kept, the request
 * target, each header's name and value (as UTF-16, 2 bytes a character),
 * and JOURNAL_ENTRY_OVERHEAD_BYTES.
 */
function entryBytes(url: string, headers: FastifyRequest['headers'], body: Buffer | null): number {
  let bytes = JOURNAL_ENTRY_OVERHEAD_BYTES + (body?.length ?? 0) + 2 * url.length;
  for (const [name, value] of Object.entries(headers)) {
    bytes += 2 * name.length;
    if (typeof value === 'string') bytes += 2 * value.length;
    else if (Array.isArray(value)) for (const item of value) bytes += 2 * item.length;
  }
  return bytes;
}

function present(slot: JournalSlot, secrets: readonly string[], names: CredentialNames): JournalEntry | DeliveryEntry {
  if (slot.kind === 'delivery') {
    const byValue = valueRedactor(secrets);
    const delivery = presentDelivery(slot);
    return { ...delivery, url: byValue(delivery.url), body: byValue(delivery.body) };
  }
  const { body, bodyBytes } = slot;
  const byValue = valueRedactor([...secrets, ...presentedCredentials(slot.headers, names, slot.url)]);
  const headers = redactHeaders(slot.headers, names);
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.map(byValue) : byValue(value);
  }
  return {
    kind: 'request',
    seq: slot.seq,
    time: new Date(slot.time).toISOString(),
    method: slot.method,
    path: byValue(redactTarget(slot.url, names.query)),
    headers,
    body: body === null ? null : byValue(body.toString('utf8')),
    bodyBytes,
    bodyTruncated: body !== null && bodyBytes !== body.length,
    status: slot.status,
    abandoned: slot.abandoned,
    fault: slot.fault,
  };
}

/** What a fault adds to its entry: 2 bytes per character of its JSON (a step is a few dozen). */
function faultBytes(fault: InjectedFault | null): number {
  return fault === null ? 0 : 2 * JSON.stringify(fault).length;
}
