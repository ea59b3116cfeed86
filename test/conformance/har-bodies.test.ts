// The HAR's bodies are capped (conformance/report/har.ts): each request and
// answer body keeps its first HAR_BODY_BYTES bytes, with a comment that
// says it was cut and its whole size in content.size / bodySize (issue 35,
// low 6: a target answering 1 MiB to each request made a HAR of 754 MiB). The
// cut comes after redaction, so a token at the cut is never left in pieces.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cutBody, HAR_BODY_BYTES, HarWriter, type HarEntry } from '../../conformance/report/har.js';
import type { Target } from '../../conformance/model/target.js';
import type { Exchange } from '../../conformance/checks/exchange.js';

const TOKEN = 'har-bodies-secret-token-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'plantstore-har-bodies-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const target: Target = {
  name: 'target',
  url: 'http://127.0.0.1:1',
  token: TOKEN,
  role: 'target',
  informs: false,
  restrictsTokens: true,
};

function exchange(requestBody: string, answer: string): Exchange {
  return {
    request: {
      method: 'POST',
      path: '/plants',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: requestBody,
    },
    url: 'http://127.0.0.1:1/plants',
    response: { status: 400, headers: { 'content-type': 'application/json' }, bodyText: answer },
  };
}

function entries(file: string): HarEntry[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
}

describe("the HAR keeps each body's first 64 KiB, and says so", { timeout: 60_000 }, () => {
  it('a 1 MiB answer and a 1 MiB request body are cut to HAR_BODY_BYTES with a comment; their sizes stay whole; a small body stays whole, with no comment', () => {
    const file = join(dir, 'cut.har');
    const har = new HarWriter(file);
    const big = 'x'.repeat(1024 * 1024);
    har.add(target, exchange(`{"name":"${big}"}`, big), { startedAt: Date.now(), ms: 1 });
    har.add(target, exchange('{"name":"fern"}', '{"error":40001,"message":"no"}'), { startedAt: Date.now(), ms: 1 });
    har.close();
    const [cut, whole] = entries(file);
    assert.equal(cut!.response.content.text!.length, HAR_BODY_BYTES);
    assert.equal(cut!.response.content.size, big.length);
    assert.equal(cut!.response.bodySize, big.length);
    assert.equal(
      cut!.response.content.comment,
      `body cut: the HAR keeps its first ${HAR_BODY_BYTES} of ${big.length} bytes (UTF-8)`,
    );
    assert.equal(cut!.request.postData!.text.length, HAR_BODY_BYTES);
    assert.equal(cut!.request.bodySize, big.length + 11);
    assert.match(cut!.request.postData!.comment!, /body cut/);
    assert.equal(whole!.response.content.text, '{"error":40001,"message":"no"}');
    assert.equal(whole!.response.content.comment, undefined);
    assert.equal(whole!.request.postData!.comment, undefined);
  });

  it('a token echoed across the cut is redacted before it: no 8 of its characters in the HAR', () => {
    const file = join(dir, 'token.har');
    const har = new HarWriter(file);
    for (let offset = 1; offset < TOKEN.length; offset += 3) {
      const answer = `${'y'.repeat(HAR_BODY_BYTES - offset)}${TOKEN}${'y'.repeat(1000)}`;
      har.add(target, exchange('{}', answer), { startedAt: Date.now(), ms: 1 });
    }
    har.close();
    const text = readFileSync(file, 'utf8');
    for (let i = 0; i + 8 <= TOKEN.length; i++) assert.ok(!text.includes(TOKEN.slice(i, i + 8)), TOKEN.slice(i, i + 8));
    assert.ok(entries(file).every((e) => e.response.content.comment?.startsWith('body cut')));
  });

  it('a cut keeps whole characters (of 2, 3 and 4 bytes, never half a surrogate pair) within the cap', () => {
    for (const character of ['é', '€', '🌱', '\ufffd']) {
      for (let lead = 0; lead < 4; lead++) {
        const text = `${'a'.repeat(lead)}${character.repeat(HAR_BODY_BYTES)}`;
        const cut = cutBody(text)!;
        const bytes = Buffer.byteLength(cut.text, 'utf8');
        assert.ok(bytes <= HAR_BODY_BYTES && bytes > HAR_BODY_BYTES - 4, `${character} after ${lead}: ${bytes}`);
        assert.ok(
          text.startsWith(cut.text) && !/[\ud800-\udbff]$/.test(cut.text),
          `${character} after ${lead}: whole characters`,
        );
        assert.equal(
          cut.comment,
          `body cut: the HAR keeps its first ${bytes} of ${Buffer.byteLength(text, 'utf8')} bytes (UTF-8)`,
        );
      }
    }
    assert.equal(cutBody('a'.repeat(HAR_BODY_BYTES)), undefined, 'a body of exactly HAR_BODY_BYTES is whole');
  });
});
