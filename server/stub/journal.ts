// The stub's journal: a ring buffer of the most recent API requests, with
// credentials redacted when it is read.
import type { FastifyRequest } from 'fastify';
import { JOURNAL_BODY_LIMIT } from '../limits.js';

const REDACTED = '<redacted>';

interface JournalSlot {
  seq: number;
  time: number;
  method: string;
  url: string;
  headers: FastifyRequest['headers'];
  /** The body, or its first JOURNAL_BODY_LIMIT bytes. */
  body: Buffer | null;
  /** The size of the whole body. */
  bodyBytes: number | null;
  status: number;
}

export interface JournalEntry {
  /** Running number since the server started; clearing does not reset it. */
  seq: number;
  time: string;
  method: string;
  /** The request target as sent: path and query. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body as received, decoded as UTF-8; null when there was none or it was not read (answered before). */
  body: string | null;
  /** The body's size in bytes, null when the body was not read. */
  bodyBytes: number | null;
  /** True when `body` holds only the first JOURNAL_BODY_LIMIT bytes. */
  bodyTruncated: boolean;
  /** The status of the answer. */
  status: number;
}

export class Journal {
  private readonly slots: Array<JournalSlot | undefined>;
  private next = 0; // where the next entry goes
  private count = 0;
  private seq = 0;
  constructor(readonly capacity: number) {
    this.slots = new Array<JournalSlot | undefined>(capacity);
  }

  /** Hot path: keeps references only; copying, redaction and decoding wait for snapshot(). */
  record(request: FastifyRequest, status: number): void {
    const received = request.rawBody;
    // A large body is copied down to the limit, so the ring never holds a
    // whole megabyte-sized upload per entry.
    const body = received !== null && received.length > JOURNAL_BODY_LIMIT ? Buffer.from(received.subarray(0, JOURNAL_BODY_LIMIT)) : received;
    this.slots[this.next] = {
      seq: ++this.seq,
      time: Date.now(),
      method: request.method,
      url: request.url,
      headers: request.headers,
      body,
      bodyBytes: received === null ? null : received.length,
      status,
    };
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  snapshot(): { size: number; total: number; entries: JournalEntry[] } {
    const entries: JournalEntry[] = [];
    const start = (this.next - this.count + this.capacity) % this.capacity;
    for (let i = 0; i < this.count; i++) {
      const slot = this.slots[(start + i) % this.capacity];
      if (slot !== undefined) entries.push(present(slot));
    }
    return { size: this.capacity, total: this.seq, entries };
  }

  clear(): number {
    const cleared = this.count;
    this.slots.fill(undefined);
    this.count = 0;
    this.next = 0;
    return cleared;
  }
}

function present(slot: JournalSlot): JournalEntry {
  const { body, bodyBytes } = slot;
  return {
    seq: slot.seq,
    time: new Date(slot.time).toISOString(),
    method: slot.method,
    path: slot.url,
    headers: redactHeaders(slot.headers),
    body: body === null ? null : body.toString('utf8'),
    bodyBytes,
    bodyTruncated: body !== null && bodyBytes !== body.length,
    status: slot.status,
  };
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization']);

/** Credentials keep their scheme and lose the rest: `Bearer <redacted>`. Cookies are dropped whole. */
function redactHeaders(headers: FastifyRequest['headers']): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (SECRET_HEADERS.has(name) && typeof value === 'string') {
      const space = value.indexOf(' ');
      out[name] = space === -1 ? REDACTED : `${value.slice(0, space)} ${REDACTED}`;
    } else if (name === 'cookie') {
      out[name] = REDACTED;
    } else {
      out[name] = value;
    }
  }
  return out;
}
