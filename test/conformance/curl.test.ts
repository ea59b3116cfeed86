// The curl line of a report reproduces the request: run through sh, it makes
// a capture server receive the same method, path, headers and body bytes,
// with the token taken from $PLANTSTORE_TOKEN (and never printed).
import { strict as assert } from 'node:assert';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type IncomingMessage } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { toCurl } from '../../conformance/run/curl.js';
import type { RequestSpec } from '../../conformance/checks/exchange.js';

const runFile = promisify(execFile);

let hasCurl = true;
try {
  execFileSync('curl', ['--version'], { stdio: 'ignore' });
} catch {
  hasCurl = false;
}

interface Captured {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

// b64token syntax (RFC 6750 §2.1), with the characters a shell might mind.
const TOKEN = 'se.cret-to_ken~/x+y==';
const cases: Array<[string, RequestSpec]> = [
  [
    'a JSON body with quotes and a token',
    {
      method: 'POST',
      path: '/plants',
      headers: { authorization: `Bearer abc.DEF-123`, 'content-type': 'application/json' },
      body: `{"name":"it's \\"quoted\\" $HOME \`x\`","id":1}`,
    },
  ],
  [
    'odd bytes through printf',
    {
      method: 'POST',
      path: '/plants',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from([0x7b, 0x00, 0x0a, 0xff, 0x25, 0x5c, 0x27, 0x7d]),
    },
  ],
  [
    'a body starting with @',
    { method: 'POST', path: '/plants', headers: { 'content-type': 'text/plain' }, body: '@/etc/passwd' },
  ],
  ['a body without content type', { method: 'POST', path: '/plants', headers: {}, body: '{}' }],
  ['an empty body', { method: 'POST', path: '/plants', headers: { 'content-type': 'application/json' }, body: '' }],
  [
    'another method without body',
    { method: 'DELETE', path: '/plants', headers: { authorization: 'Basic dXNlcjpwYXNzd29yZA==' } },
  ],
  [
    'non-ASCII text',
    { method: 'POST', path: '/plants', headers: { 'content-type': 'application/json' }, body: '{"name":"琴叶榕 🌿"}' },
  ],
];

/** Runs a curl line through sh against a capture server; resolves with what the server received. */
async function capture(line: (base: string) => string): Promise<Captured> {
  const got: Captured[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await runFile('sh', ['-c', `${line(base)} -o /dev/null`], {
      env: { ...process.env, PLANTSTORE_TOKEN: TOKEN },
      timeout: 20_000,
    });
    assert.equal(got.length, 1);
    return got[0]!;
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
}

describe('curl reproduction', { skip: hasCurl ? false : 'curl is not installed' }, () => {
  for (const [label, spec] of cases) {
    it(`reproduces ${label}`, async () => {
      // The real token goes into the request the harness sent; the line must not carry it.
      const request = { ...spec, headers: { ...spec.headers } };
      if (label.includes('token')) request.headers.authorization = `Bearer ${TOKEN}`;
      let line = '';
      const c = await capture((base) => (line = toCurl({ request, url: base + spec.path }, TOKEN)));
      assert.ok(!line.includes(TOKEN), line);
      assert.equal(c.method, spec.method);
      assert.equal(c.url, spec.path);
      for (const [name, value] of Object.entries(request.headers)) assert.equal(c.headers[name], value, name);
      if (!('content-type' in request.headers)) assert.equal(c.headers['content-type'], undefined);
      const sent =
        spec.body === undefined ? Buffer.alloc(0) : typeof spec.body === 'string' ? Buffer.from(spec.body) : spec.body;
      assert.ok(c.body.equals(sent), `body ${JSON.stringify(c.body.toString('latin1'))}`);
    });
  }
});

describe(
  'curl reproduction of derived credentials and transfer codings',
  { skip: hasCurl ? false : 'curl is not installed' },
  () => {
    const swapped = TOKEN.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
    const nearMisses: Array<[string, string, string]> = [
      ['a character added', `Bearer ${TOKEN}x`, '"Bearer ${PLANTSTORE_TOKEN}x"'],
      ['the last character removed', `Bearer ${TOKEN.slice(0, -1)}`, '"Bearer ${PLANTSTORE_TOKEN%?}"'],
      ['the letter case swapped', `Bearer ${swapped}`, '"Bearer $(printf %s "$PLANTSTORE_TOKEN" | tr a-zA-Z A-Za-z)"'],
    ];
    for (const [label, value, shell] of nearMisses) {
      it(`sends a near miss of the token (${label}) without printing the token`, async () => {
        const request: RequestSpec = {
          method: 'POST',
          path: '/plants',
          headers: { authorization: value },
          authorizationShell: shell,
        };
        let line = '';
        const got = await capture((base) => (line = toCurl({ request, url: `${base}/plants` }, TOKEN)));
        assert.ok(!line.includes(TOKEN.slice(0, -1)) && !line.includes(swapped), line);
        assert.equal(got.headers.authorization, value);
      });
    }

    it('sends a chunked body as chunked', async () => {
      const request: RequestSpec = {
        method: 'POST',
        path: '/plants',
        headers: { 'content-type': 'application/json' },
        body: '{"a":"é"}',
        chunks: [Buffer.from('{"a":"'), Buffer.from('é"}')],
      };
      const got = await capture((base) => toCurl({ request, url: `${base}/plants` }, TOKEN));
      assert.equal(got.headers['transfer-encoding'], 'chunked');
      assert.equal(got.body.toString('utf8'), '{"a":"é"}');
    });
  },
);

/** What a raw TCP server received: each request's head and the sizes of its body's chunks (RFC 9112 §7.1), as framed on the wire. */
interface RawRequest {
  head: string;
  chunkSizes: number[];
  body: Buffer;
}

/** Runs a command through sh against a server that records chunk boundaries; resolves with each request it received. */
async function captureRaw(line: (base: string) => string, expected: number): Promise<RawRequest[]> {
  const got: RawRequest[] = [];
  const server = createTcpServer((socket) => {
    let data = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = data.subarray(0, end).toString('latin1');
      let at = end + 4;
      const sizes: number[] = [];
      const body: Buffer[] = [];
      for (;;) {
        const lineEnd = data.indexOf('\r\n', at);
        if (lineEnd === -1) return; // wait for more
        const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
        if (data.length < lineEnd + 2 + size + 2) return;
        if (size === 0) break;
        sizes.push(size);
        body.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      got.push({ head, chunkSizes: sizes, body: Buffer.concat(body) });
      socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await runFile('sh', ['-c', line(base)], { env: { ...process.env, PLANTSTORE_TOKEN: TOKEN }, timeout: 20_000 });
    assert.equal(got.length, expected);
    return got;
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
}

describe('reproductions curl cannot make', { timeout: 60_000 }, () => {
  it('a body in several chunks, cut inside a UTF-8 character: a node -e line sends the same chunk boundaries, the token from $PLANTSTORE_TOKEN', async () => {
    const pieces = [Buffer.from('{"id":1,"name":"'), Buffer.from([0xc3]), Buffer.from([0xa9, 0x22, 0x7d])];
    const request: RequestSpec = {
      method: 'POST',
      path: '/plants',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: Buffer.concat(pieces),
      chunks: pieces,
    };
    let line = '';
    const [got] = await captureRaw((base) => (line = toCurl({ request, url: `${base}/plants` }, TOKEN)), 1);
    assert.match(line, /^node -e /);
    assert.ok(!line.includes(TOKEN), line);
    assert.deepEqual(
      got!.chunkSizes,
      pieces.map((p) => p.length),
      'one chunk per piece, as the harness sent them',
    );
    assert.ok(got!.body.equals(Buffer.concat(pieces)));
    assert.match(got!.head, /^POST \/plants HTTP\/1\.1\r\n/);
    assert.match(got!.head, new RegExp(`\r\nauthorization: Bearer ${TOKEN.replace(/[.+/~]/g, '\\$&')}\r\n`, 'i'));
    assert.match(got!.head, /\r\ntransfer-encoding: chunked$/im);
  });

  it(
    'a request sent at once with identical others: the line sends as many at once',
    { skip: hasCurl ? false : 'curl is not installed' },
    async () => {
      const request: RequestSpec = {
        method: 'POST',
        path: '/plants',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        body: '{"id":7,"name":"at once"}',
      };
      const line = (base: string) => toCurl({ request, url: `${base}/plants` }, TOKEN, { sentAtOnceWith: 3 });
      assert.match(line('http://x'), /^for i in \$\(seq 3\); do curl .* & done; wait$/);
      const got = await captureRaw((base) => `${line(base).replace(/ & done/, ' -o /dev/null & done')}`, 3);
      for (const r of got) assert.equal(r.body.toString('utf8'), '{"id":7,"name":"at once"}');
    },
  );
});
