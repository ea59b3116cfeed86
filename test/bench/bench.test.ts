// The benchmark's pure pieces and the floor server's behaviour. Nothing here
// measures or asserts a timing: the benchmark prints numbers, tests check logic.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createFloorServer } from '../../bench/floor.js';
import { parseCompareArgs } from '../../bench/compare.js';
import { countCases } from '../../bench/harness.js';
import { buildReport, renderReport, type Settings } from '../../bench/report.js';
import {
  formatTable,
  median,
  percentile,
  summarizeRounds,
  throughputRatios,
  type RoundResult,
} from '../../bench/stats.js';

function round(requestsPerSecond: number, p99Ms = 3, extra: Partial<RoundResult> = {}): RoundResult {
  return {
    requestsPerSecond,
    responses: requestsPerSecond,
    durationSeconds: 1,
    p50Ms: 1,
    p99Ms,
    errors: 0,
    non2xx: 0,
    statusCounts: { 200: requestsPerSecond },
    ...extra,
  };
}

describe('bench statistics', () => {
  it('takes the median of odd and even counts, NaN of none', () => {
    assert.equal(median([5, 1, 3]), 3);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.ok(Number.isNaN(median([])));
  });

  it('takes nearest-rank percentiles', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    assert.equal(percentile(sorted, 50), 50);
    assert.equal(percentile(sorted, 99), 99);
    assert.equal(percentile(sorted, 100), 100);
    assert.equal(percentile([7], 99), 7);
  });

  it('pairs rounds for ratios and sums errors and non-2xx', () => {
    const ratios = throughputRatios([round(800), round(900), round(1000)], [round(1000), round(1000), round(1000)]);
    assert.deepEqual(ratios.perRound, [0.8, 0.9, 1]);
    assert.equal(ratios.median, 0.9);
    assert.throws(() => throughputRatios([round(1)], []), /same number of rounds/);
    // A round in which a server answered nothing has no ratio; the median is over the others.
    const withDeadRound = throughputRatios([round(600), round(800)], [round(0), round(1000)]);
    assert.ok(Number.isNaN(withDeadRound.perRound[0]));
    assert.equal(withDeadRound.median, 0.8);
    const summary = summarizeRounds([round(10, 4, { errors: 1, non2xx: 2 }), round(30, 6, { non2xx: 3 })]);
    assert.equal(summary.median.requestsPerSecond, 20);
    assert.equal(summary.median.p99Ms, 5);
    assert.equal(summary.errors, 1);
    assert.equal(summary.non2xx, 5);
  });

  it('aligns table columns', () => {
    assert.equal(
      formatTable([
        ['a', 'bb'],
        ['ccc', '1'],
      ]),
      'a    bb\n---  --\nccc   1',
    );
  });

  it('counts checks and generated cases in a conformance report, null when unknowable', () => {
    const result = (id: string, outcome = 'pass') => ({ id, outcome });
    const report = {
      targets: [
        { results: [result('PS-ACC-001'), result('PS-GEN-001'), result('PS-GEN-002'), result('PS-AUTH-001', 'fail')] },
      ],
    };
    assert.deepEqual(countCases(report, 50), { checks: 4, cases: 100 });
    // A property check that failed may have stopped early: its cases are not counted as 50.
    const failed = { targets: [{ results: [result('PS-GEN-001'), result('PS-GEN-002', 'fail')] }] };
    assert.deepEqual(countCases(failed, 50), { checks: 2, cases: null });
    assert.deepEqual(countCases({ something: 'else' }, 50), { checks: null, cases: null });
    assert.deepEqual(countCases('not an object', 50), { checks: null, cases: null });
  });

  it('builds a report with ratios and judges the targets, n/a when a figure is missing', () => {
    const settings: Settings = {
      quick: true,
      rounds: 2,
      roundSeconds: 1,
      warmupSeconds: 0,
      connections: 50,
      startupRuns: 1,
      plantsForMemory: 1_000_000,
      deletesPerRound: 1_000,
    };
    const report = buildReport({
      settings,
      command: 'test',
      wallSeconds: 1,
      rounds: {
        create: {
          reference: [round(900, 4, { serverCpuUsPerRequest: 30 }), round(700, 4, { serverCpuUsPerRequest: 34 })],
          'reference-warn': [round(950), round(930)],
          'reference-postgres': [round(300), round(500)],
          'floor-postgres': [round(600), round(600)],
          floor: [round(1000, 3, { serverCpuUsPerRequest: 28 }), round(1000, 3, { serverCpuUsPerRequest: 28 })],
          prism: [round(50), round(50)],
        },
        read: {
          reference: [round(800, 4, { serverCpuUsPerRequest: 40 }), round(800, 4, { serverCpuUsPerRequest: 40 })],
          'reference-orders': [round(870), round(900)],
          floor: [round(1000, 3, { serverCpuUsPerRequest: 20 }), round(1000, 3, { serverCpuUsPerRequest: 20 })],
        },
      },
      startupMs: { reference: [300], floor: [100] },
      memory: { reference: { plantsStored: 1_000_000, afterPlantsBytes: 200 * 1024 * 1024 } },
      harness: { available: false, reason: 'harness: not available on this build' },
      machine: { cores: 2, cpuModel: 'test', node: 'v20', platform: 'linux', memoryBytes: 1 },
      now: new Date(0),
    });
    assert.deepEqual(report.ratios.create?.['reference/floor']?.perRound, [0.9, 0.7]);
    assert.equal(report.ratios.create?.['reference/prism']?.median, 16);
    // Each server against its own floor: the database store against the same SQL without the stages.
    assert.deepEqual(report.ratios.create?.['reference-postgres/floor-postgres']?.perRound, [0.5, 500 / 600]);
    assert.equal(report.ratios.create?.['reference-postgres/floor'], undefined);
    assert.equal(report.cpuRatios.read?.['reference/floor'], 2);
    assert.equal(report.ratios.read?.['reference-orders/floor']?.median, 0.885);
    const met = Object.fromEntries(report.targets.map((t) => [t.name, t.met]));
    assert.deepEqual(met, {
      'create: reference / floor (info)': false,
      'create: reference-warn / floor': true,
      'create: server CPU per request, reference / floor': true,
      'read: reference / floor (info)': false,
      'read: reference-warn / floor': null,
      'read: server CPU per request, reference / floor': false,
      'read: reference-orders / floor (info)': true,
      'read: server CPU per request, reference-orders / floor': null,
      'list: reference / floor (info)': null,
      'list: reference-warn / floor': null,
      'list: server CPU per request, reference / floor': null,
      'delete: reference / floor (info)': null,
      'delete: reference-warn / floor': null,
      'delete: server CPU per request, reference / floor': null,
      'create: reference / Prism': true,
      'create: reference-postgres / floor-postgres': true,
      'start-up vs floor': false,
      'RSS after 1,000,000 plants': true,
    });
    const text = renderReport(report);
    assert.match(text, /reference\/floor\s+0\.90\s+0\.70\s+0\.80\s+1\.14/);
    assert.match(text, /^read: /m);
    assert.match(text, /harness: not available on this build/);

    const partial = buildReport({
      ...{ settings, command: 't', wallSeconds: 1, startupMs: {}, memory: {} },
      rounds: {},
      harness: { available: false, reason: 'x' },
    });
    assert.ok(partial.targets.every((t) => t.met === null && t.measured === 'n/a'));
  });
});

describe('the floor server', () => {
  const server = createFloorServer({ tokens: ['secret'] });
  let url = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/plants`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (body: string, authorization = 'Bearer secret') =>
    fetch(url, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body });

  it('creates a plant once, then refuses the duplicate id', async () => {
    const created = await post('{"id":1,"name":"Monstera","tag":"tropical"}');
    assert.equal(created.status, 200);
    assert.deepEqual(await created.json(), { name: 'Monstera', tag: 'tropical' });
    const duplicate = await post('{"id":1,"name":"Fern"}');
    assert.equal(duplicate.status, 400);
    assert.equal(((await duplicate.json()) as { error: number }).error, 40004);
  });

  it('refuses a wrong token, malformed JSON and invalid fields', async () => {
    const unauthorized = await post('{"id":2,"name":"Fern"}', 'Bearer other');
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.headers.get('www-authenticate'), 'Bearer realm="plantstore"');
    await unauthorized.body?.cancel();
    for (const [body, error] of [
      ['{"id":', 40001],
      ['{"id":2.5,"name":"Fern"}', 40003],
      ['{"id":3,"name":42}', 40003],
      ['[1]', 40003],
    ] as const) {
      const response = await post(body);
      assert.equal(response.status, 400, body);
      assert.equal(((await response.json()) as { error: number }).error, error, body);
    }
  });
});

describe('the floor server: read, list and delete', () => {
  const server = createFloorServer({ tokens: ['secret'] });
  let base = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const call = (method: string, path: string, body?: string, authorization = 'Bearer secret') =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
  const errorOf = async (response: Response) => ((await response.json()) as { error: number }).error;

  it('reads a plant as its create answered it, lists pages oldest first up to the limit, deletes once', async () => {
    for (const id of [3, 1, 2])
      assert.equal((await call('POST', '/plants', `{"id":${id},"name":"P${id}"}`)).status, 200);
    const read = await call('GET', '/plants/1');
    assert.equal(read.status, 200);
    assert.deepEqual(await read.json(), { name: 'P1' });
    assert.deepEqual(await (await call('GET', '/plants?limit=2')).json(), [{ name: 'P3' }, { name: 'P1' }]);
    assert.deepEqual(await (await call('GET', '/plants')).json(), [{ name: 'P3' }, { name: 'P1' }, { name: 'P2' }]);
    assert.deepEqual(await (await call('GET', '/plants?limit=0')).json(), []);
    const deleted = await call('DELETE', '/plants/3');
    assert.equal(deleted.status, 204);
    assert.equal(await deleted.text(), '');
    const again = await call('DELETE', '/plants/3');
    assert.equal(again.status, 404);
    assert.equal(await errorOf(again), 40402);
    assert.equal((await call('GET', '/plants/3')).status, 404);
    assert.deepEqual(await (await call('GET', '/plants?limit=100')).json(), [{ name: 'P1' }, { name: 'P2' }]);
  });

  it('keeps the reference bounds: an int64 path id, an int32 limit; refuses a wrong token and a wrong method', async () => {
    for (const path of [
      '/plants/9223372036854775808',
      '/plants/abc',
      '/plants/1.5',
      '/plants?limit=2147483648',
      '/plants?limit=x',
    ])
      assert.equal(await errorOf(await call('GET', path)), 40007, path);
    assert.equal((await call('GET', '/plants/9223372036854775807')).status, 404);
    assert.equal((await call('GET', '/plants/-9223372036854775808')).status, 404);
    assert.equal((await call('GET', '/plants?limit=2147483647')).status, 200);
    const unauthorized = await call('DELETE', '/plants/1', undefined, 'Bearer other');
    assert.equal(unauthorized.status, 401);
    await unauthorized.body?.cancel();
    const notAllowed = await call('PUT', '/plants/1', '{}');
    assert.equal(notAllowed.status, 405);
    await notAllowed.body?.cancel();
    const deeper = await call('GET', '/plants/1/leaves');
    assert.equal(deeper.status, 404);
    await deeper.body?.cancel();
  });
});

describe('bench/compare.ts arguments', () => {
  it('reads servers as NAME=FILE with their environment, and the two anchors by name', () => {
    const settings = parseCompareArgs([
      '--rounds',
      '3',
      'after=dist/server/start.bundle.mjs',
      'after-warn=dist/server/start.bundle.mjs:LOG_LEVEL=warn,PLANTSTORE_ADMIN=off',
      'floor',
    ]);
    assert.equal(settings.rounds, 3);
    assert.deepEqual(
      settings.servers.map((kind) => kind.name),
      ['after', 'after-warn', 'floor'],
    );
    assert.deepEqual(settings.servers[1]!.command(0), {
      file: process.execPath,
      args: ['dist/server/start.bundle.mjs'],
    });
    assert.equal(settings.servers[1]!.env.LOG_LEVEL, 'warn');
    assert.equal(settings.servers[1]!.env.PLANTSTORE_ADMIN, 'off');
    assert.equal(settings.servers[0]!.env.LOG_LEVEL, undefined);
  });

  it('--request read or list with --spec: each build of the server serves that document, the floor its own; fastify-bare, which creates only, is refused', () => {
    const settings = parseCompareArgs([
      '--request',
      'read',
      '--spec',
      'test/fixtures/operations/crud.yaml',
      'a=x.js',
      'b=y.js:PLANTSTORE_SPEC=own.yaml',
    ]);
    assert.equal(settings.request, 'read');
    assert.match(settings.servers[0]!.env.PLANTSTORE_SPEC!, /test\/fixtures\/operations\/crud\.yaml$/);
    assert.equal(settings.servers[1]!.env.PLANTSTORE_SPEC, 'own.yaml', 'a server given its own keeps it');
    assert.equal(parseCompareArgs(['floor']).request, 'create');
    const floorList = parseCompareArgs(['--request', 'list', '--spec', 'x.yaml', 'floor']);
    assert.equal(floorList.servers[0]!.env.PLANTSTORE_SPEC, undefined, 'the floor serves no document');
    assert.throws(() => parseCompareArgs(['--request', 'list', 'fastify-bare']), /fastify-bare creates only/);
    assert.throws(() => parseCompareArgs(['--request', 'delete', 'a=x.js']), /--request takes create, read or list/);
  });

  it('refuses what it cannot read, naming it', () => {
    assert.throws(() => parseCompareArgs([]), /at least one server/);
    assert.throws(() => parseCompareArgs(['dist/server/start.bundle.mjs']), /is not NAME=FILE/);
    assert.throws(() => parseCompareArgs(['a=x.js:LOG_LEVEL']), /"LOG_LEVEL" .* is not KEY=VALUE/);
    assert.throws(() => parseCompareArgs(['a=x.js', 'a=y.js']), /a name of its own/);
    assert.throws(() => parseCompareArgs(['--rounds', '0', 'floor']), /--rounds takes a whole number/);
  });
});
