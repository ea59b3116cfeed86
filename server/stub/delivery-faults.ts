// The stub's faults for webhook deliveries, scheduled through POST
// /__admin/webhooks/faults: what real webhook senders do to receivers, on
// cue. Senders deliver at least once, not exactly once: a delivery may come
// twice (the sender never saw the receiver's answer and sent it again), late
// and out of order (a retry queue), or never (a sender that lost it or gave
// up). A receiver must cope with each; these steps make each happen.
//
//   "normal"            sent as ever
//   {"copies": N}       sent N times, one after the other, each with the same
//                       webhook-id and body (each copy with its own retries)
//   {"delayMs": MS}     its first attempt waits MS: a later event's delivery
//                       arrives first
//   {"drop": true}      never sent
//   ..., "every": K / "probability": P, "seed": S      a repeating step
//
// One step per delivery (one event, one webhook, one receiver), in order.
import { NonIntegralNumber, type JsonValue } from '../json/json.js';
import { MAX_DELAY_MS, MAX_DELIVERY_COPIES } from '../limits.js';
import type { DeliveryFault } from '../webhooks/deliveries.js';
import { parseStepList, readRepeat, StepError, stepNumbers, type Repeating } from './fault-schedule.js';

export type DeliveryStep = 'normal' | DeliveryStepObject;

export interface DeliveryStepObject extends Repeating {
  drop?: true;
  copies?: number;
  delayMs?: number;
}

const KEYS = new Set(['drop', 'copies', 'delayMs', 'every', 'probability', 'seed']);
const SHAPES = '"normal", {"copies": N}, {"delayMs": MS} or {"drop": true}';

/** The steps of a POST /__admin/webhooks/faults body; a StepError naming the first wrong step and why. */
export function parseDeliverySteps(body: JsonValue): DeliveryStep[] {
  return parseStepList(body, { shapes: SHAPES, example: '[{"copies": 2}, {"drop": true}, "normal"]' }, parseStep);
}

function parseStep(item: JsonValue, name: string): DeliveryStep {
  if (item === 'normal') return 'normal';
  if (item === null || typeof item !== 'object' || Array.isArray(item) || item instanceof NonIntegralNumber) {
    throw new StepError(`${name} must be ${SHAPES}, got ${JSON.stringify(item)?.slice(0, 64)}.`);
  }
  for (const key of Object.keys(item)) {
    if (!KEYS.has(key))
      throw new StepError(
        `${name} has an unknown property ${JSON.stringify(key)}; a delivery step takes ${[...KEYS].join(', ')}.`,
      );
  }
  const number = stepNumbers(item, name);
  const copies = number('copies', 1, MAX_DELIVERY_COPIES);
  const delayMs = number('delayMs', 0, MAX_DELAY_MS);
  if (item.drop !== undefined && item.drop !== true) throw new StepError(`${name}: "drop" is true or absent.`);
  if (item.drop === true && (copies !== undefined || delayMs !== undefined))
    throw new StepError(`${name}: "drop" goes alone: a dropped delivery is neither copied nor delayed.`);
  if (item.drop === undefined && copies === undefined && delayMs === undefined)
    throw new StepError(`${name} must be ${SHAPES}, got ${JSON.stringify(item).slice(0, 64)}.`);
  const step: DeliveryStepObject = {};
  if (item.drop === true) step.drop = true;
  if (copies !== undefined) step.copies = copies;
  if (delayMs !== undefined) step.delayMs = delayMs;
  readRepeat(item, name, number, step);
  return step;
}

/** What a scheduled step does to its delivery, with the step as the journal shows it; undefined for none. */
export function deliveryFault(step: DeliveryStep | undefined): DeliveryFault | undefined {
  if (step === undefined) return undefined;
  const shown = { from: 'schedule', step };
  if (step === 'normal') return { shown };
  return { drop: step.drop, copies: step.copies, delayMs: step.delayMs, shown };
}
