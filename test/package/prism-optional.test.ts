// Prism is an optional dependency of the package: where it is not installed
// (`npm i --omit=optional`), --prism says how to get it instead of a
// module-resolution stack.
import { strict as assert } from 'node:assert';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { PRISM_MISSING, prismEntry } from '../../conformance/run/targets/prism.js';

describe('--prism and the optional Prism dependency', () => {
  it('without @stoplight/prism-cli installed, names the package, its version and the npm command that installs it', () => {
    const absent = Object.assign((id: string) => createRequire(import.meta.url)(id), {
      resolve: (id: string) => {
        throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
      },
    }) as unknown as NodeJS.Require;
    assert.throws(
      () => prismEntry(absent),
      (err: Error) => err.message === PRISM_MISSING,
    );
    assert.match(PRISM_MISSING, /@stoplight\/prism-cli 5\.14\.2.*npm i @stoplight\/prism-cli@5\.14\.2/);
  });

  it('with it installed (npm ci installs optional dependencies), finds its bin', () => {
    assert.match(prismEntry(), /@stoplight\/prism-cli\/.*\.js$/);
  });
});
