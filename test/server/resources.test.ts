// The resources found in a document (server/operations/resources.ts and its
// helpers): collections, items, parents and roles by the paths' shape; ids
// of each kind and who picks them; ids made to fit their schema; references
// by links and by names (the switch `reference`); a PUT that creates.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { operationsOf, readOpenApi } from '../../spec/openapi.js';
import { schemaValidators } from '../../spec/validator.js';
import { buildApp } from '../../server/app.js';
import { VALIDATOR_OPTIONS } from '../../server/http/request-body.js';
import { idMaker } from '../../server/operations/resource-ids.js';
import { findResources } from '../../server/operations/resources.js';
import { Client, documentFixture } from './client.js';
import { TOKEN } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-resources-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const model = (specPath: string, inferReferences = true) => {
  const { document } = readOpenApi(specPath);
  return {
    document,
    model: findResources(document, operationsOf(document), { inferResources: true, inferReferences })!,
  };
};

/** A document of one resource `/things` whose item schema's id is `idSchema` (YAML, indented for its place) and whose create body is `createBody`. */
function thingsDocument(name: string, idSchema: string, createBody: string, extra = ''): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    `openapi: 3.1.0
info: { title: things, version: 1.0.0 }
paths:
  /things:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: ${createBody}
      responses:
        '201':
          description: created
          headers:
            Location: { required: true, schema: { type: string } }
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Thing' }
  /things/{thingId}:
    get:
      parameters:
        - { name: thingId, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: the thing
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Thing' }
${extra}components:
  schemas:
    Thing:
      type: object
      required: [id, name]
      properties:
        id: ${idSchema}
        name: { type: string }
`,
  );
  return path;
}

describe('the resources of a document', { timeout: 60_000 }, () => {
  test('nested.yaml: two resources, the plants under the gardens, each operation its role; the plant resource is the one named plants', () => {
    const { model: found } = model(documentFixture('nested.yaml'));
    const [gardens, plants] = found.resources;
    assert.equal(found.plants, plants, 'the plant resource, by its noun');
    assert.deepEqual(
      [gardens!.key, gardens!.noun, gardens!.itemPath, gardens!.idParameter, gardens!.scope, gardens!.parent],
      ['/gardens', 'garden', '/gardens/{gardenId}', 'gardenId', [], undefined],
    );
    assert.deepEqual(
      [plants!.key, plants!.noun, plants!.itemPath, plants!.idParameter, plants!.scope, plants!.parent],
      ['', 'plant', '/gardens/{gardenId}/plants/{plantId}', 'plantId', ['gardenId'], gardens],
    );
    assert.deepEqual(
      [...plants!.roles.values()].map(({ role }) => role),
      ['create', 'list', 'read', 'delete'],
    );
    assert.deepEqual([plants!.id.kind, plants!.id.chosenBy, plants!.id.property], ['integer', 'client', 'id']);
  });

  test('ids: a readOnly one the server picks, a required one the client chooses, an optional one either; the kind from the path or the member', () => {
    const ids = (name: string, idSchema: string, body: string) =>
      model(thingsDocument(name, idSchema, body)).model.plants.id;
    const readOnly = ids('read-only', '{ type: integer, readOnly: true }', "{ $ref: '#/components/schemas/Thing' }");
    assert.deepEqual([readOnly.kind, readOnly.chosenBy], ['integer', 'server']);
    const absent = ids('absent', '{ type: string }', '{ type: object, properties: { name: { type: string } } }');
    assert.deepEqual([absent.kind, absent.chosenBy], ['string', 'server'], "not in the create's body: the server's");
    const either = ids(
      'either',
      '{ type: string }',
      '{ type: object, properties: { id: { type: string }, name: { type: string } } }',
    );
    assert.equal(either.chosenBy, 'either');
    const client = ids('client', '{ type: string }', "{ $ref: '#/components/schemas/Thing' }");
    assert.equal(client.chosenBy, 'client');
  });

  test('made ids fit their schema: a sequence from the minimum by multipleOf, a UUID, a string drawn from a pattern, padded decimals; one no made id fits is said', () => {
    const maker = (name: string, idSchema: string) => {
      const { document, model: found } = model(thingsDocument(name, idSchema, '{ type: object }'));
      return idMaker(document, found.plants.id, () => schemaValidators(document, VALIDATOR_OPTIONS));
    };
    const made = (name: string, idSchema: string) => {
      const ids = maker(name, idSchema);
      assert.ok('make' in ids, JSON.stringify(ids));
      return [1, 2, 3].map((n) => ids.make(n));
    };
    assert.deepEqual(made('stepped', '{ type: integer, minimum: 995, multipleOf: 10 }'), ['1000', '1010', '1020']);
    assert.deepEqual(made('bounded', '{ type: integer, exclusiveMinimum: 0, maximum: 2 }'), ['1', '2', undefined]);
    const uuids = made('uuid', '{ type: string, format: uuid }');
    for (const id of uuids) assert.match(id!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(new Set(uuids).size, 3);
    for (const id of made('pattern', "{ type: string, pattern: '^P-[0-9]{4}$' }")) assert.match(id!, /^P-[0-9]{4}$/);
    assert.deepEqual(made('padded', '{ type: string, minLength: 4 }'), ['0001', '0002', '0003']);
    const none = maker('none', '{ type: string, format: email }');
    assert.ok(
      'unmakeable' in none && /no id made as the decimal numbers from 1 fits the id's schema/.test(none.unmakeable),
    );
  });

  test('a server that picks ids by a pattern answers each create with a new one, and names what it cannot make at start', async () => {
    const specPath = thingsDocument(
      'pattern-server',
      "{ type: string, pattern: '^T[0-9]{3}$', readOnly: true }",
      '{ type: object, required: [name], properties: { name: { type: string } } }',
    );
    const app = buildApp({ specPath, tokens: [TOKEN] });
    const client = new Client(app, specPath);
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const created = await client.send(
        `create ${i}`,
        'POST',
        '/things',
        { status: 201, headers: { location: /^\/things\/T\d{3}$/ } },
        { body: { name: `t${i}` } },
      );
      ids.add(created.json<{ id: string }>().id);
      await client.send(`read ${i} at its Location`, 'GET', String(created.headers.location), { status: 200 });
    }
    assert.equal(ids.size, 5);
    const email = thingsDocument(
      'email-server',
      '{ type: string, format: email, readOnly: true }',
      '{ type: object, properties: { name: { type: string } } }',
    );
    assert.ok(
      buildApp({ specPath: email, tokens: [TOKEN] }).unservedFeatures.some((line) =>
        line.startsWith('POST /things: ids the server picks is not served as the document says: no id made'),
      ),
    );
  });

  test('references: by a name (orders.yaml: plantId), switched off by `reference`; by a link whatever the switch', () => {
    const names = model(documentFixture('orders.yaml')).model;
    const orders = names.resources.find(({ key }) => key === '/orders')!;
    assert.deepEqual(
      orders.references.map(({ property, target, by }) => [property, target.key, by]),
      [['plantId', '', 'names']],
    );
    assert.deepEqual(model(documentFixture('orders.yaml'), false).model.resources[1]!.references, []);
  });

  test('a PUT that declares 201 creates at the id its path names (201), and replaces where one is stored (200); where it declares none, a PUT of an id not stored is 404', async () => {
    const specPath = thingsDocument(
      'put-creates',
      '{ type: string }',
      "{ $ref: '#/components/schemas/Thing' }",
      `  /copies/{copyId}:
    parameters:
      - { name: copyId, in: path, required: true, schema: { type: string } }
    put:
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Thing' }
      responses:
        '200':
          description: replaced
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
        '201':
          description: created
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
    get:
      responses:
        '200':
          description: the copy
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
`,
    );
    const { model: found } = model(specPath);
    assert.deepEqual(
      found.resources.map(({ collectionPath, id }) => [collectionPath, id.kind, id.chosenBy]),
      [
        ['/things', 'string', 'client'],
        ['/copies', 'string', 'client'],
      ],
      'the copies: a collection whose item PUT declares 201',
    );
    const app = buildApp({ specPath, tokens: [TOKEN] });
    const client = new Client(app, specPath);
    await client.send(
      'put a copy not stored',
      'PUT',
      '/copies/a',
      { status: 201, json: { id: 'a', name: 'A' } },
      { body: { id: 'a', name: 'A' } },
    );
    await client.send(
      'put it again',
      'PUT',
      '/copies/a',
      { status: 200, json: { id: 'a', name: 'B' } },
      { body: { id: 'a', name: 'B' } },
    );
    await client.send('read it', 'GET', '/copies/a', { status: 200, json: { id: 'a', name: 'B' } });
    await client.send(
      "the body's id must be the path's",
      'PUT',
      '/copies/b',
      { status: 400, error: 40009 },
      { body: { id: 'a', name: 'A' } },
    );
    const crud = documentFixture('../operations/crud.yaml');
    const plain = buildApp({ specPath: crud, tokens: [TOKEN] });
    await new Client(plain, crud).send(
      'crud.yaml declares no 201 on its PUT',
      'PUT',
      '/plants/1',
      { status: 404, error: 40402 },
      { body: { name: 'x' } },
    );
  });
});
