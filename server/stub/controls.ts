// The stub's controls: JSON endpoints outside the API's paths, for a client
// team's tests to set up and inspect the stub. Errors are Error records.
//
//   GET    /__admin/plants    stored plants             DELETE /__admin/plants   reset the store
//          ?after=SEQ&limit=N a page of them
//   POST   /__admin/plants    store NewPlants (array)
//   GET    /__admin/journal   recent API requests       DELETE /__admin/journal  clear it
//          ?after=SEQ&limit=N a page of them
//   GET    /__admin/delay     the answer delay          PUT    /__admin/delay    {"ms": N}
//   GET    /__admin/faults    the steps left            POST   /__admin/faults   append steps (array)
//                                                       DELETE /__admin/faults   clear them
//   POST   /__admin/reset     plants, journal, faults and delay as at start (the store emptied),
//                             and the webhooks' receivers, delivery faults and pending deliveries
//   ...    /__admin/webhooks  the webhooks' receivers and delivery faults (webhook-controls.ts)
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isJsonMediaType, readBody, type ParsedBody } from '../http/body.js';
import type { CreateRule } from '../operations/create.js';
import { ApiError } from '../http/errors.js';
import { NonIntegralNumber, type JsonObject, type JsonValue } from '../json/json.js';
import {
  DEFAULT_JOURNAL_PAGE,
  DEFAULT_PLANTS_PAGE,
  MAX_DELAY_MS,
  MAX_JOURNAL_PAGE,
  MAX_PLANTS_PAGE,
  PLANTS_PAGE_BYTES,
} from '../limits.js';
import { RESERVED_PREFIX } from '../http/routes.js';
import type { PlantPage, PlantStore } from '../store/store.js';
import { withoutMember } from '../operations/stored-plant.js';
import type { OperationContract } from '../http/validation.js';
import { parseSteps, StepError, type ExampleCheck, type FaultSchedule } from './fault-schedule.js';
import { controlsGuard } from './controls-guard.js';
import type { Journal } from './journal.js';
import { registerWebhookControls, resetWebhooks, type WebhookControl } from './webhook-controls.js';

export const CONTROLS_PREFIX = `${RESERVED_PREFIX}admin`;

/** The answer delay, which PUT /__admin/delay changes while the server runs. */
export interface DelaySetting {
  ms: number;
}

export interface ControlsOptions {
  /** When set, every control requires `Authorization: Bearer <token>`. */
  token: string | undefined;
  /** Host names the controls answer without a token, besides loopback names and IP addresses (controls-guard.ts). */
  allowedHosts: readonly string[] | '*';
  contract: OperationContract;
  store: PlantStore;
  rule: CreateRule;
  journal: Journal;
  delay: DelaySetting;
  /** The delay the server started with, which POST /__admin/reset restores. */
  startDelayMs: number;
  /** The fault schedule, and the check of a step's example against the document. */
  faults: { schedule: FaultSchedule; checkExample: ExampleCheck };
  /** The webhooks' deliveries and their fault schedule, when the app sends webhooks. */
  webhooks?: WebhookControl | undefined;
}

export function registerControls(
  app: FastifyInstance,
  { token, allowedHosts, contract, store, rule, journal, delay, startDelayMs, faults, webhooks }: ControlsOptions,
): void {
  const onRequest = controlsGuard({ token, allowedHosts });
  const invalid = (message: string) => new ApiError('STUB_INVALID_REQUEST', message);

  app.get(`${CONTROLS_PREFIX}/plants`, { onRequest }, async (request, reply) => {
    const { after, limit } = pageOf(request, 'the stored plants', DEFAULT_PLANTS_PAGE, MAX_PLANTS_PAGE);
    const page = await store.list(after, limit, PLANTS_PAGE_BYTES);
    const idMember = rule.kind.resource.id.property ?? 'id';
    return reply
      .type('application/json; charset=utf-8')
      .send(plantsPageJson(page, contract.plant.keeps(idMember) ? idMember : undefined));
  });
  app.post(`${CONTROLS_PREFIX}/plants`, { onRequest }, async (request) => {
    const body = requiredJsonBody(request);
    // A list that does not fit is the API's 507, with the reason.
    const created = await rule.storeAll(
      body.value,
      'request body',
      (message, kind) => (kind === 'full' ? new ApiError('STORE_FULL', message) : invalid(message)),
      { sent: body },
    );
    return { created };
  });
  app.delete(`${CONTROLS_PREFIX}/plants`, { onRequest }, async () => ({ deleted: await store.clear() }));

  app.get(`${CONTROLS_PREFIX}/journal`, { onRequest }, async (request) => {
    const { after, limit } = pageOf(request, 'the journal', DEFAULT_JOURNAL_PAGE, MAX_JOURNAL_PAGE);
    return journal.page(after, limit);
  });
  app.delete(`${CONTROLS_PREFIX}/journal`, { onRequest }, async () => ({ cleared: journal.clear() }));

  app.get(`${CONTROLS_PREFIX}/delay`, { onRequest }, async () => ({ ms: delay.ms }));
  app.put(`${CONTROLS_PREFIX}/delay`, { onRequest }, async (request) => {
    const { value } = requiredJsonBody(request);
    const ms = isObject(value) ? value.ms : undefined;
    if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > MAX_DELAY_MS) {
      throw invalid(`Send {"ms": N} with N a whole number of milliseconds from 0 to ${MAX_DELAY_MS}.`);
    }
    delay.ms = ms;
    return { ms };
  });

  // The fault schedule (docs/stub.md, "Faults"): steps apply in order to the next requests to the operation.
  app.get(`${CONTROLS_PREFIX}/faults`, { onRequest }, async () => ({ steps: faults.schedule.list() }));
  app.post(`${CONTROLS_PREFIX}/faults`, { onRequest }, async (request) => {
    try {
      const steps = parseSteps(requiredJsonBody(request).value, faults.checkExample);
      faults.schedule.add(steps);
      return { added: steps.length, steps: faults.schedule.list() };
    } catch (error) {
      throw error instanceof StepError ? invalid(error.message) : error;
    }
  });
  app.delete(`${CONTROLS_PREFIX}/faults`, { onRequest }, async () => ({ cleared: faults.schedule.clear() }));
  if (webhooks !== undefined) registerWebhookControls(app, onRequest, requiredJsonBody, webhooks);

  // Everything a test changes, back as at start: one call for a test's beforeEach.
  app.post(`${CONTROLS_PREFIX}/reset`, { onRequest }, async () => {
    const faultsCleared = faults.schedule.clear();
    delay.ms = startDelayMs;
    // Before the journal is cleared: a delivery of the test before is cancelled, and its attempt leaves with the journal.
    const webhooksReset = webhooks === undefined ? {} : resetWebhooks(webhooks);
    return {
      plantsDeleted: await store.clear(),
      journalCleared: journal.clear(),
      faultsCleared,
      delayMs: delay.ms,
      ...webhooksReset,
    };
  });
}

/** The JSON body of a control request: 415 unless the content type is JSON, 400 when it is not JSON or missing. */
function requiredJsonBody(request: FastifyRequest): ParsedBody {
  if (!isJsonMediaType(request.headers['content-type'])) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
  const body = readBody(request);
  if (body === undefined) throw new ApiError('STUB_INVALID_REQUEST', 'Request body is required.');
  return body;
}

/** The page a request asks for (?after=SEQ&limit=N); the 400 that says the form when either is not a whole number in range. */
function pageOf(
  request: FastifyRequest,
  what: string,
  defaultLimit: number,
  maxLimit: number,
): { after: number; limit: number } {
  const query = request.query as Record<string, string | string[] | undefined>;
  const after = wholeNumber(query.after, 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = wholeNumber(query.limit, defaultLimit, 1, maxLimit);
  if (after === undefined || limit === undefined) {
    throw new ApiError(
      'STUB_INVALID_REQUEST',
      `Page ${what} with ?after=SEQ&limit=N: SEQ a whole number (0 for the oldest), N from 1 to ${maxLimit}.`,
    );
  }
  return { after, limit };
}

/**
 * A page of plants as the answer's JSON text, made of the stored texts as
 * they are (no object per plant): each plant with its id first, as a string
 * (an integer id's decimal digits: a JSON number would lose int64 digits in
 * most clients). A Plant that declares its id member (`storedId`) stores it
 * too, as sent: the listing shows it once, as the string.
 */
function plantsPageJson({ plants, next }: PlantPage, storedId: string | undefined): string {
  const entries = plants.map(({ id, json: stored }) => {
    const json = storedId === undefined ? stored : withoutMember(stored, storedId);
    const named = JSON.stringify(id);
    return json === '{}' ? `{"id":${named}}` : `{"id":${named},${json.slice(1)}`;
  });
  return `{"plants":[${entries.join(',')}],"next":${next}}`;
}

/** A query parameter as a whole number from min to max, `fallback` when absent; undefined when it is anything else. */
function wholeNumber(
  raw: string | string[] | undefined,
  fallback: number,
  min: number,
  max: number,
): number | undefined {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw)) return undefined;
  const value = Number(raw);
  return value >= min && value <= max ? value : undefined;
}

function isObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof NonIntegralNumber);
}
