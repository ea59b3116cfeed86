// What a client's code does against the stub, exchange by exchange, with
// the starter document and with the one that adds read, replace and merge
// (test/fixtures/operations/), on both stores: create, list, list with a
// limit, read, replace, merge, delete, then read and list after the delete;
// and each without credentials. Every answer is the one the document
// declares (exchanges.ts judges each against it).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../server/app.js';
import { documentJudge, runExchanges, withoutCredentials, type Exchange } from './exchanges.js';
import { useStoreKinds } from './store-kinds.js';
import { TOKEN } from './support.js';

const { kinds } = useStoreKinds();
const fixture = (name: string) => fileURLToPath(new URL(`../../../test/fixtures/operations/${name}`, import.meta.url));
const JSON_BODY = 'application/json';
const MERGE_PATCH = 'application/merge-patch+json';

// An id beyond 2^53, whose neighbour a double would confuse it with.
const BIG = '9007199254740993';
const creates: Exchange[] = [
  {
    label: 'create a plant with a tag',
    method: 'POST',
    url: '/plants',
    contentType: JSON_BODY,
    body: `{"id": ${BIG}, "name": "Monstera", "tag": "tropical"}`,
    status: 200,
    json: { name: 'Monstera', tag: 'tropical' },
  },
  {
    label: 'create a plant without',
    method: 'POST',
    url: '/plants',
    contentType: JSON_BODY,
    body: '{"id": 2, "name": "Fern"}',
    status: 200,
    json: { name: 'Fern' },
  },
  {
    label: 'create a third',
    method: 'POST',
    url: '/plants',
    contentType: JSON_BODY,
    body: '{"id": 3, "name": "Ivy", "tag": "climber"}',
    status: 200,
    json: { name: 'Ivy', tag: 'climber' },
  },
];
const monstera = { name: 'Monstera', tag: 'tropical' };
const ivy = { name: 'Ivy', tag: 'climber' };
const lists: Exchange[] = [
  { label: 'list, oldest first', method: 'GET', url: '/plants', status: 200, json: [monstera, { name: 'Fern' }, ivy] },
  {
    label: 'list with a limit',
    method: 'GET',
    url: '/plants?limit=2',
    status: 200,
    json: [monstera, { name: 'Fern' }],
  },
  { label: 'a limit that is not an integer', method: 'GET', url: '/plants?limit=two', status: 400, error: 40007 },
];
const deletes: Exchange[] = [
  { label: 'delete a plant', method: 'DELETE', url: '/plants/2', status: 204, empty: true },
  { label: 'list after the delete', method: 'GET', url: '/plants', status: 200, json: [monstera, ivy] },
  { label: 'list with a limit after the delete', method: 'GET', url: '/plants?limit=1', status: 200, json: [monstera] },
  { label: 'delete it again', method: 'DELETE', url: '/plants/2', status: 404, error: 40402 },
  { label: 'delete an id that is not an integer', method: 'DELETE', url: '/plants/two', status: 400, error: 40007 },
];

/** The starter declares list, create and delete: a read of one plant is not an operation of it. */
const STARTER: Exchange[] = [
  ...creates,
  ...lists,
  {
    label: 'read one plant, which the starter does not declare',
    method: 'GET',
    url: `/plants/${BIG}`,
    status: 405,
    error: 40501,
    headers: { allow: 'DELETE' },
  },
  ...deletes,
];

/** crud.yaml adds read, replace and merge (RFC 7396), and a declared 404 on the read. */
const CRUD: Exchange[] = [
  ...creates,
  ...lists,
  {
    label: 'list with a limit and an offset',
    method: 'GET',
    url: '/plants?limit=2&offset=2',
    status: 200,
    json: [ivy],
  },
  { label: 'read a plant by an id beyond 2^53', method: 'GET', url: `/plants/${BIG}`, status: 200, json: monstera },
  {
    label: 'read its neighbour, not stored',
    method: 'GET',
    url: '/plants/9007199254740992',
    status: 404,
    error: 40402,
  },
  {
    label: 'replace a plant',
    method: 'PUT',
    url: '/plants/2',
    contentType: JSON_BODY,
    body: '{"name": "Fern", "tag": "shade"}',
    status: 200,
    json: { name: 'Fern', tag: 'shade' },
  },
  {
    label: 'read the replaced plant',
    method: 'GET',
    url: '/plants/2',
    status: 200,
    json: { name: 'Fern', tag: 'shade' },
  },
  {
    label: 'replace with another id in the body',
    method: 'PUT',
    url: '/plants/2',
    contentType: JSON_BODY,
    body: '{"id": 5, "name": "Fern"}',
    status: 400,
    error: 40009,
  },
  {
    label: 'replace a plant not stored',
    method: 'PUT',
    url: '/plants/4',
    contentType: JSON_BODY,
    body: '{"name": "Palm"}',
    status: 404,
    error: 40402,
  },
  {
    label: 'merge a patch: a name, a tag removed',
    method: 'PATCH',
    url: '/plants/2',
    contentType: MERGE_PATCH,
    body: '{"name": "Boston fern", "tag": null}',
    status: 200,
    json: { name: 'Boston fern' },
  },
  { label: 'read the merged plant', method: 'GET', url: '/plants/2', status: 200, json: { name: 'Boston fern' } },
  {
    label: 'merge a patch its schema refuses',
    method: 'PATCH',
    url: '/plants/2',
    contentType: MERGE_PATCH,
    body: '{"name": null}',
    status: 400,
    error: 40008,
  },
  {
    label: 'the list holds the plant as merged, in its place',
    method: 'GET',
    url: '/plants',
    status: 200,
    json: [monstera, { name: 'Boston fern' }, ivy],
  },
  ...deletes,
  { label: 'read after the delete', method: 'GET', url: '/plants/2', status: 404, error: 40402 },
  {
    label: 'replace after the delete',
    method: 'PUT',
    url: '/plants/2',
    contentType: JSON_BODY,
    body: '{"name": "Fern"}',
    status: 404,
    error: 40402,
  },
  {
    label: 'merge after the delete',
    method: 'PATCH',
    url: '/plants/2',
    contentType: MERGE_PATCH,
    body: '{"tag": "x"}',
    status: 404,
    error: 40402,
  },
];

/** Every exchange of `sequence` (that is not an error of the request itself) again without credentials. */
const anonymous = (sequence: readonly Exchange[]) =>
  sequence.filter((exchange) => exchange.status < 400 || exchange.error === 40402).map(withoutCredentials);

let counted = 0;
for (const [kind, make, options] of kinds) {
  describe(`the exchanges of a client: ${kind}`, options, () => {
    for (const [name, file, sequence] of [
      ['the starter', 'starter.yaml', STARTER],
      ['read, replace and merge', 'crud.yaml', CRUD],
    ] as const) {
      test(`${name} (${file}): every exchange answered as the document says`, { timeout: 120_000 }, async () => {
        const app = buildApp({ specPath: fixture(file), tokens: [TOKEN], store: await make() });
        try {
          counted += await runExchanges(app, sequence, documentJudge(fixture(file)));
        } finally {
          await app.close();
        }
      });

      test(
        `${name} (${file}): without credentials, each is 401 and changes nothing`,
        { timeout: 120_000 },
        async () => {
          const app = buildApp({ specPath: fixture(file), tokens: [TOKEN], store: await make() });
          try {
            const judge = documentJudge(fixture(file));
            counted += await runExchanges(app, creates.slice(0, 1), judge);
            counted += await runExchanges(app, anonymous(sequence), judge);
            counted += await runExchanges(
              app,
              [{ label: 'the store as before', method: 'GET', url: '/plants', status: 200, json: [monstera] }],
              judge,
            );
          } finally {
            await app.close();
          }
        },
      );
    }

    test(
      'public operations (open-operation.yaml, security: []): the list and the read need no credentials, the create and the delete do',
      { timeout: 120_000 },
      async () => {
        const file = fixture('open-operation.yaml');
        const app = buildApp({ specPath: file, tokens: [TOKEN], store: await make() });
        try {
          counted += await runExchanges(
            app,
            [
              withoutCredentials(creates[0]!),
              creates[0]!,
              {
                label: 'list, without credentials',
                method: 'GET',
                url: '/plants',
                credentials: false,
                status: 200,
                json: [monstera],
              },
              {
                label: 'list with a limit, without credentials',
                method: 'GET',
                url: '/plants?limit=0',
                credentials: false,
                status: 200,
                json: [],
              },
              {
                label: 'read, without credentials',
                method: 'GET',
                url: `/plants/${BIG}`,
                credentials: false,
                status: 200,
                json: monstera,
              },
              {
                label: 'read an id not stored: the declared 404',
                method: 'GET',
                url: '/plants/1',
                credentials: false,
                status: 404,
                error: 40402,
              },
              withoutCredentials({ label: 'delete', method: 'DELETE', url: `/plants/${BIG}`, status: 204 }),
              { label: 'delete', method: 'DELETE', url: `/plants/${BIG}`, status: 204, empty: true },
              {
                label: 'read after the delete, without credentials',
                method: 'GET',
                url: `/plants/${BIG}`,
                credentials: false,
                status: 404,
                error: 40402,
              },
            ],
            documentJudge(file),
          );
        } finally {
          await app.close();
        }
      },
    );
  });
}

test('the exchanges were made', { timeout: 1000 }, (t) => {
  // Each describe above ran before this test (node:test runs a file's tests in order).
  t.diagnostic(`${counted} exchanges, ${STARTER.length} and ${CRUD.length} a sequence with credentials`);
  assert.ok(counted >= 50, `${counted} exchanges`);
});
