// A new user's first run configured three ways, end to end against a real
// local server: the configuration file (plantstore.conformance.yaml, with
// ${VAR}), the environment and the flags give the same run; flags win over
// the environment, which wins over the file; a variable the file names that
// is not set is an error naming it.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { JsonReport } from '../../conformance/report/json.js';
import { cliIn, scratchFolder, TOKEN, withFake } from '../support/first-run-cli.js';

const dir = scratchFolder();
const cli = cliIn(dir);

describe('first runs: the configuration file, the environment and the flags', { timeout: 300_000 }, () => {
  it('the configuration file and the environment give the same run as the flags; flags win over the environment, which wins over the file', async () => {
    await withFake({}, async (fake) => {
      const only = 'PS-ACCEPT-001,PS-AUTH-001,PS-HTTP-001';
      const report = (file: string) => {
        const r = JSON.parse(readFileSync(join(dir, file), 'utf8')) as JsonReport;
        return {
          seed: r.seed,
          strict: r.strict,
          targets: r.targets.map((t) => ({
            name: t.name,
            url: t.url,
            outcomes: t.results.map((x) => [x.id, x.outcome]),
          })),
        };
      };
      // One seed sends the same ids (--seed replays a run): each run against the same fake gives its own id offset.
      const flags = await cli([
        '--target',
        `staging=${fake.url}`,
        '--token',
        TOKEN,
        '--seed',
        '21',
        '--id-offset',
        '1',
        '--cases',
        '3',
        '--only',
        only,
        '--strict',
        '--json',
        'flags.json',
      ]);
      assert.equal(flags.code, 0, flags.output);

      const env = await cli([], {
        PLANTSTORE_TARGET: `staging=${fake.url}`,
        PLANTSTORE_TOKEN: TOKEN,
        PLANTSTORE_SEED: '21',
        PLANTSTORE_ID_OFFSET: '2',
        PLANTSTORE_CASES: '3',
        PLANTSTORE_ONLY: only,
        PLANTSTORE_STRICT: 'true',
        PLANTSTORE_JSON: 'env.json',
      });
      assert.equal(env.code, 0, env.output);

      const folder = mkdtempSync(join(dir, 'config-'));
      writeFileSync(
        join(folder, 'plantstore.conformance.yaml'),
        [
          'target:',
          '  staging: ${STAGING_URL}',
          'token: ${FIRST_RUN_TOKEN}',
          'seed: 21',
          'id-offset: 3',
          'cases: 3',
          `only: ${only}`,
          'strict: true',
          'json: ../file.json',
          '',
        ].join('\n'),
      );
      const file = await cli([], { STAGING_URL: fake.url, FIRST_RUN_TOKEN: TOKEN }, folder);
      assert.equal(file.code, 0, file.output);
      assert.deepEqual(report('env.json'), report('flags.json'));
      assert.deepEqual(report('file.json'), report('flags.json'));
      assert.equal(report('flags.json').targets[0]!.name, 'staging');

      // Precedence: the environment's seed over the file's, a flag's over both.
      const overEnv = await cli(
        ['--json', '../precedence.json'],
        { STAGING_URL: fake.url, FIRST_RUN_TOKEN: TOKEN, PLANTSTORE_SEED: '22' },
        folder,
      );
      assert.equal(overEnv.code, 0, overEnv.output);
      assert.equal(report('precedence.json').seed, 22);
      const overFlag = await cli(
        ['--json', '../precedence.json', '--seed', '23'],
        { STAGING_URL: fake.url, FIRST_RUN_TOKEN: TOKEN, PLANTSTORE_SEED: '22' },
        folder,
      );
      assert.equal(overFlag.code, 0, overFlag.output);
      assert.equal(report('precedence.json').seed, 23);

      // A variable the file names that is not set is an error naming it.
      const unset = await cli([], { STAGING_URL: fake.url }, folder);
      assert.equal(unset.code, 2);
      assert.match(
        unset.stderr,
        /plantstore\.conformance\.yaml: token: \$\{FIRST_RUN_TOKEN\} is not set in the environment/,
      );
    });
  });
});
