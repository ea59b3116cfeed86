import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runProcess } from '../../lib/process.js';
import { plantBytes } from '../../server/store/store.js';
import { InitialPlantsError, readInitialPlantsFile } from '../../server/stub/initial-plants.js';
import { createPlant, stubApp } from './helpers.js';
import { ENTRY, startEntry } from '../support/entry.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-plants-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function plantsFile(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('initial plants file: its plants are stored at start, int64 ids exact', { timeout: 60_000 }, async () => {
  const file = plantsFile(
    'good.json',
    '[{"id": 1, "name": "Monstera", "tag": "tropical"}, {"id": 9007199254740993, "name": "Big"}]',
  );
  const app = stubApp({ initialPlants: readInitialPlantsFile(file) });
  const list = await app.inject({ method: 'GET', url: '/__admin/plants' });
  assert.deepEqual(list.json(), {
    plants: [
      { id: '1', name: 'Monstera', tag: 'tropical' },
      { id: '9007199254740993', name: 'Big' },
    ],
    next: null,
  });
  const duplicate = await createPlant(app, { id: 1, name: 'Again' });
  assert.equal(duplicate.statusCode, 400);
  assert.equal(duplicate.json().error, 40004);
  // 9007199254740992 is a different plant from the stored 9007199254740993.
  const neighbour = await createPlant(app, { id: 9007199254740992, name: 'Neighbour' });
  assert.equal(neighbour.statusCode, 200);
});

test(
  'initial plants file: bad files are refused with a message naming the variable, the file and the problem',
  { timeout: 60_000 },
  async () => {
    const cases: Array<[string, string | null, RegExp]> = [
      ['missing.json', null, /cannot be read: ENOENT/],
      ['syntax.json', '[{"id": 1,]', /is not valid JSON/],
      ['object.json', '{"id": 1, "name": "Fern"}', /must hold a JSON array of NewPlant records/],
    ];
    for (const [name, text, message] of cases) {
      const file = text === null ? join(dir, name) : plantsFile(name, text);
      assert.throws(
        () => readInitialPlantsFile(file),
        (error: unknown) =>
          error instanceof InitialPlantsError &&
          error.message.startsWith(`PLANTSTORE_PLANTS_FILE ${file} `) &&
          message.test(error.message),
        name,
      );
    }
    const items: Array<[string, string, RegExp]> = [
      ['invalid.json', '[{"id": 1, "name": "Fern"}, {"id": 2}]', /item 1 is not a valid NewPlant: \/name is required/],
      ['duplicate.json', '[{"id": 7, "name": "Fern"}, {"id": 7.0, "name": "Fern"}]', /item 1 repeats the id 7/],
    ];
    for (const [name, text, message] of items) {
      const file = plantsFile(name, text);
      await assert.rejects(
        async () => void (await stubApp({ initialPlants: readInitialPlantsFile(file) }).ready()),
        (error: unknown) =>
          error instanceof InitialPlantsError && error.message.includes(file) && message.test(error.message),
        name,
      );
    }
    const full = plantsFile('full.json', '[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]');
    await assert.rejects(
      async () => void (await stubApp({ maxPlants: 1, initialPlants: readInitialPlantsFile(full) }).ready()),
      /the 2 plants do not fit in the store, which holds 0 plants \(0 bytes\); none was stored/,
    );
    await assert.rejects(
      async () =>
        void (await stubApp({
          maxBytes: plantBytes('1', '{"name":"a"}'),
          initialPlants: readInitialPlantsFile(full),
        }).ready()),
      /the 2 plants do not fit in the store/,
      'the byte budget too',
    );
  },
);

test(
  'npm start with a bad initial plants file exits 2 and says why, naming the variable that was set',
  { timeout: 60_000 },
  async () => {
    const file = plantsFile('bad-start.json', '[{"id": "1", "name": "Fern"}]');
    for (const variable of ['PLANTSTORE_PLANTS_FILE', 'PLANTSTORE_SEED_FILE']) {
      const result = await runProcess({
        file: process.execPath,
        args: [ENTRY],
        env: { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', [variable]: file },
        stdout: 'ignore',
        timeoutMs: 20_000,
      });
      assert.equal(result.code, 2, result.stderr);
      assert.match(
        result.stderr,
        new RegExp(`^plantstore: ${variable} ${escaped(file)}: item 0 is not a valid NewPlant: /id must be an integer`),
      );
    }
  },
);

/** Starts the entry point with `env`, and returns what the controls list and the log lines. */
async function startAndList(
  env: Record<string, string>,
): Promise<{ plants: unknown; log: Array<{ level: number; msg: string }> }> {
  const server = await startEntry({ LOG_LEVEL: 'info', PLANTSTORE_TOKENS: 't', ...env });
  try {
    const res = await fetch(`${server.url}/__admin/plants`, { signal: AbortSignal.timeout(10_000) });
    return {
      plants: await res.json(),
      log: server.lines.map((line) => JSON.parse(line) as { level: number; msg: string }),
    };
  } finally {
    await server.stop();
  }
}

test(
  'npm start with a good initial plants file serves its plants through the controls',
  { timeout: 60_000 },
  async () => {
    const file = plantsFile('good-start.json', '[{"id": 42, "name": "Fern"}]');
    const { plants, log } = await startAndList({ PLANTSTORE_PLANTS_FILE: file });
    assert.deepEqual(plants, { plants: [{ id: '42', name: 'Fern' }], next: null });
    assert.ok(!log.some((entry) => entry.msg.includes('deprecated')));
  },
);

test(
  'npm start with PLANTSTORE_SEED_FILE, the former name: the plants are stored and a warning says to rename it',
  { timeout: 60_000 },
  async () => {
    const file = plantsFile('former-name.json', '[{"id": 7, "name": "Fern"}]');
    const { plants, log } = await startAndList({ PLANTSTORE_SEED_FILE: file });
    assert.deepEqual(plants, { plants: [{ id: '7', name: 'Fern' }], next: null });
    const warning = log.find((entry) => entry.msg.includes('PLANTSTORE_SEED_FILE'));
    assert.equal(warning?.level, 40, 'a pino warn line');
    assert.match(warning?.msg ?? '', /deprecated: set PLANTSTORE_PLANTS_FILE/);
  },
);
