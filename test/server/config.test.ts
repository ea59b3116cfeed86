// Configuration from the environment: defaults and clear refusals.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkTogether, ConfigError, openSettings, readConfig, readStubConfig } from '../../server/config.js';

test('defaults: port 4010 and loopback (as Prism), any token, info, 1 MiB, a million plants, 256 MiB of plants', () => {
  assert.deepEqual(readConfig({}), {
    port: 4010,
    host: '127.0.0.1',
    tokens: undefined,
    credentials: undefined,
    logLevel: 'info',
    logFormat: undefined,
    bodyLimit: 1048576,
    maxPlants: 1000000,
    maxBytes: 256 * 1024 * 1024,
    specPath: undefined,
    databaseUrl: undefined,
    databasePool: 10,
    inference: {
      resource: true,
      limit: true,
      offset: true,
      page: true,
      cursor: true,
      filter: true,
      sort: true,
      total: true,
      reference: true,
      idempotency: true,
      errors: true,
    },
    strict: false,
  });
  assert.equal(readConfig({ HOST: ' ' }).host, '127.0.0.1', 'a blank HOST is the default');
  assert.equal(readConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0', 'all interfaces only when asked for (the image does)');
});

test('values are read and trimmed; tokens are comma-separated', () => {
  const config = readConfig({
    PORT: '4011',
    HOST: '127.0.0.1',
    PLANTSTORE_TOKENS: ' a , b,,c ',
    LOG_LEVEL: 'WARN',
    LOG_FORMAT: ' Json ',
    PLANTSTORE_BODY_LIMIT: '2048',
    PLANTSTORE_MAX_PLANTS: '10',
    PLANTSTORE_MAX_BYTES: '4096',
    PLANTSTORE_SPEC: ' evolved.yaml ',
    PLANTSTORE_DATABASE_URL: ' postgresql://plants:pw@db.internal:5432/plants?sslmode=require ',
    PLANTSTORE_DATABASE_POOL: '4',
    PLANTSTORE_INFER: ' Limit, cursor ',
    PLANTSTORE_STRICT: ' ON ',
  });
  assert.deepEqual(config, {
    port: 4011,
    host: '127.0.0.1',
    tokens: ['a', 'b', 'c'],
    credentials: undefined,
    logLevel: 'warn',
    logFormat: 'json',
    bodyLimit: 2048,
    maxPlants: 10,
    maxBytes: 4096,
    specPath: 'evolved.yaml',
    databaseUrl: 'postgresql://plants:pw@db.internal:5432/plants?sslmode=require',
    databasePool: 4,
    inference: {
      resource: false,
      limit: true,
      offset: false,
      page: false,
      cursor: true,
      filter: false,
      sort: false,
      total: false,
      reference: false,
      idempotency: false,
      errors: false,
    },
    strict: true,
  });
  assert.deepEqual(readConfig({ PLANTSTORE_INFER: 'none' }).inference, {
    resource: false,
    limit: false,
    offset: false,
    page: false,
    cursor: false,
    filter: false,
    sort: false,
    total: false,
    reference: false,
    idempotency: false,
    errors: false,
  });
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
    [{ PLANTSTORE_MAX_BYTES: '1e9' }, /^PLANTSTORE_MAX_BYTES must be a whole number/],
    [{ PLANTSTORE_DATABASE_POOL: '0' }, /^PLANTSTORE_DATABASE_POOL must be a whole number from 1 to 1000/],
    [
      { PLANTSTORE_INFER: 'limit,pages' },
      /^PLANTSTORE_INFER must be none, or a comma-separated list of resource, limit, offset, page, cursor, filter, sort, total, reference, idempotency, errors; got "limit,pages"/,
    ],
    [{ PLANTSTORE_STRICT: 'yes' }, /^PLANTSTORE_STRICT must be on or off, got "yes"/],
    [{ PLANTSTORE_INFER: ',' }, /^PLANTSTORE_INFER must be none/],
    // Refused without repeating the value, which may hold a password.
    [
      { PLANTSTORE_DATABASE_URL: 'mysql://u:pw@db/plants' },
      /^PLANTSTORE_DATABASE_URL must be a URL of the form postgres:\/\/user:password@host:port\/database$/,
    ],
    [{ PLANTSTORE_DATABASE_URL: 'db.internal:5432' }, /^PLANTSTORE_DATABASE_URL must be a URL/],
  ];
  for (const [env, message] of cases)
    assert.throws(
      () => readConfig(env),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
    );
});

test('PLANTSTORE_TOKENS with no token in it (empty, blank, only commas) is refused, naming the variable: it would refuse every client, or accept anyone', () => {
  for (const raw of ['', ' ', ',', ' , ,, ']) {
    assert.throws(
      () => readConfig({ PLANTSTORE_TOKENS: raw }),
      (e: unknown) => e instanceof ConfigError && /^PLANTSTORE_TOKENS is set but holds no token/.test(e.message),
      JSON.stringify(raw),
    );
  }
});

test('an admin token equal to an API token is refused, naming both variables; distinct tokens are accepted', () => {
  const env = { PLANTSTORE_TOKENS: 'alpha,beta', PLANTSTORE_ADMIN_TOKEN: 'beta' };
  assert.throws(
    () => checkTogether(readConfig(env), readStubConfig(env)),
    (e: unknown) =>
      e instanceof ConfigError && /^PLANTSTORE_ADMIN_TOKEN equals a token of PLANTSTORE_TOKENS/.test(e.message),
  );
  const distinct = { ...env, PLANTSTORE_ADMIN_TOKEN: 'gamma' };
  assert.doesNotThrow(() => checkTogether(readConfig(distinct), readStubConfig(distinct)));
  const asKey = { PLANTSTORE_CREDENTIALS: 'plantKey=gamma', PLANTSTORE_ADMIN_TOKEN: 'gamma' };
  assert.throws(
    () => checkTogether(readConfig(asKey), readStubConfig(asKey)),
    (e: unknown) =>
      e instanceof ConfigError &&
      e.message ===
        'PLANTSTORE_ADMIN_TOKEN equals a credential of plantKey in PLANTSTORE_CREDENTIALS: the controls token must differ from every API credential',
  );
});

test('PLANTSTORE_CREDENTIALS: scheme=value pairs, a scheme once per value, a comma and a backslash escaped in a value; a pair without both refused by its place, never its value', () => {
  assert.deepEqual(
    readConfig({ PLANTSTORE_CREDENTIALS: ' basicAuth=alice:pa\\,ss , plantKey=k1,plantKey=k\\\\2,, sess=a=b ' })
      .credentials,
    new Map([
      ['basicAuth', ['alice:pa,ss']],
      ['plantKey', ['k1', 'k\\2']],
      ['sess', ['a=b']],
    ]),
  );
  for (const [raw, message] of [
    ['', /^PLANTSTORE_CREDENTIALS is set but holds no scheme=value pair/],
    [' , ', /^PLANTSTORE_CREDENTIALS is set but holds no scheme=value pair/],
    ['plantKey=k1,secret-without-scheme', /^PLANTSTORE_CREDENTIALS: pair 2 is not scheme=value/],
    ['=secret-value', /^PLANTSTORE_CREDENTIALS: pair 1 is not scheme=value/],
    ['plantKey=', /^PLANTSTORE_CREDENTIALS: pair 1 is not scheme=value/],
  ] as const) {
    assert.throws(
      () => readConfig({ PLANTSTORE_CREDENTIALS: raw }),
      (e: unknown) => e instanceof ConfigError && message.test(e.message) && !e.message.includes('secret'),
      JSON.stringify(raw),
    );
  }
});

test('open settings are listed with what to set instead: controls without a token (schemes that accept any credential: the app says, by the document)', () => {
  const open = openSettings(readConfig({}), readStubConfig({}));
  assert.equal(open.length, 1);
  assert.match(
    open[0] ?? '',
    /controls on at \/__admin without a token.*set PLANTSTORE_ADMIN_TOKEN, or PLANTSTORE_ADMIN=off/,
  );
  const closed = { PLANTSTORE_TOKENS: 'a', PLANTSTORE_ADMIN_TOKEN: 'b' };
  assert.deepEqual(openSettings(readConfig(closed), readStubConfig(closed)), []);
  const noControls = { PLANTSTORE_TOKENS: 'a', PLANTSTORE_ADMIN: 'off' };
  assert.deepEqual(openSettings(readConfig(noControls), readStubConfig(noControls)), []);
});
