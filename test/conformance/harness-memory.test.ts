// The harness's memory is bounded by what its verdicts need, not by what the
// target sends: a whole CLI run (every report written, --har too) against a
// target that answers 1 MiB that is not UTF-8 to every request stays under
// MAX_RSS, measured in the CLI's own process (bench/harness-memory.ts). When
// it kept every exchange's body for the aggregate checks, it peaked at 623
// MiB; against answers of 100 bytes a run peaks near 175 MiB (Node, the
// document, Spectral).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { measureHarnessMemory } from '../../bench/harness-memory.js';
import { HttpClient, MAX_BODY } from '../../conformance/run/http.js';

/** The cap: the fixed costs, and room for the answers in flight (at most 12 at once, 1 MiB each, read as bytes and then as text). */
export const MAX_RSS_MIB = 400;

describe('the harness against a target that answers 1 MiB to every request', { timeout: 300_000 }, () => {
  it(`peaks under ${MAX_RSS_MIB} MiB of resident memory for a whole run`, async () => {
    const m = await measureHarnessMemory();
    assert.ok(m.requests > 200, `the run sent the whole catalog (${m.requests} requests)`);
    assert.ok(m.exitCode === 1, `the run ended with its verdicts (exit ${m.exitCode})`);
    const mib = m.maxRssBytes / 1024 / 1024;
    assert.ok(mib < MAX_RSS_MIB, `peak RSS ${mib.toFixed(0)} MiB, over ${MAX_RSS_MIB} MiB`);
  });
});

describe(
  'a large body, decoded off the V8 heap, reads as Buffer.toString("utf8") reads it',
  { timeout: 60_000 },
  () => {
    it('a BOM, characters of 2, 3 and 4 bytes across every piece boundary, invalid and cut sequences', async () => {
      // A BOM, then text whose multi-byte characters fall across the 64 KiB pieces it is decoded in, at every offset, then bytes that are not UTF-8.
      const text = `\ufeff${'aé€🌱'.repeat(60_000)}`;
      const invalid = Buffer.from([
        0xff, 0xc3, 0x41, 0xe2, 0x82, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x8c, 0xc0, 0x80, 0xf4, 0x90, 0x80, 0x80,
      ]);
      const bodies = [
        Buffer.concat([Buffer.from(text), invalid]),
        Buffer.concat([Buffer.from(text).subarray(1), invalid, Buffer.from([0xf0, 0x9f])]),
        Buffer.alloc(MAX_BODY, 0xff),
        Buffer.alloc(MAX_BODY, 0x41),
      ];
      let next = 0;
      const server = createServer((request, response) => {
        request.resume();
        response.end(bodies[next++]);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const client = new HttpClient(30_000);
      try {
        for (const body of bodies) {
          assert.ok(body.length >= 512 * 1024 && body.length <= MAX_BODY);
          const ex = await client.send(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {
            method: 'GET',
            path: '/',
            headers: {},
          });
          assert.ok(ex.response, ex.error);
          assert.ok(ex.response.bodyText === body.toString('utf8'), `a body of ${body.length} bytes reads otherwise`);
        }
      } finally {
        await client.close();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  },
);
