// The feed of committed changes (server/changes.ts): every change of a
// stored plant is told once, after the store committed it (another
// connection to the database sees it then), before its answer; nothing is
// told for a request that changed nothing; a listener that throws changes
// no answer.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../server/app.js';
import type { PlantChange } from '../../server/changes.js';
import { openPostgresStore } from '../../server/store/postgres-store.js';
import type { PlantStore } from '../../server/store/store.js';
import { POSTGRES_MISSING } from '../support/postgres.js';
import { useStoreKinds } from './store-kinds.js';
import { AUTH, TOKEN } from './support.js';

const CRUD = fileURLToPath(new URL('../../../test/fixtures/operations/crud.yaml', import.meta.url));
const { kinds, databases } = useStoreKinds();
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };

for (const [kind, make, options] of kinds) {
  describe(`committed changes: ${kind}`, options, () => {
    test(
      'each change is told once, in order, with the plant as stored; refused and failed requests tell nothing',
      { timeout: 120_000 },
      async () => {
        const store = await make(10, 1_000_000);
        const app = buildApp({ specPath: CRUD, tokens: [TOKEN], store, stub: {} });
        const told: PlantChange[] = [];
        app.plantChanges.subscribe((change) => told.push(change));
        const send = (method: string, url: string, payload?: string, headers: Record<string, string> = JSON_AUTH) =>
          app
            .inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) })
            .then((res) => res.statusCode);
        const statuses = [
          await send('POST', '/plants', '{"id": 9223372036854775807, "name": "Fern"}'),
          await send('POST', '/plants', '{"id": 9223372036854775807, "name": "again"}'),
          await send('POST', '/plants', '{"id": 2, "name": "Ivy"}', { ...JSON_AUTH, prefer: 'code=503' }),
          await send('PUT', '/plants/9223372036854775807', '{"name": "Fern", "tag": "shade"}'),
          await send('PUT', '/plants/3', '{"name": "Palm"}'),
          await send('PATCH', '/plants/9223372036854775807', '{"tag": null}', {
            ...AUTH,
            'content-type': 'application/merge-patch+json',
          }),
          await send('PATCH', '/plants/9223372036854775807', '{"name": null}', {
            ...AUTH,
            'content-type': 'application/merge-patch+json',
          }),
          await send('GET', '/plants/9223372036854775807', undefined, AUTH),
          await send('DELETE', '/plants/9223372036854775807', undefined, AUTH),
          await send('DELETE', '/plants/9223372036854775807', undefined, AUTH),
        ];
        assert.deepEqual(statuses, [200, 400, 503, 200, 404, 200, 400, 200, 204, 404]);
        assert.deepEqual(told, [
          { event: 'created', resource: '', parent: '', id: '9223372036854775807', json: '{"name":"Fern"}' },
          {
            event: 'replaced',
            resource: '',
            parent: '',
            id: '9223372036854775807',
            json: '{"name":"Fern","tag":"shade"}',
          },
          { event: 'merged', resource: '', parent: '', id: '9223372036854775807', json: '{"name":"Fern"}' },
          { event: 'deleted', resource: '', parent: '', id: '9223372036854775807', json: '{"name":"Fern"}' },
        ]);
        await app.close();
      },
    );

    test(
      "a listener that throws changes no answer: the change is committed, and the failure is the log's",
      { timeout: 120_000 },
      async () => {
        const app = buildApp({ specPath: CRUD, tokens: [TOKEN], store: await make() });
        app.plantChanges.subscribe(() => {
          throw new Error('a receiver away');
        });
        const heard: string[] = [];
        app.plantChanges.subscribe((change) => heard.push(change.event));
        assert.equal(
          (
            await app.inject({
              method: 'POST',
              url: '/plants',
              headers: JSON_AUTH,
              payload: '{"id": 1, "name": "Fern"}',
            })
          ).statusCode,
          200,
        );
        assert.equal((await app.inject({ method: 'DELETE', url: '/plants/1', headers: AUTH })).statusCode, 204);
        assert.deepEqual(heard, ['created', 'deleted'], 'the listeners after it are told too');
        await app.close();
      },
    );
  });
}

test(
  'with PostgreSQL, a change is told once committed: another connection to the database sees it when it is told',
  { skip: POSTGRES_MISSING, timeout: 120_000 },
  async () => {
    const url = await databases.fresh();
    const served = await openPostgresStore({ url, maxPlants: 100, maxBytes: 1_000_000 });
    const other: PlantStore = await openPostgresStore({ url, maxPlants: 100, maxBytes: 1_000_000 });
    try {
      const app = buildApp({ specPath: CRUD, tokens: [TOKEN], store: served });
      const seen: Array<Promise<[PlantChange, string | undefined]>> = [];
      app.plantChanges.subscribe((change) =>
        seen.push(Promise.resolve(other.read(change.id)).then((stored) => [change, stored])),
      );
      // Each read is done before the next request: it sees the change it was told of, and no later one.
      await app.inject({ method: 'POST', url: '/plants', headers: JSON_AUTH, payload: '{"id": 1, "name": "Fern"}' });
      await Promise.all(seen);
      await app.inject({ method: 'PUT', url: '/plants/1', headers: JSON_AUTH, payload: '{"name": "Palm"}' });
      await Promise.all(seen);
      await app.inject({ method: 'DELETE', url: '/plants/1', headers: AUTH });
      const observed = await Promise.all(seen);
      assert.deepEqual(
        observed.map(([change, stored]) => [change.event, stored]),
        [
          ['created', '{"name":"Fern"}'],
          ['replaced', '{"name":"Palm"}'],
          ['deleted', undefined],
        ],
      );
      await app.close();
    } finally {
      await Promise.all([served.close(), other.close()]);
    }
  },
);
