import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkTogether, ConfigError, readConfig, readStubConfig } from '../../server/config.js';

test('stub configuration: defaults', () => {
  const config = readStubConfig({});
  assert.equal(config.controls, true);
  assert.equal(config.controlsToken, undefined);
  assert.equal(config.journalSize, 100);
  assert.equal(config.journalBytes, 16 * 1024 * 1024);
  assert.equal(config.delayMs, 0);
  assert.equal(config.plantsFile, undefined);
  assert.deepEqual(config.warnings, []);
});

test('stub configuration: values are read', () => {
  const config = readStubConfig({
    PLANTSTORE_ADMIN: 'OFF',
    PLANTSTORE_ADMIN_TOKEN: 'adm1n',
    PLANTSTORE_JOURNAL_SIZE: '5',
    PLANTSTORE_JOURNAL_BYTES: '200000',
    PLANTSTORE_DELAY_MS: '250',
    PLANTSTORE_PLANTS_FILE: 'plants.json',
  });
  assert.equal(config.controls, false);
  assert.equal(config.controlsToken, 'adm1n');
  assert.equal(config.journalSize, 5);
  assert.equal(config.journalBytes, 200000);
  assert.equal(config.delayMs, 250);
  assert.deepEqual(config.plantsFile, { path: 'plants.json', variable: 'PLANTSTORE_PLANTS_FILE' });
  assert.deepEqual(config.warnings, []);
  assert.equal(readStubConfig({ PLANTSTORE_ADMIN: 'on' }).controls, true);
});

test('stub configuration: PLANTSTORE_SEED_FILE, the former name of PLANTSTORE_PLANTS_FILE, is read with a warning', () => {
  const former = readStubConfig({ PLANTSTORE_SEED_FILE: 'plants.json' });
  assert.deepEqual(former.plantsFile, { path: 'plants.json', variable: 'PLANTSTORE_SEED_FILE' });
  assert.equal(former.warnings.length, 1);
  assert.match(former.warnings[0] ?? '', /PLANTSTORE_SEED_FILE is deprecated: set PLANTSTORE_PLANTS_FILE/);
  const both = readStubConfig({ PLANTSTORE_SEED_FILE: 'plants.json', PLANTSTORE_PLANTS_FILE: 'plants.json' });
  assert.deepEqual(both.plantsFile, { path: 'plants.json', variable: 'PLANTSTORE_PLANTS_FILE' });
  assert.equal(both.warnings.length, 1, 'still a warning: the former name is set');
  assert.throws(
    () => readStubConfig({ PLANTSTORE_SEED_FILE: 'old.json', PLANTSTORE_PLANTS_FILE: 'new.json' }),
    (e: unknown) =>
      e instanceof ConfigError &&
      /PLANTSTORE_PLANTS_FILE and PLANTSTORE_SEED_FILE .* name different files/.test(e.message),
  );
});

test('stub configuration: bad values name the variable', () => {
  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ PLANTSTORE_ADMIN: 'yes' }, /PLANTSTORE_ADMIN must be on or off/],
    [{ PLANTSTORE_ADMIN_TOKEN: 'has space' }, /PLANTSTORE_ADMIN_TOKEN/],
    [{ PLANTSTORE_JOURNAL_SIZE: '10001' }, /PLANTSTORE_JOURNAL_SIZE must be a whole number from 0 to 10000/],
    [{ PLANTSTORE_JOURNAL_BYTES: '1000' }, /PLANTSTORE_JOURNAL_BYTES must be a whole number from 131072 to 1073741824/],
    [{ PLANTSTORE_DELAY_MS: '60001' }, /PLANTSTORE_DELAY_MS must be a whole number from 0 to 60000/],
    [{ PLANTSTORE_DELAY_MS: '-5' }, /PLANTSTORE_DELAY_MS/],
  ];
  for (const [env, message] of bad)
    assert.throws(
      () => readStubConfig(env),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
    );
});

test('stub configuration: PLANTSTORE_ALLOWED_HOSTS and PLANTSTORE_PREFER, their defaults, and what is refused', () => {
  const defaults = readStubConfig({});
  assert.deepEqual(defaults.allowedHosts, []);
  assert.equal(defaults.preferNeedsControlsToken, false);
  assert.deepEqual(readStubConfig({ PLANTSTORE_ALLOWED_HOSTS: ' PlantStore , stub.internal.,' }).allowedHosts, [
    'plantstore',
    'stub.internal.',
  ]);
  assert.equal(readStubConfig({ PLANTSTORE_ALLOWED_HOSTS: 'plantstore,*' }).allowedHosts, '*');
  for (const bad of ['plantstore:4010', 'http://plantstore', 'plant store', '-dash.example']) {
    assert.throws(
      () => readStubConfig({ PLANTSTORE_ALLOWED_HOSTS: bad }),
      (error: unknown) =>
        error instanceof ConfigError && /PLANTSTORE_ALLOWED_HOSTS must list host names/.test(error.message),
      bad,
    );
  }
  assert.equal(
    readStubConfig({ PLANTSTORE_PREFER: 'ADMIN', PLANTSTORE_ADMIN_TOKEN: 'admin-token' }).preferNeedsControlsToken,
    true,
  );
  assert.equal(readStubConfig({ PLANTSTORE_PREFER: 'open' }).preferNeedsControlsToken, false);
  assert.throws(
    () => readStubConfig({ PLANTSTORE_PREFER: 'tokens' }),
    /PLANTSTORE_PREFER must be one of open, admin, got "tokens"/,
  );
});

test('PLANTSTORE_PREFER=admin without PLANTSTORE_ADMIN_TOKEN stops the start: a guard with no token would refuse every Prefer, or none', () => {
  assert.throws(
    () => checkTogether(readConfig({}), readStubConfig({ PLANTSTORE_PREFER: 'admin' })),
    /PLANTSTORE_PREFER=admin needs PLANTSTORE_ADMIN_TOKEN/,
  );
  checkTogether(readConfig({}), readStubConfig({ PLANTSTORE_PREFER: 'admin', PLANTSTORE_ADMIN_TOKEN: 'admin-token' }));
});
