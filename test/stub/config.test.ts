import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, readStubConfig } from '../../server/config.js';

test('stub configuration: defaults', () => {
  const config = readStubConfig({});
  assert.equal(config.admin, true);
  assert.equal(config.adminToken, undefined);
  assert.equal(config.journalSize, 100);
  assert.equal(config.delayMs, 0);
  assert.equal(config.seedFile, undefined);
});

test('stub configuration: values are read', () => {
  const config = readStubConfig({
    PLANTSTORE_ADMIN: 'OFF',
    PLANTSTORE_ADMIN_TOKEN: 'adm1n',
    PLANTSTORE_JOURNAL_SIZE: '5',
    PLANTSTORE_DELAY_MS: '250',
    PLANTSTORE_SEED_FILE: 'seed.json',
  });
  assert.equal(config.admin, false);
  assert.equal(config.adminToken, 'adm1n');
  assert.equal(config.journalSize, 5);
  assert.equal(config.delayMs, 250);
  assert.equal(config.seedFile, 'seed.json');
  assert.equal(readStubConfig({ PLANTSTORE_ADMIN: 'on' }).admin, true);
});

test('stub configuration: bad values name the variable', () => {
  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ PLANTSTORE_ADMIN: 'yes' }, /PLANTSTORE_ADMIN must be on or off/],
    [{ PLANTSTORE_ADMIN_TOKEN: 'has space' }, /PLANTSTORE_ADMIN_TOKEN/],
    [{ PLANTSTORE_JOURNAL_SIZE: '10001' }, /PLANTSTORE_JOURNAL_SIZE must be a whole number from 0 to 10000/],
    [{ PLANTSTORE_DELAY_MS: '60001' }, /PLANTSTORE_DELAY_MS must be a whole number from 0 to 60000/],
    [{ PLANTSTORE_DELAY_MS: '-5' }, /PLANTSTORE_DELAY_MS/],
  ];
  for (const [env, message] of bad) assert.throws(() => readStubConfig(env), (e: unknown) => e instanceof ConfigError && message.test(e.message));
});
