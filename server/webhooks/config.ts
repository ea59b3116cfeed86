// The webhooks' settings from the environment (docs/stub.md, "Webhooks"),
// each within its bound; a bad value stops the start with a message naming
// the variable, as every setting does (server/config.ts).
import { ConfigError, integer } from '../config.js';
import {
  DEFAULT_WEBHOOK_ATTEMPTS,
  DEFAULT_WEBHOOK_BACKOFF_MS,
  DEFAULT_WEBHOOK_DEADLINE_MS,
  DEFAULT_WEBHOOK_QUEUE,
  DEFAULT_WEBHOOK_QUEUE_BYTES,
  DEFAULT_WEBHOOK_SHUTDOWN_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  MAX_WEBHOOK_ATTEMPTS,
  MAX_WEBHOOK_BACKOFF_MS,
  MAX_WEBHOOK_DEADLINE_MS,
  MAX_WEBHOOK_QUEUE,
  MAX_WEBHOOK_QUEUE_BYTES,
  MAX_WEBHOOK_SHUTDOWN_MS,
  MAX_WEBHOOK_TIMEOUT_MS,
  MIN_WEBHOOK_QUEUE_BYTES,
} from '../limits.js';
import { WEBHOOK_EVENTS, type WebhookEvent, type WebhookTies } from './declarations.js';
import { ReceiverError, receiverUrl } from './receivers.js';
import type { WebhookOptions } from './index.js';

export function readWebhookConfig(env: NodeJS.ProcessEnv = process.env): WebhookOptions {
  return {
    receivers: receivers(env.PLANTSTORE_WEBHOOK_URL),
    ties: ties(env.PLANTSTORE_WEBHOOK_EVENTS),
    attempts: integer(env, 'PLANTSTORE_WEBHOOK_ATTEMPTS', DEFAULT_WEBHOOK_ATTEMPTS, 1, MAX_WEBHOOK_ATTEMPTS),
    backoffMs: integer(env, 'PLANTSTORE_WEBHOOK_BACKOFF_MS', DEFAULT_WEBHOOK_BACKOFF_MS, 0, MAX_WEBHOOK_BACKOFF_MS),
    timeoutMs: integer(env, 'PLANTSTORE_WEBHOOK_TIMEOUT_MS', DEFAULT_WEBHOOK_TIMEOUT_MS, 1, MAX_WEBHOOK_TIMEOUT_MS),
    deadlineMs: integer(env, 'PLANTSTORE_WEBHOOK_DEADLINE_MS', DEFAULT_WEBHOOK_DEADLINE_MS, 1, MAX_WEBHOOK_DEADLINE_MS),
    queueSize: integer(env, 'PLANTSTORE_WEBHOOK_QUEUE', DEFAULT_WEBHOOK_QUEUE, 1, MAX_WEBHOOK_QUEUE),
    queueBytes: integer(
      env,
      'PLANTSTORE_WEBHOOK_QUEUE_BYTES',
      DEFAULT_WEBHOOK_QUEUE_BYTES,
      MIN_WEBHOOK_QUEUE_BYTES,
      MAX_WEBHOOK_QUEUE_BYTES,
    ),
    shutdownMs: integer(env, 'PLANTSTORE_WEBHOOK_SHUTDOWN_MS', DEFAULT_WEBHOOK_SHUTDOWN_MS, 0, MAX_WEBHOOK_SHUTDOWN_MS),
  };
}

function receivers(raw: string | undefined): string[] {
  const value = raw?.trim();
  if (value === undefined || value === '') return [];
  try {
    return [receiverUrl(value)];
  } catch (error) {
    if (error instanceof ReceiverError) throw new ConfigError(`PLANTSTORE_WEBHOOK_URL: ${error.message}`);
    throw error;
  }
}

/** `NAME=EVENT,NAME=EVENT`, or `none`: the webhooks tied to events instead of the inference; undefined when unset. */
function ties(raw: string | undefined): WebhookTies | undefined {
  const value = raw?.trim();
  if (value === undefined || value === '') return undefined;
  const tied = new Map<string, WebhookEvent | 'none'>();
  if (value === 'none') return tied;
  const events = [...WEBHOOK_EVENTS, 'none'];
  for (const pair of value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const equals = pair.lastIndexOf('=');
    const name = pair.slice(0, equals).trim();
    const event = pair.slice(equals + 1).trim();
    if (equals <= 0 || !events.includes(event)) {
      throw new ConfigError(
        `PLANTSTORE_WEBHOOK_EVENTS is a comma-separated list of NAME=EVENT (EVENT one of ${events.join(', ')}), or none; got ${JSON.stringify(pair)}`,
      );
    }
    if (tied.has(name))
      throw new ConfigError(`PLANTSTORE_WEBHOOK_EVENTS names the webhook ${JSON.stringify(name)} twice`);
    tied.set(name, event as WebhookEvent | 'none');
  }
  return tied;
}
