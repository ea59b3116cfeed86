// `--seed N` replays a run (issue 30 item 3): every value a check draws, the
// plant ids included, comes from the seed and the id offset, so two runs
// with one seed against fresh targets send the same requests, whatever order
// the checks happen to start in; another --id-offset sends other ids.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Exchange } from '../../conformance/checks/exchange.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { runTarget } from '../../conformance/run/runner.js';
import { startFake } from '../support/fake-server.js';

const TOKEN = 'seed-replay-token';
const model = loadSpecModel();

/** Every request of a whole run against a fresh fake server, as text (method, path, headers, body), sorted: checks run at once finish in any order. */
async function requestsOf(seed: number, idOffset?: bigint): Promise<string[]> {
  const fake = await startFake({ tokens: [TOKEN] });
  const sent: string[] = [];
  const text = (ex: Exchange) => {
    const body =
      ex.request.body === undefined
        ? ''
        : typeof ex.request.body === 'string'
          ? ex.request.body
          : ex.request.body.toString('base64');
    const chunks = ex.request.chunks?.map((c) => c.toString('base64')).join(',') ?? '';
    return `${ex.request.method} ${ex.request.path} ${JSON.stringify(ex.request.headers)} ${body}${chunks}`;
  };
  try {
    await runTarget(
      {
        model,
        targets: [],
        seed,
        ...(idOffset !== undefined ? { idOffset } : {}),
        cases: 3,
        timeoutMs: 10_000,
        onWire: (_, ex) => void sent.push(text(ex)),
      },
      { name: 'fake', url: fake.url, token: TOKEN, role: 'target', informs: false, restrictsTokens: true },
    );
  } finally {
    await fake.close();
  }
  return sent.sort();
}

describe('two runs with one seed', { timeout: 600_000 }, () => {
  it('send the same requests, ids included; another id offset sends other ids', async () => {
    const first = await requestsOf(7);
    const second = await requestsOf(7);
    assert.ok(first.length > 200, `${first.length} requests`);
    assert.deepEqual(second, first);
    const shifted = await requestsOf(7, 1n);
    const same = new Set(first);
    const changed = shifted.filter((r) => !same.has(r));
    assert.ok(
      changed.length > first.length / 2,
      `${changed.length} of ${shifted.length} requests changed with another id offset`,
    );
  });
});
