// The maps of the code in the docs ("Where the code is" in docs/server.md,
// and in docs/stub.md for the stub and the webhooks) name every file of
// server/ and of each of its folders, and no file that is not there.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)); // from dist/test/server/

/** The files the section "Where the code is" of a doc links to, as paths from the root (`server/app.ts`). */
function mappedFiles(doc: string): string[] {
  const text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
  const start = text.indexOf('## Where the code is');
  assert.ok(start !== -1, `${doc} has the section Where the code is`);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [
    ...new Set([...section.matchAll(/\]\(\.\.\/(server\/[\w/.-]+\.ts)\)/g)].map(([, path]) => path as string)),
  ].sort();
}

const filesOf = (folder: string) =>
  readdirSync(join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => `${folder}/${entry.name}`);

/** The .ts files of a folder and of every folder below it. */
const filesUnder = (folder: string): string[] => [
  ...filesOf(folder),
  ...readdirSync(join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => filesUnder(`${folder}/${entry.name}`)),
];

describe('the maps of the code', { timeout: 30_000 }, () => {
  test('docs/server.md names every file of server/ and of its folders, and none that is gone', () => {
    assert.deepEqual(mappedFiles('server.md'), filesUnder('server').sort());
  });

  test('docs/stub.md names every file of server/stub/ and server/webhooks/', () => {
    for (const folder of ['server/stub', 'server/webhooks']) {
      assert.deepEqual(
        mappedFiles('stub.md').filter((path) => path.startsWith(`${folder}/`)),
        filesOf(folder).sort(),
      );
    }
  });
});
