// Shared by the stub's tests: an app with the controls on, and requests to it.
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../server/app.js';

export const TOKEN = 'client-token';
export const AUTH = { authorization: `Bearer ${TOKEN}` };
export const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };

export function stubApp(options: AppOptions = {}): FastifyInstance {
  return buildApp({ tokens: [TOKEN], stub: {}, ...options });
}

export async function createPlant(app: FastifyInstance, plant: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/plants', headers: { ...JSON_AUTH, ...headers }, payload: JSON.stringify(plant) });
}
