// The stored plant keeps every property the document's Plant declares
// (through $ref and allOf, patternProperties included), exactly as sent and
// in the order sent: the answer, GET /__admin/plants, the byte count and the
// database row, on the in-memory store and on PostgreSQL. Properties Plant
// does not declare are accepted and dropped. Documents: test/fixtures/plant-*.yaml.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openPostgresStore } from '../../server/store/postgres-store.js';
import { OPENAPI_PATH } from '../../spec/openapi.js';
import { plantBytes, type PlantStore } from '../../server/store/store.js';
import { readInitialPlantsFile } from '../../server/stub/initial-plants.js';
import { fixturePath } from '../support/fixtures.js';
import { POSTGRES_MISSING, sql, useTestDatabases } from '../support/postgres.js';
import { app, post } from './support.js';

const databases = useTestDatabases();
const dir = mkdtempSync(join(tmpdir(), 'plantstore-properties-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const stores: Array<[string, () => Promise<{ store?: PlantStore; url?: string }>, { skip: string | false }]> = [
  ['memory', async () => ({}), { skip: false }],
  [
    'postgresql',
    async () => {
      const url = await databases.fresh();
      return { store: await openPostgresStore({ url, maxPlants: 1000, maxBytes: 2 ** 40 }), url };
    },
    { skip: POSTGRES_MISSING },
  ],
];

/** An app serving `fixture`, with the stub's controls, on the store `make` opens; closed after `use`. */
async function serving(
  fixture: string | undefined,
  make: () => Promise<{ store?: PlantStore; url?: string }>,
  use: (server: FastifyInstance, url: string | undefined) => Promise<void>,
): Promise<void> {
  const { store, url } = await make();
  const server = app({ ...(fixture ? { specPath: fixturePath(fixture) } : {}), ...(store ? { store } : {}), stub: {} });
  try {
    await use(server, url);
  } finally {
    await server.close();
    await store?.close();
  }
}

/** The listing's raw text for every plant (one page). */
async function listed(server: FastifyInstance): Promise<string> {
  const res = await server.inject({ method: 'GET', url: '/__admin/plants' });
  assert.equal(res.statusCode, 200);
  return res.body;
}

/**
 * POST /plants with `body` (text as sent) is answered 200 with exactly
 * `answer`, counted as plantBytes(id, answer), and listed as `listedAs`
 * (the answer with the id first, as a decimal string, unless given).
 */
async function storesAsSent(
  server: FastifyInstance,
  id: string,
  body: string,
  answer: string,
  listedAs = `{"id":"${id}",${answer.slice(1)}`,
): Promise<void> {
  const before = (await server.plantStore.usage()).bytes;
  const res = await post(server, body);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.body, answer, 'the answer is the stored plant, as sent');
  assert.equal((await server.plantStore.usage()).bytes - before, plantBytes(id, answer), 'counted as the text kept');
  assert.ok((await listed(server)).includes(listedAs), `listed as ${listedAs}`);
}

for (const [kind, make, options] of stores) {
  describe(
    `every property Plant declares is stored and answered as sent: ${kind}`,
    { ...options, timeout: 180_000 },
    () => {
      test('an extra string (plant-extra-string.yaml): in the order sent, escapes written as JSON.stringify writes them; properties Plant does not declare are dropped', () =>
        serving('plant-extra-string.yaml', make, async (server) => {
          await storesAsSent(
            server,
            '1',
            '{ "colour" : "dark gr\\u00fcn \\u0001", "id": 1, "notes": "dropped", "name": "Fern" }',
            JSON.stringify({ colour: 'dark grün \u0001', name: 'Fern' }),
          );
          await storesAsSent(
            server,
            '2',
            '{"id": 2, "name": "Ivy", "colour": "green"}',
            '{"name":"Ivy","colour":"green"}',
          );
        }));

      test('an integer beyond 2^53 (plant-big-integer.yaml): every digit, as written', () =>
        serving('plant-big-integer.yaml', make, async (server, url) => {
          await storesAsSent(
            server,
            '1',
            '{"id": 1, "name": "Fern", "stock": 9223372036854775807}',
            '{"name":"Fern","stock":9223372036854775807}',
          );
          await storesAsSent(
            server,
            '2',
            '{"stock": 9007199254740993, "id": 2, "name": "Ivy"}',
            '{"stock":9007199254740993,"name":"Ivy"}',
          );
          await storesAsSent(
            server,
            '3',
            '{"id": 3, "name": "Palm", "stock": -9223372036854775808, "tag": "t"}',
            '{"name":"Palm","stock":-9223372036854775808,"tag":"t"}',
          );
          await storesAsSent(
            server,
            '4',
            '{"id": 4, "name": "Moss", "stock": 2.50E1}',
            '{"name":"Moss","stock":2.50E1}',
          );
          if (url !== undefined) {
            const rows = await sql<{ plant: string }>(url, "SELECT plant FROM plantstore_plants WHERE id = '2'");
            assert.deepEqual(
              rows,
              [{ plant: '{"stock":9007199254740993,"name":"Ivy"}' }],
              'the row holds the text as answered',
            );
          }
        }));

      test('an array of objects (plant-array-of-objects.yaml): as sent, nested members and numbers included, white space between tokens dropped', () =>
        serving('plant-array-of-objects.yaml', make, async (server) => {
          const body = `{"id": 1, "name": "Fern", "cuttings": [
          {"taken": "2026-03-01", "length": 12.50, "rooted": true},
          {"taken": "2026-04-01", "length": 0.1000000000000000000001, "more": {"ids": [9007199254740993, 1e400, -0]}, "note": "a \\"b\\" \\/ \\ud83c\\udf35"},
          {"taken": "2026-05-01"}
        ], "tag": "tropical"}`;
          const answer =
            '{"name":"Fern","cuttings":[{"taken":"2026-03-01","length":12.50,"rooted":true},' +
            `{"taken":"2026-04-01","length":0.1000000000000000000001,"more":{"ids":[9007199254740993,1e400,-0]},"note":${JSON.stringify('a "b" / 🌵')}},` +
            '{"taken":"2026-05-01"}],"tag":"tropical"}';
          await storesAsSent(server, '1', body, answer);
          await storesAsSent(server, '2', '{"id":2,"name":"Ivy","cuttings":[]}', '{"name":"Ivy","cuttings":[]}');
        }));

      test('a nested object (plant-nested-object.yaml): as sent, member order and numbers kept', () =>
        serving('plant-nested-object.yaml', make, async (server) => {
          const body =
            '{"id": 1,\n "care": {\n  "light": "bright \\u0022indirect\\u0022",\n  "water": {"amountMl": 250.125, "everyDays": 3, "when": {}}\n },\n "name": "Fern"}';
          await storesAsSent(
            server,
            '1',
            body,
            '{"care":{"light":"bright \\"indirect\\"","water":{"amountMl":250.125,"everyDays":3,"when":{}}},"name":"Fern"}',
          );
        }));

      test('Plant made with allOf of a $ref (plant-all-of.yaml): the properties of both parts are kept', () =>
        serving('plant-all-of.yaml', make, async (server) => {
          await storesAsSent(
            server,
            '1',
            '{"height": 12.5, "id": 1, "tag": "t", "name": "Fern", "colour": "dropped"}',
            '{"height":12.5,"tag":"t","name":"Fern"}',
          );
        }));

      test('Plant declaring the id (plant-declares-id.yaml): the answer carries it as sent; the listing shows it once, as a decimal string', () =>
        serving('plant-declares-id.yaml', make, async (server) => {
          await storesAsSent(
            server,
            '5',
            '{"name": "Fern", "id": 5.0}',
            '{"name":"Fern","id":5.0}',
            '{"id":"5","name":"Fern"}',
          );
          await storesAsSent(
            server,
            '9007199254740993',
            '{"id": 9007199254740993, "name": "Ivy"}',
            '{"id":9007199254740993,"name":"Ivy"}',
            '{"id":"9007199254740993","name":"Ivy"}',
          );
          assert.equal(
            await listed(server),
            '{"plants":[{"id":"5","name":"Fern"},{"id":"9007199254740993","name":"Ivy"}],"next":null}',
          );
        }));

      test('patternProperties of Plant (plant-pattern-properties.yaml): a property a pattern matches is kept, others dropped', () =>
        serving('plant-pattern-properties.yaml', make, async (server) => {
          await storesAsSent(
            server,
            '1',
            '{"id":1,"note-1":"water weekly","name":"Fern","other":"dropped","note-":"","note-2":"repot in May"}',
            '{"note-1":"water weekly","name":"Fern","note-":"","note-2":"repot in May"}',
          );
        }));

      test('the shipped document: name and tag in the order sent, nothing else', () =>
        serving(undefined, make, async (server) => {
          await storesAsSent(
            server,
            '1',
            '{"tag": "tropical", "id": 1, "name": "Monstera", "colour": "green"}',
            '{"tag":"tropical","name":"Monstera"}',
          );
          await storesAsSent(server, '2', '{"id": 2, "name": "Fern"}', '{"name":"Fern"}');
        }));

      test('plants stored by POST /__admin/plants and from the initial plants file keep their properties as sent too', async () => {
        const list = `[ {"id": 1, "name": "Fern", "cuttings": [{"taken": "2026-03-01", "length": 12.50}]},
        {"cuttings": [], "id": 9223372036854775807, "name": "Ivy", "extra": [1]} ]`;
        const expected =
          '{"plants":[{"id":"1","name":"Fern","cuttings":[{"taken":"2026-03-01","length":12.50}]},{"id":"9223372036854775807","cuttings":[],"name":"Ivy"}],"next":null}';
        await serving('plant-array-of-objects.yaml', make, async (server) => {
          const res = await server.inject({
            method: 'POST',
            url: '/__admin/plants',
            headers: { 'content-type': 'application/json' },
            payload: list,
          });
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(await listed(server), expected);
        });
        const file = join(dir, `initial-${kind}.json`);
        writeFileSync(file, `\ufeff${list}`);
        const { store } = await make();
        const server = app({
          specPath: fixturePath('plant-array-of-objects.yaml'),
          ...(store ? { store } : {}),
          stub: {},
          initialPlants: readInitialPlantsFile(file),
        });
        try {
          assert.equal(await listed(server), expected);
        } finally {
          await server.close();
          await store?.close();
        }
      });
    },
  );
}

test(
  'a document that declares no schema for the 200 answer: the stored plant keeps what NewPlant declares, the id included',
  { timeout: 60_000 },
  async () => {
    const shipped = readFileSync(OPENAPI_PATH, 'utf8');
    const answer = `          description: Plant response
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Plant'
              examples:
                withTag:
                  summary: The stored plant, as sent, without its id
                  value:
                    name: Monstera
                    tag: tropical
`;
    assert.ok(shipped.includes(answer));
    const specPath = join(dir, 'no-answer-schema.yaml');
    writeFileSync(specPath, shipped.replace(answer, '          description: Plant response\n'));
    const server = app({ specPath });
    const res = await post(server, '{"id": 7, "name": "Fern", "colour": "dropped", "tag": "t"}');
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '{"id":7,"name":"Fern","tag":"t"}');
    await server.close();
  },
);
