// The deliveries: each event, for each webhook tied to it and each receiver,
// becomes a delivery, sent on a later turn of the event loop (never in the
// request that caused the event), retried with backoff when it fails
// (retries.ts says when), and bounded: attempts, a deadline (also while a
// delivery waits for a place in flight: past it, it is failed unattempted),
// a queue counted in deliveries and in bytes, attempts in flight at once,
// and a wait at shutdown after which what is left is dropped and logged.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { PlantChange, PlantChangeEvent } from '../changes.js';
import { parseJson } from '../json/json.js';
import { MAX_CONCURRENT_DELIVERIES } from '../limits.js';
import { redactInLog } from '../logging.js';
import { redactTarget, targetCredentials } from '../redact.js';
import { withoutMember } from '../operations/stored-plant.js';
import { CHANGES_OF, type WebhookDeclaration } from './declarations.js';
import {
  deliveryBytes,
  type AttemptInfo,
  type Delivery,
  type DeliveryObserver,
  type DeliverySettings,
} from './delivery.js';
import { judge, type Outcome } from './retries.js';
import { Connections, type AttemptResult } from './send.js';

export type { Outcome } from './retries.js';
export type { AttemptInfo, AttemptRecord, DeliveryFault, DeliveryObserver, DeliverySettings } from './delivery.js';

/** A settled delivery keeps its description for the log, not its body. */
const NO_BODY = Buffer.alloc(0);

export class Deliveries {
  private receiverList: readonly string[];
  private readonly pending = new Set<Delivery>();
  /** Bytes the pending deliveries count (deliveryBytes). */
  private bytes = 0;
  private ready: Delivery[] = [];
  private head = 0;
  /** The deliveries of `ready` before this index have their deadline's timer, or were taken. */
  private armed = 0;
  private inFlight = 0;
  private inbox: PlantChange[] = [];
  private idle: Array<() => void> = [];
  private observer: DeliveryObserver | undefined;
  private closed = false;
  /** The webhooks sent after each change of each resource (by changeKey). */
  private readonly byChange = new Map<string, WebhookDeclaration[]>();

  constructor(
    readonly settings: DeliverySettings,
    readonly declarations: readonly WebhookDeclaration[],
    /** The receivers named by the environment, which a reset of the stub restores. */
    readonly initialReceivers: readonly string[],
    private readonly context: {
      log: FastifyBaseLogger;
      connections?: Connections;
      random?: () => number;
    },
  ) {
    this.receiverList = initialReceivers;
    this.redactCredentials(initialReceivers);
    for (const declaration of declarations) {
      for (const change of declaration.event === undefined ? [] : CHANGES_OF[declaration.event]) {
        const key = changeKey(declaration.resource.key, change);
        this.byChange.set(key, [...(this.byChange.get(key) ?? []), declaration]);
      }
    }
  }

  private get connections(): Connections {
    return (this.context.connections ??= new Connections());
  }

  get receivers(): readonly string[] {
    return this.receiverList;
  }

  /** Replaces the receivers (already checked: receivers.ts); deliveries pending keep theirs. */
  set receivers(list: readonly string[]) {
    this.receiverList = list;
    this.redactCredentials(list);
  }

  /** The credentials of the receivers' URLs (a query's access_token, a password) are never in any line of the server's log. */
  private redactCredentials(receivers: readonly string[]): void {
    redactInLog(this.context.log, receivers.flatMap(targetCredentials));
  }

  /** Deliveries pending: waiting, in flight, or waiting to retry; and changes not yet made deliveries. */
  get pendingCount(): number {
    return this.pending.size + this.inbox.length;
  }

  /** Bytes the pending deliveries hold, as the queue's byte budget counts them. */
  get pendingBytes(): number {
    return this.bytes;
  }

  /** Whether some webhook is sent after some change. */
  get listens(): boolean {
    return this.byChange.size > 0;
  }

  observe(observer: DeliveryObserver | undefined): void {
    this.observer = observer;
  }

  /** The change feed's listener: takes note, and does the work on a later turn of the event loop. */
  readonly dispatch = (change: PlantChange): void => {
    if (this.closed || this.receiverList.length === 0 || !this.byChange.has(changeKey(change.resource, change.event)))
      return;
    if (this.inbox.push(change) === 1) setImmediate(() => this.takeInbox());
  };

  private takeInbox(): void {
    const changes = this.inbox;
    this.inbox = [];
    for (const change of changes) {
      for (const webhook of this.byChange.get(changeKey(change.resource, change.event)) ?? []) {
        try {
          this.enqueue(change, webhook);
        } catch (error) {
          // Outside any request: a throw here would end the process. The change is not sent by this webhook, and said so.
          this.context.log.error(
            { err: error, webhook: webhook.name, plant: change.id },
            'webhook: not sent: the delivery could not be made',
          );
        }
      }
    }
    this.pump();
    this.settleIdle();
  }

  private enqueue(change: PlantChange, webhook: WebhookDeclaration): void {
    const text = bodyOf(change, webhook);
    const problems = webhook.validate(parseJson(text));
    const delivery = randomUUID();
    const body = Buffer.from(text);
    const headers = this.headersOf(delivery, webhook);
    for (const url of this.receiverList) {
      const info: AttemptInfo = {
        webhook: webhook.name,
        event: change.event,
        delivery,
        copy: 1,
        attempt: 0,
        method: webhook.method,
        url,
        headers,
        body,
      };
      const fault = this.observer?.nextFault();
      const shown = fault?.shown ?? null;
      const refuse = (reason: string) => {
        this.observer
          ?.record(info, shown)
          ?.settled({ status: null, error: reason, outcome: problems.length > 0 ? 'failed' : 'dropped' });
        this.context.log.warn(
          { webhook: webhook.name, delivery, receiver: redactTarget(url), plant: change.id },
          `webhook: not sent: ${reason}`,
        );
      };
      const bytes = deliveryBytes(info);
      const { queueSize, queueBytes } = this.settings;
      if (problems.length > 0) refuse(`the body does not match the webhook's schema: ${problems.join('; ')}`);
      else if (fault?.drop) refuse("dropped by the stub's schedule");
      else if (this.pending.size >= queueSize) refuse(`${queueSize} deliveries are pending, the most the queue holds`);
      else if (this.bytes + bytes > queueBytes)
        refuse(
          `the deliveries pending hold ${this.bytes} bytes, and this one's ${bytes} would pass the queue's budget of ${queueBytes} bytes`,
        );
      else this.add({ info, copies: fault?.copies ?? 1, deadline: 0, fault: shown, bytes }, fault?.delayMs ?? 0);
    }
  }

  private headersOf(delivery: string, webhook: WebhookDeclaration): Record<string, string> {
    // Named as the Standard Webhooks specification names them; no signature (the server holds no secret of the receiver's).
    return { 'content-type': webhook.mediaType!, 'user-agent': 'plantstore-webhooks', 'webhook-id': delivery };
  }

  private add(delivery: Delivery, delayMs: number): void {
    this.pending.add(delivery);
    this.bytes += delivery.bytes;
    delivery.deadline = Date.now() + delayMs + this.settings.deadlineMs;
    if (delayMs === 0) return void this.ready.push(delivery);
    this.wait(delivery, delayMs);
  }

  private wait(delivery: Delivery, ms: number): void {
    delivery.timer = setTimeout(() => {
      delivery.timer = undefined;
      this.ready.push(delivery);
      this.pump();
    }, ms);
    delivery.timer.unref();
  }

  private pump(): void {
    while (this.inFlight < MAX_CONCURRENT_DELIVERIES && this.head < this.ready.length) {
      const delivery = this.ready[this.head++]!;
      if (this.head >= 1024 && this.head * 2 >= this.ready.length) {
        this.ready = this.ready.slice(this.head);
        this.armed = Math.max(0, this.armed - this.head);
        this.head = 0;
      }
      if (!this.pending.has(delivery)) continue;
      clearTimeout(delivery.timer);
      delivery.timer = undefined;
      // "No attempt starts later than the deadline" (docs/stub.md): checked as the attempt would start, whatever kept it waiting.
      if (Date.now() > delivery.deadline) this.expire(delivery);
      else this.attempt(delivery);
    }
    // Those left waiting for a place are settled at their deadline, not when a place frees up (an attempt may hold one for its whole timeout).
    for (let index = Math.max(this.armed, this.head); index < this.ready.length; index++) {
      const delivery = this.ready[index]!;
      if (!this.pending.has(delivery)) continue;
      delivery.timer = setTimeout(() => this.expire(delivery), Math.max(0, delivery.deadline - Date.now()) + 1);
      delivery.timer.unref();
    }
    this.armed = this.ready.length;
  }

  /** A delivery whose deadline passed before its next attempt could start: failed, with no attempt made (journaled as attempt 0). */
  private expire(delivery: Delivery): void {
    if (!this.pending.has(delivery)) return;
    const reason = `gave up: its deadline passed before its ${delivery.info.attempt === 0 ? 'first attempt' : 'next attempt'} could start (${MAX_CONCURRENT_DELIVERIES} attempts in flight at most)`;
    const info = { ...delivery.info, attempt: 0 };
    this.observer?.record(info, delivery.fault)?.settled({ status: null, error: reason, outcome: 'failed' });
    this.log(info, { status: null, error: reason }, 'failed', reason);
    this.release(delivery);
  }

  /** No longer pending: its bytes and its body go. */
  private release(delivery: Delivery): void {
    clearTimeout(delivery.timer);
    if (!this.pending.delete(delivery)) return;
    this.bytes -= delivery.bytes;
    delivery.info = { ...delivery.info, body: NO_BODY };
    this.settleIdle();
  }

  private attempt(delivery: Delivery): void {
    const info = { ...delivery.info, attempt: delivery.info.attempt + 1 };
    info.headers = { ...info.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) };
    delivery.info = info;
    this.inFlight++;
    const record = this.observer?.record(info, delivery.fault);
    const abort = (delivery.abort = new AbortController());
    // send() settles every attempt as a result (an answer, a timeout, an error); it never rejects.
    void this.connections
      .send({
        url: info.url,
        method: info.method,
        headers: info.headers,
        body: info.body,
        timeoutMs: this.settings.timeoutMs,
        signal: abort.signal,
      })
      .then((result) => {
        this.inFlight--;
        delivery.abort = undefined;
        const cancelled = !this.pending.has(delivery);
        const { outcome, reason, wait } = cancelled
          ? { outcome: 'cancelled' as const, reason: 'cancelled', wait: 0 }
          : judge(result, info.attempt, delivery.deadline, this.settings, this.context.random);
        record?.settled({ ...result, outcome });
        this.log(info, result, outcome, reason);
        if (outcome === 'retry') this.wait(delivery, wait);
        else if (!cancelled) this.finish(delivery);
        this.pump();
      });
  }

  private finish(delivery: Delivery): void {
    if (delivery.info.copy < delivery.copies) {
      // The next copy, as a sender that never saw the receiver's answer sends it again: after this one, with the same webhook-id.
      delivery.info = { ...delivery.info, copy: delivery.info.copy + 1, attempt: 0 };
      delivery.deadline = Date.now() + this.settings.deadlineMs;
      this.ready.push(delivery);
      return;
    }
    this.release(delivery);
  }

  /** Tells drain() when nothing is pending or about to be. */
  private settleIdle(): void {
    if (this.pending.size === 0 && this.inbox.length === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  private log(info: AttemptInfo, result: AttemptResult, outcome: Outcome, reason: string): void {
    const fields = {
      webhook: info.webhook,
      delivery: info.delivery,
      receiver: redactTarget(info.url),
      attempt: info.attempt,
      copy: info.copy,
      status: result.status,
      error: result.error ?? undefined,
    };
    if (outcome === 'delivered') this.context.log.info(fields, 'webhook: delivered');
    else if (outcome === 'retry') this.context.log.info(fields, 'webhook: attempt failed, to be retried');
    else this.context.log.warn(fields, `webhook: not delivered: ${reason}`);
  }

  /** Drops every pending delivery (an attempt in flight is aborted); answers how many. */
  cancelAll(): number {
    const dropped = this.pending.size;
    for (const delivery of this.pending) {
      clearTimeout(delivery.timer);
      delivery.abort?.abort();
    }
    this.pending.clear();
    this.bytes = 0;
    this.ready = [];
    this.head = 0;
    this.armed = 0;
    this.inbox = [];
    this.settleIdle();
    return dropped;
  }

  /**
   * For the server's close: waits until no delivery is pending, or `ms`
   * pass; then drops what is left (logged with the webhook-ids) and closes
   * the connections. Answers how many were dropped.
   */
  async drain(ms: number): Promise<number> {
    if (this.pending.size > 0 || this.inbox.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => this.idle.push(resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
      ]);
      clearTimeout(timer);
    }
    this.closed = true;
    const ids = [...this.pending].map((delivery) => delivery.info.delivery);
    const dropped = this.cancelAll();
    if (dropped > 0)
      this.context.log.warn(
        { deliveries: ids.slice(0, 100) },
        `webhook: closing: ${dropped} deliveries still pending after ${ms} ms were dropped`,
      );
    this.context.connections?.close();
    return dropped;
  }
}

/** The webhooks' key of a change: its resource and its event. */
function changeKey(resource: string, event: PlantChangeEvent): string {
  return `${resource}\u0000${event}`;
}

/** The body: the item's id (an integer's digits, a string quoted), then the item as stored (its members as sent). */
function bodyOf({ id, json }: PlantChange, { resource }: WebhookDeclaration): string {
  const member = JSON.stringify(resource.idMember);
  const members = resource.storesId ? withoutMember(json, resource.idMember) : json;
  const written = resource.idKind === 'integer' ? id : JSON.stringify(id);
  return members === '{}' ? `{${member}:${written}}` : `{${member}:${written},${members.slice(1)}`;
}
