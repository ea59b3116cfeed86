// The store's places (store.ts, Place): the items of several resources and
// of a nested resource's parents, on both stores, answered the same: each
// place apart from the others, the caps counting every item, a parent's
// items (and those below them) removed together, a resource's id sequence,
// a remove judged by a precondition, string ids kept exactly.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { plantBytes, PLANTS, type Place } from '../../server/store/store.js';
import { text, useStoreKinds } from './store-kinds.js';

const { kinds, databases, postgres } = useStoreKinds();
const ORDERS: Place = { resource: '/orders', parent: '' };
const garden = (key: string): Place => ({ resource: '/gardens/{}/plants', parent: key });

for (const [kind, make, options] of kinds) {
  describe(`the store's places: ${kind}`, options, () => {
    test(
      'one id in several places is several items, each read, listed, counted and removed in its own place',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        const places = [PLANTS, ORDERS, garden('/1'), garden('/2')];
        for (const [i, place] of places.entries())
          assert.equal(await store.items(place).create('7', text({ name: `n${i}` })), 'created', JSON.stringify(place));
        for (const [i, place] of places.entries()) {
          const items = store.items(place);
          assert.equal(await items.read('7'), text({ name: `n${i}` }));
          assert.equal(await items.create('7', text({ name: 'again' })), 'exists');
          assert.deepEqual((await items.list(0, 10, 1e9)).plants, [{ id: '7', json: text({ name: `n${i}` }) }]);
          assert.equal(await items.count(), 1);
        }
        assert.equal(
          await store.read('7'),
          text({ name: 'n0' }),
          "the store's own methods are the plant resource's top level",
        );
        assert.equal(await store.items(garden('/3')).read('7'), undefined, 'a parent with nothing');
        assert.deepEqual((await store.items(garden('/3')).list(0, 10, 1e9)).plants, []);
        assert.equal(await store.items(garden('/3')).count(), 0);
        const bytes = places.reduce((sum, place, i) => sum + plantBytes('7', text({ name: `n${i}` }), place.parent), 0);
        assert.deepEqual(
          await store.usage(),
          { plants: 4, bytes },
          "every item counted, a nested one's parent key with it",
        );
        assert.equal(await store.items(ORDERS).remove('7'), text({ name: 'n1' }));
        assert.equal(await store.read('7'), text({ name: 'n0' }), 'the plant stays');
        assert.equal((await store.usage()).plants, 3);
        assert.equal(await store.clear(), 3, 'clear empties every place');
        assert.equal(await store.items(garden('/1')).read('7'), undefined);
      },
    );

    test('the caps count the items of every place: past them any create is full', { timeout: 120_000 }, async () => {
      const store = await make(3, 1e9);
      assert.equal(await store.create('1', text({ name: 'a' })), 'created');
      assert.equal(await store.items(ORDERS).create('1', text({ name: 'b' })), 'created');
      assert.equal(await store.items(garden('/1')).create('1', text({ name: 'c' })), 'created');
      for (const place of [PLANTS, ORDERS, garden('/2')])
        assert.equal(await store.items(place).create('2', text({ name: 'd' })), 'full', JSON.stringify(place));
      assert.equal(
        await store.items(garden('/1')).createAll([{ id: '9', json: text({ name: 'e' }) }]),
        'full',
        'a list too',
      );
    });

    test(
      "removeUnder: a parent's items and those below it go, their bytes given back; a parent that only shares a prefix stays",
      { timeout: 120_000 },
      async () => {
        const store = await make();
        const pots: Place = { resource: '/gardens/{}/plants/{}/pots', parent: '/1/5' };
        await store.items(garden('/1')).create('5', text({ name: 'in 1' }));
        await store.items(garden('/1')).create('6', text({ name: 'in 1' }));
        await store.items(garden('/10')).create('5', text({ name: 'in 10' }));
        await store.items(pots).create('1', text({ name: 'pot' }));
        assert.equal(await store.removeUnder('/gardens/{}/plants', '/1'), 2);
        assert.equal(await store.removeUnder('/gardens/{}/plants/{}/pots', '/1'), 1, 'below: /1/5');
        assert.equal(await store.items(garden('/10')).read('5'), text({ name: 'in 10' }), '/10 is not under /1');
        assert.deepEqual(await store.usage(), { plants: 1, bytes: plantBytes('5', text({ name: 'in 10' }), '/10') });
        assert.equal(await store.items(garden('/1')).count(), 0);
        assert.equal(await store.items(garden('/1')).create('5', text({ name: 'again' })), 'created', 'the id is free');
      },
    );

    test(
      "nextNumbers: each resource's own sequence from 1, a number never given twice, a clear included",
      { timeout: 120_000 },
      async () => {
        const store = await make();
        assert.equal(await store.nextNumbers('', 1), 1);
        assert.equal(await store.nextNumbers('', 3), 2, 'three reserved: 2, 3, 4');
        assert.equal(await store.nextNumbers('', 1), 5);
        assert.equal(await store.nextNumbers('/orders', 1), 1, 'another resource counts on its own');
        await store.clear();
        assert.equal(await store.nextNumbers('', 1), 6);
      },
    );

    test(
      'a remove judged by a check: where it throws, nothing is removed and the error comes back as thrown',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        await store.items(ORDERS).create('1', text({ name: 'kept' }));
        const refusal = new Error('stale');
        await assert.rejects(
          (async () =>
            store.items(ORDERS).remove('1', () => {
              throw refusal;
            }))(),
          (error: unknown) => error === refusal,
        );
        assert.equal(await store.items(ORDERS).read('1'), text({ name: 'kept' }));
        assert.equal(await store.items(ORDERS).remove('1', () => {}), text({ name: 'kept' }));
        assert.equal((await store.usage()).plants, 0);
      },
    );

    test(
      'string ids are kept exactly: letter case, any character, a digit string with leading zeros',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        const ids = [
          '6F9619FF-8B86-D011-B42D-00C04FC964FF',
          '6f9619ff-8b86-d011-b42d-00c04fc964ff',
          'a/b c',
          'ünï 🌱',
          '007',
          '7',
        ];
        for (const [i, id] of ids.entries())
          assert.equal(await store.items(ORDERS).create(id, text({ n: i })), 'created', id);
        for (const [i, id] of ids.entries()) assert.equal(await store.items(ORDERS).read(id), text({ n: i }), id);
        assert.deepEqual(
          (await store.items(ORDERS).list(0, 10, 1e9)).plants.map(({ id }) => id),
          ids,
          'listed in the order stored, each as given',
        );
        assert.deepEqual(await store.usage(), {
          plants: ids.length,
          bytes: ids.reduce((sum, id, i) => sum + plantBytes(id, text({ n: i })), 0),
        });
      },
    );

    test(
      "a nested place's pages: after, skip, match and a limit, within the parent",
      { timeout: 120_000 },
      async () => {
        const store = await make();
        for (let i = 1; i <= 6; i++) {
          await store.items(garden('/1')).create(String(i), text({ name: `p${i}`, tag: i % 2 === 0 ? 'even' : 'odd' }));
          await store.items(garden('/2')).create(String(i), text({ name: `q${i}` }));
        }
        const items = store.items(garden('/1'));
        const first = await items.list(0, 2, 1e9);
        assert.deepEqual(
          first.plants.map(({ id }) => id),
          ['1', '2'],
        );
        const second = await items.list(first.next!, 2, 1e9, { skip: 1 });
        assert.deepEqual(
          second.plants.map(({ id }) => id),
          ['4', '5'],
        );
        const even = await items.list(0, 10, 1e9, { match: (json) => json.includes('"even"') });
        assert.deepEqual(
          even.plants.map(({ id }) => id),
          ['2', '4', '6'],
        );
        assert.equal(even.next, null);
      },
    );
  });
}

describe("a resource's sequence on one database shared by two stores", { skip: kinds[1]![2].skip }, () => {
  test('two replicas never give one number twice', { timeout: 120_000 }, async () => {
    const url = await databases.fresh();
    const [left, right] = [await postgres(100, 1e9, url), await postgres(100, 1e9, url)];
    const numbers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => (i % 2 === 0 ? left : right).nextNumbers('/orders', 1)),
    );
    assert.deepEqual(
      [...numbers].sort((a, b) => a - b),
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });
});
