// lib/start-error.ts: every error that stops the server or the harness at
// start is a StartError with a code of START_ERRORS, which gives its exit code.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { START_ERRORS, StartError, type StartErrorCode } from '../../lib/start-error.js';
import { UsageError } from '../../conformance/cli/values.js';
import { ConfigFileError } from '../../conformance/cli/config-file.js';
import { DivergenceFileError } from '../../conformance/run/differential/divergences.js';
import { ReportWriteError } from '../../conformance/report/write.js';
import { ServerStartError } from '../../conformance/run/targets/start.js';
import { ConfigError } from '../../server/config.js';
import { StoreStartError } from '../../server/store/store.js';
import { UnservedError } from '../../server/operations/served-notes.js';
import { InitialPlantsError } from '../../server/stub/initial-plants.js';
import { DocumentError } from '../../spec/openapi.js';

describe('start-up errors', { timeout: 30_000 }, () => {
  test('each kind is a StartError with its own code, its name and its message', () => {
    const made: Array<[StartError, string, StartErrorCode]> = [
      [new ConfigError('PORT must be …'), 'ConfigError', 'PLANTSTORE_CONFIG'],
      [new InitialPlantsError('PLANTSTORE_PLANTS_FILE …'), 'InitialPlantsError', 'PLANTSTORE_INITIAL_PLANTS'],
      [new StoreStartError('cannot use the database …'), 'StoreStartError', 'PLANTSTORE_STORE_START'],
      [new DocumentError('#/paths', 'paths', 'no operation'), 'DocumentError', 'PLANTSTORE_DOCUMENT'],
      [
        new UnservedError([{ operation: 'GET /plants', feature: 'the query parameter q', reason: 'no effect' }]),
        'UnservedError',
        'PLANTSTORE_UNSERVED',
      ],
      [new ServerStartError('the reference server did not start: …'), 'ServerStartError', 'PLANTSTORE_SERVER_START'],
      [new ReportWriteError('cannot write the report …'), 'ReportWriteError', 'PLANTSTORE_REPORT_WRITE'],
      [new UsageError('--timeout must be …'), 'UsageError', 'PLANTSTORE_USAGE'],
      [new ConfigFileError('cannot read plantstore.conformance.json …'), 'ConfigFileError', 'PLANTSTORE_CONFIG_FILE'],
      [
        new DivergenceFileError('conformance/differential/divergences/prism.json …'),
        'DivergenceFileError',
        'PLANTSTORE_DIVERGENCE_FILE',
      ],
    ];
    for (const [error, name, code] of made) {
      assert.ok(error instanceof StartError && error instanceof Error, name);
      assert.equal(error.name, name);
      assert.equal(error.code, code);
      assert.equal(error.exitCode, 2, name);
    }
    assert.equal(made[3]![0].message, 'paths at #/paths: no operation');
    assert.match(
      made[4]![0].message,
      /GET \/plants: the query parameter q is not served as the document says: no effect/,
    );
    assert.deepEqual(
      made.map(([, , code]) => code).sort(),
      Object.keys(START_ERRORS).sort(),
      'every code of the table has its kind',
    );
  });

  test('an Error of another kind is not one: a bug keeps its stack', () => {
    assert.ok(!(new Error('bug') instanceof StartError));
    assert.ok(!(new RangeError('delayMs must be …') instanceof StartError));
  });
});
