// What the harness reads of each document of test/fixtures/documents/ (its
// resources, how an item is named, parents and references, how a list
// pages, what a parameter's value is for), compared with what each
// document's opening comment says, written here by hand.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { loadSpecModel, type SpecModel } from '../../conformance/model/spec-model.js';
import { idempotencyKeyOf, parameterRole } from '../../conformance/model/parameter-roles.js';
import { halNext } from '../../conformance/checks/resource-calls.js';
import { fixturePath } from '../support/fixtures.js';

const load = (name: string): SpecModel => loadSpecModel(fixturePath(`documents/${name}.yaml`));
const resource = (m: SpecModel, collection: string) => {
  const r = m.resources.find((x) => x.collection === collection);
  assert.ok(r, `${collection} is a resource`);
  return r;
};

describe('the resources of a document', () => {
  it("server-id: the server assigns the id: no request member, the answer's readOnly id, a declared Location", () => {
    const m = load('server-id');
    const r = resource(m, '/plants');
    assert.equal(r.item, '/plants/{plantId}');
    assert.equal(r.identity.request, undefined);
    assert.deepEqual(r.identity.answer, { member: 'id', by: 'readOnly' });
    assert.equal(r.identity.location, true);
    assert.equal(r.identity.kind.type, 'integer');
    assert.equal(m.create?.path, '/plants', 'the create checks exercise it all the same');
    assert.deepEqual(r.operations.map((o) => `${o.role} ${o.op.method}`).sort(), [
      'delete DELETE',
      'list GET',
      'read GET',
    ]);
  });

  it('uuid-id: the client chooses a string id of format uuid', () => {
    const r = resource(load('uuid-id'), '/plants');
    assert.equal(r.identity.request, 'id');
    assert.deepEqual(r.identity.kind, { type: 'string', format: 'uuid' });
  });

  it('pattern-id: the client chooses a string id of a pattern, named like the path parameter', () => {
    const r = resource(load('pattern-id'), '/plants');
    assert.equal(r.identity.request, 'code');
    assert.equal(r.identity.kind.pattern, '^PL-[0-9]{6}$');
  });

  it('server-id-links: the id is found only through the links, which name the read and the delete', () => {
    const r = resource(load('server-id-links'), '/plants');
    assert.equal(r.identity.request, undefined);
    assert.equal(r.identity.answer, undefined, 'number is neither readOnly nor named like an id');
    assert.deepEqual(r.read?.id, { parameter: 'ref', link: { from: 'response', pointer: '/number' } });
    assert.equal(r.read?.by, 'links');
    assert.equal(r.delete?.by, 'links');
  });

  it('nested: plants live in gardens; the gardens are created first, the create checks exercise the gardens', () => {
    const m = load('nested');
    const plants = resource(m, '/gardens/{gardenId}/plants');
    assert.deepEqual(plants.parents, [{ parameter: 'gardenId', collection: '/gardens' }]);
    assert.equal(plants.item, '/gardens/{gardenId}/plants/{plantId}');
    assert.equal(plants.identity.request, 'id');
    assert.deepEqual(resource(m, '/gardens').parents, []);
    assert.equal(m.create?.path, '/gardens', 'the first create that needs nothing first');
  });

  it('orders: an order names a plant in plantId (by its name and its schema)', () => {
    const m = load('orders');
    assert.deepEqual(resource(m, '/orders').references, [{ member: 'plantId', collection: '/plants', by: 'name' }]);
    assert.deepEqual(resource(m, '/plants').references, []);
    assert.equal(m.create?.path, '/plants');
  });

  it("conditional: If-Match and If-None-Match are the protocol's; the ETag header is declared required", () => {
    const m = load('conditional');
    const r = resource(m, '/plants');
    assert.equal(parameterRole(r.replace!.op.parameters.find((p) => p.name === 'If-Match')!)?.role, 'if-match');
    assert.equal(parameterRole(r.read!.op.parameters.find((p) => p.name === 'If-None-Match')!)?.role, 'if-none-match');
    assert.deepEqual(
      r.read!.op.responses.get('200')!.headers.map((h) => [h.name, h.required]),
      [['ETag', true]],
    );
  });

  it('idempotency: the create declares an idempotency key by its name', () => {
    const m = load('idempotency');
    const key = idempotencyKeyOf(m.create!)!;
    assert.equal(key.name, 'Idempotency-Key');
    assert.deepEqual(parameterRole(key), { role: 'idempotency-key', by: 'name' });
  });

  it('filter-sort: tag filters by any of an array, sort orders by name ascending or descending', () => {
    const list = resource(load('filter-sort'), '/plants').list!;
    assert.deepEqual(
      list.filters.map((f) => [f.parameter.name, f.property, f.many]),
      [['tag', 'tag', true]],
    );
    assert.deepEqual(
      list.sorts.map((s) => [s.parameter.name, s.orders.map((o) => [o.value, o.property, o.descending])]),
      [
        [
          'sort',
          [
            ['name', 'name', false],
            ['-name', 'name', true],
          ],
        ],
      ],
    );
  });

  it('cursor-envelope: the items in data, the cursor at /page/next_cursor, asked with starting_after', () => {
    const list = resource(load('cursor-envelope'), '/plants').list!;
    assert.deepEqual(list.shape, { kind: 'page', items: 'data', next: '/page/next_cursor' });
    assert.equal(list.cursor?.name, 'starting_after');
    assert.equal(list.limit?.parameter.name, 'page_size');
  });

  it('link-pages: a bare array with numbered pages and a declared Link header', () => {
    const list = resource(load('link-pages'), '/plants').list!;
    assert.deepEqual(list.shape, { kind: 'array' });
    assert.equal(list.page?.parameter.name, 'page');
    assert.equal(list.page?.first, 1);
    assert.equal(list.limit?.parameter.name, 'per_page');
    assert.equal(list.linkHeader, true);
  });

  it('offset-pages: an envelope of items by offset, bounded by count', () => {
    const list = resource(load('offset-pages'), '/plants').list!;
    assert.deepEqual(list.shape, { kind: 'page', items: 'items' });
    assert.equal(list.offset?.name, 'offset');
    assert.equal(list.limit?.parameter.name, 'count');
  });

  it('hal-pages: the items in _embedded, the next page by _links.next.href, bounded by size', () => {
    const list = resource(load('hal-pages'), '/plants').list!;
    assert.deepEqual(list.shape, { kind: 'page', items: 'plants', within: '_embedded', hal: true });
    assert.equal(list.limit?.parameter.name, 'size');
    assert.equal(list.cursor, undefined);
    assert.equal(list.page?.parameter.name, 'page', 'read, and passed over: the next link comes first');
  });

  it("a HAL page's next link: the first of an array, none where absent, a templated one not followed", () => {
    assert.deepEqual(halNext({ _links: { next: { href: 'plants?start=2' } } }), { href: 'plants?start=2' });
    assert.deepEqual(halNext({ _links: { next: [{ href: '/p?2' }, { href: '/p?3' }] } }), { href: '/p?2' });
    assert.match(halNext({ _links: { self: { href: '/p' } } }).last ?? '', /names no next/);
    assert.match(halNext({ _links: { next: { href: '/p{?page}', templated: true } } }).last ?? '', /URI Template/);
    assert.match(halNext({ _links: { next: { title: 'no href' } } }).last ?? '', /has no href/);
  });

  it('link-relations: a deepObject parameter no name makes a limit of, and a required Link header', () => {
    const m = load('link-relations');
    const list = resource(m, '/plants').list!;
    assert.equal(list.limit, undefined);
    assert.equal(list.linkHeader, true);
    assert.equal(list.op.parameters[0]?.style, 'deepObject');
  });
});
