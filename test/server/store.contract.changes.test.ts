// The PlantStore contract for what changes a stored plant, on both stores
// (store-kinds.ts): read, update, remove, and the list's offset and filter.
// Both answer the same to the same calls; the caps hold through every change.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { plantBytes, type PlantStore } from '../../server/store/store.js';
import { POSTGRES_MISSING } from '../support/postgres.js';
import { entry, text, useStoreKinds } from './store-kinds.js';

const { kinds, postgres, databases } = useStoreKinds();

/** Every plant of the store, page by page: ids and texts in the order listed. */
async function everyPlant(store: PlantStore, pageSize = 7): Promise<Array<{ id: string; json: string }>> {
  const all: Array<{ id: string; json: string }> = [];
  for (let after = 0; ;) {
    const page = await store.list(after, pageSize, 1e9);
    all.push(...page.plants);
    if (page.next === null) return all;
    after = page.next;
  }
}

for (const [kind, make, options] of kinds) {
  describe(`the PlantStore contract, changes: ${kind}`, options, () => {
    test(
      'read answers the JSON text as stored, exact at both int64 ends; undefined for an id not stored',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        const json = '{"name":"Fern","size":12.50,"stock":9223372036854775807}';
        assert.equal(await store.create('-9223372036854775808', json), 'created');
        assert.equal(await store.read('-9223372036854775808'), json);
        assert.equal(await store.read('9223372036854775807'), undefined);
        assert.equal(await store.read('1'), undefined);
      },
    );

    test(
      'update replaces the text with what the change makes of the old one, keeps the plant in its place, and counts its bytes anew',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        for (const id of ['3', '1', '2']) assert.equal(await store.create(id, text({ name: `p${id}` })), 'created');
        const seen: string[] = [];
        const result = await store.update('1', (old) => {
          seen.push(old);
          return text({ name: 'a longer name than before', tag: 't' });
        });
        assert.deepEqual(result, { updated: text({ name: 'a longer name than before', tag: 't' }) });
        assert.deepEqual(seen, [text({ name: 'p1' })], 'the change is given the stored text, once');
        assert.deepEqual(
          (await everyPlant(store)).map(({ id }) => id),
          ['3', '1', '2'],
          'the order stored is kept',
        );
        assert.equal(await store.read('1'), text({ name: 'a longer name than before', tag: 't' }));
        assert.deepEqual(await store.usage(), {
          plants: 3,
          bytes:
            plantBytes('3', text({ name: 'p3' })) +
            plantBytes('1', text({ name: 'a longer name than before', tag: 't' })) +
            plantBytes('2', text({ name: 'p2' })),
        });
        assert.equal(await store.update('9', () => assert.fail('no change is asked of a plant not stored')), 'missing');
      },
    );

    test(
      'an update that grows a plant past the byte budget is full and changes nothing; one that shrinks it always fits',
      { timeout: 120_000 },
      async () => {
        const fern = plantBytes('1', text({ name: 'Fern' }));
        const store = await make(100, 2 * fern);
        assert.equal(await store.create('1', text({ name: 'Fern' })), 'created');
        assert.equal(await store.create('2', text({ name: 'Fern' })), 'created');
        assert.equal(await store.update('1', () => text({ name: 'Ferns' })), 'full', 'one byte more than the budget');
        assert.equal(await store.read('1'), text({ name: 'Fern' }));
        assert.deepEqual(await store.usage(), { plants: 2, bytes: 2 * fern });
        assert.deepEqual(await store.update('1', () => text({ name: 'Fen' })), { updated: text({ name: 'Fen' }) });
        assert.deepEqual(await store.usage(), { plants: 2, bytes: 2 * fern - 1 });
        assert.deepEqual(
          await store.update('2', () => text({ name: 'Ferns' })),
          { updated: text({ name: 'Ferns' }) },
          'the byte the other gave back',
        );
        assert.deepEqual(await store.usage(), { plants: 2, bytes: 2 * fern });
      },
    );

    test(
      'a change that throws changes nothing, and its error comes back as it was thrown',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        assert.equal(await store.create('5', text({ name: 'Ivy' })), 'created');
        const refusal = new RangeError('not a plant');
        await assert.rejects(
          async () =>
            store.update('5', () => {
              throw refusal;
            }),
          (error) => error === refusal,
        );
        assert.equal(await store.read('5'), text({ name: 'Ivy' }));
        assert.deepEqual(await store.usage(), { plants: 1, bytes: plantBytes('5', text({ name: 'Ivy' })) });
      },
    );

    test(
      'remove answers the text and gives back the plant and its bytes: the id is free, listed no more, and a second remove finds nothing',
      { timeout: 120_000 },
      async () => {
        const store = await make(2);
        assert.equal(await store.create('9223372036854775807', text({ name: 'max' })), 'created');
        assert.equal(await store.create('7', text({ name: 'seven' })), 'created');
        assert.equal(await store.create('8', text({ name: 'eight' })), 'full');
        assert.equal(await store.remove('9223372036854775807'), text({ name: 'max' }));
        assert.equal(await store.read('9223372036854775807'), undefined);
        assert.equal(await store.remove('9223372036854775807'), undefined);
        assert.deepEqual(await store.usage(), { plants: 1, bytes: plantBytes('7', text({ name: 'seven' })) });
        assert.deepEqual(await everyPlant(store), [entry('7', { name: 'seven' })]);
        assert.equal(
          await store.create('8', text({ name: 'eight' })),
          'created',
          'the count cap counts the plants left',
        );
        assert.equal(await store.create('9223372036854775807', text({ name: 'again' })), 'full');
        assert.equal(await store.remove('7'), text({ name: 'seven' }));
        assert.equal(
          await store.create('7', text({ name: 'seven again' })),
          'created',
          'a removed id can be created again',
        );
        assert.deepEqual(
          (await everyPlant(store)).map(({ id }) => id),
          ['8', '7'],
          'at the end of the order, as a new plant',
        );
        assert.equal(await store.update('9223372036854775807', () => '{}'), 'missing');
      },
    );

    test(
      'list skips an offset, filters with match, and bounds the plants a filtered page judges: a page ends there, with its next',
      { timeout: 120_000 },
      async () => {
        const store = await make();
        const plants = Array.from({ length: 20 }, (_, i) =>
          entry(String(i + 1), { name: `p${i + 1}`, tag: i % 3 === 0 ? 'fern' : 'palm' }),
        );
        assert.equal(await store.createAll(plants), 'created');
        const ids = (page: { plants: Array<{ id: string }> }) => page.plants.map(({ id }) => id);
        assert.deepEqual(ids(await store.list(0, 3, 1e9, { skip: 5 })), ['6', '7', '8']);
        assert.deepEqual(
          await store.list(0, 3, 1e9, { skip: 25 }),
          { plants: [], next: null },
          'an offset past the end',
        );
        const ferns = (json: string) => json.includes('"fern"');
        const judged: string[] = [];
        const counting = (json: string) => {
          judged.push(json);
          return ferns(json);
        };
        const first = await store.list(0, 3, 1e9, { match: counting });
        assert.deepEqual(ids(first), ['1', '4', '7']);
        assert.equal(
          judged.length,
          10,
          'a page of 3 judges the plants up to a fourth match: it knows then that a page follows',
        );
        assert.equal(first.next, 9, 'which starts after the last plant judged before that match');
        const rest = await store.list(first.next, 10, 1e9, { match: ferns });
        assert.deepEqual(
          rest,
          { plants: [10, 13, 16, 19].map((n) => plants[n - 1]!), next: null },
          'no match follows: the last page',
        );
        assert.deepEqual(ids(await store.list(0, 2, 1e9, { match: ferns, skip: 2 })), ['7', '10']);
        const bounded = await store.list(0, 10, 1e9, { match: ferns, maxExamined: 5 });
        assert.deepEqual(ids(bounded), ['1', '4'], 'the five plants judged hold two matches');
        assert.equal(bounded.next, 5, 'the next page starts after the fifth plant');
        const none = await store.list(0, 10, 1e9, { match: () => false, maxExamined: 4 });
        assert.deepEqual(none, { plants: [], next: 4 }, 'an empty page that is not the last');
        assert.deepEqual(
          await store.list(16, 10, 1e9, { match: () => false, maxExamined: 4 }),
          { plants: [], next: null },
          'the last four judged: nothing follows',
        );
      },
    );

    test(
      'thousands of updates and removes in any order: every read, the list and the usage stay exact (the memory store compacts as it goes)',
      { timeout: 300_000 },
      async () => {
        const store = await make();
        const count = 4000;
        const expected = new Map<string, string>();
        const list = Array.from({ length: count }, (_, i) =>
          entry(String(i * 7919 - 9_000_000_000_000_000), { name: `plant ${i}` }),
        );
        assert.equal(await store.createAll(list), 'created');
        for (const { id, json } of list) expected.set(id, json);
        // A fixed pseudo-random order: removes, updates that grow, shrink, and change the encoding.
        let seed = 7;
        const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
        const order = list.map(({ id }) => id).sort(() => (next() % 3) - 1);
        for (const [i, id] of order.entries()) {
          if (i % 4 === 0) {
            const json = text({ name: `${'ж'.repeat(i % 50)}${'x'.repeat(i % 300)}` });
            assert.deepEqual(await store.update(id, () => json), { updated: json });
            expected.set(id, json);
          } else if (i % 4 !== 3) {
            assert.equal(await store.remove(id), expected.get(id));
            expected.delete(id);
          }
        }
        const listed = await everyPlant(store, 500);
        assert.deepEqual(
          listed,
          list.filter(({ id }) => expected.has(id)).map(({ id }) => ({ id, json: expected.get(id)! })),
          'the plants left, in the order stored, each as last written',
        );
        for (const id of order.slice(0, 200)) assert.equal(await store.read(id), expected.get(id));
        let bytes = 0;
        for (const [id, json] of expected) bytes += plantBytes(id, json);
        assert.deepEqual(await store.usage(), { plants: expected.size, bytes });
      },
    );
  });
}

test(
  'two replicas on one database: concurrent updates of one plant are applied one after the other, none lost; of two concurrent removes one finds the plant',
  { skip: POSTGRES_MISSING, timeout: 120_000 },
  async () => {
    const url = await databases.fresh();
    const [left, right] = [await postgres(100, 1e9, url), await postgres(100, 1e9, url)];
    assert.equal(await left.create('1', '{"name":"Fern"}'), 'created');
    // Each update adds a member to the plant as committed: a lost update would lose a member.
    const added = (name: string) => (json: string) => `${json.slice(0, -1)},${JSON.stringify(name)}:true}`;
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => (i % 2 === 0 ? left : right).update('1', added(`m${i}`))),
    );
    assert.ok(results.every((result) => typeof result === 'object'));
    const members = Object.keys(JSON.parse((await left.read('1'))!) as object);
    assert.deepEqual(members.sort(), ['name', ...Array.from({ length: 20 }, (_, i) => `m${i}`)].sort());
    assert.equal(
      (await right.usage()).bytes,
      plantBytes('1', (await right.read('1'))!),
      'the usage row counts the last text',
    );
    const removed = await Promise.all([left.remove('1'), right.remove('1')]);
    assert.equal(removed.filter((json) => json !== undefined).length, 1);
    assert.deepEqual(await left.usage(), { plants: 0, bytes: 0 });
  },
);
