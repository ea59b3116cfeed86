// Reading a document (spec/openapi.ts): the size bound, and a reference to
// another document, each a DocumentError that names what is wrong, for the
// server and the harness alike.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { DocumentError, loadOpenApi, MAX_DOCUMENT_BYTES, OPENAPI_PATH } from '../../spec/openapi.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-reading-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const shipped = readFileSync(OPENAPI_PATH, 'utf8');

/** The shipped document, padded with a YAML comment to exactly `bytes` bytes. */
function padded(bytes: number): string {
  const path = join(dir, `padded-${bytes}.yaml`);
  writeFileSync(path, `${shipped}#${'x'.repeat(bytes - Buffer.byteLength(shipped) - 2)}\n`);
  assert.equal(readFileSync(path).length, bytes);
  return path;
}

test(
  'a document of 8 MiB is read; one byte more is a DocumentError naming the bound, before any parsing',
  { timeout: 120_000 },
  () => {
    assert.equal(MAX_DOCUMENT_BYTES, 8 * 1024 * 1024);
    assert.equal(loadOpenApi(padded(MAX_DOCUMENT_BYTES)).openapi, '3.1.0');
    assert.throws(
      () => loadOpenApi(padded(MAX_DOCUMENT_BYTES + 1)),
      (error: unknown) =>
        error instanceof DocumentError &&
        /is larger than 8388608 bytes \(8 MiB\), the most a document may be/.test(error.message),
    );
  },
);

test(
  'a device that never ends is read up to the bound, then refused',
  { timeout: 120_000, skip: existsSync('/dev/zero') ? false : 'no /dev/zero here' },
  () => {
    assert.throws(
      () => loadOpenApi('/dev/zero'),
      (error: unknown) => error instanceof DocumentError && /is larger than 8388608 bytes/.test(error.message),
    );
  },
);

test(
  'a $ref to another document, anywhere in the document, is a DocumentError where it is written; nothing is fetched',
  { timeout: 60_000 },
  () => {
    for (const ref of ['plant.yaml#/Plant', 'https://plants.example.com/schemas.yaml#/Plant', './other.json']) {
      const path = join(dir, 'external.yaml');
      writeFileSync(
        path,
        shipped.replace("                $ref: '#/components/schemas/Error'", () => `                $ref: '${ref}'`),
      );
      assert.throws(
        () => loadOpenApi(path),
        (error: unknown) =>
          error instanceof DocumentError &&
          error.keyword === '$ref' &&
          /^#\/paths\/~1plants\/post\/responses\/400\/content\/application~1json\/schema\/\$ref$/.test(error.pointer) &&
          error.detail.includes('refers to another document, which is not fetched'),
        ref,
      );
    }
  },
);

test(
  'a malformed percent-escape in a pointer is a reference that resolves to nothing, not a crash',
  { timeout: 60_000 },
  () => {
    const path = join(dir, 'escape.yaml');
    writeFileSync(
      path,
      shipped.replace("$ref: '#/components/schemas/Error'", () => "$ref: '#/components/schemas/%zz'"),
    );
    assert.throws(
      () => loadOpenApi(path),
      (error: unknown) =>
        error instanceof DocumentError && /"#\/components\/schemas\/%zz" resolves to nothing/.test(error.message),
    );
  },
);
