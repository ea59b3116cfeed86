// Configuration from the environment: defaults and clear refusals.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, readConfig } from '../../server/config.js';

test('defaults: port 4010 (Prism\'s), all interfaces, any token, info, 1 MiB, a million plants', () => {
  assert.deepEqual(readConfig({}), {
    port: 4010,
    host: '0.0.0.0',
    tokens: undefined,
    logLevel: 'info',
    bodyLimit: 1048576,
    maxPlants: 1000000,
    specPath: undefined,
  });
});

test('values are read and trimmed; tokens are comma-separated', () => {
  const config = readConfig({
    PORT: '4011',
    HOST: '127.0.0.1',
    PLANTSTORE_TOKENS: ' a , b,,c ',
    LOG_LEVEL: 'WARN',
    PLANTSTORE_BODY_LIMIT: '2048',
    PLANTSTORE_MAX_PLANTS: '10',
    PLANTSTORE_SPEC: ' evolved.yaml ',
  });
  assert.deepEqual(config, { port: 4011, host: '127.0.0.1', tokens: ['a', 'b', 'c'], logLevel: 'warn', bodyLimit: 2048, maxPlants: 10, specPath: 'evolved.yaml' });
});

test('bad values are refused with a message naming the variable', () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'http' }, /^PORT must be a whole number/],
    [{ PORT: '70000' }, /^PORT must be a whole number from 0 to 65535/],
    [{ PORT: '-1' }, /^PORT/],
    [{ PLANTSTORE_BODY_LIMIT: '1.5' }, /^PLANTSTORE_BODY_LIMIT/],
    [{ PLANTSTORE_MAX_PLANTS: 'lots' }, /^PLANTSTORE_MAX_PLANTS/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ PLANTSTORE_TOKENS: 'good,bad token' }, /^PLANTSTORE_TOKENS/],
  ];
  for (const [env, message] of cases) assert.throws(() => readConfig(env), (e: unknown) => e instanceof ConfigError && message.test(e.message));
});
