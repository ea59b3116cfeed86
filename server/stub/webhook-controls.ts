// The stub's controls of the webhooks (docs/stub.md, "Webhooks"), beside
// the others under /__admin and behind the same token:
//
//   GET    /__admin/webhooks          the receivers, the document's webhooks and the event each is sent for, what is pending
//   PUT    /__admin/webhooks          {"receivers": ["http://..."]}: the receivers from now on
//   GET    /__admin/webhooks/faults   the delivery steps left
//   POST   /__admin/webhooks/faults   append delivery steps (delivery-faults.ts)
//   DELETE /__admin/webhooks/faults   clear them
//
// Only the environment and these controls name receivers: no API request can.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ParsedBody } from '../http/body.js';
import { ApiError } from '../http/errors.js';
import { NonIntegralNumber } from '../json/json.js';
import { redactTarget } from '../redact.js';
import type { Deliveries, DeliveryObserver } from '../webhooks/deliveries.js';
import { ReceiverError, receiverList } from '../webhooks/receivers.js';
import { deliveryFault, parseDeliverySteps, type DeliveryStep } from './delivery-faults.js';
import { FaultSchedule, StepError } from './fault-schedule.js';

export const WEBHOOKS_CONTROL = '/__admin/webhooks';

/** The webhooks the stub controls: the deliveries, and the schedule of their faults. */
export interface WebhookControl {
  deliveries: Deliveries;
  schedule: FaultSchedule<DeliveryStep>;
}

/** The stub's hold on the deliveries: their faults come from its schedule, their attempts go to `record` (the journal). */
export function controlWebhooks(deliveries: Deliveries, record: DeliveryObserver['record']): WebhookControl {
  const schedule = new FaultSchedule<DeliveryStep>(`${WEBHOOKS_CONTROL}/faults`);
  deliveries.observe({ nextFault: () => (schedule.size === 0 ? undefined : deliveryFault(schedule.next())), record });
  return { deliveries, schedule };
}

export function registerWebhookControls(
  app: FastifyInstance,
  onRequest: (request: FastifyRequest) => Promise<void>,
  jsonBody: (request: FastifyRequest) => ParsedBody,
  { deliveries, schedule }: WebhookControl,
): void {
  const invalid = (message: string) => new ApiError('STUB_INVALID_REQUEST', message);
  app.get(WEBHOOKS_CONTROL, { onRequest }, async () => view(deliveries));
  app.put(WEBHOOKS_CONTROL, { onRequest }, async (request) => {
    const { value } = jsonBody(request);
    const receivers =
      value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof NonIntegralNumber)
        ? value.receivers
        : undefined;
    if (!Array.isArray(receivers) || !receivers.every((url) => typeof url === 'string')) {
      throw invalid(
        'Send {"receivers": ["http://host:port/path", ...]}: the receivers webhooks are sent to from now on ([] for none).',
      );
    }
    try {
      deliveries.receivers = receiverList(receivers);
    } catch (error) {
      throw error instanceof ReceiverError ? invalid(`Receivers not changed: ${error.message}.`) : error;
    }
    return view(deliveries);
  });
  app.get(`${WEBHOOKS_CONTROL}/faults`, { onRequest }, async () => ({ steps: schedule.list() }));
  app.post(`${WEBHOOKS_CONTROL}/faults`, { onRequest }, async (request) => {
    try {
      const steps = parseDeliverySteps(jsonBody(request).value);
      schedule.add(steps);
      return { added: steps.length, steps: schedule.list() };
    } catch (error) {
      throw error instanceof StepError ? invalid(error.message) : error;
    }
  });
  app.delete(`${WEBHOOKS_CONTROL}/faults`, { onRequest }, async () => ({ cleared: schedule.clear() }));
}

/** For POST /__admin/reset: the deliveries pending cancelled (they belong to the test before), the schedule cleared, the receivers back to the environment's. */
export function resetWebhooks({ deliveries, schedule }: WebhookControl): {
  webhookFaultsCleared: number;
  deliveriesCancelled: number;
} {
  deliveries.receivers = deliveries.initialReceivers;
  return { webhookFaultsCleared: schedule.clear(), deliveriesCancelled: deliveries.cancelAll() };
}

function view(deliveries: Deliveries) {
  const { attempts, backoffMs, timeoutMs, deadlineMs, queueSize, queueBytes } = deliveries.settings;
  return {
    receivers: deliveries.receivers.map((url) => redactTarget(url)),
    webhooks: deliveries.declarations.map(({ name, method, event, reason, mediaType }) => ({
      name,
      method,
      event: event ?? null,
      reason,
      mediaType: mediaType ?? null,
    })),
    pending: deliveries.pendingCount,
    pendingBytes: deliveries.pendingBytes,
    settings: { attempts, backoffMs, timeoutMs, deadlineMs, queueSize, queueBytes },
  };
}
