// The stub's controls: JSON endpoints outside the API's paths, for a client
// team's tests to set up and inspect the stub. Errors are Error records.
//
//   GET    /__admin/plants    the stored plants        DELETE /__admin/plants   reset the store
//   POST   /__admin/plants    store NewPlants (array)
//   GET    /__admin/journal   recent API requests       DELETE /__admin/journal  clear it
//   GET    /__admin/delay     the answer delay          PUT    /__admin/delay    {"ms": N}
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createAuthenticator } from '../auth.js';
import { isJsonMediaType, jsonBody } from '../body.js';
import type { CreateRule } from '../create.js';
import { ApiError } from '../errors.js';
import { NonIntegralNumber, type JsonObject, type JsonValue } from '../json.js';
import { MAX_DELAY_MS } from '../limits.js';
import { RESERVED_PREFIX } from '../routes.js';
import type { PlantStore } from '../store.js';
import type { Journal } from './journal.js';

export const CONTROLS_PREFIX = `${RESERVED_PREFIX}admin`;

/** The answer delay, which PUT /__admin/delay changes while the server runs. */
export interface DelaySetting {
  ms: number;
}

export interface ControlsOptions {
  /** When set, every control requires `Authorization: Bearer <token>`. */
  token: string | undefined;
  store: PlantStore;
  rule: CreateRule;
  journal: Journal;
  delay: DelaySetting;
}

export function registerControls(app: FastifyInstance, { token, store, rule, journal, delay }: ControlsOptions): void {
  const guard = token === undefined ? undefined : createAuthenticator([token]);
  const onRequest = async (request: FastifyRequest) => guard?.check(request.headers.authorization);
  const invalid = (message: string) => new ApiError('STUB_INVALID_REQUEST', message);

  app.get(`${CONTROLS_PREFIX}/plants`, { onRequest }, async () => ({
    // Ids as decimal strings: a JSON number would lose int64 digits in most clients.
    plants: store.list().map(({ id, plant }) => ({ id, ...plant })),
  }));
  app.post(`${CONTROLS_PREFIX}/plants`, { onRequest }, async (request) => ({
    created: rule.storeAll(requiredJsonBody(request), 'request body', invalid),
  }));
  app.delete(`${CONTROLS_PREFIX}/plants`, { onRequest }, async () => {
    const deleted = store.size;
    store.clear();
    return { deleted };
  });

  app.get(`${CONTROLS_PREFIX}/journal`, { onRequest }, async () => journal.snapshot());
  app.delete(`${CONTROLS_PREFIX}/journal`, { onRequest }, async () => ({ cleared: journal.clear() }));

  app.get(`${CONTROLS_PREFIX}/delay`, { onRequest }, async () => ({ ms: delay.ms }));
  app.put(`${CONTROLS_PREFIX}/delay`, { onRequest }, async (request) => {
    const body = requiredJsonBody(request);
    const ms = isObject(body) ? body.ms : undefined;
    if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > MAX_DELAY_MS) {
      throw invalid(`Send {"ms": N} with N a whole number of milliseconds from 0 to ${MAX_DELAY_MS}.`);
    }
    delay.ms = ms;
    return { ms };
  });
}

/** The JSON body of a control request: 415 unless the content type is JSON, 400 when it is not JSON or missing. */
function requiredJsonBody(request: FastifyRequest): JsonValue {
  if (!isJsonMediaType(request.headers['content-type'])) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
  const body = jsonBody(request);
  if (body === undefined) throw new ApiError('STUB_INVALID_REQUEST', 'Request body is required.');
  return body;
}

function isObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof NonIntegralNumber);
}
