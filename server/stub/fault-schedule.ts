// The stub's faults as data: what a step is (scheduled through POST
// /__admin/faults, or asked for by a request's Prefer header), how a step
// the controls receive is checked, and the schedule that hands the steps, in
// order, to the next requests to the operation.
//
//   "normal"                                   answered as ever (the plant is stored)
//   {"code": 503, "retryAfter": 1}             an error status with an Error record
//   {"fault": "reset"}                         a failure on the wire (WIRE_FAULTS)
//   {"fault": "lost-answer"}                   the plant is stored, then the answer is lost
//   {"delayMs": 200}                           a wait, then answered as ever
//   ... , "every": 3 / "probability": 0.2, "seed": 7    a repeating step
import { NonIntegralNumber, type JsonObject, type JsonValue } from '../json/json.js';
import {
  DEFAULT_DRIBBLE_BYTES,
  DEFAULT_DRIBBLE_INTERVAL_MS,
  MAX_DELAY_MS,
  MAX_DRIBBLE_BYTES,
  MAX_DRIBBLE_INTERVAL_MS,
  MAX_FAULT_EVERY,
  MAX_FAULT_STEPS,
  MAX_RETRY_AFTER_SECONDS,
} from '../limits.js';

/** The failures on the wire, by the names `Prefer: fault=F` and `{"fault": F}` take. */
export const WIRE_FAULTS = [
  'reset',
  'close',
  'close-mid-body',
  'garbage',
  'truncated',
  'hang',
  'dribble',
  'lost-answer',
] as const;
export type WireFault = (typeof WIRE_FAULTS)[number];

/** A step, as the controls take it and list it and as the journal shows it. */
export type FaultStep = 'normal' | StepObject;

export interface StepObject extends Repeating {
  /** Milliseconds the answer waits first; alone, the request is then answered as ever. */
  delayMs?: number;
  /** An error status, 400 to 599: the document's example for a declared one, else an Error record of the stub's. */
  code?: number;
  /** With `code`: the answer's Retry-After, in seconds. */
  retryAfter?: number;
  /** With a declared `code`: the name of one of its examples in the document. */
  example?: string;
  fault?: WireFault;
  /** With `fault: "dribble"`: bytes per chunk. */
  bytes?: number;
  /** With `fault: "dribble"`: milliseconds between chunks. */
  intervalMs?: number;
}

/** A step applied to a request, as the journal shows it: where it came from, and the step. */
export interface InjectedFault {
  from: 'prefer' | 'schedule';
  step: FaultStep;
}

/** Why a code's `example` is not one of the document's examples for it ("NAME is not an example of ..."), or undefined. */
export type ExampleCheck = (code: number, example: string | undefined) => string | undefined;

const STEP_KEYS = new Set([
  'delayMs',
  'code',
  'retryAfter',
  'example',
  'fault',
  'bytes',
  'intervalMs',
  'every',
  'probability',
  'seed',
]);
const STEP_SHAPES = '"normal", {"code": N, "retryAfter": S}, {"fault": F} or {"delayMs": MS}';
const MAX_SEED = 2 ** 32 - 1;

/** A step is invalid: the message names the step and what is wrong. */
export class StepError extends Error {}

/**
 * The steps of a POST /__admin/faults body, checked and completed with their
 * defaults (a dribble's bytes and interval, a probability's seed); throws a
 * StepError naming the first step that is wrong and why.
 */
export function parseSteps(body: JsonValue, checkExample: ExampleCheck): FaultStep[] {
  return parseStepList(
    body,
    { shapes: STEP_SHAPES, example: '[{"code": 503, "retryAfter": 1}, "normal"]' },
    (item, name) => parseStep(item, name, checkExample),
  );
}

/** How a schedule's steps are written, for the messages: each step's shapes, and an example of a list. */
export interface StepForms {
  shapes: string;
  example: string;
}

/**
 * A JSON array of steps, each read by `parseOne` (which throws a StepError
 * naming the step): at most MAX_FAULT_STEPS of them, and a repeating step
 * ("every", "probability") only last, as it stays for every later one.
 */
export function parseStepList<Step extends ScheduledStep>(
  body: JsonValue,
  forms: StepForms,
  parseOne: (item: JsonValue, name: string) => Step,
): Step[] {
  if (!Array.isArray(body))
    throw new StepError(`Send a JSON array of steps, each ${forms.shapes}; e.g. ${forms.example}.`);
  if (body.length > MAX_FAULT_STEPS)
    throw new StepError(`${body.length} steps are more than the ${MAX_FAULT_STEPS} the schedule holds.`);
  const steps = body.map((item, index) => parseOne(item, `step ${index}`));
  const repeating = steps.findIndex(isRepeating);
  if (repeating !== -1 && repeating < steps.length - 1) {
    throw new StepError(
      `step ${repeating} repeats ("every" or "probability") and stays for every later request: it must be the last step.`,
    );
  }
  return steps;
}

/** Reads a number of a step: undefined when absent, a StepError naming the step and the key when outside min to max (or not whole). */
export type StepNumber = (key: string, min: number, max: number, what?: string) => number | undefined;

export function stepNumbers(item: JsonObject, name: string): StepNumber {
  return (key, min, max, what = 'a whole number') => {
    const value = item[key];
    if (value === undefined) return undefined;
    const integral = what === 'a whole number';
    if (typeof value !== 'number' || (integral && !Number.isInteger(value)) || value < min || value > max) {
      throw new StepError(`${name}: "${key}" must be ${what} from ${min} to ${max}, got ${shortJson(value)}.`);
    }
    return value;
  };
}

/** How a step repeats, read from its "every", "probability" and "seed" (added to `step`). */
export function readRepeat(item: JsonObject, name: string, number: StepNumber, step: Repeating): void {
  const every = number('every', 1, MAX_FAULT_EVERY);
  const probability = number('probability', 0, 1, 'a number');
  if (every !== undefined && probability !== undefined)
    throw new StepError(`${name} has both "every" and "probability": a step repeats one way.`);
  if (item.seed !== undefined && probability === undefined)
    throw new StepError(`${name}: "seed" goes with "probability".`);
  if (every !== undefined) step.every = every;
  if (probability !== undefined) {
    step.probability = probability;
    step.seed = number('seed', 0, MAX_SEED) ?? 0;
  }
}

function parseStep(item: JsonValue, name: string, checkExample: ExampleCheck): FaultStep {
  if (item === 'normal') return 'normal';
  if (!isObject(item)) throw new StepError(`${name} must be ${STEP_SHAPES}, got ${shortJson(item)}.`);
  for (const key of Object.keys(item)) {
    if (!STEP_KEYS.has(key))
      throw new StepError(
        `${name} has an unknown property ${JSON.stringify(key)}; a step takes ${[...STEP_KEYS].join(', ')}.`,
      );
  }
  const step: StepObject = {};
  const number = stepNumbers(item, name);
  const delayMs = number('delayMs', 0, MAX_DELAY_MS);
  const code = number('code', 400, 599);
  const retryAfter = number('retryAfter', 0, MAX_RETRY_AFTER_SECONDS);
  const fault = item.fault;
  if (fault !== undefined && !(WIRE_FAULTS as readonly JsonValue[]).includes(fault)) {
    throw new StepError(`${name}: "fault" must be one of ${WIRE_FAULTS.join(', ')}, got ${shortJson(fault)}.`);
  }
  const example = item.example;
  if (example !== undefined && typeof example !== 'string')
    throw new StepError(`${name}: "example" must be the name of an example, got ${shortJson(example)}.`);
  if (code !== undefined && fault !== undefined)
    throw new StepError(`${name} has both "code" and "fault": a step is one or the other.`);
  if (code === undefined && fault === undefined && delayMs === undefined)
    throw new StepError(`${name} must be ${STEP_SHAPES}, got ${shortJson(item)}.`);
  if (code === undefined && (retryAfter !== undefined || example !== undefined)) {
    throw new StepError(`${name}: "${retryAfter !== undefined ? 'retryAfter' : 'example'}" goes with "code".`);
  }
  if (fault !== 'dribble' && (item.bytes !== undefined || item.intervalMs !== undefined)) {
    throw new StepError(
      `${name}: "${item.bytes !== undefined ? 'bytes' : 'intervalMs'}" goes with {"fault": "dribble"}.`,
    );
  }
  if (code !== undefined) {
    const problem = checkExample(code, example);
    if (problem !== undefined) throw new StepError(`${name}: "example": ${problem}`);
  }
  // Listed in one order whatever the order sent: what is answered, then the wait, then how it repeats.
  if (code !== undefined) step.code = code;
  if (retryAfter !== undefined) step.retryAfter = retryAfter;
  if (example !== undefined) step.example = example;
  if (fault !== undefined) step.fault = fault as WireFault;
  if (fault === 'dribble') {
    step.bytes = number('bytes', 1, MAX_DRIBBLE_BYTES) ?? DEFAULT_DRIBBLE_BYTES;
    step.intervalMs = number('intervalMs', 1, MAX_DRIBBLE_INTERVAL_MS) ?? DEFAULT_DRIBBLE_INTERVAL_MS;
  }
  if (delayMs !== undefined) step.delayMs = delayMs;
  readRepeat(item, name, number, step);
  return step;
}

/** How a repeating step repeats (every schedule's steps may). */
export interface Repeating {
  /** A repeating step: applies to every K-th request that reaches it, and stays. */
  every?: number;
  /** A repeating step: applies to each request that reaches it with this probability, drawn from `seed`, and stays. */
  probability?: number;
  seed?: number;
}

/** A step of a schedule: "normal", or an object that may repeat. */
export type ScheduledStep = 'normal' | Repeating;

function isRepeating(step: ScheduledStep): boolean {
  return step !== 'normal' && (step.every !== undefined || step.probability !== undefined);
}

interface Scheduled<Step> {
  step: Step;
  /** Requests a repeating step has seen. */
  seen: number;
  /** A probability step's generator. */
  draw?: () => number;
}

/**
 * The schedule: steps apply in order, one per request to the operation (or
 * per webhook delivery); a repeating step (the last one) stays and applies
 * to every K-th request, or to each with its probability, drawn from its
 * seed so that a run repeats.
 */
export class FaultSchedule<Step extends ScheduledStep = FaultStep> {
  private steps: Array<Scheduled<Step>> = [];

  /** `controls`: the path of the controls that clear it, which a message names. */
  constructor(private readonly controls = '/__admin/faults') {}

  /** Steps left; the hot path's one check. */
  get size(): number {
    return this.steps.length;
  }

  /** Appends steps from parseSteps; a StepError when the schedule would pass MAX_FAULT_STEPS or follow a repeating step. */
  add(steps: readonly Step[]): void {
    const last = this.steps.at(-1);
    if (steps.length > 0 && last !== undefined && isRepeating(last.step)) {
      throw new StepError(
        `The schedule ends with a repeating step ("every" or "probability"), which stays: steps after it would never apply. DELETE ${this.controls} first.`,
      );
    }
    if (this.steps.length + steps.length > MAX_FAULT_STEPS) {
      throw new StepError(
        `The schedule holds ${this.steps.length} steps: ${steps.length} more would pass the ${MAX_FAULT_STEPS} it holds.`,
      );
    }
    for (const step of steps) {
      const probability = step === 'normal' ? undefined : step.probability;
      this.steps.push({
        step,
        seen: 0,
        draw: probability === undefined ? undefined : mulberry32((step as Repeating).seed ?? 0),
      });
    }
  }

  list(): Step[] {
    return this.steps.map(({ step }) => step);
  }

  clear(): number {
    const cleared = this.steps.length;
    this.steps = [];
    return cleared;
  }

  /** The step for the next request, taken from the schedule; undefined when none applies (empty, or a repeating step that does not hit). */
  next(): Step | undefined {
    const head = this.steps[0];
    if (head === undefined) return undefined;
    const { step } = head;
    if (step === 'normal' || !isRepeating(step)) {
      this.steps.shift();
      return step;
    }
    head.seen++;
    const hit = step.every !== undefined ? head.seen % step.every === 0 : head.draw!() < step.probability!;
    return hit ? step : undefined;
  }
}

/**
 * Mulberry32, a 32-bit generator of uniform numbers in [0, 1): small, fast,
 * and the same sequence for the same seed on every platform, which is all a
 * reproducible schedule needs (not cryptography).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function isObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof NonIntegralNumber);
}

/** A value as the message quotes it: its JSON, shortened. */
function shortJson(value: JsonValue): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? typeof value;
  return text.length > 64 ? `${text.slice(0, 61)}...` : text;
}
