// Which event each webhook of the document describes (read from its words
// and its body; PLANTSTORE_WEBHOOK_EVENTS instead when set), what the server
// says of each at start, and the settings from the environment.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError } from '../../server/config.js';
import { loadOperationContract } from '../../server/http/validation.js';
import { readWebhookConfig } from '../../server/webhooks/config.js';
import { inferEvent, readWebhooks } from '../../server/webhooks/declarations.js';
import { startupLines } from '../../server/webhooks/index.js';
import { createPlant } from '../stub/helpers.js';
import { SEVERAL, settledDeliveries, STARTER, useReceivers, webhookApp } from './helpers.js';

const refuse = (message: string) => new ConfigError(message);

function declarationsOf(specPath: string, ties?: Map<string, 'created' | 'updated' | 'deleted' | 'none'>) {
  const contract = loadOperationContract(specPath);
  return readWebhooks(contract.document, contract, ties, refuse);
}

describe('which event a webhook describes', { timeout: 60_000 }, () => {
  test("the starter's webhook is a plant created: its description says new and added, and its body is the create's NewPlant", () => {
    const [webhook, ...rest] = declarationsOf(STARTER);
    assert.deepEqual(rest, []);
    assert.deepEqual(
      [webhook!.name, webhook!.method, webhook!.event, webhook!.mediaType],
      ['/plant/webhook', 'POST', 'created', 'application/json'],
    );
    assert.match(
      webhook!.reason,
      /"new" \(description\), "added" \(description\); its body is the create operation's request body/,
    );
  });

  test('a document with several: each tied by its words or its body, or named with the reason it is not', () => {
    const found = declarationsOf(SEVERAL).map(({ name, method, event, mediaType }) => [name, method, event, mediaType]);
    assert.deepEqual(found, [
      ['/plant/webhook', 'POST', 'created', 'application/json'],
      ['plantCreated', 'PUT', 'created', 'application/vnd.plants+json'],
      ['plantDeleted', 'POST', 'deleted', 'application/json'],
      ['weather', 'POST', undefined, 'application/json'],
      ['newPlantForm', 'POST', undefined, undefined],
    ]);
    const reasons = Object.fromEntries(declarationsOf(SEVERAL).map(({ name, reason }) => [name, reason]));
    assert.match(reasons.plantCreated!, /"created" \(name\)/);
    assert.match(reasons.plantDeleted!, /deleted: "deleted" \(name\), "removed" \(summary\)/);
    assert.match(reasons.weather!, /its words name updated but not the plant/);
    assert.match(reasons.newPlantForm!, /declares no JSON body \(application\/x-www-form-urlencoded\)/);
  });

  test('the inference, word by word', () => {
    const plain = { noun: 'plant', createBody: false, plantBody: false };
    const event = (name: string, operation: object, context = plain) => inferEvent(name, operation, context).event;
    assert.equal(event('onPlantAdded', {}), 'created');
    assert.equal(event('plant.updated', {}), 'updated');
    assert.equal(event('x', { summary: 'Plant replaced' }), 'updated');
    assert.equal(event('x', { operationId: 'plantDeletion' }), 'deleted');
    assert.equal(event('orderCreated', {}), undefined, 'another resource');
    assert.equal(event('orderCreated', {}, { ...plain, plantBody: true }), 'created', 'about the plant by its body');
    assert.equal(event('hook', {}, { ...plain, createBody: true }), 'created', "the create's body alone");
    assert.equal(event('plant created or updated', {}), undefined, 'several events');
    assert.equal(event('plant created or updated', {}, { ...plain, createBody: true }), 'created');
    assert.equal(event('plant deleted', {}, { ...plain, createBody: true }), 'deleted', 'the words win over the body');
    assert.equal(event('renewal', {}), undefined, 'whole words only');
  });

  test('PLANTSTORE_WEBHOOK_EVENTS replaces the inference; a name the document lacks stops the start', () => {
    const tied = declarationsOf(
      SEVERAL,
      new Map([
        ['weather', 'created'],
        ['/plant/webhook', 'none'],
      ]),
    );
    assert.deepEqual(
      tied.map(({ name, event }) => [name, event]),
      [
        ['/plant/webhook', undefined],
        ['plantCreated', undefined],
        ['plantDeleted', undefined],
        ['weather', 'created'],
        ['newPlantForm', undefined],
      ],
    );
    assert.equal(tied[0]!.reason, 'PLANTSTORE_WEBHOOK_EVENTS ties it to no event');
    assert.throws(() => declarationsOf(SEVERAL, new Map([['nope', 'created']])), {
      name: 'ConfigError',
      message: /names the webhook "nope", which the document does not declare/,
    });
  });

  test('at start, every webhook is named: sent after what, or never and why', () => {
    const lines = startupLines(declarationsOf(SEVERAL), (type) => type === 'created', []);
    assert.deepEqual(
      lines.map(({ level }) => level),
      ['info', 'info', 'warn', 'warn', 'warn', 'info'],
    );
    assert.match(
      lines[0]!.message,
      /^webhook "\/plant\/webhook" \(POST\) is sent after a plant is created, as application\/json/,
    );
    assert.match(
      lines[2]!.message,
      /^webhook "plantDeleted" \(POST\) is never sent: it describes a plant deleted .* and the server serves no operation that does that$/,
    );
    assert.match(
      lines[3]!.message,
      /^webhook "weather" \(POST\) is never sent: it is tied to no event .*PLANTSTORE_WEBHOOK_EVENTS ties a webhook/,
    );
    assert.equal(
      lines[5]!.message,
      'webhooks: no receiver yet: PLANTSTORE_WEBHOOK_URL or PUT /__admin/webhooks names one',
    );
    assert.equal(
      startupLines(declarationsOf(STARTER), () => true, ['http://127.0.0.1:1/h?token=t']).at(-1)!.message,
      'webhooks: sent to http://127.0.0.1:1/h?token=<redacted>',
    );
    assert.deepEqual(
      startupLines([], () => true, []),
      [],
    );
  });
});

describe("bodies checked against each webhook's own schema", { timeout: 60_000 }, () => {
  const receiver = useReceivers();

  test('each webhook tied to created is sent with its method and media type; a body its schema refuses is not sent, and the journal says why', async () => {
    const hook = await receiver();
    const app = webhookApp([hook.url], {}, { specPath: SEVERAL });
    await createPlant(app, { id: 1, name: 'No tag' });
    await createPlant(app, { id: 2, name: 'Tagged', tag: 'shade' });
    await hook.until(3);
    const entries = await settledDeliveries(app);
    assert.deepEqual(
      entries
        .map(({ webhook, method, body, outcome, headers }) => [
          webhook,
          method,
          JSON.parse(body).id,
          outcome,
          headers['content-type'],
        ])
        .sort(),
      [
        ['/plant/webhook', 'POST', 1, 'delivered', 'application/json'],
        ['/plant/webhook', 'POST', 2, 'delivered', 'application/json'],
        ['plantCreated', 'PUT', 1, 'failed', 'application/vnd.plants+json'],
        ['plantCreated', 'PUT', 2, 'delivered', 'application/vnd.plants+json'],
      ],
    );
    const refused = entries.find(({ outcome }) => outcome === 'failed')!;
    assert.deepEqual([refused.attempt, refused.status], [0, null]);
    assert.match(String(refused.error), /^the body does not match the webhook's schema: .*tag/);
    assert.deepEqual(hook.received.map(({ method, body }) => [method, JSON.parse(body).id]).sort(), [
      ['POST', 1],
      ['POST', 2],
      ['PUT', 2],
    ]);
    await app.close();
  });
});

describe("the webhooks' settings from the environment", { timeout: 60_000 }, () => {
  test('defaults, and each bound named when refused', () => {
    assert.deepEqual(readWebhookConfig({}), {
      receivers: [],
      ties: undefined,
      attempts: 5,
      backoffMs: 1000,
      timeoutMs: 10_000,
      deadlineMs: 60_000,
      queueSize: 1000,
      queueBytes: 67_108_864,
      shutdownMs: 5000,
    });
    const set = readWebhookConfig({
      PLANTSTORE_WEBHOOK_URL: ' https://hooks.example/in#x ',
      PLANTSTORE_WEBHOOK_ATTEMPTS: '2',
      PLANTSTORE_WEBHOOK_BACKOFF_MS: '0',
      PLANTSTORE_WEBHOOK_EVENTS: 'a=created, b=c=none',
    });
    assert.deepEqual(
      [set.receivers, set.attempts, set.backoffMs, [...set.ties!]],
      [
        ['https://hooks.example/in'],
        2,
        0,
        [
          ['a', 'created'],
          ['b=c', 'none'],
        ],
      ],
    );
    assert.deepEqual([...readWebhookConfig({ PLANTSTORE_WEBHOOK_EVENTS: 'none' }).ties!], []);
    for (const [env, message] of [
      [{ PLANTSTORE_WEBHOOK_URL: 'ftp://x/' }, /^PLANTSTORE_WEBHOOK_URL: a receiver is an http:\/\/ or https:\/\/ URL/],
      [
        { PLANTSTORE_WEBHOOK_URL: 'http://u:hunter2@x/' },
        /^PLANTSTORE_WEBHOOK_URL: a receiver URL holds no user name or password/,
      ],
      [{ PLANTSTORE_WEBHOOK_ATTEMPTS: '0' }, /^PLANTSTORE_WEBHOOK_ATTEMPTS must be a whole number from 1 to 20/],
      [
        { PLANTSTORE_WEBHOOK_BACKOFF_MS: '60001' },
        /^PLANTSTORE_WEBHOOK_BACKOFF_MS must be a whole number from 0 to 60000/,
      ],
      [{ PLANTSTORE_WEBHOOK_TIMEOUT_MS: '0' }, /^PLANTSTORE_WEBHOOK_TIMEOUT_MS must be a whole number from 1 to 60000/],
      [
        { PLANTSTORE_WEBHOOK_DEADLINE_MS: 'soon' },
        /^PLANTSTORE_WEBHOOK_DEADLINE_MS must be a whole number from 1 to 3600000/,
      ],
      [{ PLANTSTORE_WEBHOOK_QUEUE: '100001' }, /^PLANTSTORE_WEBHOOK_QUEUE must be a whole number from 1 to 100000/],
      [
        { PLANTSTORE_WEBHOOK_QUEUE_BYTES: '1048576' },
        /^PLANTSTORE_WEBHOOK_QUEUE_BYTES must be a whole number from 2097152 to 1073741824/,
      ],
      [
        { PLANTSTORE_WEBHOOK_SHUTDOWN_MS: '-1' },
        /^PLANTSTORE_WEBHOOK_SHUTDOWN_MS must be a whole number from 0 to 60000/,
      ],
      [
        { PLANTSTORE_WEBHOOK_EVENTS: 'a=born' },
        /^PLANTSTORE_WEBHOOK_EVENTS is a comma-separated list of NAME=EVENT \(EVENT one of created, updated, deleted, none\)/,
      ],
      [{ PLANTSTORE_WEBHOOK_EVENTS: 'a=created,a=deleted' }, /names the webhook "a" twice/],
    ] as const) {
      assert.throws(
        () => readWebhookConfig(env),
        (error: Error) =>
          error instanceof ConfigError && message.test(error.message) && !error.message.includes('hunter2'),
        JSON.stringify(env),
      );
    }
  });
});
