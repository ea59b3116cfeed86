// Nothing mis-served in silence: what the server does not serve as the
// document says is named at start, per operation and feature (at warn), and
// a strict start (PLANTSTORE_STRICT=on) refuses such a document with exit 2,
// naming each. The documents a team would write next are served whole.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runProcess } from '../../lib/process.js';
import { buildApp } from '../../server/app.js';
import { UnservedError } from '../../server/operations/served-notes.js';
import { ENTRY, startEntry } from '../support/entry.js';
import { documentFixture } from './client.js';
import { TOKEN } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-unserved-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** link-pages.yaml with a query parameter that does nothing, a cookie parameter and a required header the server does not make. */
function partlyServed(): string {
  const text = readFileSync(documentFixture('link-pages.yaml'), 'utf8');
  const anchor = '        - name: per_page\n';
  const header = '            X-Total-Count:\n';
  assert.ok(text.includes(anchor) && text.includes(header));
  const path = join(dir, 'partly-served.yaml');
  writeFileSync(
    path,
    text
      .replace(
        anchor,
        `        - name: q\n          in: query\n          schema:\n            type: string\n        - name: session\n          in: cookie\n          schema:\n            type: string\n${anchor}`,
      )
      .replace(
        header,
        `            X-Rate-Limit-Remaining:\n              required: true\n              schema:\n                type: integer\n${header}`,
      ),
  );
  return path;
}

const PART_A = [
  'server-id',
  'uuid-id',
  'nested',
  'orders',
  'conditional',
  'filter-sort',
  'idempotency',
  'cursor-envelope',
  'link-pages',
];

describe('what the server does not serve as written', { timeout: 60_000 }, () => {
  test('each document a team would write next (ids, resources, conditions, lists, idempotency) is served whole: nothing to name', () => {
    for (const name of PART_A) {
      const app = buildApp({ specPath: documentFixture(`${name}.yaml`), tokens: [TOKEN], strict: true });
      assert.deepEqual(app.unservedFeatures, [], name);
    }
  });

  test('a parameter with no effect, a cookie parameter, a required header not made, an operation on no resource: each named with its operation', () => {
    const app = buildApp({ specPath: partlyServed(), tokens: [TOKEN] });
    assert.deepEqual(app.unservedFeatures, [
      'GET /plants: the cookie parameter session is not served as the document says: cookie parameters are not read',
      'GET /plants: the query parameter q is not served as the document says: it is checked, and has no effect',
      'GET /plants: the response header X-Rate-Limit-Remaining is not served as the document says: the server does not make it',
    ]);
    const unmapped = buildApp({ specPath: documentFixture('../operations/unmapped.yaml'), tokens: [TOKEN] });
    assert.deepEqual(unmapped.unservedFeatures, [
      'POST /plants/{id}/watering: its answer is not served as the document says: is on no resource: answered from the document, whatever the store holds',
      'GET /store/summary: its answer is not served as the document says: is on no resource: answered from the document, whatever the store holds',
    ]);
  });

  test('strict: buildApp refuses such a document, naming each feature', () => {
    assert.throws(
      () => buildApp({ specPath: partlyServed(), tokens: [TOKEN], strict: true }),
      (error: unknown) =>
        error instanceof UnservedError &&
        error.unserved.length === 3 &&
        /^PLANTSTORE_STRICT=on and the server cannot serve 3 feature\(s\) of the document as it is written:\nGET \/plants: the cookie parameter session/.test(
          error.message,
        ),
    );
  });

  test('the entry point: each feature logged at warn at start; PLANTSTORE_STRICT=on stops the start with exit 2', async () => {
    const specPath = partlyServed();
    const { child, lines, exited } = await startEntry({ PLANTSTORE_SPEC: specPath });
    child.kill('SIGTERM');
    await exited;
    assert.ok(
      lines.some(
        (line) =>
          line.includes('"level":40') && line.includes('the query parameter q is not served as the document says'),
      ),
      lines.join('\n'),
    );
    const { code, stderr } = await runProcess({
      file: process.execPath,
      args: [ENTRY],
      env: { PORT: '0', PLANTSTORE_SPEC: specPath, PLANTSTORE_STRICT: 'on' },
      stdout: 'ignore',
      timeoutMs: 20_000,
    });
    assert.equal(code, 2);
    assert.match(stderr, /PLANTSTORE_STRICT=on and the server cannot serve 3 feature\(s\)/);
    assert.match(stderr, /X-Rate-Limit-Remaining is not served as the document says/);
  });
});
