import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readSeedFile, SeedError } from '../../server/admin.js';
import { createPlant, stubApp } from './helpers.js';
import { ENTRY, startEntry } from '../support/entry.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-seed-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function seedFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

test('seed file: its plants are stored at start, int64 ids exact', async () => {
  const file = seedFile('good.json', '[{"id": 1, "name": "Monstera", "tag": "tropical"}, {"id": 9007199254740993, "name": "Big"}]');
  const app = stubApp({ seed: readSeedFile(file) });
  const list = await app.inject({ method: 'GET', url: '/__admin/plants' });
  assert.deepEqual(list.json(), {
    plants: [
      { id: '1', name: 'Monstera', tag: 'tropical' },
      { id: '9007199254740993', name: 'Big' },
    ],
  });
  const duplicate = await createPlant(app, { id: 1, name: 'Again' });
  assert.equal(duplicate.statusCode, 400);
  assert.equal(duplicate.json().error, 40004);
  // 9007199254740992 is a different plant from the seeded 9007199254740993.
  const neighbour = await createPlant(app, { id: 9007199254740992, name: 'Neighbour' });
  assert.equal(neighbour.statusCode, 200);
});

test('seed file: bad files are refused with a message naming the file and the problem', () => {
  const cases: Array<[string, string | null, RegExp]> = [
    ['missing.json', null, /cannot be read: ENOENT/],
    ['syntax.json', '[{"id": 1,]', /is not valid JSON/],
    ['object.json', '{"id": 1, "name": "Fern"}', /must hold a JSON array of NewPlant records/],
  ];
  for (const [name, text, message] of cases) {
    const file = text === null ? join(dir, name) : seedFile(name, text);
    assert.throws(
      () => readSeedFile(file),
      (error: unknown) => error instanceof SeedError && error.message.includes(file) && message.test(error.message),
      name,
    );
  }
  const items: Array<[string, string, RegExp]> = [
    ['invalid.json', '[{"id": 1, "name": "Fern"}, {"id": 2}]', /item 1 is not a valid NewPlant: \/name is required/],
    ['duplicate.json', '[{"id": 7, "name": "Fern"}, {"id": 7.0, "name": "Fern"}]', /item 1 repeats the id 7/],
  ];
  for (const [name, text, message] of items) {
    const file = seedFile(name, text);
    assert.throws(
      () => stubApp({ seed: readSeedFile(file) }),
      (error: unknown) => error instanceof SeedError && error.message.includes(file) && message.test(error.message),
      name,
    );
  }
  const full = seedFile('full.json', '[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]');
  assert.throws(() => stubApp({ maxPlants: 1, seed: readSeedFile(full) }), /the store is full after 1 plants/);
});

test('npm start with a bad seed file exits 2 and says why', () => {
  const file = seedFile('bad-start.json', '[{"id": "1", "name": "Fern"}]');
  const result = spawnSync(process.execPath, [ENTRY], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', PLANTSTORE_SEED_FILE: file },
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.equal(result.status, 2, result.stderr);
  assert.match(result.stderr, new RegExp(`^plantstore: PLANTSTORE_SEED_FILE ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: item 0 is not a valid NewPlant: /id must be an integer`));
});

test('npm start with a good seed file serves its plants through the controls', async () => {
  const file = seedFile('good-start.json', '[{"id": 42, "name": "Fern"}]');
  const { child, url, exited } = await startEntry({ LOG_LEVEL: 'info', PLANTSTORE_SEED_FILE: file, PLANTSTORE_TOKENS: 't' });
  try {
    const res = await fetch(`${url}/__admin/plants`, { signal: AbortSignal.timeout(10_000) });
    assert.deepEqual(await res.json(), { plants: [{ id: '42', name: 'Fern' }] });
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});
