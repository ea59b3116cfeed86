// The CLI's options from flags, the environment and the configuration file
// (conformance/cli/args.ts, config-file.ts): precedence, ${VAR}, the checks on
// each value with messages that name where it came from, and suggestions.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseCliArgs } from '../../conformance/cli/args.js';
import { runOption } from '../../conformance/cli/options.js';
import { INFERENCES } from '../../conformance/checks/types.js';
import { UsageError } from '../../conformance/cli/values.js';
import { PLACEHOLDER_TOKEN } from '../../conformance/model/target.js';
import { runRedactor } from '../../conformance/redact/secrets.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-args-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const NO_FILE = mkdtempSync(join(tmpdir(), 'plantstore-args-empty-'));
after(() => rmSync(NO_FILE, { recursive: true, force: true }));

function folderWith(name: string, text: string): string {
  const folder = mkdtempSync(join(dir, 'cwd-'));
  writeFileSync(join(folder, name), text);
  return folder;
}

const refused = (argv: string[], message: RegExp, env: NodeJS.ProcessEnv = {}, cwd = NO_FILE) =>
  assert.throws(
    () => parseCliArgs(argv, env, cwd),
    (err: unknown) => err instanceof UsageError && message.test(err.message),
  );

describe('the options from flags, environment and configuration file', { timeout: 30_000 }, () => {
  it('a flag wins over the environment, which wins over the file', () => {
    const cwd = folderWith(
      'plantstore.conformance.yaml',
      'target: http://file.example\ntimeout: 1000\nseed: 1\ncases: 7\n',
    );
    const o = parseCliArgs(['--seed', '3'], { PLANTSTORE_SEED: '2', PLANTSTORE_TIMEOUT: '2000' }, cwd);
    assert.equal(o.seed, 3);
    assert.equal(o.timeoutMs, 2000);
    assert.equal(o.cases, 7);
    assert.deepEqual(o.targets, [{ name: 'target', url: 'http://file.example' }]);
    assert.equal(o.configFile, join(cwd, 'plantstore.conformance.yaml'));
  });

  it('${VAR}, ${VAR:-default} and $$ in the file; an empty environment variable counts as unset', () => {
    const cwd = folderWith(
      'plantstore.conformance.json',
      JSON.stringify({ target: { staging: '${URL}' }, token: '${T:-fallback}', header: ['x-price: $$5'] }),
    );
    const o = parseCliArgs([], { URL: 'http://staging.example/api/', PLANTSTORE_TOKEN: '' }, cwd);
    assert.deepEqual(o.targets, [{ name: 'staging', url: 'http://staging.example/api' }]);
    assert.equal(o.token, 'fallback');
    assert.equal(o.tokenFrom, `token in ${join(cwd, 'plantstore.conformance.json')}`);
    assert.deepEqual(o.headers, [['x-price', '$5']]);
    refused([], /: target: \$\{URL\} is not set in the environment/, {}, cwd);
  });

  it('no token anywhere: the placeholder, and nothing to name', () => {
    const o = parseCliArgs(['--target', 'http://a.example'], {}, NO_FILE);
    assert.equal(o.token, PLACEHOLDER_TOKEN);
    assert.equal(o.tokenFrom, undefined);
    assert.equal(
      parseCliArgs(['--target', 'http://a.example'], { PLANTSTORE_TOKEN: 't' }, NO_FILE).tokenFrom,
      'PLANTSTORE_TOKEN',
    );
  });

  it('several targets in PLANTSTORE_TARGET, headers one per line in PLANTSTORE_HEADER, booleans as words', () => {
    const o = parseCliArgs(
      [],
      {
        PLANTSTORE_TARGET: 'a=http://a.example  http://b.example',
        PLANTSTORE_HEADER: 'x-api-key: k1\nx-tenant: t',
        PLANTSTORE_STRICT: 'yes',
        PLANTSTORE_FAIL_FAST: '0',
      },
      NO_FILE,
    );
    assert.deepEqual(o.targets, [
      { name: 'a', url: 'http://a.example' },
      { name: 'target-2', url: 'http://b.example' },
    ]);
    assert.deepEqual(o.headers, [
      ['x-api-key', 'k1'],
      ['x-tenant', 't'],
    ]);
    assert.equal(o.strict, true);
    assert.equal(o.maxFailures, undefined);
    refused([], /PLANTSTORE_STRICT is true or false/, { PLANTSTORE_STRICT: 'maybe' });
  });

  it('--fail-fast is --max-failures 1; --no-color and NO_COLOR turn colours off; --wait-for is seconds', () => {
    assert.equal(parseCliArgs(['--fail-fast'], {}, NO_FILE).maxFailures, 1);
    assert.equal(parseCliArgs(['--max-failures', '5'], {}, NO_FILE).maxFailures, 5);
    assert.equal(parseCliArgs(['--no-color'], {}, NO_FILE).color, false);
    assert.equal(parseCliArgs([], { NO_COLOR: '1' }, NO_FILE).color, false);
    assert.equal(parseCliArgs([], {}, NO_FILE).color, undefined);
    assert.equal(parseCliArgs(['--wait-for', '30'], {}, NO_FILE).waitForMs, 30_000);
  });

  it('refuses what makes no sense, naming where it came from', () => {
    refused(['--timeout', 'soon'], /^--timeout must be an integer/);
    refused([], /^PLANTSTORE_TIMEOUT must be an integer/, { PLANTSTORE_TIMEOUT: 'soon' });
    refused(
      [],
      /^timeout in .*plantstore\.conformance\.yaml must be an integer/,
      {},
      folderWith('plantstore.conformance.yaml', 'timeout: soon\n'),
    );
    refused(['-H', 'x-api-key'], /a header is written "Name: value"/);
    refused(
      ['-H', 'Authorization: Bearer x'],
      /the checks send their own Authorization; give the bearer token with --token/,
    );
    refused(['-H', 'Content-Type: text/plain'], /set Content-Type themselves/);
    refused(['-H', 'x-a: 1', '-H', 'X-A: 2'], /X-A: given twice/);
    refused(['--target', 'prism=http://a.example'], /"prism" names the target --prism starts/);
    refused(['--target', 'a=http://a.example', '--target', 'a=http://b.example'], /two targets are named a/);
    refused(
      [],
      /no option "tokn" \(did you mean token\?\)/,
      {},
      folderWith('plantstore.conformance.yaml', 'tokn: x\n'),
    );
    const both = folderWith('plantstore.conformance.json', '{}');
    writeFileSync(join(both, 'plantstore.conformance.yaml'), '');
    refused([], /are both here: keep one, or name one with --config/, {}, both);
  });

  it('suggests the option, command or check meant', () => {
    refused(['--rate-limt', '5'], /unknown option --rate-limt \(did you mean --rate-limit\?\)/);
    refused(['runn'], /unknown command "runn" \(did you mean run\?\)/);
    refused(['http://a.example'], /a URL is given with --target http:\/\/a\.example/);
    refused(['--only', 'PS-AUTH-01'], /no check PS-AUTH-01 \(did you mean PS-AUTH-001\?\)/);
    assert.equal(parseCliArgs(['run', '--target', 'http://a.example'], {}, NO_FILE).command, 'run');
  });
});

describe('what a configuration file may read and set', { timeout: 30_000 }, () => {
  it('each value of 8 or more characters a ${VAR} gave is a secret, redacted by value in the reports; a shorter one is not', () => {
    const cwd = folderWith(
      'plantstore.conformance.yaml',
      'target: http://file.example\nheader: ["x-build: ${BUILD_SECRET}"]\ncases: ${CASES}\n',
    );
    const o = parseCliArgs([], { BUILD_SECRET: 'build-secret-2b7f', CASES: '12' }, cwd);
    assert.deepEqual(o.secrets, ['build-secret-2b7f']);
    const redact = runRedactor([
      {
        name: 'target',
        url: 'http://file.example',
        token: 't0ken-value-long',
        role: 'target',
        informs: false,
        restrictsTokens: false,
        headers: { 'x-build': 'build-secret-2b7f' },
        secrets: o.secrets,
      },
    ]);
    assert.equal(redact('echoed build-secret-2b7f and 12'), 'echoed <redacted> and 12');
  });

  it('a narrower policy: no file of the working directory, ${VAR} from the listed variables only, only the listed keys', () => {
    const cwd = folderWith('plantstore.conformance.yaml', 'target: http://file.example\n');
    assert.equal(
      parseCliArgs(['--target', 'http://a.example'], {}, cwd, { implicitFile: false }).configFile,
      undefined,
    );
    const file = join(folderWith('tune.yaml', 'header: ["x-a: ${OTHER}"]\n'), 'tune.yaml');
    assert.throws(
      () =>
        parseCliArgs(['--config', file], { OTHER: 'secret-value-long' }, NO_FILE, {
          implicitFile: false,
          variables: { ALLOWED: 'x' },
        }),
      (err: unknown) =>
        err instanceof UsageError && /\$\{OTHER\} is not a variable this run may read/.test(err.message),
    );
    const keyed = join(folderWith('keys.yaml', 'json: /tmp/elsewhere.json\n'), 'keys.yaml');
    assert.throws(
      () => parseCliArgs(['--config', keyed], {}, NO_FILE, { implicitFile: false, keys: ['header'] }),
      (err: unknown) => err instanceof UsageError && /json cannot be set in this configuration file/.test(err.message),
    );
  });
});

describe('--no-infer', () => {
  it('names every inference in its help, and switches any of them off', () => {
    const help = runOption('no-infer').help;
    for (const inference of INFERENCES) assert.match(help, new RegExp(`\\b${inference}\\b`), inference);
    const parsed = parseCliArgs(['--reference', '--no-infer', 'pages,idempotency'], {}, NO_FILE);
    assert.deepEqual(
      INFERENCES.filter((i) => !parsed.inferences.includes(i)),
      ['pages', 'idempotency'],
    );
  });
});
